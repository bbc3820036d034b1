// Checkpointed loops in device code, for AMDGPU: checkpointed-loops.cu's
// kernels and checks compiled as HIP.  The per-thread record lives in
// scratch (address space 5), reached through generic pointers; the amdgcn
// code must assemble at -O0 and -O2.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -c %s -o %t.O2.o -Rpass=gpuad 2>&1 | FileCheck %s
// RUN: %gpuad-cc -x hip --cuda-device-only -O0 -c %s -o %t.O0.o
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -c %s -o %t.host.o

#include <hip/hip_runtime.h>

#include "checkpointed-loops.cu"

// CHECK-DAG: remark: loop checkpointed: {{.*}}snapshots: 5 per thread, scheduled by binomial checkpointing
// CHECK-DAG: remark: loop checkpointed: {{.*}}snapshots: 3 per thread, thinned online
