// Copies of records that mix floats with integers: an array of structs
// copied whole (memcpy of a local array, as at -O0), a struct assigned, and
// one record copied by a noinline helper whose length is known only at run
// time.  Reverse mode moves the adjoint of every float field of every
// record the copy covers: the array's layout repeats at its element size.
// Reverse against central differences, the dot-product test against
// forward mode, at -O0 to -O3 and under valgrind.  (Moving the fields of
// the first record only, d/dx of records 1 and 2 would come out 0.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>
#include <string.h>

#define R 3

struct Particle {
  long id;
  double pos;
  float mass;
  int tag;
  double vel;
};

__attribute__((noinline)) static void copy_bytes(void *dst, const void *src,
                                                 size_t n) {
  memcpy(dst, src, n);
}

double energy(const double *x) {
  struct Particle a[R], b[R];
  for (int k = 0; k < R; ++k) {
    a[k].id = k;
    a[k].pos = x[2 * k] * x[2 * k + 1];
    a[k].mass = (float)(1.0 + 0.25 * k);
    a[k].tag = 7 * k;
    a[k].vel = sin(x[2 * k + 1]);
  }
  memcpy(b, a, sizeof a);
  struct Particle last = b[R - 1], moved;
  copy_bytes(&moved, &b[1], sizeof moved);
  double e = last.pos * last.vel + moved.vel * moved.vel;
  for (int k = 0; k < R; ++k)
    e += b[k].mass * b[k].vel * b[k].vel + b[k].pos * (b[k].id + 1);
  return e;
}

static void run(double *x, double *y, void *ctx) { y[0] = energy(x); }

int main(void) {
  double x[2 * R], dx[2 * R] = {0}, v[2 * R];
  for (int i = 0; i < 2 * R; ++i) {
    x[i] = 0.4 + 0.3 * sin(i + 1.0);
    v[i] = 0.5 * cos(i + 0.3);
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("copied records, reverse", run, x, 2 * R, 1, NULL, w, dx);
  double jv = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v);
  gc_check_dot("copied records", v, dx, 2 * R, &jv, w, 1);
  return gradcheck_exit();
}
