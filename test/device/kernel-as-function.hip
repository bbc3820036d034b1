// A __global__ kernel is itself the function differentiated: a wrapper
// kernel passes it to __enzyme_autodiff / __enzyme_fwddiff with shadows for
// its pointer arguments, and every thread runs the derivative of its own
// part (thread ids stay inactive; the adjoint of the shared weight is
// accumulated atomically by all threads).
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o %t.s
// RUN: FileCheck %s --input-file=%t.s
// The shared weight's adjoint is summed in the wavefront (ds_bpermute
// butterfly) when all 64 lanes are active.
// CHECK-LABEL: _Z4gradPKdPdS0_S1_S1_S1_i:
// CHECK: ds_bpermute_b32
// CHECK: s_endpgm

// The program is the CUDA test's, compiled as HIP (its main runs through
// include/devcheck.h's CUDA/HIP wrappers; registered in
// kernel-tests-hip.cmake).
#include <hip/hip_runtime.h>

#include "kernel-as-function.cu"
