// HIP: the device heap inside differentiated code (device-heap.cu compiled
// as HIP): malloc/free and new[]/delete[] scratch (ockl's allocator) in
// forward, reverse, split and width-2 derivatives, vs FD, the dot product
// and the combined gradient.  At -O0 the derivative's tape needs the pool:
// this file declares it (devcheck.h), and on AMDGPU such a program gets no
// device-heap fallback, so the -O0 run provides it (POOL).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o %t.s
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O0 -S %s -o %t0.s

#include <hip/hip_runtime.h>

#include "device-heap.cu"
