// Reverse mode through callees that return a struct holding both a pointer
// and floats: the pointer's shadow comes back from the augmented half, the
// floats' adjoints go to the backward half as its seed.  Shapes: a pointer
// and a double; a record nested in the result; a result chosen on a
// branch; one loaded from memory; and reverse over reverse (the second
// derivative of a loop whose first derivative's tape, pointers and the
// value returned with them, is what the outer derivative differentiates).
// Against central differences and the dot-product test against forward
// mode, at -O0 to -O3.  (These were refused: "it holds both pointers and
// floating point values".)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

#define N 3
#define NOINLINE __attribute__((noinline))

struct View {
  double *at;
  double scale;
};

struct Tagged {
  struct {
    double *p;
    int n;
  } ref;
  double weight;
};

NOINLINE struct View view(double *x, int k) {
  struct View v = {x + k, sin(x[0]) + k};
  return v;
}

NOINLINE struct Tagged tagged(double *x) {
  struct Tagged t;
  t.ref.p = x + 1;
  t.ref.n = 2;
  t.weight = x[2] * x[2];
  return t;
}

NOINLINE struct View pick(double *x, int which) {
  struct View v;
  if (which) {
    v.at = x + 2;
    v.scale = exp(x[1]);
  } else {
    v.at = x;
    v.scale = 2 * x[2];
  }
  return v;
}

NOINLINE struct View stored(double *x, struct View *slots) {
  slots[0] = view(x, 1);
  slots[1] = pick(x, 1);
  return slots[x[0] > 0];
}

double model(double *x) {
  struct View a = view(x, 2);
  struct Tagged t = tagged(x);
  struct View b = pick(x, x[0] > 0);
  struct View slots[2];
  struct View c = stored(x, slots);
  double s = 0;
  for (int i = 0; i < t.ref.n; ++i)
    s += t.ref.p[i] * t.weight;
  return a.scale * *a.at + s + b.scale * *b.at + c.scale * c.at[0];
}

// Reverse over reverse: d/dx of the first derivative of a loop.
static double poly(double x) {
  double r = 0, p = 1;
  for (int i = 1; i <= 5; ++i) {
    p *= x;
    r += p / i;
  }
  return r;
}
static double dpoly(double x) { return __enzyme_autodiff((void *)poly, x); }
static double ddpoly(double x) { return __enzyme_autodiff((void *)dpoly, x); }

static void run(double *x, double *y, void *ctx) { y[0] = model(x); }

int main(void) {
  double x[N] = {0.7, -0.4, 1.3}, dx[N] = {0}, v[N] = {0.3, -0.8, 0.5};
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("pointer-and-float returns, reverse", run, x, N, 1, NULL, w,
               dx);
  gc_check_dot("pointer-and-float returns", v, dx, N, &jv, w, 1);
  // poly' = sum x^(i-1), poly'' = sum (i-1) x^(i-2).
  double t = 0.8, want = 0;
  for (int i = 2; i <= 5; ++i)
    want += (i - 1) * pow(t, i - 2);
  check_close("reverse over reverse", ddpoly(t), want, 1e-12, 0);
  return gradcheck_exit();
}
