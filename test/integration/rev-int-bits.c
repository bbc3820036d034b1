// Doubles and floats that travel as integer bits: through noinline
// functions' integer parameters and returns, a union passed by value, an
// integer out-parameter, a uint64_t buffer, tagged records (a union of a
// double and a long), a float through uint32_t, and heap memory written as
// integers and read as doubles.  Also constants written over doubles as
// integer bits (their derivative is zero, in shadow memory too).  Each is
// checked in reverse mode against finite differences, by the dot-product
// test against forward mode, and at width 2.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --leak-check=full --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>
#include <stdint.h>

#define NOINLINE __attribute__((noinline))

static uint64_t tobits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static double frombits(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* A double's bits stored by a callee into heap memory it returns. */
NOINLINE uint64_t *store_bits(uint64_t bits) {
  uint64_t *p = (uint64_t *)malloc(16);
  memcpy(p, &bits, 8);
  p[1] = 3;
  return p;
}
double heap_bits(double *x, int n) {
  (void)n;
  uint64_t *p = store_bits(tobits(x[0]));
  double y;
  memcpy(&y, p, 8);
  free(p);
  return y * y + x[1];
}

/* Integer parameter and return. */
NOINLINE uint64_t square_bits(uint64_t u) {
  double d = frombits(u);
  return tobits(d * d);
}
double int_return(double *x, int n) {
  (void)n;
  return frombits(square_bits(tobits(x[0] * x[1]))) * 2.0;
}

/* A union by value. */
typedef union {
  double d;
  uint64_t u;
} Bits;
NOINLINE Bits triple(Bits a) {
  Bits r;
  r.d = a.d * 3.0;
  return r;
}
double union_value(double *x, int n) {
  (void)n;
  Bits a;
  a.d = x[0];
  Bits r = triple(a);
  return r.d * x[1];
}

/* An integer out-parameter. */
NOINLINE void put(uint64_t *out, uint64_t bits) { *out = bits; }
double out_param(double *x, int n) {
  (void)n;
  uint64_t b;
  put(&b, tobits(sin(x[0])));
  return frombits(b) * x[1];
}

/* A buffer of uint64_t holding doubles. */
NOINLINE double sum_buffer(const uint64_t *buf, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += frombits(buf[i]) * (i + 1);
  return s;
}
double buffer(double *x, int n) {
  uint64_t buf[4];
  for (int i = 0; i < 4; ++i)
    buf[i] = tobits(x[i % n] * x[(i + 1) % n]);
  return sum_buffer(buf, 4);
}

/* Tagged records: a union of a double and a long, by tag. */
typedef struct {
  int tag;
  union {
    double d;
    long l;
  } v;
} Record;
NOINLINE double sum_records(const Record *r, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i].tag ? r[i].v.d * r[i].v.d : (double)r[i].v.l;
  return s;
}
double records(double *x, int n) {
  (void)n;
  Record r[3];
  r[0].tag = 1;
  r[0].v.d = x[0];
  r[1].tag = 0;
  r[1].v.l = 7;
  r[2].tag = 1;
  r[2].v.d = 2 * x[1];
  return sum_records(r, 3);
}

/* A float through uint32_t. */
NOINLINE uint32_t square_float_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  f = f * f;
  memcpy(&u, &f, 4);
  return u;
}
double float_bits(double x) {
  float f = (float)x;
  uint32_t u;
  memcpy(&u, &f, 4);
  u = square_float_bits(u);
  memcpy(&f, &u, 4);
  return f;
}

/* Constants written over doubles as integer bits. */
NOINLINE void set_one(double *a) {
  uint64_t one = 0x3ff0000000000000ULL;
  memcpy(a, &one, 8);
}
NOINLINE void set_two_and(double *a, double x) {
  uint64_t b, two = 0x4000000000000000ULL;
  memcpy(&b, &x, 8);
  memcpy(&a[0], &two, 8);
  memcpy(&a[1], &b, 8);
}
double constant_bits(double *x, int n) {
  (void)n;
  double a[2], c[2];
  a[0] = x[0];
  a[1] = x[0] * x[1];
  set_one(a); /* overwrites x[0]'s value: its derivative goes too */
  set_two_and(c, x[1]);
  return a[0] * a[1] + c[0] * c[1] * c[1];
}

/* Bits read as integers (the sign, the exponent): piecewise constant. */
double sign_exponent(double *x, int n) {
  (void)n;
  uint64_t b = tobits(x[0]);
  int e = (int)((b >> 52) & 0x7ff) - 1023;
  return (b >> 63) ? -x[0] * e : x[0] * x[1] * e;
}

GC_SCALAR_OF_ARRAY(heap_bits)
GC_SCALAR_OF_ARRAY(sign_exponent)
GC_SCALAR_OF_ARRAY(int_return)
GC_SCALAR_OF_ARRAY(union_value)
GC_SCALAR_OF_ARRAY(out_param)
GC_SCALAR_OF_ARRAY(buffer)
GC_SCALAR_OF_ARRAY(records)
GC_SCALAR_OF_ARRAY(constant_bits)

/* The smallest program: a double's bits through a noinline function. */
double bits_once(double x) {
  uint64_t *p = store_bits(tobits(x));
  double y;
  memcpy(&y, p, 8);
  free(p);
  return y * y;
}

int main(void) {
  double x[3] = {0.7, -1.3, 0.4};
  GC_CHECK_SCALAR(heap_bits, x, 3);
  GC_CHECK_SCALAR(sign_exponent, x, 3);
  GC_CHECK_SCALAR(int_return, x, 3);
  GC_CHECK_SCALAR(union_value, x, 3);
  GC_CHECK_SCALAR(out_param, x, 3);
  GC_CHECK_SCALAR(buffer, x, 3);
  GC_CHECK_SCALAR(records, x, 3);
  GC_CHECK_SCALAR(constant_bits, x, 3);

  double d = __enzyme_autodiff((void *)bits_once, 1.5);
  check_close("bits_once' reverse", d, 3.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  d = __enzyme_fwddiff((void *)bits_once, 1.5, 1.0);
  check_close("bits_once' forward", d, 3.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  /* (float)x squared in float: 2 (float)x, to float precision. */
  d = __enzyme_autodiff((void *)float_bits, 0.7);
  check_close("float_bits' reverse", d, 2.0 * (float)0.7, GC_RTOL_EXACTF,
              GC_ATOL_EXACTF);
  d = __enzyme_fwddiff((void *)float_bits, 0.7, 1.0);
  check_close("float_bits' forward", d, 2.0 * (float)0.7, GC_RTOL_EXACTF,
              GC_ATOL_EXACTF);
  return gradcheck_exit();
}
