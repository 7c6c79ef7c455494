#!/bin/bash -eu
# Builds both libFuzzer targets for ClusterFuzzLite / OSS-Fuzz: difflab-fuzz (bytes -> choices ->
# every property on every engine) and difflab-decode-fuzz (bytes -> JSON -> every file decoder). Expects the builder's environment:
#   SRC (sources; the project is in $SRC/difflab), OUT (where fuzzers and seed corpora go),
#   WORK (scratch), SANITIZER (address). In the base-builder-swift image, precompile_swift sets
#   SWIFTFLAGS; elsewhere (a local check) the flags are derived from SANITIZER.
cd "$SRC/difflab"
if command -v precompile_swift >/dev/null 2>&1; then
  # shellcheck source=/dev/null # the builder image's script, not in this repository
  . precompile_swift
else
  # As Scripts/fuzz builds this target: no comparison tracing (its bytes are choices, not text).
  SWIFTFLAGS="--sanitize=fuzzer --sanitize=${SANITIZER:-address} -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table"
fi
# shellcheck disable=SC2086 # SWIFTFLAGS is a list of flags: split on purpose
swift build -c release $SWIFTFLAGS --product difflab-fuzz --scratch-path "$WORK/difflab-build"
cp "$WORK/difflab-build/release/difflab-fuzz" "$OUT/difflab_fuzz"
# Seed corpus: <fuzzer>_seed_corpus.zip beside the fuzzer.
(cd Corpus/fuzz-seeds && zip -q -j "$OUT/difflab_fuzz_seed_corpus.zip" ./*.bin)
# The decoder's input is text compared against keywords and keys: its dictionary goes beside it
# (<fuzzer>.dict), as Scripts/fuzz --target decode runs it. (Scripts/fuzz adds comparison tracing
# too; here the builder's SWIFTFLAGS decide the instrumentation for both targets.)
# shellcheck disable=SC2086 # SWIFTFLAGS is a list of flags: split on purpose
swift build -c release $SWIFTFLAGS --product difflab-decode-fuzz --scratch-path "$WORK/difflab-build"
cp "$WORK/difflab-build/release/difflab-decode-fuzz" "$OUT/difflab_decode_fuzz"
cp Corpus/decode-fuzz.dict "$OUT/difflab_decode_fuzz.dict"
(cd Corpus/decode-fuzz-seeds && zip -q -j "$OUT/difflab_decode_fuzz_seed_corpus.zip" ./*)
