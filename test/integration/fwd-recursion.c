// Forward mode through recursive functions: direct recursion on an integer
// depth (a power by squaring, a recursive polynomial), recursion on the
// active value itself (argument reduction for sin), mutual recursion, and
// divide-and-conquer over an array (pointer arguments into halves).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* x^n by squaring, recursive on n. */
double powsq(double x, int n) {
  if (n == 0)
    return 1.0;
  double h = powsq(x, n / 2);
  return (n % 2) ? h * h * x : h * h;
}

/* Chebyshev T_n(x) by the three-term recursion written recursively; with
 * x = cos(t), T_n = cos(n t) and dT_n/dx = n sin(n t) / sin(t). */
double cheb(double x, int n) {
  if (n == 0)
    return 1.0;
  if (n == 1)
    return x;
  return 2.0 * x * cheb(x, n - 1) - cheb(x, n - 2);
}

/* sin by recursive argument halving: sin x = 2 sin(x/2) cos(x/2), with
 * cos(x/2) = sqrt(1 - sin^2(x/2)) valid for |x| < pi.  Recurses on the
 * active value until it is small. */
double rsin(double x) {
  if (fabs(x) < 1e-3)
    return x - x * x * x / 6.0 + x * x * x * x * x / 120.0;
  double s = rsin(0.5 * x);
  return 2.0 * s * sqrt(1.0 - s * s);
}

/* Mutual recursion: even/odd parts of a series. */
double odd_part(double x, int n);
double even_part(double x, int n) {
  if (n <= 0)
    return 1.0;
  return 1.0 + x * odd_part(x, n - 1) / (2 * n);
}
double odd_part(double x, int n) {
  if (n <= 0)
    return x;
  return x * even_part(x, n - 1) / (2 * n + 1) + x;
}

/* Pairwise (divide-and-conquer) sum of log(1 + x_i^2) over an array. */
double pairwise(const double *x, int n) {
  if (n == 1)
    return log(1.0 + x[0] * x[0]);
  int h = n / 2;
  return pairwise(x, h) + pairwise(x + h, n - h);
}

static int g_n;
static double g_powsq(double x) { return powsq(x, g_n); }
static double g_cheb(double x) { return cheb(x, g_n); }
static double g_even(double x) { return even_part(x, g_n); }

int main(void) {
  char nm[96];
  volatile int ns[] = {0, 1, 2, 7, 16, 23};
  for (int k = 0; k < 6; ++k) {
    int n = ns[k];
    g_n = n;
    double x = 1.07;
    double d = __enzyme_fwddiff((void *)powsq, enzyme_dup, x, 1.0, n);
    snprintf(nm, sizeof nm, "powsq'(%g, %d) exact", x, n);
    check_close(nm, d, n ? n * pow(x, n - 1) : 0.0, 1e-13, 1e-15);
    snprintf(nm, sizeof nm, "powsq'(%g, %d) fd", x, n);
    check_close(nm, d, gc_fd(g_powsq, x), GC_RTOL_D, GC_ATOL_D);

    if (n <= 16) {
      double t = 0.9, c = cos(t);
      d = __enzyme_fwddiff((void *)cheb, enzyme_dup, c, 1.0, n);
      snprintf(nm, sizeof nm, "cheb'(cos %g, %d) exact", t, n);
      check_close(nm, d, n * sin(n * t) / sin(t), 1e-10, 1e-12);
      snprintf(nm, sizeof nm, "cheb'(cos %g, %d) fd", t, n);
      check_close(nm, d, gc_fd(g_cheb, c), GC_RTOL_D, GC_ATOL_D);
    }

    d = __enzyme_fwddiff((void *)even_part, enzyme_dup, 0.6, 1.0, n);
    snprintf(nm, sizeof nm, "even_part'(0.6, %d) fd", n);
    check_close(nm, d, gc_fd(g_even, 0.6), GC_RTOL_D, GC_ATOL_D);
  }
  const double xs[] = {-2.5, -0.4, 0.0005, 1.2, 3.0};
  for (int i = 0; i < 5; ++i) {
    double d = __enzyme_fwddiff((void *)rsin, enzyme_dup, xs[i], 1.0);
    snprintf(nm, sizeof nm, "rsin'(%g) ~ cos", xs[i]);
    check_close(nm, d, cos(xs[i]), 1e-8, 1e-10);
    snprintf(nm, sizeof nm, "rsin'(%g) fd", xs[i]);
    check_close(nm, d, gc_fd(rsin, xs[i]), 1e-5, GC_ATOL_D);
  }
  double arr[11], darr[11], want = 0.0;
  for (int i = 0; i < 11; ++i) {
    arr[i] = 0.3 * i - 1.4;
    darr[i] = (i % 4) - 1.5;
    want += 2.0 * arr[i] * darr[i] / (1.0 + arr[i] * arr[i]);
  }
  volatile int len = 11;
  double d = __enzyme_fwddiff((void *)pairwise, enzyme_dup, arr, darr, len);
  check_close("pairwise exact", d, want, 1e-13, 1e-15);
  return gradcheck_exit();
}
