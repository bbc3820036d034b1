// HIP: host-launch.cu's driver with hipMalloc, hipMemcpyAsync, hipMemset,
// streams and launches (checks and tolerances there).  The host half
// launches the derivative kernels the device half contains:
//
// REQUIRES: hip
// RUN: touch %t.fatbin
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -S -emit-llvm -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=HOST
// HOST-DAG: call i32 @__hipRegisterFunction(ptr %{{.*}}, ptr nonnull @__gpuad_rev__Z7diffusePdPKdS1_di.gpuad.handle
// HOST-DAG: call i32 @hipLaunchKernel(ptr nonnull @__gpuad_fwd__Z5reactPddi.gpuad.handle
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S -emit-llvm %s -o %t.dev.ll
// RUN: FileCheck %s --input-file=%t.dev.ll --check-prefix=DEVICE
// DEVICE-DAG: define {{.*}}amdgpu_kernel void @__gpuad_rev__Z7diffusePdPKdS1_di(
// DEVICE-DAG: define {{.*}}amdgpu_kernel void @__gpuad_fwd__Z9blockSumsPdPKdi(

#include <hip/hip_runtime.h>

#include "host-launch.cu"
