// HIP: complex arithmetic in differentiated device code (complex.cu compiled
// as HIP: C _Complex with __muldc3/__divdc3 defined by clang's headers,
// hip_complex.h in place of cuComplex.h, std::complex; thrust is CUDA's).
// On the emulator, forward and reverse against central differences and the
// dot-product test at -O2 and -O0.  The amdgcn code
// object links (lld fails on any undefined symbol, e.g. an __ocml_*
// function a partial needs that nobody supplied).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -c %s -o %t.O2.o
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>

#include "complex.cu"
