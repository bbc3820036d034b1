// Pure calls whose arguments are the same in every iteration run once in
// the derivative (moved out of the loop), and their backward half once with
// the summed adjoint.  Checked against finite differences and forward mode
// (dot-product test), together with the loops where the call must stay: the
// loop writes what it reads, its argument changes, it may leave before the
// call, or the callee writes memory.  A loop that runs no iteration must not
// run the call (head(NULL) would crash).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.nohoist -lm -mllvm -gpuad-hoist-invariant-calls=false && %t.nohoist
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

__attribute__((noinline)) double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}
__attribute__((noinline)) double head(const double *x) { return x[0] * x[0]; }

int calls;
__attribute__((noinline)) double counted(const double *x) {
  ++calls;
  return sin(x[1]);
}

/* Moved out: restrict, invariant arguments. */
void scale(double *__restrict__ out, const double *__restrict__ x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n) + x[j] * head(x);
}
/* Stays: the loop writes x, which mag reads. */
void inplace(double *x, int n) {
  for (int j = 0; j < n; j++)
    x[j] = x[j] / mag(x, n);
}
/* Stays: the argument changes with j. */
void prefix(double *__restrict__ out, const double *__restrict__ x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = mag(x, j + 1);
}
/* Stays: the loop may leave before the call. */
void until_large(double *__restrict__ out, const double *__restrict__ x,
                 int n) {
  for (int j = 0; j < n; j++) {
    if (x[j] > 1.5)
      break;
    out[j] = x[j] * head(x);
  }
}
/* Stays: the callee writes a global. */
void count(double *__restrict__ out, const double *__restrict__ x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] * counted(x);
}

GC_OUT_OF_ARRAY(scale)
GC_OUT_OF_ARRAY(prefix)
GC_OUT_OF_ARRAY(until_large)
GC_OUT_OF_ARRAY(count)
static void inplace_harness(double *x, double *y, void *c) {
  int n = *(int *)c;
  inplace(x, n);
  memcpy(y, x, sizeof(double) * n);
}

static const double x0[N] = {0.7, -1.3, 1.1, 0.4, 1.9, 1.6};

/* Reverse mode against finite differences and forward mode (the function
 * is named in each request, as gpuad needs). */
#define CHECK(f) GC_CHECK_OUT(f, x0, N)

int main(void) {
  CHECK(scale);
  CHECK(prefix);
  CHECK(until_large);
  CHECK(count);
  {
    /* The derivative runs the primal's calls as the program would: N. */
    double x[N], out[N], dx[N] = {0}, dout[N] = {1, 1, 1, 1, 1, 1};
    memcpy(x, x0, sizeof x);
    calls = 0;
    __enzyme_autodiff((void *)count, enzyme_dup, out, dout, enzyme_dup, x, dx,
                      N);
    check_close("count: calls in the reverse derivative", calls, N, 0, 0);
  }
  {
    int n = N;
    double x[N], dx[N], w[N];
    memcpy(x, x0, sizeof x);
    gc_direction(w, N, 5);
    memcpy(dx, w, sizeof w);
    __enzyme_autodiff((void *)inplace, enzyme_dup, x, dx, N);
    gc_check_vjp("inplace", inplace_harness, x0, N, N, &n, w, dx);
  }
  {
    /* No iteration: the call must not run (x is null). */
    double out[1] = {0}, dout[1] = {1};
    __enzyme_autodiff((void *)scale, enzyme_dup, out, dout, enzyme_dup,
                      (double *)0, (double *)0, 0);
    check_close("scale, no iteration", out[0], 0, 0, 0);
  }
  return gradcheck_exit();
}
