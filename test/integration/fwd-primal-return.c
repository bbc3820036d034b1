// enzyme_primal_return: the request returns {primal, tangent}.  Checked for a
// double function (primal exact, tangent vs analytic and FD), a float
// function ({float, float}), width 2 ({primal, {t0, t1}}), and a function
// with side effects (the primal must be computed once, outputs written).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef struct { double primal, tangent; } dpair;
typedef struct { float primal, tangent; } fpair;
typedef struct { double primal; double tangent[2]; } dpair2;
dpair __enzyme_fwddiff_dpair(void *, ...);
fpair __enzyme_fwddiff_fpair(void *, ...);
dpair2 __enzyme_fwddiff_dpair2(void *, ...);

double f(double x, double y) { return exp(x) * cos(y) + x * y * y; }
float ff(float x) { return sinf(x) * sqrtf(1.0f + x * x); }

/* Writes through a pointer and returns a value that depends on it. */
double side(double *acc, double x) {
  *acc += x * x;
  return *acc * 2.0 + x;
}

static double g_f(double t, void *c) { double *p = (double *)c; return f(p[0] + t * p[2], p[1] + t * p[3]); }

int main(void) {
  char nm[96];
  const double xs[] = {-0.5, 0.3, 1.2};
  for (int i = 0; i < 3; ++i) {
    double x = xs[i], y = 0.7 - x;
    dpair r = __enzyme_fwddiff_dpair((void *)f, enzyme_primal_return, enzyme_dup, x, 1.0,
                                     enzyme_dup, y, 0.5);
    snprintf(nm, sizeof nm, "f(%g) primal", x);
    check_close(nm, r.primal, f(x, y), 1e-15, 0.0);
    snprintf(nm, sizeof nm, "f(%g) tangent exact", x);
    check_close(nm, r.tangent,
                exp(x) * cos(y) + y * y + 0.5 * (-exp(x) * sin(y) + 2.0 * x * y), 1e-14, 1e-15);
    double p[4] = {x, y, 1.0, 0.5};
    snprintf(nm, sizeof nm, "f(%g) tangent fd", x);
    check_close(nm, r.tangent, gc_fd_t(g_f, 0.0, p), GC_RTOL_D, GC_ATOL_D);

    float xf = (float)x;
    fpair rf = __enzyme_fwddiff_fpair((void *)ff, enzyme_primal_return, enzyme_dup, xf, 2.0f);
    snprintf(nm, sizeof nm, "ff(%g) primal", x);
    check_close(nm, rf.primal, ff(xf), 0.0, 0.0);
    double xd = xf;
    snprintf(nm, sizeof nm, "ff(%g) tangent exact", x);
    check_close(nm, rf.tangent,
                2.0 * (cos(xd) * sqrt(1.0 + xd * xd) + sin(xd) * xd / sqrt(1.0 + xd * xd)),
                GC_RTOL_EXACTF, GC_ATOL_EXACTF);

    dpair2 r2 = __enzyme_fwddiff_dpair2((void *)f, enzyme_width, 2, enzyme_primal_return,
                                        enzyme_dup, x, 1.0, 0.0, enzyme_dup, y, 0.0, 1.0);
    snprintf(nm, sizeof nm, "f(%g) width2 primal", x);
    check_close(nm, r2.primal, f(x, y), 1e-15, 0.0);
    snprintf(nm, sizeof nm, "f(%g) width2 d/dx", x);
    check_close(nm, r2.tangent[0], exp(x) * cos(y) + y * y, 1e-14, 1e-15);
    snprintf(nm, sizeof nm, "f(%g) width2 d/dy", x);
    check_close(nm, r2.tangent[1], -exp(x) * sin(y) + 2.0 * x * y, 1e-14, 1e-15);
  }

  /* The side effect happens exactly once; the primal sees it. */
  double acc = 1.0, dacc = 0.25;
  dpair rs = __enzyme_fwddiff_dpair((void *)side, enzyme_primal_return, enzyme_dup, &acc, &dacc,
                                    enzyme_dup, 0.5, 1.0);
  check_close("side acc updated once", acc, 1.25, 0.0, 0.0);
  check_close("side primal", rs.primal, 2.5 + 0.5, 0.0, 0.0);
  check_close("side dacc", dacc, 0.25 + 1.0, 0.0, 0.0);
  check_close("side tangent", rs.tangent, 2.0 * 1.25 + 1.0, 0.0, 0.0);
  return gradcheck_exit();
}
