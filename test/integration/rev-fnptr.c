// Calls through function pointers, reverse and forward mode: a table of
// math functions (libm declarations with rules and user functions) indexed
// at run time, a callback passed down to a noinline integrator, and a custom
// allocator called through a struct of pointers (inactive: the allocator's
// derivative allocates the shadow).  Each is checked against finite
// differences, by the dot-product test against forward mode, and at width 2.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0 > %t.O0.out
// RUN: FileCheck %s --input-file %t.O0.out
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}
// CHECK: gradcheck: all

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6
#define NOINLINE __attribute__((noinline))

typedef double (*unary)(double);

static double cube(double x) { return x * x * x; }
static double softplus(double x) { return log1p(exp(x)); }

/* libm functions (rules) and the program's own, in a constant table. */
static unary const table[] = {sin, exp, cube, cos, softplus, sqrt};
/* Which entry each term uses: data, not known at compile time. */
int ops[N] = {0, 1, 2, 3, 4, 5};

double table_sum(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += table[ops[i]](x[i] * x[i] + 0.1) * x[(i + 1) % n];
  return s;
}

/* A callback passed down: trapezoid rule of g over the samples. */
NOINLINE double trapezoid(const double *x, int n, unary g) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i)
    s += 0.5 * (g(x[i]) + g(x[i + 1])) * (x[i + 1] - x[i]);
  return s;
}

double callbacks(double *x, int n) {
  return trapezoid(x, n, softplus) + x[0] * trapezoid(x, n, cube) +
         trapezoid(x, n, tanh);
}

/* A custom allocator, called through a struct of pointers. */
typedef struct {
  void *(*alloc)(size_t bytes);
  void (*release)(void *p);
} allocator;

static void *my_alloc(size_t bytes) { return malloc(bytes); }
static void my_release(void *p) { free(p); }
allocator heap = {my_alloc, my_release};

double with_allocator(double *x, int n) {
  double *t = (double *)heap.alloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i)
    t[i] = sin(x[i]) * x[(i + 2) % n];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[(i + 1) % n];
  heap.release(t);
  return s;
}

GC_SCALAR_OF_ARRAY(table_sum)
GC_SCALAR_OF_ARRAY(callbacks)
GC_SCALAR_OF_ARRAY(with_allocator)

int main(void) {
  double x0[N] = {0.3, 0.8, -0.5, 1.1, 0.2, 0.6};
  double sorted[N] = {-0.7, -0.2, 0.1, 0.5, 0.9, 1.4};
  GC_CHECK_SCALAR(table_sum, x0, N);
  /* Another mapping of the same table at run time. */
  for (int i = 0; i < N; ++i)
    ops[i] = (5 * i + 2) % N;
  GC_CHECK_SCALAR(table_sum, x0, N);
  GC_CHECK_SCALAR(callbacks, sorted, N);
  GC_CHECK_SCALAR(with_allocator, x0, N);
  return gradcheck_exit();
}
