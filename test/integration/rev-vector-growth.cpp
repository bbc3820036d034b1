// std::vector growth inside the differentiated function: push_back
// reallocates, and at -O0 libstdc++ moves the doubles to the new block with
// a memmove in a helper whose pointers the IR no longer types
// (std::__relocate_a_1<double, double>(double*, double*, double*, ...)).
// The helper's C++ name says its parameters are double*: the adjoints move
// back through the memmove (not "cannot tell what ... copies").  Reverse
// mode against central differences and forward mode, -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <vector>

#define N 7

// Keeps the squares of the running maxima, then sums them with weights.
double running(const double *x, int n) {
  std::vector<double> kept;
  double best = -1e300;
  for (int i = 0; i < n; ++i) {
    if (x[i] > best)
      best = x[i];
    kept.push_back(best * best + std::sin(x[i]));
  }
  double s = 0;
  for (size_t k = 0; k < kept.size(); ++k)
    s += kept[k] * (k + 1);
  return s;
}

static void run(double *x, double *y, void *) { y[0] = running(x, N); }

int main() {
  double x[N] = {0.3, -0.2, 0.9, 0.1, 1.4, -0.7, 0.5}, dx[N] = {0};
  double v[N] = {1, -0.5, 0.25, 2, -1, 0.75, 0.3};
  __enzyme_autodiff<void>((void *)running, enzyme_dup, x, dx, enzyme_const, N);
  double w[1] = {1};
  gc_check_vjp("vector growth", run, x, N, 1, nullptr, w, dx);
  double tv[N];
  for (int i = 0; i < N; ++i)
    tv[i] = v[i];
  double jv = __enzyme_fwddiff<double>((void *)running, enzyme_dup, x, tv,
                                       enzyme_const, N);
  gc_check_dot("vector growth", v, dx, N, &jv, w, 1);
  return gradcheck_exit();
}
