// A pointer global the program points at its data outside differentiated
// code (in main), written through by a differentiated callee: gpuad's
// shadow of the pointer holds no address, so the derivative cannot follow
// the write.  The program stops there with a message naming the global
// (before, d/dx was silently 0).  The same where the pointer is a field of
// a global struct a callee is handed (it stops in the callee, naming the
// load; before, the derivative wrote through a null shadow and crashed).
// Differentiated code that only reads through such a pointer (data
// computed in main carries no derivative) runs, and its gradient is
// checked.
// RUN: %gpuad-cc -O0 %s -o %t0 -lm
// RUN: %gpuad-cc -O2 %s -o %t2 -lm
// RUN: %t0 read && %t2 read
// RUN: not --crash %t0 write 2>&1 | FileCheck %s
// RUN: not --crash %t2 write 2>&1 | FileCheck %s
// RUN: not --crash %t0 member 2>&1 | FileCheck %s --check-prefix=MEMBER
// RUN: not --crash %t2 member 2>&1 | FileCheck %s --check-prefix=MEMBER
// MEMBER: gpuad: the pointer '{{.*}}load ptr{{.*}}' loaded in 'push' has an address where its shadow has none: the memory it was loaded from was set outside differentiated code
// CHECK: gpuad: global 'state' holds an address where its shadow holds none: the program stored it outside differentiated code, so the derivative cannot follow it; define a global 'state_shadow' and set it where the program sets 'state'

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);

double *state;
double *coeffs;

__attribute__((noinline)) void step(double x) { state[0] = x * x; }
__attribute__((noinline)) double peek(void) { return 3 * state[0]; }
__attribute__((noinline)) double coeff(int i) { return coeffs[i]; }

struct Log {
  double *data;
  int n, capacity;
} history;

// Grows like a vector: at -O2 the storage written is a PHI of the old
// block and realloc's.
__attribute__((noinline)) void push(struct Log *l, double v) {
  if (l->n == l->capacity) {
    l->capacity = 2 * l->capacity + 1;
    l->data = realloc(l->data, l->capacity * sizeof(double));
  }
  l->data[l->n++] = v;
}

double logs(double x) {
  history.n = 0;
  push(&history, x * x);
  return 3 * history.data[0];
}

double writes(double x) {
  step(x);
  return peek();
}

double reads(double x) { return coeff(1) * x * x; }

int main(int argc, char **argv) {
  state = calloc(4, sizeof(double));
  coeffs = malloc(4 * sizeof(double));
  for (int i = 0; i < 4; ++i)
    coeffs[i] = sin(i + 1.0);
  double x = 1.5;
  if (argc > 1 && !strcmp(argv[1], "read")) {
    double d = __enzyme_autodiff((void *)reads, x);
    double want = 2 * x * sin(2.0);
    printf("d/dx %g, analytic %g\n", d, want);
    return fabs(d - want) > 1e-12 * fabs(want);
  }
  if (argc > 1 && !strcmp(argv[1], "member")) {
    history.data = calloc(4, sizeof(double));
    history.capacity = 4;
    printf("d/dx %g\n", __enzyme_autodiff((void *)logs, x));
    return 0;
  }
  double d = __enzyme_autodiff((void *)writes, x);
  printf("d/dx %g\n", d);
  return 0;
}
