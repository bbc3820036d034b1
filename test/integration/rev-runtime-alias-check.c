// Derivatives whose call site cannot prove their arrays apart check at run
// time: they compute the bytes each pointer argument and each shadow will
// reach, and run the version with every pointer restrict only if no written
// range overlaps another.  Every function here reads values it may also
// overwrite, so the restrict version is wrong wherever the arrays really
// overlap.  Each function runs on placements of `out` and `x` inside one
// buffer: apart (adjacent, with a gap, reversed), the same, and overlapping
// by one element.  The gradient of the whole buffer is checked against
// central finite differences and against forward mode (dot-product test).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O2 %itest-flags %s -c -o /dev/null -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %gpuad-cc -O0 %itest-flags %s -c -o /dev/null -Rpass=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O0
// The overlapping placements need the check: with every pointer treated as
// restrict regardless, the same program computes wrong gradients.
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.unchecked -lm \
// RUN:   -mllvm -gpuad-assume-noalias-args -mllvm -gpuad-runtime-alias-check=false
// RUN: not %t.unchecked > %t.unchecked.out
// RUN: FileCheck %s --check-prefix=UNCHECKED < %t.unchecked.out
// UNCHECKED: FAIL

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define SIZE 200

/* out[i] = x[i] * x[n-1-i]: reads both ends of x. */
// CHECK: remark: derivative of 'pairwise': restrict version if, at run time, no written range overlaps another of: argument 1, the shadow of argument 1, argument 2, the shadow of argument 2
void pairwise(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * x[n - 1 - i];
}

/* A lower-triangular product: the inner trip count depends on i. */
// CHECK: remark: derivative of 'triangle': restrict version if
void triangle(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i) {
    double acc = 0;
    for (int j = 0; j <= i; ++j)
      acc += sin(x[j]) * x[i - j];
    out[i] = acc;
  }
}

/* Descending, writing one below what it reads. */
// CHECK: remark: derivative of 'backward'
void backward(double *out, const double *x, int n, int s) {
  for (int i = n - 1; i >= 1; --i)
    out[i - 1] = x[i] * x[i] - 0.5 * x[i - 1];
}

/* A stride known only at run time (negative in some calls).  Unoptimised,
 * the 32-bit product i * s is not known not to wrap: no ranges. */
// O2: remark: derivative of 'strided': restrict version if
// O0: remark: derivative of 'strided': no run-time alias check: the address of the load at line [[@LINE+3]] is not an affine
void strided(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i)
    out[i] = x[i * s] * x[i * s] + x[0];
}

/* Leaves the loop early, at data it reads. */
// CHECK: remark: derivative of 'early_exit': restrict version if
void early_exit(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i) {
    if (x[i] > 1.0)
      break;
    out[i] = x[i] * x[n - 1];
  }
}

/* A data-dependent index: no ranges, no check. */
// CHECK: remark: derivative of 'indirect': no run-time alias check: the address{{(es)?}} of the load at line [[@LINE+3]]
void indirect(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i)
    out[i] = x[(i * 7) % n] * x[i];
}

/* An index that wraps in 8 bits: 128, 192, 0, 64, ...  Its first and last
 * values do not bound it, so there are no ranges and no check (bounds from
 * them would miss that out == x overlaps x[0]). */
// CHECK: remark: derivative of 'narrow_wrap': no run-time alias check: the address of the load at line [[@LINE+3]] is not an affine function of loop counters
void narrow_wrap(double *out, const double *x, int n, int s) {
  for (int i = 0; i < n; ++i)
    out[i] = x[(signed char)(i * 64) + 128] * x[i];
}

struct placement {
  int out, x, n, s, size;
};

static double x0[SIZE];

#define PLACED(fn)                                                             \
  static void fn##_placed(double *buf, double *y, void *c) {                   \
    struct placement *p = (struct placement *)c;                               \
    fn(buf + p->out, buf + p->x, p->n, p->s);                                  \
    memcpy(y, buf, sizeof(double) * p->size);                                  \
  }

/* fn on buf + out, buf + x; the derivative of the whole buffer. */
#define CHECK_PLACED(fn, o, xo, nn, ss)                                        \
  do {                                                                         \
    struct placement p_ = {o, xo, nn, ss, SIZE};                               \
    double b_[SIZE], d_[SIZE], w_[SIZE], v_[SIZE], t_[SIZE];                   \
    char name_[96];                                                            \
    snprintf(name_, sizeof name_, "%s out=%d x=%d n=%d s=%d", #fn, o, xo, nn, \
             ss);                                                              \
    memcpy(b_, x0, sizeof b_);                                                 \
    gc_direction(w_, SIZE, 1);                                                 \
    memcpy(d_, w_, sizeof d_);                                                 \
    __enzyme_autodiff((void *)fn, enzyme_dup, b_ + (o), d_ + (o), enzyme_dup,  \
                      b_ + (xo), d_ + (xo), nn, ss);                           \
    gc_check_vjp(name_, fn##_placed, x0, SIZE, SIZE, &p_, w_, d_);             \
    memcpy(b_, x0, sizeof b_);                                                 \
    gc_direction(v_, SIZE, 2);                                                 \
    memcpy(t_, v_, sizeof t_);                                                 \
    __enzyme_fwddiff((void *)fn, enzyme_dup, b_ + (o), t_ + (o), enzyme_dup,   \
                     b_ + (xo), t_ + (xo), nn, ss);                            \
    gc_check_dot(name_, v_, d_, SIZE, t_, w_, SIZE);                           \
  } while (0)

PLACED(pairwise)
PLACED(triangle)
PLACED(backward)
PLACED(strided)
PLACED(early_exit)
PLACED(indirect)
PLACED(narrow_wrap)

/* Apart (adjacent either way, with a gap), the same array, and overlapping
 * by one element either way. */
#define CHECK_ALL(fn)                                                          \
  do {                                                                         \
    CHECK_PLACED(fn, 0, 8, 8, 1);                                              \
    CHECK_PLACED(fn, 8, 0, 8, 1);                                              \
    CHECK_PLACED(fn, 16, 2, 8, 1);                                             \
    CHECK_PLACED(fn, 4, 4, 8, 1);                                              \
    CHECK_PLACED(fn, 7, 0, 8, 1);                                              \
    CHECK_PLACED(fn, 0, 7, 8, 1);                                              \
  } while (0)

int main(void) {
  for (int i = 0; i < SIZE; ++i)
    x0[i] = 0.3 + 0.9 * sin(1.7 * i + 0.4);
  CHECK_ALL(pairwise);
  CHECK_ALL(triangle);
  CHECK_ALL(backward);
  CHECK_ALL(strided);
  CHECK_ALL(early_exit);
  CHECK_ALL(indirect);
  CHECK_PLACED(narrow_wrap, 0, 0, 6, 1);
  CHECK_PLACED(narrow_wrap, 10, 0, 6, 1);
  CHECK_PLACED(narrow_wrap, 0, 6, 6, 1);
  /* Stride 2 and -2: x[0], x[s], ... (x placed at the end for s < 0). */
  CHECK_PLACED(strided, 0, 8, 6, 2);
  CHECK_PLACED(strided, 0, 4, 6, 2);
  CHECK_PLACED(strided, 0, 23, 6, -2);
  CHECK_PLACED(strided, 14, 23, 6, -2);
  CHECK_PLACED(strided, 13, 23, 6, -2);
  return gradcheck_exit();
}
