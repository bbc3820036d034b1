// Forward mode through control flow that depends on the input: if/else
// chains, early returns, ternaries that become selects, and a branch on an
// integer parameter.  Every point is away from the branch boundaries.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* A piecewise function with a different formula on each of four pieces. */
double piecewise(double x) {
  double r;
  if (x < -1.0)
    r = x * x * x;
  else if (x < 0.5)
    r = sin(x) + 2.0 * x;
  else if (x < 2.0)
    r = exp(0.5 * x) / x;
  else
    r = log(x) * x;
  return r * r + r;
}

/* Early returns; the value flowing out differs per path. */
double early(double x, double y) {
  if (x > y)
    return x * y;
  double z = x - y;
  if (z < -3.0)
    return z * z;
  return cos(z) * y;
}

/* Ternaries (selects at -O1 and above), including a nested one. */
double selects(double x) {
  double a = x > 0.0 ? x * x : -x;
  double b = x * a > 1.0 ? a / x : (x < -2.0 ? 3.0 * x : a + x);
  return a * b;
}

/* An integer parameter picks the formula; the double one is active. */
double by_mode(int mode, double x) {
  if (mode == 0)
    return x * x;
  if (mode & 1)
    return sqrt(x + 10.0) * mode;
  return exp(-x) * (double)mode;
}

/* Branch on a value computed from the input (|x| via a branch). */
double absbranch(double x) {
  double ax = x;
  if (ax < 0.0)
    ax = -ax;
  double s = 0.0;
  if (ax > 1.0)
    s = ax * ax;
  else
    s = ax;
  return s * x;
}

static double g_early_x(double t, void *c) { double *p = (double *)c; return early(p[0] + t * p[2], p[1] + t * p[3]); }
static int g_mode;
static double g_by_mode(double x) { return by_mode(g_mode, x); }

int main(void) {
  char nm[96];
  const double pts[] = {-3.1, -1.7, -0.6, 0.2, 0.8, 1.4, 2.6, 5.0};
  for (int i = 0; i < 8; ++i) {
    double x = pts[i], d;
    d = __enzyme_fwddiff((void *)piecewise, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "piecewise'(%g)", x);
    check_close(nm, d, gc_fd(piecewise, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)selects, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "selects'(%g)", x);
    check_close(nm, d, gc_fd(selects, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)absbranch, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "absbranch'(%g)", x);
    check_close(nm, d, gc_fd(absbranch, x), GC_RTOL_D, GC_ATOL_D);

    for (int mode = 0; mode < 4; ++mode) {
      g_mode = mode;
      d = __enzyme_fwddiff((void *)by_mode, mode, enzyme_dup, x, 1.0);
      snprintf(nm, sizeof nm, "by_mode(%d)'(%g)", mode, x);
      check_close(nm, d, gc_fd(g_by_mode, x), GC_RTOL_D, GC_ATOL_D);
    }

    /* early: all three returns are reached over these points. */
    double p[4] = {x, 0.45 * pts[7 - i], 0.7, -0.4};
    d = __enzyme_fwddiff((void *)early, enzyme_dup, p[0], p[2], enzyme_dup, p[1], p[3]);
    snprintf(nm, sizeof nm, "early(%g,%g)", p[0], p[1]);
    check_close(nm, d, gc_fd_t(g_early_x, 0.0, p), GC_RTOL_D, GC_ATOL_D);
  }
  /* Exact values on two pieces (selects(x) = x^3 for x > 1), to pin the formula and not only the FD. */
  check_close("piecewise'(-2) exact", __enzyme_fwddiff((void *)piecewise, enzyme_dup, -2.0, 1.0),
              (2.0 * -8.0 + 1.0) * 12.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("selects'(3) exact", __enzyme_fwddiff((void *)selects, enzyme_dup, 3.0, 1.0),
              3.0 * 3.0 * 3.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  return gradcheck_exit();
}
