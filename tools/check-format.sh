#!/usr/bin/env bash
# Checks that gpuad's own C/C++ sources are formatted as .clang-format says
# (LLVM style), with clang-format 22; lists the files that are not and
# exits 1.  Test programs are not checked: their comments hold RUN and
# CHECK lines (their folders' .clang-format disables formatting).
# Usage: tools/check-format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
format=/usr/lib/llvm-22/bin/clang-format
mapfile -t files < <(git ls-files passes frontend gpu-runtime include test/unit \
  tools/gpuad-cc tools/bench kernels examples |
  grep -E '\.(c|cc|cpp|h|hpp|cu|cuh|hip)$')
if [ "${1:-}" = "--fix" ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: not formatted (run tools/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
