// A function pointer in a duplicated struct: gpuad differentiates the
// function the primal pointer names where the shadow's pointer is null or
// the function itself (what __enzyme_virtualreverse gives).  A shadow
// holding something else is Enzyme's hand-written {augmented, reverse}
// pair: reverse mode calls it (its rule, 42 per unit seed, shows it was
// called), forward mode does not, and rather than ignore it silently the
// derivative stops there, with a message.  The other shadows' gradients
// are checked against the analytic value, in reverse and forward mode.
// RUN: %gpuad-cc -O0 %s -o %t0 -lm
// RUN: %gpuad-cc -O2 %s -o %t2 -lm
// RUN: %t0 same && %t0 zero && %t2 same && %t2 zero
// RUN: not --crash %t0 pair 2>&1 | FileCheck %s
// RUN: not --crash %t2 pair 2>&1 | FileCheck %s
// CHECK: reverse through the pair 84
// CHECK: gpuad: the shadow of the function pointer called in 'loss'{{.*}} holds neither null nor the function itself, such as Enzyme's hand-written {augmented, reverse} pair, which gpuad calls in reverse mode only

#include <math.h>
#include <stdio.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

struct Model {
  double (*f)(double);
  double k;
};

__attribute__((noinline)) double cube(double x) { return x * x * x; }

__attribute__((noinline)) double loss(struct Model *m, double x) {
  return m->f(x) * m->k;
}

typedef struct {
  void *tape;
  double result;
} TapeAndResult;
static TapeAndResult augment_cube(double x) {
  TapeAndResult r = {0, cube(x)};
  return r;
}
static double gradient_cube(double x, double seed, void *tape) {
  return 42 * seed;
}
static void *pair[2] = {(void *)augment_cube, (void *)gradient_cube};

int main(int argc, char **argv) {
  struct Model m = {cube, 2.0};
  struct Model dm = {cube, 0.0};
  if (!strcmp(argv[1], "zero"))
    dm.f = 0;
  if (!strcmp(argv[1], "pair"))
    dm.f = (double (*)(double))pair;
  double x = 1.5, want = 2.0 * 3 * x * x;
  double dx = __enzyme_autodiff((void *)loss, enzyme_dup, &m, &dm, x);
  if (!strcmp(argv[1], "pair")) {
    printf("reverse through the pair %g\n", dx); // 42 * seed k
    fflush(stdout);
  }
  struct Model tm = {dm.f, 0.0};
  double tx = __enzyme_fwddiff((void *)loss, enzyme_dup, &m, &tm, x, 1.0);
  printf("reverse %g forward %g analytic %g, dk %g (analytic %g)\n", dx, tx,
         want, dm.k, cube(x));
  return fabs(dx - want) > 1e-12 * want || fabs(tx - want) > 1e-12 * want ||
         fabs(dm.k - cube(x)) > 1e-12 * cube(x);
}
