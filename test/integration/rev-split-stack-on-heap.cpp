// Functions differentiated in split form (every call at -O0) whose stack
// addresses reach the backward half as they are: a reference to a local
// returned by a selector (std::max's shape) and kept per loop iteration, and
// a callee that keeps, per iteration, a pointer into the local array its
// caller handed it.  The backward half must use the same memory the
// augmented half did (it lives on the heap across the split), never a
// pointer into the finished augmented frame, whose memory later calls reuse
// (boost::odeint's controlled stepper at -O0 is this shape).  Reverse mode against central differences, at -O0 to -O2, and
// under valgrind (every block freed).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

static const double &larger(const double &a, const double &b) {
  return a < b ? b : a;
}

// A running maximum through references to locals.
static double peak(const double *x, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) {
    double v = sin(x[i]) + 0.5 * x[i];
    m = larger(m, v) * 1.25;
  }
  return m;
}

// Keeps a pointer into the caller's array per iteration.
static double sweep(const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *p = &w[(i * 2) % n];
    s += *p * *p + cos(w[i]) * s * 0.1;
  }
  return s;
}

static double stage(const double *x, int n) {
  double w[4];
  for (int i = 0; i < 4; ++i)
    w[i] = x[i % n] * (1.0 + 0.25 * i);
  return sweep(w, 4) + peak(w, 4);
}

double model(const double *x, int n) { return stage(x, n) * x[0]; }

static void run(double *x, double *y, void *) { y[0] = model(x, 3); }

int main(void) {
  double x[3] = {0.3, 1.2, -0.5}, dx[3] = {0};
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, 3);
  double w[1] = {1.0};
  gc_check_vjp("split frame on the heap", run, x, 3, 1, NULL, w, dx);
  return gradcheck_exit();
}
