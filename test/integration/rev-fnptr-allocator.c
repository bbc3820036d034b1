// Heap functions called through pointers (a table of allocators, as
// Enzyme's metamalloc test has): the dispatcher's candidates include malloc,
// calloc and free, which are then differentiated as what they are (a zeroed
// shadow block, freed after the reverse sweep), instead of the run-time
// "no derivative for the function called through a pointer".  Reverse and
// forward mode against central differences and each other, -O0 to -O3, and
// under valgrind (no leak: the program frees its blocks).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#include <math.h>
#include <stdlib.h>

struct Allocator {
  void *(*alloc)(size_t);
  void *(*zalloc)(size_t, size_t);
  void (*release)(void *);
};
struct Allocator heap = {malloc, calloc, free};

__attribute__((noinline)) double *scratch(size_t n) {
  return (double *)heap.alloc(n * sizeof(double));
}

double f(double x) {
  double *a = scratch(4);
  double *b = (double *)heap.zalloc(4, sizeof(double));
  for (int i = 0; i < 4; ++i) {
    a[i] = sin(x * (i + 1));
    b[i] += a[i] * a[i];
  }
  double s = b[0] + b[1] * b[2] + b[3];
  heap.release(a);
  heap.release(b);
  return s;
}

int main(void) {
  const double xs[2] = {0.4, -1.1};
  for (int k = 0; k < 2; ++k) {
    double x = xs[k];
    double rev = __enzyme_autodiff((void *)f, x);
    double fwd = __enzyme_fwddiff((void *)f, x, 1.0);
    check_close("allocators through pointers, reverse", rev, gc_fd(f, x),
                GC_RTOL_D, GC_ATOL_D);
    check_close("allocators through pointers, forward", fwd, gc_fd(f, x),
                GC_RTOL_D, GC_ATOL_D);
    check_close("allocators through pointers, fwd = rev", fwd, rev, 1e-12,
                1e-14);
  }
  return gradcheck_exit();
}
