// A copy into the middle of an array whose elements are only read in a
// loop (the type analysis knows them at the array's start), with the array
// and its source behind pointers kept in memory (posix_memalign's
// out-pointer): the copied bytes are that array's floats.  Checked against
// central differences (GC_RTOL_D, GC_ATOL_D = 1e-6, 1e-8) and, forward
// against reverse, by the dot-product test (1e-10, 1e-12).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gpuad/gpuad.h>
#include <revcheck.h>
#include <stdlib.h>
#include <string.h>

#define N 8

double loss(const double *x) {
  double *a, *b;
  if (posix_memalign((void **)&a, 64, N * sizeof(double)) ||
      posix_memalign((void **)&b, 64, 2 * N * sizeof(double)))
    abort();
  memcpy(a, x, N * sizeof(double));
  memset(b, 0, 2 * N * sizeof(double));
  memcpy(b + N / 2, a, N * sizeof(double)); /* into b's middle */
  double *h = malloc(2 * N * sizeof(double));
  memcpy(h, b, 2 * N * sizeof(double));
  double s = 0;
  for (int i = 0; i < 2 * N; ++i)
    s += h[i] * h[i] * (1 + 0.25 * i);
  free(h);
  free(a);
  free(b);
  return s;
}

static void loss_vec(double *x, double *y, void *ctx) {
  (void)ctx;
  y[0] = loss(x);
}

int main(void) {
  double x[N], dx[N] = {0}, v[N], one = 1.0;
  gc_direction(x, N, 0);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
  gc_check_vjp("loss", loss_vec, x, N, 1, NULL, &one, dx);
  gc_direction(v, N, 1);
  double jv = __enzyme_fwddiff((void *)loss, enzyme_dup, x, v);
  gc_check_dot("loss", v, dx, N, &jv, &one, 1);
  return gradcheck_exit();
}
