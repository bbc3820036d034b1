// Forward mode through plain arithmetic: +, -, *, /, negation, constants,
// and several active arguments whose tangents combine linearly.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* 3x^3 - 2x^2 + x - 7, written without pow. */
double poly(double x) { return 3.0 * x * x * x - 2.0 * x * x + x - 7.0; }

/* (x^2 + 1) / (x - 3): quotient rule. */
double rational(double x) { return (x * x + 1.0) / (x - 3.0); }

/* Negation and subtraction chains. */
double negsub(double x) { return -(x - 4.0 * x) - (-x) / 2.0 - (1.0 - x); }

/* Two active arguments. */
double two(double x, double y) { return x * y - x / y + y * y * x; }

/* Three arguments, the middle one a constant. */
double three(double a, double k, double b) {
  double s = a + b;
  double p = a * b;
  return k * s * s - p / (1.0 + a * a) + k;
}

/* Division by an active denominator only. */
double recip(double x) { return 1.0 / (x * x + 0.5); }

static double g_two_x(double x) { return two(x, 1.7); }
static double g_two_y(double y) { return two(-0.8, y); }

struct dir3 { double a, k, b, da, db; };
static double g_three(double t, void *ctx) {
  struct dir3 *d = (struct dir3 *)ctx;
  return three(d->a + t * d->da, d->k, d->b + t * d->db);
}

int main(void) {
  double xs[] = {-2.5, -0.3, 0.0, 0.7, 4.25};
  char name[96];
  for (int i = 0; i < 5; ++i) {
    double x = xs[i];
    double d = __enzyme_fwddiff((void *)poly, enzyme_dup, x, 1.0);
    snprintf(name, sizeof name, "poly'(%g) exact", x);
    check_close(name, d, 9.0 * x * x - 4.0 * x + 1.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
    snprintf(name, sizeof name, "poly'(%g) fd", x);
    check_close(name, d, gc_fd(poly, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)rational, enzyme_dup, x, 1.0);
    snprintf(name, sizeof name, "rational'(%g) exact", x);
    check_close(name, d, ((x - 3.0) * 2.0 * x - (x * x + 1.0)) / ((x - 3.0) * (x - 3.0)),
                GC_RTOL_EXACT, GC_ATOL_EXACT);
    snprintf(name, sizeof name, "rational'(%g) fd", x);
    check_close(name, d, gc_fd(rational, x), GC_RTOL_D, GC_ATOL_D);

    /* The tangent is linear in dx. */
    d = __enzyme_fwddiff((void *)negsub, enzyme_dup, x, -2.5);
    snprintf(name, sizeof name, "negsub'(%g)*-2.5 exact", x);
    check_close(name, d, -2.5 * (3.0 + 0.5 + 1.0), GC_RTOL_EXACT, GC_ATOL_EXACT);

    d = __enzyme_fwddiff((void *)recip, enzyme_dup, x, 1.0);
    snprintf(name, sizeof name, "recip'(%g) fd", x);
    check_close(name, d, gc_fd(recip, x), GC_RTOL_D, GC_ATOL_D);
  }

  /* Partial derivatives one at a time, then a mixed direction. */
  double x = -0.8, y = 1.7;
  double dx_only = __enzyme_fwddiff((void *)two, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0);
  double dy_only = __enzyme_fwddiff((void *)two, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0);
  check_close("two d/dx exact", dx_only, y - 1.0 / y + y * y, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("two d/dx fd", dx_only, gc_fd(g_two_x, x), GC_RTOL_D, GC_ATOL_D);
  check_close("two d/dy exact", dy_only, x + x / (y * y) + 2.0 * y * x, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("two d/dy fd", dy_only, gc_fd(g_two_y, y), GC_RTOL_D, GC_ATOL_D);
  double mixed = __enzyme_fwddiff((void *)two, enzyme_dup, x, 0.3, enzyme_dup, y, -1.1);
  check_close("two mixed direction", mixed, 0.3 * dx_only - 1.1 * dy_only, GC_RTOL_EXACT, GC_ATOL_EXACT);

  struct dir3 d3 = {1.3, 2.2, -0.4, 0.6, -1.5};
  double g = __enzyme_fwddiff((void *)three, enzyme_dup, d3.a, d3.da, enzyme_const, d3.k,
                              enzyme_dup, d3.b, d3.db);
  check_close("three (k const) fd", g, gc_fd_t(g_three, 0.0, &d3), GC_RTOL_D, GC_ATOL_D);

  return gradcheck_exit();
}
