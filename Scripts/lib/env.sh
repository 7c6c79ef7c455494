# Sourced by the scripts: finds the Swift toolchain and installs what is missing.
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "Swift toolchain not found: install Swift 6 (https://swift.org/install) and put it on PATH" >&2
    exit 1
  fi
fi

# jemalloc, for the benchmark lab's allocation metrics and the jemalloc side of its
# allocator comparison (loaded with LD_PRELOAD; nothing links against it).
if ! ldconfig -p 2>/dev/null | grep -q 'libjemalloc\.so\.2'; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing libjemalloc-dev" >&2
    $sudo apt-get update -qq && $sudo apt-get install -y -qq libjemalloc-dev >/dev/null \
      || echo "could not install libjemalloc-dev: benchmarks will measure the system allocator only" >&2
  else
    echo "no apt-get: install jemalloc yourself; benchmarks will measure the system allocator only" >&2
  fi
fi

# valgrind, for the regression gate's instruction counts (Scripts/gate sets need_valgrind=1).
if [ "${need_valgrind:-0}" = 1 ] && ! command -v valgrind >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing valgrind" >&2
    $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null \
      || echo "could not install valgrind: the gate will not count instructions" >&2
  else
    echo "no apt-get: install valgrind yourself; the gate will not count instructions" >&2
  fi
fi

# A stage header with the time since the outermost script started (DIFFLAB_STAGE_START is
# inherited by the scripts it calls), so a CI log shows where the minutes go.
case "${DIFFLAB_STAGE_START:-}" in
  '' | *[!0-9]*) DIFFLAB_STAGE_START="$(date +%s)" ;;  # unset or not a number: start now
esac
export DIFFLAB_STAGE_START
stage() {
  local elapsed=$(( $(date +%s) - DIFFLAB_STAGE_START ))
  printf '== [%d:%02d] %s\n' $((elapsed / 60)) $((elapsed % 60)) "$*"
}
