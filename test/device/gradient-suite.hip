// HIP: the device suite of GPU-aware differentiation (gradient-suite.cu,
// compiled as HIP): elementwise, block reduction with one atomic per block,
// fixed-length recurrence with a shared weight, normalize/mag, scatter with
// colliding indices, a kernel calling a device function with a loop; float
// and double; gradients vs central differences and vs forward mode by the
// dot product.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.s -Rpass=gpuad -Rpass-analysis=gpuad 2> %t.remarks
// RUN: FileCheck %s --input-file=%t.s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// No device malloc (ockl's allocator) anywhere.
// CHECK-NOT: __ockl_dm_alloc
// Both recurrence tapes stay in scratch: their LDS slots (56 and 104 B a
// lane) would lower occupancy.
// REMARK-DAG: tape region of {{.*}}, 48 B per thread, stays in thread-local memory: 56 B slots exceed the 32 B
// REMARK-DAG: tape region of {{.*}}, 96 B per thread, stays in thread-local memory: 104 B slots exceed the 32 B

#include <hip/hip_runtime.h>

#include "gradient-suite.cu"
