#!/usr/bin/env bash
# Real-window smoke test: start Xvfb and the real binary, wait for the window "Feature Lab",
# take a screenshot with xwd + ImageMagick and check it is not blank; then click Run with
# xdotool, wait for the analysis of the built-in sample, and screenshot the features view
# ($SMOKE_OUT/features.png). Ends only the processes it started, by PID.
set -euo pipefail
bin=${1:-bin/featurelab}
out=${SMOKE_OUT:-$(mktemp -d)}
mkdir -p "$out"

xvfb_pid=""; app_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT

. "$(dirname "$0")/xvfb.sh"
start_xvfb "$out/xvfb.log" || { echo "smoke: Xvfb did not start" >&2; exit 1; }

export DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1
export FYNE_SCALE=1 FEATURELAB_LOG=debug
# A fresh user, but with 1000 restarts per K, so the run under the click is a long one
# (SMOKE_PREFS replaces these preferences, to measure other settings).
mkdir -p "$out/home/.config/fyne/io.github.featurelab"
default_prefs='{"param.stepwise.restarts": "1000"}'
echo "${SMOKE_PREFS:-$default_prefs}" > "$out/home/.config/fyne/io.github.featurelab/preferences.json"
launched=$(date +%s.%N)
# SMOKE_ARGS: what the window opens on (a folder; none: the built-in sample).
# shellcheck disable=SC2086
HOME="$out/home" "$bin" ${SMOKE_ARGS:-} >"$out/app.log" 2>&1 &
app_pid=$!

wid=""
for _ in $(seq 1 300); do
  wid=$(xdotool search --name "^Feature Lab$" 2>/dev/null | head -n 1 || true)
  [ -n "$wid" ] && break
  kill -0 "$app_pid" 2>/dev/null || { echo "smoke: the application exited early" >&2; cat "$out/app.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$wid" ] || { echo "smoke: no window named 'Feature Lab' appeared" >&2; cat "$out/app.log" >&2; exit 1; }
found=$(date +%s.%N)
echo "smoke: window found $(awk -v a="$launched" -v b="$found" 'BEGIN { printf "%.2f", b - a }') s after launch"

# The whole screen, or with SMOKE_WINDOW_ONLY=1 the window alone (the guide's pictures).
grab="-root"
[ "${SMOKE_WINDOW_ONLY:-}" = 1 ] && grab="-id $wid"
# shoot PNG: the screen (or the window) into PNG, through xwd; a window being mapped or
# resized refuses xwd for a moment (BadMatch), so it tries again for up to 2 s.
shoot() {
  local try
  for try in $(seq 1 20); do
    # shellcheck disable=SC2086
    if xwd -silent $grab -display "$display" > "${1%.png}.xwd" 2>/dev/null; then
      /usr/bin/convert "xwd:${1%.png}.xwd" "$1"
      return 0
    fi
    sleep 0.1
  done
  echo "smoke: xwd could not take $1" >&2
  return 1
}
# Wait until the thumbnails are drawn: the screenshot has many colours once the sample shows.
shot="$out/window.png"
colours=0
for _ in $(seq 1 100); do
  shoot "$shot"
  colours=$(/usr/bin/convert "$shot" -format '%k' info:)
  [ "$colours" -gt 2000 ] && break
  sleep 0.2
done
sd=$(/usr/bin/convert "$shot" -colorspace Gray -format '%[fx:standard_deviation]' info:)
echo "smoke: window $wid, screenshot $shot, $colours colours, grey sd $sd;" \
  "the application says: $(grep -m1 'window shown' "$out/app.log" || echo '(no log line)')"
# Photos give thousands of colours within a second or two, which the loop above waits
# for; a folder of flat pictures (a card deck: 1 600) never does, and is still drawn. A
# window that failed to draw has a handful of colours and no contrast.
awk -v c="$colours" -v s="$sd" 'BEGIN { exit !(c > 256 && s > 0.02) }' || {
  echo "smoke: the screenshot looks blank ($colours colours, sd $sd)" >&2; exit 1; }

# A real click on Run, where the window says the button is (FEATURELAB_LOG=debug). The
# thumbnails show while the PCA still runs; the positions are logged once the data set
# is in.
xy=""
for _ in $(seq 1 300); do
  xy=$(grep -m1 'msg=control name=run ' "$out/app.log" | sed -E 's/.* x=([0-9]+) y=([0-9]+).*/\1 \2/' || true)
  [ -n "$xy" ] && break
  kill -0 "$app_pid" 2>/dev/null || break
  sleep 0.1
done
grep -m1 'msg=status text="Loaded' "$out/app.log" || true
[ -n "$xy" ] || { echo "smoke: the window did not log where Run is" >&2; cat "$out/app.log" >&2; exit 1; }
read -r x y <<<"$xy"
# The data set is in: its view as the user sees it before Run ($SMOKE_OUT/loaded.png).
sleep 0.5
shoot "$out/loaded.png"
xdotool mousemove --window "$wid" "$x" "$y" click 1
done_line=""
for _ in $(seq 1 600); do
  done_line=$(grep -m1 'msg=status text=".*: K = ' "$out/app.log" || true)
  [ -n "$done_line" ] && break
  grep -q 'msg=status text="[^"]* failed' "$out/app.log" && break
  sleep 0.1
done
[ -n "$done_line" ] || { echo "smoke: clicking Run at $x,$y gave no result" >&2; cat "$out/app.log" >&2; exit 1; }
echo "smoke: clicked Run at $x,$y: $done_line"
# The status line comes first; poll the screen until the features view is drawn.
features="$out/features.png"
fcolours=0; changed=0
for _ in $(seq 1 50); do
  shoot "$features"
  fcolours=$(/usr/bin/convert "$features" -format '%k' info:)
  changed=$(/usr/bin/compare -metric AE "$shot" "$features" null: 2>&1 || true)
  changed=${changed%% *}
  awk -v c="$fcolours" -v d="$changed" 'BEGIN { exit !(c > 256 && d > 10000) }' && break
  sleep 0.2
done
# Then until the picture holds still (the status line and the tab are redrawn after the
# result's line is logged): two shots alike, for at most 5 s.
for _ in $(seq 1 25); do
  sleep 0.2
  shoot "$out/settled.png"
  same=$(/usr/bin/compare -metric AE "$features" "$out/settled.png" null: 2>&1 || true)
  cp "$out/settled.png" "$features"
  [ "${same%% *}" = 0 ] && break
done
grep 'msg="ui latency"' "$out/app.log" | grep -v 'during="showing the result"' | tail -n 1 | sed 's/^/smoke: while it ran, /' || true
echo "smoke: features view $features, $fcolours colours, $changed pixels differ from the data set view"
# The view has changed from the data set's, and is not blank (a grey folder of faces
# draws 1 800 colours: the bar is the blank check's).
awk -v c="$fcolours" -v d="$changed" 'BEGIN { exit !(c > 256 && d > 10000) }' || {
  echo "smoke: the features view did not appear after Run" >&2; exit 1; }
echo "smoke: ok"
