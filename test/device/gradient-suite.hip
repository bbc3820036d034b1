// HIP: the device suite of GPU-aware differentiation (gradient-suite.cu,
// compiled as HIP): elementwise, block reduction with one atomic per block,
// fixed-length recurrence with a shared weight, normalize/mag, scatter with
// colliding indices, a kernel calling a device function with a loop; float
// and double; gradients vs central differences and vs forward mode by the
// dot product.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.s -Rpass=gpuad 2> %t.remarks
// RUN: FileCheck %s --input-file=%t.s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// No device malloc (ockl's allocator) anywhere.
// CHECK-NOT: __ockl_dm_alloc
// The float recurrence's tape is in LDS slots, the double one in scratch.
// REMARK-DAG: tape region of {{.*}}, 96 B per thread, in shared-memory slots (128 threads x 104 B)
// REMARK-DAG: tape: {{.*}}192 B per thread in thread-local memory

#include <hip/hip_runtime.h>

#include "gradient-suite.cu"
