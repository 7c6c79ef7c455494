#!/bin/bash -eu
# Builds difflab-fuzz for ClusterFuzzLite / OSS-Fuzz. Expects the builder's environment:
#   SRC (sources; the project is in $SRC/difflab), OUT (where fuzzers and seed corpora go),
#   WORK (scratch), SANITIZER (address). In the base-builder-swift image, precompile_swift sets
#   SWIFTFLAGS; elsewhere (a local check) the flags are derived from SANITIZER.
cd "$SRC/difflab"
if command -v precompile_swift >/dev/null 2>&1; then
  . precompile_swift
else
  # As Scripts/fuzz builds this target: no comparison tracing (its bytes are choices, not text).
  SWIFTFLAGS="--sanitize=fuzzer --sanitize=${SANITIZER:-address} -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table"
fi
# shellcheck disable=SC2086
swift build -c release $SWIFTFLAGS --product difflab-fuzz --scratch-path "$WORK/difflab-build"
cp "$WORK/difflab-build/release/difflab-fuzz" "$OUT/difflab_fuzz"
# Seed corpus: <fuzzer>_seed_corpus.zip beside the fuzzer.
(cd Corpus/fuzz-seeds && zip -q -j "$OUT/difflab_fuzz_seed_corpus.zip" ./*.bin)
