// Running maxima and minima (select recurrences): the reverse sweep keeps
// only the loop's last picking iteration, not which arm each iteration
// picked.  Checked against finite differences and forward mode (dot-product
// test) for: fmax and both select polarities, a loop that may leave before
// the select, a running maximum per row of a nested loop, two selects on one
// condition (the value at the maximum), a maximum no iteration updates (the
// adjoint goes to the start value), and a running maximum also stored every
// iteration (no companion: every iteration's condition is kept).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.off -lm -mllvm -gpuad-last-iteration-cache=false && %t.off

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 8

/* log-sum-exp: fmax, the start value x[0]. */
void lse(double *out, const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  out[0] = m + log(s);
}
/* The new value is the true operand; a product after the loop. */
void max_times(double *out, const double *x, int n) {
  double m = -1e300;
  for (int i = 0; i < n; i++)
    m = x[i] * x[i] > m ? x[i] * x[i] : m;
  out[0] = m * x[1];
}
/* The new value is the false operand (a running minimum). */
void min_keep(double *out, const double *x, int n) {
  double m = 1e300;
  for (int i = 0; i < n; i++)
    m = sin(x[i]) >= m ? m : sin(x[i]);
  out[0] = m;
}
/* The loop may leave before the select. */
void max_until(double *out, const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) {
    if (x[i] < -1.2)
      break;
    m = x[i] > m ? x[i] : m;
  }
  out[0] = m * m;
}
/* A running maximum per row. */
void row_max(double *out, const double *x, int n) {
  for (int r = 0; r < 2; r++) {
    double m = 0.5 * x[r * (n / 2)];
    for (int c = 0; c < n / 2; c++)
      m = fmax(m, x[r * (n / 2) + c] * x[c]);
    out[r] = m;
  }
}
/* Two selects on one condition: the maximum and a value beside it. */
void at_max(double *out, const double *x, int n) {
  double m = x[0], y = cos(x[0]);
  for (int i = 1; i < n; i++) {
    int c = x[i] > m;
    m = c ? x[i] : m;
    y = c ? cos(x[i]) : y;
  }
  out[0] = m + 3 * y;
}
/* No iteration picks a new value: the start value gets the adjoint. */
void never(double *out, const double *x, int n) {
  double m = 10 + x[2];
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i]);
  out[0] = m * x[3];
}
/* The running maximum is also stored: every iteration's condition counts. */
void prefix_max(double *out, const double *x, int n) {
  double m = x[0];
  for (int i = 0; i < n; i++) {
    m = fmax(m, x[i]);
    out[i] = m * x[i];
  }
}

GC_OUT_OF_ARRAY(lse)
GC_OUT_OF_ARRAY(max_times)
GC_OUT_OF_ARRAY(min_keep)
GC_OUT_OF_ARRAY(max_until)
GC_OUT_OF_ARRAY(row_max)
GC_OUT_OF_ARRAY(at_max)
GC_OUT_OF_ARRAY(never)
GC_OUT_OF_ARRAY(prefix_max)

/* No ties, so that finite differences see one maximum. */
static const double x0[N] = {0.7, -1.3, 1.1, 0.4, 1.9, -0.6, 1.6, 0.2};
static const double x1[N] = {0.1, 0.3, -0.2, 0.8, 1.4, -1.5, 2.5, 0.9};

#define CHECK(f, start) GC_CHECK_OUT(f, start, N)

int main(void) {
  CHECK(lse, x0);
  CHECK(lse, x1);
  CHECK(max_times, x0);
  CHECK(min_keep, x0);
  CHECK(min_keep, x1);
  CHECK(max_until, x0); /* leaves at x[1] = -1.3 */
  CHECK(max_until, x1); /* leaves at x[5] = -1.5 */
  CHECK(row_max, x0);
  CHECK(row_max, x1);
  CHECK(at_max, x0);
  CHECK(at_max, x1);
  CHECK(never, x0);
  CHECK(prefix_max, x0);
  CHECK(prefix_max, x1);
  return gradcheck_exit();
}
