// The scratch shadow of an enzyme_const argument whose extent is unknown is
// reserved address space; where the process may not map that much (an
// address-space limit), the derivative stops with a message naming the
// argument's remedy instead of running without a shadow.
// RUN: %gpuad-cc -O1 %s -o %t
// RUN: not sh -c 'ulimit -v 200000 && %t' 2>&1 | FileCheck %s
// CHECK: gpuad: cannot reserve address space for the scratch shadow of an enzyme_const argument (mmap failed); pass the argument with enzyme_dup and a zeroed shadow

#include <gpuad/gpuad.h>

// Parks x*x at a slot read from memory and reads it back: the state's
// extent is unknown, and derivatives flow through it.
__attribute__((noinline)) double f(double x, double *state, const int *slot) {
  state[slot[0]] = x * x;
  return state[slot[1]] * x;
}

int main(void) {
  double state[4] = {0};
  int slot[2] = {2, 2};
  double d = __enzyme_autodiff((void *)f, 1.5, enzyme_const, state,
                               enzyme_const, slot);
  return d > 0 ? 0 : 1;
}
