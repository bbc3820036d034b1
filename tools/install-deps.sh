#!/usr/bin/env bash
# Installs what gpuad needs from Debian's packages (LLVM/Clang 22 and
# clang's headers for the frontend plugin, clang-format 22, CMake,
# Ninja, GoogleTest, ROCm device libraries and HIP headers, OpenBLAS and
# LAPACKE for the BLAS and LAPACK tests, clang 22's OpenMP runtime for
# -fopenmp, Open MPI for MPI's derivatives and the tests that run mpirun),
# when missing.  (libomp-22-dev conflicts with libomp-19-dev:
# apt replaces it.)
# CUDA is not a Debian package: tests that need ptxas are reported as
# UNSUPPORTED when /usr/local/cuda is absent.
set -euo pipefail

packages=(clang-22 clang-format-22 libclang-22-dev llvm-22-dev llvm-22-tools lld-22 libclang-rt-22-dev
          libzstd-dev ninja-build cmake python3 python3-yaml googletest libgtest-dev
          libbenchmark-dev valgrind rocm-device-libs libamdhip64-dev
          libeigen3-dev libopenblas-dev liblapacke-dev libomp-22-dev
          libopenmpi-dev openmpi-bin)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
