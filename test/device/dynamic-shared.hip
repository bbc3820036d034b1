// HIP: dynamic shared memory in the differentiated function
// (dynamic-shared.cu compiled as HIP).  The shadow's offset is half of code
// object v5's hidden_dynamic_lds_size (implicit argument at 120), which
// HIP's runtime fills from ROCm 6.0 on; the emulator fills it.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// CHECK-LABEL: define {{.*}} @_Z4gradPKdPdS1_S1_i(
// CHECK: getelementptr i8, ptr addrspace(4) %{{.*}}, i64 120
// CHECK: atomicrmw fadd ptr addrspace(3) {{.*}} syncscope("workgroup")

#include <hip/hip_runtime.h>

#include "dynamic-shared.cu"
