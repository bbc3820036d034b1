#!/usr/bin/env bash
# Builds gpuad if needed and runs the whole test suite: lit (IR, integration
# programs, device compiles, device programs on the CPU emulator) and the
# GoogleTest unit tests, in one lit run that ends with lit's summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/build.sh"
cmake --build "$root/build" --target check
