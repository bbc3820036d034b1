// HIP: runtime-memory.cu's host driver with hipMalloc, hipMemcpy,
// hipMemcpyAsync, hipMemset and hipFree, differentiated in reverse mode,
// forward mode and at width 2 (checks and tolerances there).  Every copy
// the derivatives make is a runtime call:
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-host-only -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// CHECK-LABEL: define internal void @_Z4lossPKdd.rev.dc
// CHECK-NOT: @llvm.memcpy
// CHECK: call i32 @hipMemcpy(
// CHECK-NOT: @llvm.memcpy
// CHECK: ret void

#include <hip/hip_runtime.h>

#include "runtime-memory.cu"
