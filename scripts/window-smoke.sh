#!/usr/bin/env bash
# Real-window smoke test: start Xvfb and the real binary, wait for the window "Feature Lab",
# take a screenshot with xwd + ImageMagick and check it is not blank. Ends only the
# processes it started, by PID.
set -euo pipefail
bin=${1:-bin/featurelab}
out=${SMOKE_OUT:-$(mktemp -d)}
mkdir -p "$out"

display=""
for n in $(seq 91 140); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "smoke: no free X display number" >&2; exit 1; }

xvfb_pid=""; app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT

Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 100); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
xdpyinfo -display "$display" >/dev/null 2>&1 || { echo "smoke: Xvfb did not start" >&2; cat "$out/xvfb.log" >&2; exit 1; }

export DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1
export FYNE_SCALE=1
HOME="$out/home" "$bin" >"$out/app.log" 2>&1 &
app_pid=$!

wid=""
for _ in $(seq 1 300); do
  wid=$(xdotool search --name "^Feature Lab$" 2>/dev/null | head -n 1 || true)
  [ -n "$wid" ] && break
  kill -0 "$app_pid" 2>/dev/null || { echo "smoke: the application exited early" >&2; cat "$out/app.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$wid" ] || { echo "smoke: no window named 'Feature Lab' appeared" >&2; cat "$out/app.log" >&2; exit 1; }

# Wait until the thumbnails are drawn: the screenshot has many colours once the sample shows.
shot="$out/window.png"
colours=0
for _ in $(seq 1 100); do
  xwd -silent -root -display "$display" > "$out/window.xwd"
  /usr/bin/convert "xwd:$out/window.xwd" "$shot"
  colours=$(/usr/bin/convert "$shot" -format '%k' info:)
  [ "$colours" -gt 2000 ] && break
  sleep 0.2
done
sd=$(/usr/bin/convert "$shot" -colorspace Gray -format '%[fx:standard_deviation]' info:)
echo "smoke: window $wid, screenshot $shot, $colours colours, grey sd $sd"
awk -v c="$colours" -v s="$sd" 'BEGIN { exit !(c > 2000 && s > 0.02) }' || {
  echo "smoke: the screenshot looks blank ($colours colours, sd $sd)" >&2; exit 1; }
echo "smoke: ok"
