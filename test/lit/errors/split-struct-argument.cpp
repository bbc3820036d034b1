// A struct passed by value to a request: x86-64 (like amdgcn) passes a
// struct of two doubles as two separate doubles, so the request sees four
// doubles for (p, dp) and cannot tell fields from shadows.  gpuad refuses,
// naming the struct, instead of pairing p.b as p.a's shadow; by pointer it
// is fine.  (A wrong tangent here was found by kernels.hip on the emulator.)
//
// RUN: not %gpuad-cc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %gpuad-cc -O1 -DBY_POINTER -c %s -o /dev/null
// CHECK: split-struct-argument.cpp:[[@LINE+14]]:{{[0-9]+}}: error: gpuad: the request's arguments (4 in the source) reach the IR as 6: a struct passed by value ('Pair', 'Pair') was split into its fields by the target's calling convention, so its shadow cannot be told apart; pass the struct by pointer (enzyme_dup, &s, &ds)

#include <gpuad/gpuad.h>

#include <cmath>

struct Pair {
  double a, b;
};

double pair_fn(Pair p) { return p.a * std::sin(p.b) + p.b * p.b; }
double pair_at(const Pair *p) { return pair_fn(*p); }

#ifndef BY_POINTER
double tangent(Pair p, Pair dp) {
  return __enzyme_fwddiff<double>((void *)pair_fn, enzyme_dup, p, dp);
}
#else
double tangent(Pair p, Pair dp) {
  return __enzyme_fwddiff<double>((void *)pair_at, enzyme_dup, &p, &dp);
}
#endif
