// Unmarked arguments take their default activity in forward mode: a
// floating-point argument is dup (its tangent follows it), a pointer is dup
// (its shadow follows it), an integer is const.  Each call is compared with
// the same call written with explicit markers, and with the analytic value.
// Markers may also be passed by address (&enzyme_dup) rather than by value.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* v[0..n) weighted by a and b; n an int, k a long, c a float. */
double mix(double a, const double *v, int n, double b, long k, float c) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += v[i] * v[i] * (i + 1);
  return a * s + b * b * (double)k + sin(a * b) + (double)c * a;
}

int main(void) {
  double v[3] = {0.5, -1.5, 2.0}, dv[3] = {1.0, 0.0, -0.5};
  double a = 0.7, b = -1.1;
  float c = 2.5f;
  /* Unmarked: a (tangent 0.3), v (shadow dv), 3 (const), b (tangent -2),
   * 4L (const), c (tangent 0.5f). */
  double d_unmarked = __enzyme_fwddiff((void *)mix, a, 0.3, v, dv, 3, b, -2.0, 4L, c, 0.5f);
  double d_marked = __enzyme_fwddiff((void *)mix, enzyme_dup, a, 0.3, enzyme_dup, v, dv,
                                     enzyme_const, 3, enzyme_dup, b, -2.0, enzyme_const, 4L,
                                     enzyme_dup, c, 0.5f);
  double s = 0.5 * 0.5 * 1 + 1.5 * 1.5 * 2 + 2.0 * 2.0 * 3;
  double ds = 2 * 0.5 * 1.0 * 1 + 2 * 2.0 * -0.5 * 3;
  double want = 0.3 * s + a * ds + 2.0 * b * -2.0 * 4.0 + cos(a * b) * (0.3 * b + a * -2.0) +
                0.5 * a + 2.5 * 0.3;
  check_close("unmarked = marked", d_unmarked, d_marked, 0.0, 0.0);
  check_close("unmarked exact", d_unmarked, want, 1e-14, 1e-15);

  /* Mixed: some marked, some not. */
  double d_mixed = __enzyme_fwddiff((void *)mix, enzyme_const, a, v, dv, 3, enzyme_const, b, 4L,
                                    enzyme_const, c);
  check_close("mixed markers exact", d_mixed, a * ds, 1e-14, 1e-15);

  /* Markers by address. */
  double d_addr = __enzyme_fwddiff((void *)mix, &enzyme_dup, a, 0.3, &enzyme_dup, v, dv,
                                   &enzyme_const, 3, &enzyme_dup, b, -2.0, &enzyme_const, 4L,
                                   &enzyme_dup, c, 0.5f);
  check_close("markers by address exact", d_addr, want, 1e-14, 1e-15);
  return gradcheck_exit();
}
