#!/usr/bin/env bash
# Builds gpuad if needed and runs the whole test suite: lit (IR, integration
# programs, device compiles, device programs on the CPU emulator) and the
# GoogleTest unit tests, in one lit run that ends with lit's summary.
# `tools/test.sh --sanitize [lit args]` runs it under ASan and UBSan instead
# (tools/sanitize.sh, in build-asan/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--sanitize" ]; then
  shift
  exec "$root/tools/sanitize.sh" "$@"
fi
"$root/tools/build.sh"
cmake --build "$root/build" --target check
