// An argument passed as enzyme_const whose memory carries derivatives, at
// offsets no analysis can bound (an index read from memory): gpuad cannot
// size a scratch shadow, and says so instead of dropping the derivative.
// RUN: not %gpuad-cc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: argument 2 of '{{.*}}' is passed as enzyme_const, but derivatives flow through its memory {{.*}} here it cannot ({{.*}}): pass it with enzyme_dup and a zeroed shadow

#include <gpuad/gpuad.h>

double f(const double *w, double *state, const int *slot, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    state[slot[i]] = w[i] * w[i];
  for (int i = 0; i < n; ++i)
    s += state[slot[i]];
  return s;
}

void g(const double *w, double *dw, double *state, const int *slot, int n) {
  __enzyme_autodiff<void>((void *)f, enzyme_dup, w, dw, enzyme_const, state,
                           enzyme_const, slot, enzyme_const, n);
}
