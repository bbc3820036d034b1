// With -fpass-plugin gpuad runs by itself at every optimisation level; -O0
// users get derivatives too.
// RUN: %clang -O0 -fpass-plugin=%plugin -I%S/../../../include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -O1 -fpass-plugin=%plugin -I%S/../../../include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin -I%S/../../../include -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -O3 -fpass-plugin=%plugin -I%S/../../../include -S -emit-llvm %s -o - | FileCheck %s

#include <gpuad/gpuad.h>

double cube(double x) { return x * x * x; }

double dcube(double x) { return __enzyme_fwddiff((void *)cube, enzyme_dup, x, 1.0); }

// CHECK-NOT: __enzyme_fwddiff
// CHECK-NOT: @enzyme_dup
// CHECK: define {{.*}}@dcube(
