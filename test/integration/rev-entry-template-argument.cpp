// An entry point passed as a template argument: the instance's mangled name
// (`run<&__enzyme_autodiff>`) contains `__enzyme_autodiff`, but it is not a
// request -- only a function whose own name (without scope, template
// arguments and parameters) contains one is.  The request inside the
// instance is differentiated as usual; checked against the analytic
// gradient.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gpuad/gpuad.h>
#include <gradcheck.h>

double cube_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i];
  return s;
}

void __enzyme_autodiff_entry(void *, ...);

template <void (*Entry)(void *, ...)>
__attribute__((noinline)) void run(const double *x, double *dx, int n) {
  Entry((void *)cube_sum, enzyme_dup, x, dx, enzyme_const, n);
}

int main() {
  double x[3] = {0.5, -1.5, 2.0}, dx[3] = {0, 0, 0};
  run<__enzyme_autodiff_entry>(x, dx, 3);
  for (int i = 0; i < 3; ++i)
    check_close("d/dx", dx[i], 3 * x[i] * x[i], GC_RTOL_EXACT, GC_ATOL_EXACT);
  return gradcheck_exit();
}
