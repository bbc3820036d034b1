// Forward mode through ordinary C++ standard-library code inside the
// differentiated function: std::vector (sized construction, push_back
// growth, operator[] and iterators), std::array, and algorithms
// (std::accumulate, std::inner_product, std::max_element, std::sort).
// At -O0 every element access is a call returning a reference.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

// Sized vector, indexed writes, accumulate.
double sized(const double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = std::sin(x[i]) * x[i];
  return std::accumulate(v.begin(), v.end(), 0.0);
}

// push_back growth (reallocation moves active values), then a sort and the
// largest element times the sum.
double grown(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(x[i] * x[i] - 0.5 * x[i]);
  std::sort(v.begin(), v.end());
  double m = *std::max_element(v.begin(), v.end());
  return m * std::accumulate(v.begin(), v.end(), 0.0) + v.front();
}

// std::array and inner_product.
double arr(const double *x) {
  std::array<double, 4> a{}, b{};
  for (int i = 0; i < 4; ++i) {
    a[i] = std::exp(-x[i]);
    b[i] = x[(i + 1) % 4];
  }
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}

#define N 6
static double g_sized(double *x, void *) { return sized(x, N); }
static double g_grown(double *x, void *) { return grown(x, N); }
static double g_arr(double *x, void *) { return arr(x); }

int main() {
  double x[N] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9};
  double dx[N] = {1.0, 0.5, -0.25, 0.0, 2.0, -1.0};
  double d = __enzyme_fwddiff<double>((void *)sized, enzyme_dup, x, dx, N);
  double want = 0.0;
  for (int i = 0; i < N; ++i)
    want += (std::cos(x[i]) * x[i] + std::sin(x[i])) * dx[i];
  check_close("vector sized exact", d, want, 1e-14, 1e-15);
  check_close("vector sized fd", d, gc_fd_dir(g_sized, x, dx, N, nullptr), GC_RTOL_D, GC_ATOL_D);

  d = __enzyme_fwddiff<double>((void *)grown, enzyme_dup, x, dx, N);
  check_close("vector push_back + sort fd", d, gc_fd_dir(g_grown, x, dx, N, nullptr), GC_RTOL_D,
              GC_ATOL_D);

  d = __enzyme_fwddiff<double>((void *)arr, enzyme_dup, x, dx);
  check_close("std::array inner_product fd", d, gc_fd_dir(g_arr, x, dx, 4, nullptr), GC_RTOL_D,
              GC_ATOL_D);
  return gradcheck_exit();
}
