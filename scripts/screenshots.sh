#!/usr/bin/env bash
# The guide's pictures, from the real window under Xvfb (scripts/window-smoke.sh drives
# it): the built-in sample as it opens and after Run with the defaults, and the real
# tabletop after Run when ../shared/data is beside the checkout. They go to docs/img/,
# with docs/img/SOURCES: the digest of the window code they show (views/*.go), which
# TestGuidePicturesAreCurrent checks.
#   bash scripts/screenshots.sh [BIN=bin/featurelab]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-bin/featurelab}
img=docs/img
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$img"

shoot() { # shoot NAME [FOLDER]: NAME-dataset.png and NAME-features.png
  SMOKE_PREFS='{}' SMOKE_WINDOW_ONLY=1 SMOKE_ARGS="${2:-}" SMOKE_OUT="$work/$1" \
    bash scripts/window-smoke.sh "$bin" >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; exit 1; }
  cp "$work/$1/loaded.png" "$img/$1-dataset.png"
  cp "$work/$1/features.png" "$img/$1-features.png"
  echo "screenshots: $img/$1-dataset.png, $img/$1-features.png"
}
shoot sample
if [ -d ../shared/data/tabletop ]; then
  shoot tabletop "$(cd ../shared/data/tabletop && pwd)"
else
  echo "screenshots: ../shared/data/tabletop is absent: its pictures are kept as they are"
fi
go run ./scripts/screenshots >"$img/SOURCES"
echo "screenshots: $img/SOURCES: $(cat "$img/SOURCES")"
