// HIP: host-launch-struct.cu's driver (checks and tolerances there).
// AMDGPU passes the structs `byref` in the kernel arguments' constant
// memory; the derivative kernels read them from private copies.
//
// REQUIRES: hip
// RUN: %gpuad-cc --emulate -O2 %s -o %t && %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 && %t.O0 | FileCheck %s
// CHECK: host-launch-struct.hip: PASS
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.dev.ll
// RUN: FileCheck %s --input-file=%t.dev.ll --check-prefix=DEVICE
// DEVICE-DAG: define {{.*}}amdgpu_kernel void @__gpuad_rev__Z7stencil5State7Stencil(ptr addrspace(4) byref(%struct.State)
// DEVICE-DAG: define {{.*}}amdgpu_kernel void @__gpuad_fwd__Z5reactPd4Coef5Shift(

#include <hip/hip_runtime.h>

#include "host-launch-struct.cu"
