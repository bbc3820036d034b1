#!/usr/bin/env bash
# Builds gpuad with AddressSanitizer and UndefinedBehaviorSanitizer
# (GPUAD_SANITIZE=ON, with clang) into build-asan/ and runs the whole lit
# suite there: the plugin inside opt and clang, gpuad-cc, the emulator
# runtime and the unit tests, all under the sanitizers.  Arguments go to
# lit (e.g. --filter reverse).  GPUAD_JOBS sets build and lit jobs (2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUAD_SANITIZE_BUILD:-$root/build-asan}
jobs=${GPUAD_JOBS:-2}
llvm=/usr/lib/llvm-22/bin
"$root/tools/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=$llvm/clang -DCMAKE_CXX_COMPILER=$llvm/clang++ \
    -DGPUAD_SANITIZE=ON "${launcher[@]}"
fi
cmake --build "$build" -j"$jobs" --target GPUAD gpuad-cc gpuad_emu gpuad-unittests
exec "$llvm/lit" -sv --time-tests -j"$jobs" "$@" \
  "$build/test" "$build/test/unit" "$build/test/device-runs"
