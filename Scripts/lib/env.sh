# Sourced by the scripts: finds the Swift toolchain and installs what is missing.
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
  else
    echo "Swift toolchain not found: install Swift 6 (https://swift.org/install) and put it on PATH" >&2
    exit 1
  fi
fi
