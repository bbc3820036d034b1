// Split mode with the tape in a type of the program's own, as programs
// written for Enzyme declare __enzyme_augmentfwd: an 8-byte struct of
// chars, an integer, a struct large enough for the tape (returned through
// sret and passed back byval: the tape travels in it, no heap), a pair of
// tape and primal, and a recursive function (whose tape is a pointer, held
// in 8 bytes by value).  A tape larger than the declared type goes to the
// heap and the type holds the pointer.  Each gradient against finite
// differences and the combined gradient; valgrind checks that every boxed
// tape is freed.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <stdint.h>

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 5

/* y_i <- y_i + sin(x_i * k) * x_{i+1}: the tape keeps N sines' inputs. */
void smooth(const double *x, double *y, double k) {
  for (int i = 0; i < N; ++i)
    y[i] += sin(x[i] * k) * x[(i + 1) % N];
}
double norm2(const double *x, double k) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += x[i] * x[i] * k;
  return sqrt(s);
}
double horner(const double *c, int n, double t) {
  return n == 0 ? 0.0 : c[0] + t * horner(c + 1, n - 1, t);
}

struct byte8 {
  char x[8];
};
struct tape512 {
  char x[512];
};
struct with_primal {
  struct byte8 tape;
  double primal;
};
struct byte8 __enzyme_augmentfwd_b8(void *, ...);
uint64_t __enzyme_augmentfwd_u64(void *, ...);
struct tape512 __enzyme_augmentfwd_512(void *, ...);
struct with_primal __enzyme_augmentfwd_pair(void *, ...);
double __enzyme_reverse_d(void *, ...);

static double k0 = 1.7;
static void smooth_vec(double *x, double *y, void *c) {
  (void)c;
  memset(y, 0, sizeof(double) * N);
  smooth(x, y, k0);
}
static void norm2_vec(double *x, double *y, void *c) {
  (void)c;
  y[0] = norm2(x, k0);
}

int main(void) {
  double x0[N] = {0.4, -1.2, 0.7, 1.5, -0.3}, w[N], one = 1.0;
  gc_direction(w, N, 3);

  /* The same gradient by each declaration. */
  for (int kind = 0; kind < 3; ++kind) {
    double x[N], dx[N] = {0}, y[N] = {0}, dy[N];
    memcpy(x, x0, sizeof x);
    memcpy(dy, w, sizeof dy);
    double dk = 0;
    if (kind == 0) {
      struct byte8 t = __enzyme_augmentfwd_b8(
          (void *)smooth, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, k0);
      dk = __enzyme_reverse_d((void *)smooth, enzyme_dup, x, dx, enzyme_dup,
                              y, dy, enzyme_out, k0, t);
    } else if (kind == 1) {
      uint64_t t = __enzyme_augmentfwd_u64(
          (void *)smooth, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, k0);
      dk = __enzyme_reverse_d((void *)smooth, enzyme_dup, x, dx, enzyme_dup,
                              y, dy, enzyme_out, k0, t);
    } else {
      check_true("the tape fits 512 bytes",
                 __enzyme_augmentsize((void *)smooth, enzyme_dup, enzyme_dup,
                                      enzyme_out) <= 512);
      struct tape512 t = __enzyme_augmentfwd_512(
          (void *)smooth, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_out, k0);
      for (int i = 0; i < N; ++i)
        x[i] = -9.0; /* the reverse call must not read x again */
      dk = __enzyme_reverse_d((void *)smooth, enzyme_dup, x, dx, enzyme_dup,
                              y, dy, enzyme_out, k0, t);
    }
    gc_check_vjp(kind == 0 ? "byte8" : kind == 1 ? "u64" : "512", smooth_vec,
                 x0, N, N, NULL, w, dx);
    /* d/dk <w, y> = sum_i w_i cos(x_i k) x_i x_{i+1} */
    double want = 0;
    for (int i = 0; i < N; ++i)
      want += w[i] * cos(x0[i] * k0) * x0[i] * x0[(i + 1) % N];
    check_close("dk", dk, want, GC_RTOL_EXACT, GC_ATOL_EXACT);
  }

  /* The tape and the primal. */
  {
    double x[N], dx[N] = {0};
    memcpy(x, x0, sizeof x);
    struct with_primal a = __enzyme_augmentfwd_pair((void *)norm2, enzyme_dup,
                                                    x, dx, enzyme_const, k0);
    check_close("pair: primal", a.primal, norm2(x0, k0), GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    __enzyme_reverse((void *)norm2, enzyme_dup, x, dx, enzyme_const, k0, 1.0,
                     a.tape);
    gc_check_vjp("pair", norm2_vec, x0, N, 1, NULL, &one, dx);
  }

  /* A recursive function: its tape is a pointer, held by value. */
  {
    double c[5] = {1.0, -0.5, 0.25, 2.0, -1.0}, dc[5] = {0}, t = 0.7;
    struct with_primal a = __enzyme_augmentfwd_pair(
        (void *)horner, enzyme_dup, c, dc, enzyme_const, 5, enzyme_const, t);
    __enzyme_reverse((void *)horner, enzyme_dup, c, dc, enzyme_const, 5,
                     enzyme_const, t, 1.0, a.tape);
    double p = 1.0;
    for (int i = 0; i < 5; ++i, p *= t)
      check_close("recursive: dc", dc[i], p, GC_RTOL_EXACT, GC_ATOL_EXACT);
  }
  return gradcheck_exit();
}
