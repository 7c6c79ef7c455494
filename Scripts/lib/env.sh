# shellcheck shell=bash
# Sourced by the scripts: finds the Swift toolchain, installs what is missing, and holds the helpers
# they share. Every script runs on Linux (Debian, apt-get) and on macOS (Xcode's toolchain,
# /bin/bash 3.2, BSD tools, Homebrew where a tool is needed); `difflab-dev portability` (a stage of
# Scripts/test) refuses bash 4 constructs, GNU-only flags and apt-get outside a Linux branch.

# The platform every branch below is taken on: Linux or Darwin.
difflab_os="$(uname -s)"
difflab_sudo=""
[ "$(id -u)" = 0 ] || difflab_sudo="sudo"

# difflab_skip WHAT WHY: the one line that says what was skipped and why (never a silent pass).
difflab_skip() {
  echo "SKIPPED $1: $2" >&2
}

# difflab_install_linux PACKAGE...: Debian's packages, through apt-get (its index updated once).
difflab_install_linux() {
  command -v apt-get >/dev/null 2>&1 || return 1
  if [ -z "${difflab_apt_updated:-}" ]; then
    $difflab_sudo apt-get update -qq || return 1
    difflab_apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $difflab_sudo apt-get install -y -qq "$@" >/dev/null
}

# difflab_install TOOL DEBIAN-PACKAGE HOMEBREW-FORMULA: makes TOOL available, from Debian on Linux
# or Homebrew on macOS (an empty name: no package there). Returns 1, having said nothing, when it is
# still missing: the caller skips its stage with difflab_skip, naming the package.
difflab_install() {
  command -v "$1" >/dev/null 2>&1 && return 0
  case "$difflab_os" in
    Linux)
      if [ -n "$2" ]; then
        echo "installing $2 (Debian) for $1" >&2
        difflab_install_linux "$2" || true
      fi
      ;;
    Darwin)
      if [ -n "$3" ] && command -v brew >/dev/null 2>&1; then
        echo "installing $3 (brew install $3) for $1" >&2
        brew install "$3" >/dev/null || true
      fi
      ;;
  esac
  command -v "$1" >/dev/null 2>&1
}

# difflab_tool NAME: prints the path of a toolchain program (docc, swift-symbolgraph-extract,
# llvm-profdata, llvm-cov): on PATH, beside `swift` (a swift.org toolchain), or, on macOS, where
# `xcrun --find` finds it in the selected Xcode. Returns 1 when none has it.
difflab_tool() {
  local beside
  if command -v "$1" 2>/dev/null; then return 0; fi
  beside="$(dirname "$(command -v swift)")/$1"
  if [ -x "$beside" ]; then
    echo "$beside"
    return 0
  fi
  [ "$difflab_os" = Darwin ] && xcrun --find "$1" 2>/dev/null
}

# difflab_package_modules WHAT: module names from Package.swift (`swift package dump-package`), one
# a line, in the manifest's order: `libraries`, the module of every library product (each product
# has one module of its own name: anything else is an error), or `reexported`, the umbrella
# DiffLab target's dependencies (what `import DiffLab` re-exports). The scripts read their module
# lists here, so a product added to Package.swift is in them. Prints nothing and returns 1 when
# the manifest cannot be read.
difflab_package_modules() {
  local manifest
  manifest="$(swift package dump-package)" || return 1
  printf '%s' "$manifest" | python3 -c '
import json, sys
package, what = json.load(sys.stdin), sys.argv[1]
if what == "libraries":
    for product in package["products"]:
        if "library" not in product["type"]:
            continue
        if product["targets"] != [product["name"]]:
            sys.exit("Package.swift: library product %s has modules %s, not one of its own name" % (product["name"], product["targets"]))
        print(product["name"])
elif what == "reexported":
    umbrella = [target for target in package["targets"] if target["name"] == "DiffLab"]
    if not umbrella:
        sys.exit("Package.swift: no DiffLab target")
    for dependency in umbrella[0]["dependencies"]:
        print(next(iter(dependency.values()))[0])
else:
    sys.exit("difflab_package_modules: unknown list %r (libraries or reexported)" % what)
' "$1"
}

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "Swift toolchain not found: install Swift 6 (https://swift.org/install; on a Mac, Xcode 16 or later) and put it on PATH" >&2
    exit 1
  fi
fi

# jemalloc, for the benchmark lab's allocation metrics and the jemalloc side of its allocator
# comparison (loaded at run time: LD_PRELOAD on Linux, DYLD_INSERT_LIBRARIES on macOS; nothing
# links against it).
difflab_jemalloc_linux() {
  # (Matched in the whole listing: `grep -q` would end the pipe early, and under pipefail
  # ldconfig's SIGPIPE would read as "not found".)
  case "$(ldconfig -p 2>/dev/null)" in *libjemalloc.so.2*) return 0 ;; esac
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing libjemalloc-dev" >&2
    difflab_install_linux libjemalloc-dev \
      || echo "could not install libjemalloc-dev: benchmarks will measure the system allocator only" >&2
  else
    echo "no apt-get: install jemalloc yourself; benchmarks will measure the system allocator only" >&2
  fi
}
# Homebrew's prefix is /opt/homebrew on Apple silicon and /usr/local on Intel Macs; `brew --prefix`
# names the one in use.
difflab_jemalloc_darwin() {
  local prefix
  if ! command -v brew >/dev/null 2>&1; then
    echo "no Homebrew (https://brew.sh): benchmarks will measure the system allocator only (with it: brew install jemalloc)" >&2
    return 0
  fi
  prefix="$(brew --prefix)"
  [ -e "$prefix/lib/libjemalloc.dylib" ] && return 0
  echo "installing jemalloc (brew install jemalloc)" >&2
  brew install jemalloc >/dev/null \
    || echo "could not install jemalloc (brew install jemalloc): benchmarks will measure the system allocator only" >&2
}
case "$difflab_os" in
  Linux) difflab_jemalloc_linux ;;
  Darwin) difflab_jemalloc_darwin ;;
  *) echo "$difflab_os: no jemalloc installer here; benchmarks will measure the system allocator only" >&2 ;;
esac

# valgrind, for the regression gate's instruction counts (Scripts/gate sets need_valgrind=1). It
# does not run on current macOS (nor at all on Apple silicon): there the gate does not count instructions.
if [ "${need_valgrind:-0}" = 1 ] && ! command -v valgrind >/dev/null 2>&1; then
  case "$difflab_os" in
    Linux)
      if command -v apt-get >/dev/null 2>&1; then
        echo "installing valgrind" >&2
        difflab_install_linux valgrind || echo "could not install valgrind: the gate will not count instructions" >&2
      else
        echo "no apt-get: install valgrind yourself; the gate will not count instructions" >&2
      fi
      ;;
    *) difflab_skip "instruction counts (valgrind)" "valgrind does not run on $difflab_os $(uname -m): the gate does not count instructions" ;;
  esac
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
