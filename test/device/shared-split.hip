// HIP: __shared__ memory in the user's split mode (shared-split.cu compiled
// as HIP): the augmented half zeroes the LDS shadow, the backward half
// mirrors the barriers; heap, by-value and in-memory tapes vs the combined
// gradient and FD.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S %s -o %t.s
// RUN: FileCheck %s --input-file=%t.s
// CHECK-LABEL: _Z13grad_by_valuePKdPdi:
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK: ds_add_f64
// CHECK: s_endpgm

#include <hip/hip_runtime.h>

#include "shared-split.cu"
