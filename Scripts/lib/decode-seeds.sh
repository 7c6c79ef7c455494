#!/usr/bin/env bash
# Writes Corpus/decode-fuzz-seeds/: one seed per DiffLab input file kind, each the selector byte of
# its decoder (DecoderFuzzing.Decoder: 0 batch update, 1 list pair, 2 sectioned model,
# 3 regression case, 4 results file, 5 thresholds, 6 policy costs, 7 updaters findings) followed by a
# real file of that kind.
#   bash Scripts/lib/decode-seeds.sh [RESULTS.json...]   (results files: named results-<basename>)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=Corpus/decode-fuzz-seeds
mkdir -p "$out"
seed() { # seed NAME SELECTOR (file content on stdin)
  # shellcheck disable=SC2059 # the format is the selector byte's octal escape, made on purpose
  { printf "\\$(printf '%03o' "$2")"; cat; } > "$out/$1.bin"
}
seed update-valid 0 <<<'{"before":[2,1],"after":[1,2],"moveItems":[{"from":[0,0],"to":[1,0]}]}'
seed update-invalid 0 <<<'{"before":[40,3],"after":[40,4],"insertSections":[],"deleteItems":[[0,3]],"reloadItems":[[0,3]],"insertItems":[[1,0]],"moveSections":[{"from":0,"to":1}]}'
for pair in heckel-paper duplicates feed; do
  { printf '['; cat "Corpus/examples/$pair-old.json"; printf ','; cat "Corpus/examples/$pair-new.json"; printf ']'; } | seed "lists-$pair" 1
done
{ printf '['; cat Corpus/examples/sections-old.json; printf ','; cat Corpus/examples/sections-new.json; printf ']'; } | seed sections 2
i=0
for file in Corpus/regressions/*.json; do
  [ $i -lt 4 ] || break
  seed "regression-$i" 3 < "$file"
  i=$((i + 1))
done
# shellcheck disable=SC2094 # seed writes $out/results-*.bin, never the results file it reads
for file in "$@"; do seed "results-$(basename "$file" .json)" 4 < "$file"; done
seed thresholds 5 < Corpus/gate/thresholds.json
seed policy-costs 6 <<<'{"schema":"difflab-policy-costs/1","device":"iPhone, measured","applyBaseCost":0.0015,"layoutCostPerItem":3e-8,"batchCostPerChange":4e-6,"reloadCostPerItem":6e-8,"frameWork":0.003}'
seed updater-findings 7 < Corpus/examples/updater-findings.json
seeds=("$out"/*)
echo "decode seeds written: ${#seeds[@]}"
