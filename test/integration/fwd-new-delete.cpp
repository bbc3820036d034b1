// Forward mode through C++ heap allocation inside the differentiated
// function: new[]/delete[] work arrays, a single object from new/delete
// with a constructor, and std::nothrow new.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <cmath>
#include <cstdio>
#include <new>

// Cumulative trapezoid integral of f(t) = exp(-a t^2) on [0, 2] in n steps,
// through a new[]'d array of samples.
double trapezoid(double a, int n) {
  double *f = new double[n + 1];
  for (int i = 0; i <= n; ++i) {
    double t = 2.0 * i / n;
    f[i] = std::exp(-a * t * t);
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += 0.5 * (f[i] + f[i + 1]) * (2.0 / n);
  delete[] f;
  return s;
}

struct Accumulator {
  double sum;
  double sumsq;
  int count;
  explicit Accumulator(double seed) : sum(seed), sumsq(seed * seed), count(1) {}
  void add(double v) {
    sum += v;
    sumsq += v * v;
    ++count;
  }
  double variance() const {
    double m = sum / count;
    return sumsq / count - m * m;
  }
};

// Variance of {x, 2x+1, x^2, sin x} computed through a heap object.
double heap_object(const double *x) {
  Accumulator *acc = new Accumulator(x[0]);
  acc->add(2.0 * x[0] + 1.0);
  acc->add(x[0] * x[1]);
  acc->add(std::sin(x[1]));
  double v = acc->variance();
  delete acc;
  return v;
}

// A nothrow new'd buffer holding active values.
double nothrow_buffer(double x, int n) {
  double *b = new (std::nothrow) double[n];
  if (!b)
    return 0.0;
  b[0] = x;
  for (int i = 1; i < n; ++i)
    b[i] = std::sqrt(b[i - 1] + x);
  double r = b[n - 1];
  delete[] b;
  return r;
}

static int g_n;
static double g_trapezoid(double a) { return trapezoid(a, g_n); }
static double g_heap_object(double *x, void *) { return heap_object(x); }
static double g_nothrow(double x) { return nothrow_buffer(x, g_n); }

int main() {
  char nm[96];
  volatile int ns[] = {1, 8, 64};
  for (int k = 0; k < 3; ++k) {
    g_n = ns[k];
    double d = __enzyme_fwddiff<double>((void *)trapezoid, enzyme_dup, 0.6, 1.0, g_n);
    std::snprintf(nm, sizeof nm, "trapezoid n=%d fd", g_n);
    check_close(nm, d, gc_fd(g_trapezoid, 0.6), GC_RTOL_D, GC_ATOL_D);
  }
  // With many steps the integral's derivative approaches -int t^2 e^{-a t^2}.
  g_n = 4000;
  double d = __enzyme_fwddiff<double>((void *)trapezoid, enzyme_dup, 0.6, 1.0, 4000);
  double want = 0.0;
  for (int i = 0; i < 200000; ++i) {
    double t = 2.0 * (i + 0.5) / 200000;
    want -= t * t * std::exp(-0.6 * t * t) * (2.0 / 200000);
  }
  check_close("trapezoid n=4000 ~ integral", d, want, 1e-6, 1e-9);

  double x[2] = {0.7, -1.3}, dx[2] = {1.0, 0.4};
  d = __enzyme_fwddiff<double>((void *)heap_object, enzyme_dup, x, dx);
  check_close("heap_object fd", d, gc_fd_dir(g_heap_object, x, dx, 2, nullptr), GC_RTOL_D,
              GC_ATOL_D);

  volatile int ms[] = {1, 2, 10};
  for (int k = 0; k < 3; ++k) {
    g_n = ms[k];
    d = __enzyme_fwddiff<double>((void *)nothrow_buffer, enzyme_dup, 2.2, 1.0, g_n);
    std::snprintf(nm, sizeof nm, "nothrow_buffer n=%d fd", g_n);
    check_close(nm, d, gc_fd(g_nothrow, 2.2), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
