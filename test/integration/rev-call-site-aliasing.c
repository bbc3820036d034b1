// The call site proves arguments disjoint: arrays the caller allocated and
// handed nowhere else get the facts `restrict` would give, and the remark
// names them.  Where aliasing is real (out == x, out == x + 1, a struct
// that holds the output array, a function that keeps its output pointer in
// a global), nothing is proven and the gradient is still
// right.  Every gradient is checked against central finite differences and
// against forward mode (dot-product test).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}
// RUN: %gpuad-cc -O2 %itest-flags %s -c -o /dev/null -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s
// RUN: %gpuad-cc -O0 %itest-flags %s -c -o /dev/null -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s
// With debug info the remark names the parameters as the source does:
// RUN: %gpuad-cc -O2 -g %itest-flags %s -c -o /dev/null -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAMES
// NAMES: remark: call site of the derivative of 'normalize': proven disjoint (treated as restrict): argument 1 'out', argument 2 'x'
// NAMES: remark: call site of the derivative of 'keep_and_scale': proven disjoint (treated as restrict): argument 2 'x'; not proven disjoint: argument 1 'out': it is stored to memory

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 5

__attribute__((noinline)) double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

/* Plain pointers: inside, out[j] = ... may change x. */
void normalize(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}

/* out[j] = x[j] * v->first[0] + out[j] / 10, where the caller pointed
 * v->first at out: writing out[0] changes what later iterations read. */
struct view {
  double *first;
};
void scale_by_first(double *out, const double *x, const struct view *v,
                    int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] * v->first[0] + 0.1 * out[j];
}

/* Keeps its output pointer in a global and reads out[0] back through it,
 * after writing it: the caller's array reaches the function a second way. */
double *kept;
void keep_and_scale(double *out, const double *x, int n) {
  kept = out;
  for (int j = 0; j < n; j++)
    out[j] = x[j] * kept[0] + 0.1 * out[j];
}

/* The harness forms (x is a scratch copy; y the result). */
static void normalize_vec(double *x, double *y, void *c) {
  int n = *(int *)c;
  normalize(y, x, n);
}
static void normalize_inplace_vec(double *x, double *y, void *c) {
  int n = *(int *)c;
  normalize(x, x, n);
  memcpy(y, x, sizeof(double) * n);
}
/* out = x + 1: x has n + 1 entries; y = x after the call. */
static void normalize_shifted_vec(double *x, double *y, void *c) {
  int n = *(int *)c;
  normalize(x + 1, x, n);
  memcpy(y, x, sizeof(double) * (n + 1));
}
static void scale_vec(double *x, double *y, void *c) {
  int n = *(int *)c;
  struct view v = {y};
  memcpy(y, x, sizeof(double) * n); /* out starts as a copy of x */
  scale_by_first(y, x, &v, n);
}

static void keep_vec(double *x, double *y, void *c) {
  int n = *(int *)c;
  memcpy(y, x, sizeof(double) * n); /* out starts as a copy of x */
  keep_and_scale(y, x, n);
}

static double x0[N + 1] = {0.7, -1.3, 2.1, 0.4, -0.9, 1.6};

// CHECK: remark: call site of the derivative of 'normalize': proven disjoint (treated as restrict): argument 1, argument 2
static void disjoint_arrays(void) {
  int n = N;
  double *x = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
  double *dx = calloc(N, sizeof(double)), *dout = malloc(sizeof(double) * N);
  double w[N], v[N], jv[N], t[N];
  memcpy(x, x0, sizeof x0 - sizeof(double));
  gc_direction(w, N, 4);
  memcpy(dout, w, sizeof w);
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x, dx,
                    N);
  gc_check_vjp("disjoint arrays", normalize_vec, x0, N, N, &n, w, dx);
  gc_direction(v, N, 5);
  memcpy(t, v, sizeof v);
  __enzyme_fwddiff((void *)normalize, enzyme_dup, out, jv, enzyme_dup, x, t, N);
  gc_check_dot("disjoint arrays", v, dx, N, jv, w, N);
  free(x);
  free(out);
  free(dx);
  free(dout);
}

// CHECK: remark: call site of the derivative of 'normalize': not proven disjoint: argument 1: the request also passes it as another argument; argument 2: the request also passes it as another argument
static void same_array(void) {
  int n = N;
  double *x = malloc(sizeof(double) * N), *dx = malloc(sizeof(double) * N);
  double w[N], v[N], t[N];
  memcpy(x, x0, sizeof(double) * N);
  gc_direction(w, N, 6);
  memcpy(dx, w, sizeof w);
  __enzyme_autodiff((void *)normalize, enzyme_dup, x, dx, enzyme_dup, x, dx, N);
  gc_check_vjp("out == x", normalize_inplace_vec, x0, N, N, &n, w, dx);
  memcpy(x, x0, sizeof(double) * N);
  gc_direction(v, N, 7);
  memcpy(t, v, sizeof v);
  __enzyme_fwddiff((void *)normalize, enzyme_dup, x, t, enzyme_dup, x, t, N);
  gc_check_dot("out == x", v, dx, N, t, w, N);
  free(x);
  free(dx);
}

// CHECK: remark: call site of the derivative of 'normalize': not proven disjoint: argument 1: the request also passes it as another argument
static void shifted_array(void) {
  int n = N;
  double *x = malloc(sizeof(double) * (N + 1));
  double *dx = malloc(sizeof(double) * (N + 1));
  double w[N + 1], v[N + 1], t[N + 1];
  memcpy(x, x0, sizeof x0);
  gc_direction(w, N + 1, 8);
  memcpy(dx, w, sizeof w);
  __enzyme_autodiff((void *)normalize, enzyme_dup, x + 1, dx + 1, enzyme_dup,
                    x, dx, N);
  gc_check_vjp("out == x + 1", normalize_shifted_vec, x0, N + 1, N + 1, &n, w,
               dx);
  memcpy(x, x0, sizeof x0);
  gc_direction(v, N + 1, 9);
  memcpy(t, v, sizeof v);
  __enzyme_fwddiff((void *)normalize, enzyme_dup, x + 1, t + 1, enzyme_dup, x,
                   t, N);
  gc_check_dot("out == x + 1", v, dx, N + 1, t, w, N + 1);
  free(x);
  free(dx);
}

// CHECK: remark: call site of the derivative of 'scale_by_first': proven disjoint (treated as restrict): argument 2, argument 3; not proven disjoint: argument 1: it is stored to memory
static void captured_in_struct(void) {
  int n = N;
  double *x = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
  double *dx = calloc(N, sizeof(double)), *dout = malloc(sizeof(double) * N);
  double w[N];
  struct view v = {out}, dv = {dout};
  memcpy(x, x0, sizeof(double) * N);
  memcpy(out, x0, sizeof(double) * N);
  gc_direction(w, N, 10);
  memcpy(dout, w, sizeof w);
  __enzyme_autodiff((void *)scale_by_first, enzyme_dup, out, dout, enzyme_dup,
                    x, dx, enzyme_dup, &v, &dv, N);
  /* The adjoint reaches x both directly and through out's initial value
   * (out started as a copy of x in scale_vec): add the two. */
  for (int i = 0; i < N; ++i)
    dx[i] += dout[i];
  gc_check_vjp("captured in a struct", scale_vec, x0, N, N, &n, w, dx);
  free(x);
  free(out);
  free(dx);
  free(dout);
}

// CHECK: remark: call site of the derivative of 'keep_and_scale': proven disjoint (treated as restrict): argument 2; not proven disjoint: argument 1: it is stored to memory
static void kept_by_callee(void) {
  int n = N;
  double *x = malloc(sizeof(double) * N), *out = malloc(sizeof(double) * N);
  double *dx = calloc(N, sizeof(double)), *dout = malloc(sizeof(double) * N);
  double w[N];
  memcpy(x, x0, sizeof(double) * N);
  memcpy(out, x0, sizeof(double) * N);
  gc_direction(w, N, 11);
  memcpy(dout, w, sizeof w);
  __enzyme_autodiff((void *)keep_and_scale, enzyme_dup, out, dout, enzyme_dup,
                    x, dx, N);
  for (int i = 0; i < N; ++i) /* out started as a copy of x */
    dx[i] += dout[i];
  gc_check_vjp("kept by the callee", keep_vec, x0, N, N, &n, w, dx);
  free(x);
  free(out);
  free(dx);
  free(dout);
}

int main(void) {
  disjoint_arrays();
  same_array();
  shifted_array();
  captured_in_struct();
  kept_by_callee();
  return gradcheck_exit();
}
