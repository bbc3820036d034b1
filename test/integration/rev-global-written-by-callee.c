// Globals that carry derivatives between functions: a noinline callee
// writes a global with a value that carries a derivative and only the
// caller reads it; another callee writes an array the caller reads through
// a third callee; the caller writes a global that only a callee reads.
// Every function of the module agrees that these globals carry
// derivatives, so the writer leaves its tangent (or takes its adjoint) in
// the same shadow global the reader uses.  Reverse against
// central differences, the dot-product test against forward mode, at -O0
// to -O3 (not inlined at any level), forward before reverse and reverse
// twice: the shadow globals gpuad made start each run from zero.  (Were
// each function to decide alone, the callees' derivatives would never be
// called and d/dx would be 0; were a forward run's tangents left in the
// shadows, the reverse run would take them for seeds.)
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

#define N 2

double g;
double table[3];
double scratch;
// Many records of an integer and a double: their shadow's doubles are
// zeroed in a loop, their integers kept.
static struct {
  int id;
  double v;
} records[100];
double scale = 1.5; // read only: carries nothing

__attribute__((noinline)) void set(double x) { g = x * x; }

__attribute__((noinline)) void fill(const double *x) {
  for (int i = 0; i < 3; ++i)
    table[i] = sin(x[1] * (i + 1)) * scale;
}

__attribute__((noinline)) double entry(int i) { return table[i] * table[i]; }

__attribute__((noinline)) void fill_records(double a) {
  for (int i = 0; i < 100; ++i) {
    records[i].id = i;
    records[i].v = a * (i % 7);
  }
}

__attribute__((noinline)) double scratch_cubed(void) {
  return scratch * scratch * scratch;
}

double model(const double *x) {
  set(x[0]);
  fill(x);
  scratch = x[0] - 2 * x[1];
  fill_records(x[1]);
  double r = 0;
  for (int i = 0; i < 100; i += 9)
    r += records[i].v * records[i].v * records[i].id;
  return 3 * g + entry(1) + entry(2) * g * x[1] + scratch_cubed() + 1e-3 * r;
}

static void run(double *x, double *y, void *ctx) { y[0] = model(x); }

int main(void) {
  double x[N] = {0.7, -0.4}, dx[N] = {0}, v[N] = {0.3, -0.8};
  // Forward mode first: the tangents it leaves in the shadow globals gpuad
  // made (which the program cannot see) must not seed the reverse run.
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double w[1] = {1.0};
  gc_check_vjp("globals written by callees, reverse", run, x, N, 1, NULL, w,
               dx);
  gc_check_dot("globals written by callees", v, dx, N, &jv, w, 1);
  // And again: the adjoints the reverse run left must not count either.
  double dx2[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx2);
  gc_check_vjp("globals written by callees, second reverse run", run, x, N, 1,
               NULL, w, dx2);
  return gradcheck_exit();
}
