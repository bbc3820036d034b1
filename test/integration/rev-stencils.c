// Reverse mode through stencils, whose adjoints add to in_bar[i-1],
// in_bar[i] and in_bar[i+1] in every iteration.  At -O1 and above those
// updates are carried in registers from one iteration to the next (an
// address loaded by its first update, stored by its last; the first
// iteration's addresses loaded before the loop, the last one's stored after
// it) or, where a position is left out, reordered.  Each stencil runs at
// sizes that give its loop one, two, three and many iterations, walking up
// and down, and is checked against finite differences and against forward
// mode (dot-product test).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

/* Three points, with a nonlinear term (its adjoint reads in[i]). */
void heat(double *restrict out, const double *restrict in, int n) {
  for (int i = 1; i < n - 1; ++i)
    out[i] = in[i] + 0.2 * (in[i - 1] - 2 * in[i] + in[i + 1]) +
             0.01 * (in[i] - in[i] * in[i] * in[i]);
}

/* The same loop walking down. */
void heat_down(double *restrict out, const double *restrict in, int n) {
  for (int i = n - 2; i >= 1; --i)
    out[i] = in[i] + 0.2 * (in[i - 1] - 2 * in[i] + in[i + 1]) +
             0.01 * (in[i] - in[i] * in[i] * in[i]);
}

/* Five points: four carried positions. */
void five(double *restrict out, const double *restrict in, int n) {
  for (int i = 2; i < n - 2; ++i)
    out[i] = -in[i - 2] + 16 * in[i - 1] - 30 * in[i] + 16 * in[i + 1] -
             in[i + 2] + sin(in[i]);
}

/* A centred difference: in[i] is left out (no register carries in_bar[i+1]
 * to in_bar[i-1]), so the updates are only reordered. */
void centred(double *restrict out, const double *restrict in, int n) {
  for (int i = 1; i < n - 1; ++i)
    out[i] = in[i + 1] * in[i + 1] - in[i - 1];
}

/* No restrict: the buffers may alias, so the updates stay in memory unless
 * the run-time check finds them apart. */
void heat_plain(double *out, const double *in, int n) {
  for (int i = 1; i < n - 1; ++i)
    out[i] = in[i] + 0.2 * (in[i - 1] - 2 * in[i] + in[i + 1]) +
             0.01 * (in[i] - in[i] * in[i] * in[i]);
}

GC_OUT_OF_ARRAY(heat)
GC_OUT_OF_ARRAY(heat_down)
GC_OUT_OF_ARRAY(five)
GC_OUT_OF_ARRAY(centred)
GC_OUT_OF_ARRAY(heat_plain)

int main(void) {
  double x[40];
  for (int i = 0; i < 40; ++i)
    x[i] = 0.8 * sin(0.7 * i + 0.3);
  /* Sizes with one, two and three interior points, and many. */
  const int sizes[] = {3, 4, 5, 40};
  for (int k = 0; k < 4; ++k) {
    int n = sizes[k];
    GC_CHECK_OUT(heat, x, n);
    GC_CHECK_OUT(heat_down, x, n);
    GC_CHECK_OUT(centred, x, n);
    GC_CHECK_OUT(heat_plain, x, n);
  }
  const int wide[] = {5, 6, 7, 40};
  for (int k = 0; k < 4; ++k)
    GC_CHECK_OUT(five, x, wide[k]);
  return gradcheck_exit();
}
