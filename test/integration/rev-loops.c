// Reverse mode through loops: constant, dynamic and data-dependent trip
// counts, early and multiple exits, nested loops, a triangular nest whose
// inner trip count depends on the outer index, and a loop-carried value used
// after the loop.  Each is checked against finite differences, against
// forward mode (dot-product test) and at width 2 against single runs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// Values loops leave behind, kept every iteration instead of once:
// RUN: %gpuad-cc -O0 -mllvm -gpuad-last-iteration-cache=false %itest-flags %s -o %t.off -lm && %t.off
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 7

/* Constant trip count. */
double poly(double *x, int n) {
  (void)n;
  double s = 0.0;
  for (int i = 0; i < 5; ++i)
    s = s * x[i] + sin(x[i + 1]);
  return s;
}

/* Dynamic trip count, value carried out of the loop. */
double norm(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return sqrt(s);
}

/* Data-dependent while loop: iterates until the value is small. */
double halve(double *x, int n) {
  (void)n;
  double v = x[0] * x[0] + 10.0;
  int k = 0;
  while (v > 0.5 && k < 100) {
    v = v * 0.5 + 0.01 * sin(x[1] * v);
    ++k;
  }
  return v * x[2];
}

/* Early exit (break) and a second exit (return in the loop). */
double search(double *x, int n) {
  double acc = 1.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] < -0.9)
      return acc * x[i];
    acc = acc * (1.0 + 0.1 * x[i]);
    if (acc > 50.0)
      break;
  }
  return acc * acc;
}

/* Nested loops: a quadratic form x^T A(x) x with A_ij = cos(i - j) x_j. */
double quad(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double r = 0.0;
    for (int j = 0; j < n; ++j)
      r += cos((double)(i - j)) * x[j] * x[j];
    s += x[i] * r;
  }
  return s;
}

/* Triangular nest: the inner trip count depends on the outer index. */
double tri(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double p = 1.0;
    for (int j = 0; j <= i; ++j)
      p *= 1.0 + x[j] * x[i] * 0.1;
    s += log(p);
  }
  return s;
}

/* Data-dependent inner trip count inside a loop: Newton iterations for the
 * square root of each entry, to a tolerance. */
double newton(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double a = x[i] * x[i] + 1.0, r = a;
    while (fabs(r * r - a) > 1e-12 * a)
      r = 0.5 * (r + a / r);
    s += r;
  }
  return s;
}

/* In-place recurrence across loop iterations. */
void smooth(double *x, int n) {
  for (int it = 0; it < 3; ++it)
    for (int i = 1; i < n - 1; ++i)
      x[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * sin(x[i + 1]);
}

GC_SCALAR_OF_ARRAY(poly)
GC_SCALAR_OF_ARRAY(norm)
GC_SCALAR_OF_ARRAY(halve)
GC_SCALAR_OF_ARRAY(search)
GC_SCALAR_OF_ARRAY(quad)
GC_SCALAR_OF_ARRAY(tri)
GC_SCALAR_OF_ARRAY(newton)
GC_INPLACE(smooth)

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6, 0.35};
  GC_CHECK_SCALAR(poly, x, N);
  GC_CHECK_SCALAR(norm, x, N);
  GC_CHECK_SCALAR(halve, x, N);
  GC_CHECK_SCALAR(search, x, N);
  {
    /* The other exit: an entry below -0.9 returns from inside the loop. */
    double y[N] = {0.9, 0.4, -1.3, 0.25, -1.1, 0.6, 0.35};
    GC_CHECK_SCALAR(search, y, N);
  }
  GC_CHECK_SCALAR(quad, x, N);
  GC_CHECK_SCALAR(tri, x, N);
  GC_CHECK_SCALAR(newton, x, N);
  GC_CHECK_INPLACE(smooth, x, N);
  return gradcheck_exit();
}
