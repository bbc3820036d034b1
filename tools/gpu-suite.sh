#!/usr/bin/env bash
# The device suite on a real GPU: what to run when a GPU is lent
# (DEVELOPERS.md, "When a GPU is lent").
#
#   tools/gpu-suite.sh bundle DIR   here: build every device test natively
#                                   (gpuad-cc, clang -x cuda with the plugin,
#                                   the real cudart, linked statically) and the
#                                   device benchmarks into DIR, with this
#                                   script to run them.
#   tools/gpu-suite.sh run DIR OUT  on the GPU machine: run everything in DIR
#                                   and write the results folder OUT
#                                   (summary.txt, one log per program, the
#                                   GPU's description, the resource report).
#   tools/gpu-suite.sh OUT          both, on a machine that has the toolchain
#                                   and a GPU.
#
# The device tests are the programs registered with gpuad_add_device_test
# (their build and run lines are read from build/test/device-runs/*.native.test,
# so the GPU runs exactly what lit would run natively); only CUDA ones run
# on an NVIDIA GPU.  The GPU machine needs no clang or LLVM: the bundle is
# self-contained.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

bundle() {
  local dir=$1
  [ -d "$root/build/test/device-runs" ] || "$root/tools/build.sh"
  local cc="$root/build/bin/gpuad-cc"
  # cudart and the C++ runtime inside the executables: the GPU machine has
  # its own driver but not necessarily this machine's libraries.
  local cuda=${CUDA_PATH:-/usr/local/cuda}
  local link="-L$cuda/lib64 -lcudart_static -ldl -lrt -lpthread -static-libstdc++ -static-libgcc"
  mkdir -p "$dir/bin"
  : > "$dir/programs.txt"
  local failed=0
  for test in "$root"/build/test/device-runs/*.native.test; do
    grep -q '^# REQUIRES: cuda, gpu$' "$test" || continue # CUDA tests only
    local name build args
    name=$(basename "$test" .native.test)
    build=$(sed -n 's|^# RUN: %gpuad-cc \(.*\) -o %t$|\1|p' "$test")
    args=$(sed -n 's|^# RUN: %t\(.*\)$|\1|p' "$test")
    # shellcheck disable=SC2086
    if "$cc" $build -o "$dir/bin/$name" $link 2> "$dir/bin/$name.build.log"; then
      echo "$name$args" >> "$dir/programs.txt"
    else
      echo "gpu-suite: $name does not build natively (see $dir/bin/$name.build.log)"
      failed=1
    fi
  done
  # The benchmark programs: run without arguments, or once per
  # "// gpu-suite-args: ARGS" line of the source (the benchmark suite's
  # --time runs; their checks are device tests above).  A
  # "// gpu-suite-build: SUFFIX FLAGS" line builds and runs the program
  # once more as bench-NAME-SUFFIX with FLAGS (lane_jacobian's vector form).
  local timed=()
  for src in "$root"/kernels/cuda/bench/*.cu; do
    local base runs builds
    base=bench-$(basename "$src" .cu)
    runs=$(sed -n 's|^// gpu-suite-args: ||p' "$src")
    builds=$(printf -- '-\n'; sed -n 's|^// gpu-suite-build: ||p' "$src")
    [ -z "$runs" ] || timed+=("$src")
    while read -r suffix flags; do
      local name=$base
      [ "$suffix" = "-" ] || name=$base-$suffix
      # shellcheck disable=SC2086
      "$cc" -O2 $flags "$src" -o "$dir/bin/$name" $link
      if [ -z "$runs" ]; then
        echo "$name" >> "$dir/programs.txt"
      else
        while read -r args; do echo "$name $args"; done <<< "$runs" >> "$dir/programs.txt"
      fi
    done <<< "$builds"
  done
  # A checkpointed loop of kernel launches (the host benchmark harness's
  # heat_launches.cu, at a GPU's size): peak memory and gradient/primal with
  # a budget and with the full tape.
  local heat="$root/kernels/host/bench/heat_launches.cu"
  local wrap="-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free"
  while read -r label flags; do
    # shellcheck disable=SC2086
    "$cc" -O2 -DN=1048576 -DT=1000 $flags -I"$root/tools/bench" "$heat" \
      -o "$dir/bin/bench-heat-launches-$label" -lm $wrap $link
    echo "bench-heat-launches-$label" >> "$dir/programs.txt"
  done <<< "budget256 -mllvm -gpuad-tape-budget=256
full-tape"
  for src in "$root"/kernels/cuda/*.cu "$root"/test/device/gradient-suite.cu \
    "${timed[@]}"; do
    echo "== $src"
    python3 "$root/tools/resource_report.py" --cc "$cc" "$src" || true
  done > "$dir/resources.txt" 2>&1
  cp "$0" "$dir/gpu-suite.sh"
  echo "gpu-suite: $(wc -l < "$dir/programs.txt") programs in $dir"
  return $failed
}

run() {
  local dir=$1 out=$2
  mkdir -p "$out/logs"
  { nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem \
      --format=csv; } > "$out/gpu.txt" 2>&1 || echo "no nvidia-smi" > "$out/gpu.txt"
  [ -f "$dir/resources.txt" ] && cp "$dir/resources.txt" "$out/"
  local pass=0 fail=0
  : > "$out/summary.txt"
  while read -r name args; do
    local start end status log
    start=$(date +%s.%N)
    log="$out/logs/$name$(printf '%s' "$args" | tr -c 'A-Za-z0-9-' _).log"
    # shellcheck disable=SC2086
    if timeout 300 "$dir/bin/$name" $args > "$log" 2>&1; then
      status=PASS
      pass=$((pass + 1))
    else
      status="FAIL($?)"
      fail=$((fail + 1))
    fi
    end=$(date +%s.%N)
    printf '%-8s %-40s %8.2fs  %s\n' "$status" "$name${args:+ $args}" \
      "$(awk "BEGIN { print $end - $start }")" "$(tail -n 1 "$log")" \
      | tee -a "$out/summary.txt"
  done < "$dir/programs.txt"
  # The benchmark programs' timings (gradient/primal ratios in one run).
  grep -h -e ': time ' -e '^heat launches' "$out"/logs/*.log |
    tee -a "$out/summary.txt" || true
  echo "gpu-suite: $pass passed, $fail failed" | tee -a "$out/summary.txt"
  [ "$fail" = 0 ]
}

case "${1:-}" in
bundle) bundle "${2:?usage: gpu-suite.sh bundle DIR}" ;;
run) run "${2:?usage: gpu-suite.sh run DIR OUT}" "${3:?usage: gpu-suite.sh run DIR OUT}" ;;
"" | -h | --help) sed -n '2,20p' "$0" ;;
*)
  out=$1
  bundle "$out/bundle"
  run "$out/bundle" "$out"
  ;;
esac
