// enzyme_const on scalars and pointers: a const argument contributes no
// tangent, takes no shadow, and the same function differentiated with
// different activity patterns in one program gives each pattern's partial.
// Integer arguments (unmarked) are const by default.  A const pointer that
// the function writes through must get the primal values and nothing else.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define N 5

/* Model prediction: sum_i w[i] * basis_i(x) * amp, basis from an int. */
double model(const double *w, double x, double amp, int degree) {
  double s = 0.0, xk = 1.0;
  for (int i = 0; i < N && i <= degree; ++i) {
    s += w[i] * xk;
    xk *= x;
  }
  return s * amp;
}

/* Writes a log into a buffer (const pointer: no shadow) and returns a value
 * that reads the buffer back: the read of constant memory is inactive. */
double with_log(double x, double *log_buf, long n) {
  for (long i = 0; i < n; ++i)
    log_buf[i] = (double)i * 0.5;
  return x * x * log_buf[n - 1] + x;
}

static const double g_w[N] = {0.5, -1.0, 0.25, 2.0, -0.75};
static double g_model_x(double x) { return model(g_w, x, 1.3, 4); }
static double g_model_amp(double a) { return model(g_w, 0.8, a, 4); }
static double g_model_w(double *w, void *c) { (void)c; return model(w, 0.8, 1.3, 4); }

int main(void) {
  double w[N] = {0.5, -1.0, 0.25, 2.0, -0.75};
  double dw[N] = {1.0, 1.0, 1.0, 1.0, 1.0};
  double x = 0.8, amp = 1.3;

  /* x active only. */
  double d = __enzyme_fwddiff((void *)model, enzyme_const, w, enzyme_dup, x, 1.0, enzyme_const,
                              amp, 4);
  check_close("model d/dx exact", d,
              amp * (w[1] + 2 * w[2] * x + 3 * w[3] * x * x + 4 * w[4] * x * x * x), 1e-14, 1e-15);
  check_close("model d/dx fd", d, gc_fd(g_model_x, x), GC_RTOL_D, GC_ATOL_D);

  /* amp active only. */
  d = __enzyme_fwddiff((void *)model, enzyme_const, w, enzyme_const, x, enzyme_dup, amp, 1.0, 4);
  check_close("model d/damp exact", d, model(w, x, 1.0, 4), 1e-14, 1e-15);
  check_close("model d/damp fd", d, gc_fd(g_model_amp, amp), GC_RTOL_D, GC_ATOL_D);

  /* w active only; the degree (an unmarked int) truncates the sum. */
  d = __enzyme_fwddiff((void *)model, enzyme_dup, w, dw, enzyme_const, x, enzyme_const, amp, 2);
  check_close("model d/dw (degree 2) exact", d, amp * (1.0 + x + x * x), 1e-14, 1e-15);
  d = __enzyme_fwddiff((void *)model, enzyme_dup, w, dw, enzyme_const, x, enzyme_const, amp, 4);
  check_close("model d/dw fd", d, gc_fd_dir(g_model_w, w, dw, N, NULL), GC_RTOL_D, GC_ATOL_D);

  /* Everything const: the tangent is zero. */
  d = __enzyme_fwddiff((void *)model, enzyme_const, w, enzyme_const, x, enzyme_const, amp, 4);
  check_close("model all const", d, 0.0, 0.0, 0.0);

  /* An int marked const explicitly behaves like an unmarked one. */
  double d1 = __enzyme_fwddiff((void *)model, enzyme_const, w, enzyme_dup, x, 1.0, enzyme_const,
                               amp, enzyme_const, 3);
  double d2 = __enzyme_fwddiff((void *)model, enzyme_const, w, enzyme_dup, x, 1.0, enzyme_const,
                               amp, 3);
  check_close("int explicit const = unmarked", d1, d2, 0.0, 0.0);
  check_close("model d/dx (degree 3) exact", d1, amp * (w[1] + 2 * w[2] * x + 3 * w[3] * x * x),
              1e-14, 1e-15);

  /* A const output buffer: primal values written, no shadow needed. */
  double buf[6] = {0};
  d = __enzyme_fwddiff((void *)with_log, enzyme_dup, 1.5, 1.0, enzyme_const, buf, 6L);
  check_close("with_log tangent exact", d, 2.0 * 1.5 * 2.5 + 1.0, 1e-15, 0.0);
  check_close("with_log wrote buf[5]", buf[5], 2.5, 0.0, 0.0);
  return gradcheck_exit();
}
