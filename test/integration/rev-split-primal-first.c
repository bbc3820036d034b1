// Split mode with the augmented call declared as returning {primal, tape}
// (Enzyme's own layout is {tape, primal}; its virtualshadow test declares
// `struct { double x; void *tape; }`): the fields' types say which is
// which, so the primal lands in the double and the tape, boxed, in the
// pointer.  A function that needs a tape (a loop product), checked against
// the analytic derivative and finite differences, and forward mode (dot
// product), at -O0 and -O2.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

typedef struct {
  double primal;
  void *tape;
} PrimalTape;
PrimalTape __enzyme_augmentfwd_pt(void *, ...);

// prod_i sin(x_i + i)
double prodsin(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i)
    p *= sin(x[i] + i);
  return p;
}

static void run(double *x, double *y, void *ctx) { y[0] = prodsin(x, 4); }

int main(void) {
  double x[4] = {0.3, -0.2, 0.9, 0.4}, dx[4] = {0}, v[4] = {1, -1, 0.5, 2};
  PrimalTape a = __enzyme_augmentfwd_pt((void *)prodsin, enzyme_dup, x, dx,
                                        enzyme_const, 4);
  check_close("primal", a.primal, prodsin(x, 4), 0, 0);
  __enzyme_reverse((void *)prodsin, enzyme_dup, x, dx, enzyme_const, 4, 1.0,
                   a.tape);
  double w[1] = {1};
  gc_check_vjp("{primal, tape} split", run, x, 4, 1, NULL, w, dx);
  double tv[4] = {v[0], v[1], v[2], v[3]};
  double jv = __enzyme_fwddiff((void *)prodsin, enzyme_dup, x, tv,
                               enzyme_const, 4);
  gc_check_dot("{primal, tape} split", v, dx, 4, &jv, w, 1);
  return gradcheck_exit();
}
