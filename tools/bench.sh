#!/usr/bin/env bash
# The benchmark harness: builds gpuad if needed, compiles the host
# benchmark programs in kernels/host/bench with gpuad-cc -O2, and prints for
# each: primal time, gradient time, their ratio (measured in the same run)
# the heap bytes the gradient holds beyond the primal (the tape), and the
# process's peak RSS.  See
# tools/bench/bench.h.  Then the CPU emulator's time per block and the
# device suite's resource report (with CUDA headers present; GPU timings of
# the gradient kernels come from kernels/cuda/bench/gradient_time.cu and the
# benchmark programs' --time mode, run by tools/gpu-suite.sh when a GPU is
# lent).
# Usage: tools/bench.sh [extra gpuad-cc flags]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/bin/gpuad-cc" ] || "$root/tools/build.sh"
cc="$root/build/bin/gpuad-cc"
out="$root/build/bench"
mkdir -p "$out"
wrap="-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
first=1
# A program may ask to be built several ways: "// bench-variant: LABEL FLAGS"
# lines (the label is printed after each of its lines).
# (Then kernels/host/bench/heat_launches.cu, a loop of kernel launches, on
# the CPU emulator: its device memory is host memory, in the peak RSS.)
emulated="$root/kernels/host/bench/heat_launches.cu"
[ -d /usr/local/cuda/include ] || [ -n "${CUDA_PATH:-}" ] || emulated=
for src in "$root"/kernels/host/bench/*.c $emulated; do
  name=$(basename "${src%.*}")
  emulate=
  [ "${src##*.}" = cu ] && emulate=--emulate
  variants=$(sed -n 's|^// bench-variant: ||p' "$src")
  # "// bench-link: FLAGS": libraries the program links (OpenBLAS).
  link=$(sed -n 's|^// bench-link: ||p' "$src")
  [ -n "$variants" ] || variants="-"
  while read -r label flags; do
    # shellcheck disable=SC2086
    "$cc" $emulate -O2 "$@" $flags -I"$root/tools/bench" "$src" -o "$out/$name" $link -lm $wrap
    if [ $first = 1 ]; then
      printf '%-24s %-16s %12s %12s %9s %14s %9s  %s\n' benchmark size \
        primal gradient grad/prim "tape bytes" "peak RSS" check
      first=0
    fi
    if [ "$label" = "-" ]; then
      "$out/$name"
    else
      "$out/$name" | sed "s/\$/  [$label]/"
    fi
  done <<< "$variants"
done

# Parallel runtimes: an OpenMP loop at 1 and 2 threads, and the MPI example
# (a domain-decomposed solver, examples/mpi_heat.c) at 1, 2 and 4 ranks,
# each line gradient/primal measured in the same run.  (On a 2-core machine
# 4 ranks are oversubscribed.)
omp_src="$root/kernels/host/bench/parallel/omp_loop.c"
if "$cc" -fopenmp -O2 "$@" -I"$root/tools/bench" "$omp_src" \
  -o "$out/omp_loop" -lm $wrap 2>/dev/null; then
  for threads in 1 2; do
    OMP_NUM_THREADS=$threads "$out/omp_loop"
  done
else
  echo "omp_loop: skipped (no OpenMP runtime for clang 22: libomp-22-dev)"
fi
if command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  # shellcheck disable=SC2046
  "$cc" -O2 "$@" $(mpicc -showme:compile) "$root/examples/mpi_heat.c" \
    -o "$out/mpi_heat" $(mpicc -showme:link) -lm
  for ranks in 1 2 4; do
    mpirun --allow-run-as-root --oversubscribe -np $ranks \
      "$out/mpi_heat" --bench | tail -1
  done
else
  echo "mpi_heat: skipped (no mpicc/mpirun: libopenmpi-dev openmpi-bin)"
fi

# The CPU emulator's speed (it matters for CI time): time per 256-thread
# block that passes 10 barriers, in each schedule.
if [ -d /usr/local/cuda/include ] || [ -n "${CUDA_PATH:-}" ]; then
  echo
  "$cc" --emulate -O2 "$root/kernels/cuda/bench/emu_barriers.cu" -o "$out/emu_barriers"
  for schedule in ordered shuffled concurrent; do
    blocks=256
    [ $schedule = concurrent ] && blocks=16
    GPUAD_EMU_SCHEDULE=$schedule "$out/emu_barriers" $blocks
  done
fi

# Device resources of the gradient kernels (registers, spills, stack, tape
# bytes and where they live, gradient/primal ratios) for the device suite
# and the benchmark suite's programs (kernels/cuda/bench, those with a
# --time mode), against the targets: NVPTX via ptxas -v, AMDGPU from the
# code object's kernel info.
if [ -d /usr/local/cuda/include ] || [ -n "${CUDA_PATH:-}" ]; then
  for src in "$root/test/device/gradient-suite.cu" \
    $(grep -l '^// gpu-suite-args:' "$root"/kernels/cuda/bench/*.cu); do
    echo
    echo "== resources: ${src#"$root"/}"
    python3 "$root/tools/resource_report.py" --cc "$cc" "$src" |
      grep -E "^(NVPTX|AMDGPU)|derivative kernels|targets"
  done
fi

# Lane batching: registers and spills of width-N derivatives as lanes and as
# vectors, next to the width-1 derivative's (kernels/cuda/bench/lane_jacobian.cu).
if [ -d /usr/local/cuda/include ] || [ -n "${CUDA_PATH:-}" ]; then
  echo
  echo "== lanes: kernels/cuda/bench/lane_jacobian.cu"
  python3 "$root/tools/lanes_report.py" --cc "$cc" \
    "$root/kernels/cuda/bench/lane_jacobian.cu"
fi
