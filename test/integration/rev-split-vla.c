// A variable-length array in a function differentiated in split form (a
// callee of the requested one, not inlined): its reverse sweep addresses
// the array's shadow, whose size only the augmented half knows.  On the
// host it is one heap block for both halves, as are the VLAs of Eigen's
// dynamic matrix products.  Reverse mode against central differences and by the
// dot-product test against forward mode, at -O0 to -O2, and under valgrind.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O2 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

#define N 5

__attribute__((noinline)) static double weigh(const double *x, int n) {
  double tmp[n];
  for (int i = 0; i < n; ++i)
    tmp[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += tmp[i] * tmp[(i + 2) % n];
  return s;
}

double model(const double *x, int n) { return weigh(x, n) * x[0]; }

static void run(double *x, double *y, void *ctx) { y[0] = model(x, N); }

int main(void) {
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.4 + 0.3 * sin(i + 1.0);
    v[i] = 0.5 * cos(i + 0.3);
  }
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, N);
  double w[1] = {1.0};
  gc_check_vjp("split VLA", run, x, N, 1, NULL, w, dx);
  double t =
      __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_const, N);
  gc_check_dot("split VLA", v, dx, N, &t, w, 1);
  return gradcheck_exit();
}
