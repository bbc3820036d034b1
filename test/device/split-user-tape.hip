// HIP: split mode with the tape in the program's own types, stored per
// thread in global arrays between an augmented and a reverse kernel
// (split-user-tape.cu compiled as HIP): the struct big enough for the tape
// holds it by value, without ockl's allocator; on the emulator each
// declaration's gradient vs FD and the combined gradient, at -O2 and -O0.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only --offload-arch=gfx90a -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll
// CHECK-LABEL: define {{.*}} @_Z12aug_by_value
// CHECK-NOT: __ockl_dm_alloc
// CHECK: ret void

#include "split-user-tape.cu"
