// Split mode: __enzyme_augmentfwd runs the forward pass and returns the tape,
// __enzyme_reverse later takes it and computes the gradient.  The tape
// travels as a heap pointer (the default), by value in enzyme_allocated N
// bytes, or through memory given with enzyme_tape (sized by
// __enzyme_augmentsize).  Between the two calls the caller overwrites the
// inputs: the gradient must not depend on them.  Checked against finite
// differences and, by the dot-product test, against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

/* E(x, k) = (sum_i sin(k x_i) x_i)^2, with a data-dependent early exit. */
double energy(const double *x, int n, double k) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    if (x[i] > 5.0)
      break;
    s += sin(k * x[i]) * x[i];
  }
  return s * s;
}

/* x_i <- x_i * x_{i-1} / 2 + cos(x_i), in place. */
void step(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = 0.5 * x[i] * x[i - 1] + cos(x[i]);
}

/* Recursive: the augmented half boxes its own tape. */
double horner(const double *c, int n, double t) {
  return n == 0 ? 0.0 : c[0] + t * horner(c + 1, n - 1, t);
}

typedef struct {
  void *tape;
  double primal;
} heap_aug;
typedef struct {
  char bytes[256];
} blob;
typedef struct {
  blob tape;
  double primal;
} blob_aug;
heap_aug __enzyme_augmentfwd_heap(void *, ...);
blob_aug __enzyme_augmentfwd_blob(void *, ...);
double __enzyme_augmentfwd_value(void *, ...);

static double k0 = 1.3;
static void energy_vec(double *x, double *y, void *c) {
  (void)c;
  y[0] = energy(x, N, k0);
}
static void step_vec(double *x, double *y, void *c) {
  (void)c;
  step(x, N);
  memcpy(y, x, sizeof(double) * N);
}
static double energy_of_k(double k, void *c) { return energy((double *)c, N, k); }

int main(void) {
  double x0[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6}, one = 1.0;

  /* Heap tape; x is overwritten between the two calls. */
  {
    double x[N], dx[N] = {0}, v[N], jv;
    memcpy(x, x0, sizeof x);
    heap_aug a = __enzyme_augmentfwd_heap((void *)energy, enzyme_dup, x, dx,
                                          enzyme_const, N, enzyme_out, k0);
    check_close("heap: primal", a.primal, energy(x0, N, k0), GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    for (int i = 0; i < N; ++i)
      x[i] = 100.0; /* the reverse pass must not read x again */
    double dk = __enzyme_reverse((void *)energy, enzyme_dup, x, dx,
                                 enzyme_const, N, enzyme_out, k0, 1.0, a.tape);
    gc_check_vjp("heap", energy_vec, x0, N, 1, NULL, &one, dx);
    check_close("heap: dE/dk", dk, gc_fd_t(energy_of_k, k0, x0), GC_RTOL_D,
                GC_ATOL_D);
    memcpy(x, x0, sizeof x);
    gc_direction(v, N, 1);
    jv = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v, enzyme_const, N,
                          enzyme_const, k0);
    gc_direction(v, N, 1);
    gc_check_dot("heap", v, dx, N, &jv, &one, 1);
  }

  /* By value in 256 bytes. */
  {
    double x[N], dx[N] = {0};
    memcpy(x, x0, sizeof x);
    check_true("allocated: the tape fits",
               __enzyme_augmentsize((void *)energy, enzyme_dup, enzyme_const,
                                    enzyme_out) <= sizeof(blob));
    blob_aug a = __enzyme_augmentfwd_blob(
        (void *)energy, enzyme_allocated, (int)sizeof(blob), enzyme_dup, x, dx,
        enzyme_const, N, enzyme_out, k0);
    for (int i = 0; i < N; ++i)
      x[i] = -7.0;
    double dk = __enzyme_reverse((void *)energy, enzyme_allocated,
                                 (int)sizeof(blob), enzyme_dup, x, dx,
                                 enzyme_const, N, enzyme_out, k0, 1.0, a.tape);
    gc_check_vjp("allocated", energy_vec, x0, N, 1, NULL, &one, dx);
    check_close("allocated: dE/dk", dk, gc_fd_t(energy_of_k, k0, x0),
                GC_RTOL_D, GC_ATOL_D);
  }

  /* Through memory of __enzyme_augmentsize bytes; an in-place update whose
   * output shadow is the seed. */
  {
    double x[N], s[N], w[N];
    memcpy(x, x0, sizeof x);
    gc_direction(w, N, 2);
    memcpy(s, w, sizeof s);
    size_t bytes = __enzyme_augmentsize((void *)step, enzyme_dup, enzyme_const);
    void *tape = malloc(bytes ? bytes : 1);
    __enzyme_augmentfwd((void *)step, enzyme_tape, tape, enzyme_dup, x, s,
                        enzyme_const, N);
    for (int i = 0; i < N; ++i)
      x[i] = 0.0;
    __enzyme_reverse((void *)step, enzyme_tape, tape, enzyme_dup, x, s,
                     enzyme_const, N);
    free(tape);
    gc_check_vjp("memory", step_vec, x0, N, N, NULL, w, s);
  }

  /* A recursive function in split mode. */
  {
    double c[5] = {1.0, -0.5, 0.25, 2.0, -1.0}, dc[5] = {0}, t = 0.7;
    heap_aug a = __enzyme_augmentfwd_heap((void *)horner, enzyme_dup, c, dc,
                                          enzyme_const, 5, enzyme_out, t);
    double dt = __enzyme_reverse((void *)horner, enzyme_dup, c, dc,
                                 enzyme_const, 5, enzyme_out, t, 1.0, a.tape);
    double want_dt = 0.0, p = 1.0;
    for (int i = 1; i < 5; ++i, p *= t)
      want_dt += i * c[i] * p;
    check_close("recursive: primal", a.primal, horner(c, 5, t), GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    check_close("recursive: dt", dt, want_dt, GC_RTOL_EXACT, GC_ATOL_EXACT);
    p = 1.0;
    for (int i = 0; i < 5; ++i, p *= t)
      check_close("recursive: dc", dc[i], p, GC_RTOL_EXACT, GC_ATOL_EXACT);
  }
  return gradcheck_exit();
}
