// The reverse-mode call ABI: default activities (floats out, pointers dup,
// integers const), enzyme_out adjoints returned in argument order (one value
// or a struct), enzyme_primal_return, enzyme_const, enzyme_dupnoneed, a void
// function whose output shadow is the seed (and is consumed), and width 2
// with enzyme_dupv.  Expected values are the analytic derivatives.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* f = a * sum_i p[i]^2 + sin(b) */
double f(double a, const double *p, int n, double b) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i];
  return a * s + sin(b);
}

/* out[i] = x[i]^3 (out's shadow is the seed; consumed). */
void cube(double *out, const double *x, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[i] * x[i];
}

typedef struct {
  double da, db;
} two;
typedef struct {
  double primal, da, db;
} three;
two __enzyme_autodiff_two(void *, ...);
three __enzyme_autodiff_three(void *, ...);

int main(void) {
  double p[3] = {0.5, -1.5, 2.0}, a = 0.7, b = 1.1, s = 0.25 + 2.25 + 4.0;

  /* Defaults: a out, p dup, n const, b out -> {da, db}; dp accumulated. */
  double dp[3] = {1.0, 1.0, 1.0}; /* gradients are added to what is there */
  two g = __enzyme_autodiff_two((void *)f, a, p, dp, 3, b);
  check_close("default da", g.da, s, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("default db", g.db, cos(b), GC_RTOL_EXACT, GC_ATOL_EXACT);
  for (int i = 0; i < 3; ++i)
    check_close("default dp added", dp[i], 1.0 + 2.0 * a * p[i],
                GC_RTOL_EXACT, GC_ATOL_EXACT);

  /* enzyme_primal_return: the primal first. */
  double dq[3] = {0, 0, 0};
  three h = __enzyme_autodiff_three((void *)f, enzyme_primal_return,
                                    enzyme_out, a, enzyme_dup, p, dq,
                                    enzyme_const, 3, enzyme_out, b);
  check_close("primal_return primal", h.primal, a * s + sin(b), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("primal_return da", h.da, s, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("primal_return db", h.db, cos(b), GC_RTOL_EXACT, GC_ATOL_EXACT);

  /* enzyme_const on a float: one adjoint comes back, as a double. */
  double dr[3] = {0, 0, 0};
  double db = __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_dup, p, dr,
                                enzyme_const, 3, enzyme_out, b);
  check_close("const a: db", db, cos(b), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("const a: dp[2]", dr[2], 2.0 * a * p[2], GC_RTOL_EXACT,
              GC_ATOL_EXACT);

  /* A void function: the output shadow is the seed, and is consumed. */
  double out[3], dout[3] = {1.0, 2.0, 3.0}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)cube, enzyme_dupnoneed, out, dout, enzyme_dup, p,
                    dx, 3);
  for (int i = 0; i < 3; ++i) {
    check_close("cube dx", dx[i], (i + 1.0) * 3.0 * p[i] * p[i], GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    check_close("cube seed consumed", dout[i], 0.0, 0.0, 0.0);
  }

  /* Width 2, enzyme_dupv: two seeds, two gradients. */
  double lanes_out[6] = {1.0, 0.0, 0.0, 0.0, 0.0, 1.0}, lanes_dx[6] = {0};
  __enzyme_autodiff((void *)cube, enzyme_width, 2, enzyme_dupv,
                    (int)(3 * sizeof(double)), out, lanes_out, enzyme_dupv,
                    (int)(3 * sizeof(double)), p, lanes_dx, 3);
  check_close("width 2 lane 0 dx[0]", lanes_dx[0], 3.0 * p[0] * p[0],
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("width 2 lane 0 dx[2]", lanes_dx[2], 0.0, 0.0, 0.0);
  check_close("width 2 lane 1 dx[2]", lanes_dx[5], 3.0 * p[2] * p[2],
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("width 2 lane 1 dx[0]", lanes_dx[3], 0.0, 0.0, 0.0);
  return gradcheck_exit();
}
