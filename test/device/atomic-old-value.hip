// HIP: the old value atomicAdd returns, in reverse mode (atomic-old-value.cu
// compiled as HIP): fine on the thread's own location, a clear error on a
// location every thread adds to.
//
// REQUIRES: hip
// RUN: not %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -c %s -o /dev/null -DSHARED_ACC 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O0 -c %s -o /dev/null -DSHARED_ACC 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: gpuad: '{{.*}}atomicrmw fadd{{.*}}' returns the old contents of memory other threads may add to as well
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t
// RUN: %gpuad-cc --emulate -O0 %s -o %t0 && %t0

#include <hip/hip_runtime.h>

#include "atomic-old-value.cu"
