#!/usr/bin/env bash
# gpuad's main job, from a fresh machine: install, build, then differentiate
# and check real programs:
#   1. a host program (a spring chain's energy) in forward mode, width 1 and
#      4, and in reverse mode (the whole gradient and two scalar adjoints),
#      checked against finite differences and against each other;
#   2. a CUDA shading kernel with its forward derivative and its gradient
#      (reverse mode): the derivatives are checked on the host, the kernels
#      run on the CPU emulator (gpuad-cc --emulate: the differentiated device
#      IR itself) and the device gradient is checked against the host's and
#      the device tangents; all kernels are compiled for the GPU with their
#      register and spill counts reported (ptxas for sm_75 and sm_90, and the
#      AMDGPU resource usage for gfx90a);
#   3. a whole CUDA program (examples/diffusion_reaction.cu): its host
#      driver, launches included, differentiated from one request, checked
#      against finite differences and forward mode, then used to fit a
#      coefficient field (the loss curve is printed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/build.sh"

cc="$root/build/bin/gpuad-cc"
out="$root/build/demo"
mkdir -p "$out"
cd "$root"

echo
echo "== 1. Host: spring chain energy, forward and reverse mode (gpuad-cc -O2)"
"$cc" -O2 kernels/host/spring_chain.c -o "$out/spring_chain" -lm
"$out/spring_chain"

echo
echo "== 2. CUDA: shading kernel, its forward derivative and its reverse-mode gradient"
"$cc" -O2 kernels/cuda/shading.cu -o "$out/shading"        # native (real cudart)
"$cc" --emulate -O2 kernels/cuda/shading.cu -o "$out/shading-emu"
"$out/shading-emu"
python3 tools/resource_report.py --cc "$cc" kernels/cuda/shading.cu

echo
echo "== 3. CUDA: a whole program -- a diffusion-reaction solver's host driver"
echo "      (cudaMalloc, copies, 80 steps of two kernels, the loss on the host)"
echo "      differentiated from one __enzyme_autodiff call; its coefficient"
echo "      field fitted by gradient descent on the CPU emulator"
"$cc" -O2 examples/diffusion_reaction.cu -o "$out/diffusion_reaction"   # native
"$cc" --emulate -O2 examples/diffusion_reaction.cu -o "$out/diffusion_reaction-emu"
"$out/diffusion_reaction-emu"
