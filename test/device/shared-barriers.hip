// HIP: __shared__ memory and __syncthreads inside the differentiated function:
// the shadow of a shared array is a shared array, zeroed by the block at
// the start of the reverse sweep, and every barrier is mirrored in the
// reverse sweep (also inside loops), so adjoints other threads add are
// complete before they are read.  Checked: forward against central finite
// differences, reverse against forward by the dot-product test, at -O2/-O0
// and in every emulator schedule.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.s
// RUN: FileCheck %s --input-file=%t.s
// The gradient kernel: the zeroed shadow tile and the mirrored barriers
// (work-group fences around s_barrier).
// CHECK-LABEL: _Z9grad_haloPKdPdS0_i:
// CHECK: ds_write_b64
// CHECK: s_barrier
// CHECK: s_barrier
// CHECK: ds_add_f64
// CHECK: s_barrier
// CHECK: s_endpgm

// The program is the CUDA test's, compiled as HIP (its main runs through
// include/devcheck.h's CUDA/HIP wrappers; registered in
// kernel-tests-hip.cmake).
#include <hip/hip_runtime.h>

#include "shared-barriers.cu"
