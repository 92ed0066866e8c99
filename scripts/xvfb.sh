# Sourced by the scripts that drive the real window: start_xvfb LOG starts Xvfb on a free
# display number and sets $display and $xvfb_pid; the caller's EXIT trap ends it.
start_xvfb() {
  local n
  display=""
  for n in $(seq 91 140); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
  done
  [ -n "$display" ] || { echo "no free X display number" >&2; return 1; }
  # -noreset: by default the server resets when its last client leaves, here the
  # xdpyinfo below, and a client that connects during the reset can be refused. The
  # smoke test failed once in a way that fits: xdpyinfo answered, then the application's
  # GLFW "failed to detect any supported platform" on the same display.
  Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp -noreset >"$1" 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 1 100); do xdpyinfo -display "$display" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "Xvfb did not start" >&2; cat "$1" >&2; return 1
}
