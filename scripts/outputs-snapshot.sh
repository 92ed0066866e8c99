#!/usr/bin/env bash
# Writes every command's outputs for a fixed set of inputs into OUT, so that two builds can
# be compared file by file (diff -r) after a change that must not alter any answer:
#   bash scripts/outputs-snapshot.sh bin/old /tmp/before
#   bash scripts/outputs-snapshot.sh bin/featurelab /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
# Covers analyze with every algorithm on the built-in samples and the real tabletop (when
# ../shared/data is present), the clustering learners' other representations and
# divergences, segment with each method, segment-eval and cosegment. The JSON summaries
# are kept without their timings and memory figures, which change from run to run.
set -euo pipefail
bin=$(realpath "$1")
out=$2
data=${DATA:-$(dirname "$0")/../../shared/data}
mkdir -p "$out"
out=$(realpath "$out")
# A fixed work folder: the JSON names the folder it read.
work=/tmp/featurelab-snapshot-work
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# json strips what differs between two runs of one build: seconds, peak memory, times.
json() { jq -S 'walk(if type == "object" then del(.seconds, .peak_memory_bytes, .times, .peak_memory) else . end)'; }

run() { # name, then the command's arguments
  local name=$1
  shift
  "$bin" "$@" --out "$out/$name" --json 2>/dev/null | json >"$out/$name.json" || echo "$name: exit $?" >>"$out/failures.txt"
}

algos="stepwise kfeatures bpmeans collapsed ibp kmeans dpmeans collapsed-dpmeans hardhdp"
for sample in tabletop dice tetris cards faces; do
  for a in $algos; do
    run "analyze-$sample-$a" analyze --sample "$sample" --algo "$a" --workers 2
  done
done
run analyze-tetris-ibp-raw analyze --sample tetris --algo ibp --pca 0 --workers 2
run analyze-tabletop-kfeatures-asfound analyze --sample tabletop --algo kfeatures --as-found --workers 2
run analyze-cards-kmeans-histogram analyze --sample cards --algo kmeans --features histogram --workers 2
run analyze-cards-dpmeans-words-kl analyze --sample cards --algo dpmeans --features words --divergence kl --workers 2
run analyze-faces-dpmeans-idiv analyze --sample faces --algo dpmeans --features histogram --divergence idiv --workers 2
run analyze-dice-gray-size analyze --sample dice --gray --size 16x16 --workers 2

if [ -d "$data/tabletop" ]; then
  for a in $algos; do
    run "analyze-real-tabletop-$a" analyze "$data/tabletop" --algo "$a" --workers 2
  done
  for m in kpyp kmeans dpmeans; do
    run "segment-$m" segment "$data/tabletop/Picture_1.jpg" --method "$m" --workers 2
  done
  run segment-kpyp-learn segment "$data/tabletop/Picture_7.jpg" --learn-widths --learn-locations --distance euclidean --discount 0 --texture=false --workers 2
fi
if [ -d "$data/bsds500-train" ]; then
  mkdir -p "$work/bsds"
  for id in 100075 100080 100098; do cp "$data/bsds500-train/images/$id.jpg" "$work/bsds/"; done
  "$bin" segment-eval --workers 2 --json "$work/bsds" "$data/bsds500-train/groundTruth" 2>/dev/null | json >"$out/segment-eval.json" || echo "segment-eval: exit $?" >>"$out/failures.txt"
  mkdir -p "$work/coseg"
  for id in 100075 100080 100098 105019; do cp "$data/bsds500-train/images/$id.jpg" "$work/coseg/" 2>/dev/null || true; done
  run cosegment cosegment "$work/coseg" --workers 2
  run cosegment-kl cosegment "$work/coseg" --divergence kl --k 4 --workers 2
fi
# The result.json files written beside the pictures carry the timings too.
find "$out" -name '*.json' -path '*/*/*' -print0 | while IFS= read -r -d '' f; do
  json <"$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
echo "wrote $(find "$out" -type f | wc -l) files to $out"
