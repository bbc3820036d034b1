// Reverse mode through calls: callees with active scalar arguments and
// results, callees writing through pointers, calls inside loops (their tapes
// cached per iteration), a callee returning a pointer into active memory,
// direct and mutual recursion, calls to math functions with several outputs,
// and calls to inactive externals (printf, puts).  Callees are noinline so the
// calls survive to the pass at every optimisation level.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0 > %t.O0.out
// RUN: FileCheck %s --input-file %t.O0.out
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// Parameters taken as restrict: the callees' backward halves load them again.
// RUN: %gpuad-cc -O1 -mllvm -gpuad-assume-noalias-args %itest-flags %s -o %t.noalias -lm && %t.noalias
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}
// CHECK: step 0
// CHECK: gradcheck: all

#define _GNU_SOURCE
#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6
#define NOINLINE __attribute__((noinline))

NOINLINE double blend(double a, double b, double t) {
  return a * (1.0 - t) + b * t + 0.1 * sin(a * b);
}

/* Calls in a loop, a scalar carried through them. */
double chain(double *x, int n) {
  double s = x[0];
  for (int i = 1; i < n; ++i)
    s = blend(s, x[i], 0.3 + 0.1 * i);
  return s;
}

NOINLINE void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = a * x[i] + y[i] * y[i] * 0.5;
}

/* A callee writing through a pointer, called twice on overlapping data. */
void twice(double *x, int n) {
  double t[N];
  for (int i = 0; i < n; ++i)
    t[i] = cos(x[i]);
  axpy(x, t, 0.5, n);
  axpy(t, x, x[0], n);
  for (int i = 0; i < n; ++i)
    x[i] += t[i];
}

NOINLINE double *largest(double *x, int n) {
  double *best = x;
  for (int i = 1; i < n; ++i)
    if (x[i] > *best)
      best = x + i;
  return best;
}

/* A callee returning a pointer into active memory. */
double peak(double *x, int n) {
  double *p = largest(x, n);
  *p = *p * *p;
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * (i + 1);
  return s;
}

NOINLINE double power(double x, int k) {
  if (k == 0)
    return 1.0;
  double h = power(x, k / 2);
  return k % 2 ? h * h * x : h * h;
}

NOINLINE double odd(double x, int k);
NOINLINE double even(double x, int k) {
  return k == 0 ? x : sin(odd(x, k - 1)) + x;
}
NOINLINE double odd(double x, int k) { return k == 0 ? x * x : even(x, k - 1) * x; }

/* Internal (static) recursive callees: the optimiser gives them its fast
 * calling convention before gpuad runs, and the derivative's own recursive
 * calls must agree with the convention the derivative ends up with. */
static NOINLINE double srec(double a, int d) {
  return d == 0 ? a : sin(srec(a, d - 1)) * a + 0.1;
}
static NOINLINE double sodd(double x, int k);
static NOINLINE double seven(double x, int k) {
  return k == 0 ? x * x : cos(sodd(x, k - 1)) * x;
}
static NOINLINE double sodd(double x, int k) {
  return k == 0 ? x : seven(x, k - 1) + x * seven(x, k - 1);
}

/* Direct and mutual recursion. */
double recursion(double *x, int n) {
  (void)n;
  return power(x[0], 7) + even(x[1], 5) + power(x[2], 3) * odd(x[3], 4) +
         srec(x[4], 2) + seven(x[5], 3);
}

/* Math with several outputs, and inactive externals on the way. */
double mathcalls(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    double sn, cs, ip;
    sincos(x[i], &sn, &cs);
    int e;
    double m = frexp(x[i] * 3.0 + 5.0, &e);
    double fr = modf(x[i] * 2.5 + 7.3, &ip);
    s += sn * cs + m * e + fr;
    if (i == 0)
      printf("step %d\n", i);
  }
  puts("done");
  return s;
}

GC_SCALAR_OF_ARRAY(chain)
GC_INPLACE(twice)
GC_SCALAR_OF_ARRAY(peak)
GC_SCALAR_OF_ARRAY(recursion)
GC_SCALAR_OF_ARRAY(mathcalls)

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(chain, x, N);
  GC_CHECK_INPLACE(twice, x, N);
  GC_CHECK_SCALAR(peak, x, N);
  GC_CHECK_SCALAR(recursion, x, N);
  GC_CHECK_SCALAR(mathcalls, x, N);

  /* An active scalar argument and result of a callee, from the top. */
  double da = __enzyme_autodiff((void *)power, 1.1, 5);
  check_close("power'", da, 5.0 * pow(1.1, 4), GC_RTOL_EXACT, GC_ATOL_EXACT);
  return gradcheck_exit();
}
