// Heap structs as ADBench's hand objective builds them (a matrix type with a
// pointer to its heap data), with the two things that make it hard:
//  - a program function named `copy` (hand's matrix copy), which is not the
//    rule table's internal identity row of that name: its derivative must
//    be made, or the copied matrix has no shadow data (a crash in the
//    reverse sweep of the next product);
//  - a constructor returning a new struct whose field points to a second
//    heap block: the block needs a shadow too, not only the struct.
// Reverse mode against central differences and forward mode (dot product),
// at -O0 to -O3, and under valgrind.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <stdlib.h>

#define N 3

typedef struct {
  int n;
  double *data;
} Vec;

__attribute__((noinline)) Vec *new_vec(int n) {
  Vec *v = (Vec *)malloc(sizeof(Vec));
  v->n = n;
  v->data = (double *)calloc((size_t)n, sizeof(double));
  return v;
}

__attribute__((noinline)) void delete_vec(Vec *v) {
  free(v->data);
  free(v);
}

// The program's own copy: resizes dst like src and copies the values.
__attribute__((noinline)) void copy(Vec *dst, const Vec *src) {
  free(dst->data);
  dst->n = src->n;
  dst->data = (double *)malloc((size_t)src->n * sizeof(double));
  for (int i = 0; i < src->n; ++i)
    dst->data[i] = src->data[i];
}

__attribute__((noinline)) void scale(const Vec *in, double k, Vec *out) {
  free(out->data);
  out->n = in->n;
  out->data = (double *)malloc((size_t)in->n * sizeof(double));
  for (int i = 0; i < in->n; ++i)
    out->data[i] = k * in->data[i] * in->data[i];
}

double objective(const Vec *x) {
  Vec *a = new_vec(x->n), *b = new_vec(x->n), *c = new_vec(x->n);
  copy(a, x);
  scale(x, 2.0, b);
  scale(a, 0.5, c);
  double s = 0;
  for (int i = 0; i < x->n; ++i)
    s += sin(b->data[i]) + c->data[i] * a->data[i];
  delete_vec(a);
  delete_vec(b);
  delete_vec(c);
  return s;
}

static void run(double *xs, double *y, void *ctx) {
  Vec x = {N, xs};
  y[0] = objective(&x);
}

int main(void) {
  double xs[N] = {0.3, -0.7, 1.1}, dxs[N] = {0}, v[N] = {1, 0.5, -2};
  Vec x = {N, xs}, dx = {N, dxs};
  __enzyme_autodiff((void *)objective, enzyme_dup, &x, &dx);
  double w[1] = {1};
  gc_check_vjp("heap structs", run, xs, N, 1, NULL, w, dxs);
  double tv[N] = {v[0], v[1], v[2]};
  Vec t = {N, tv};
  double jv = __enzyme_fwddiff((void *)objective, enzyme_dup, &x, &t);
  gc_check_dot("heap structs", v, dxs, N, &jv, w, 1);
  return gradcheck_exit();
}
