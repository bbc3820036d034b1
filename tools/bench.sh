#!/usr/bin/env bash
# The benchmark harness: builds gpuad if needed, compiles the host
# benchmark programs in kernels/host/bench with gpuad-cc -O2, and prints for
# each: primal time, gradient time, their ratio (measured in the same run)
# and the heap bytes the gradient holds beyond the primal (the tape).  See
# tools/bench/bench.h.  Usage: tools/bench.sh [extra gpuad-cc flags]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/bin/gpuad-cc" ] || "$root/tools/build.sh"
cc="$root/build/bin/gpuad-cc"
out="$root/build/bench"
mkdir -p "$out"
wrap="-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
first=1
for src in "$root"/kernels/host/bench/*.c; do
  name=$(basename "$src" .c)
  "$cc" -O2 "$@" -I"$root/tools/bench" "$src" -o "$out/$name" -lm $wrap
  if [ $first = 1 ]; then
    printf '%-22s %-18s %12s %12s %9s %14s  %s\n' benchmark size primal \
      gradient grad/prim "tape bytes" check
    first=0
  fi
  "$out/$name"
done
