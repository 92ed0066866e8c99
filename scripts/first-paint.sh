#!/usr/bin/env bash
# How soon the window shows the built-in sample: N launches of the real binary under Xvfb
# (Mesa llvmpipe), each as a new user, timed from the pixels on screen by
# scripts/firstpaint: when the Run button and when the first thumbnail are drawn.
#   bash scripts/first-paint.sh [bin/featurelab] [N=5]
set -euo pipefail
bin=${1:-bin/featurelab}
n=${2:-5}
work=$(mktemp -d)
xvfb_pid=""
trap '[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null; rm -rf "$work"' EXIT

(cd "$(dirname "$0")/.." && go build -o "$work/firstpaint" ./scripts/firstpaint)
. "$(dirname "$0")/xvfb.sh"
start_xvfb "$work/xvfb.log"
export DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1 FYNE_SCALE=1
for i in $(seq 1 "$n"); do
  rm -rf "$work/home"; mkdir -p "$work/home"
  HOME="$work/home" "$work/firstpaint" "$bin"
done
