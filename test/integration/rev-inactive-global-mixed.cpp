// A global the program marks inactive, written through a pointer that
// chooses between it and differentiated memory (Enzyme's inactiveglob test:
// `if (cond) tmp *= a; else *c *= a;`, a select of the two pointers at -O2).
// The merged memory needs a shadow; the global's is a twin zeroed on every
// entry, so its derivative is 0 however often the function runs (forward
// mode run twice with the global's branch taken must not see the first
// run's tangent).  Against the analytic derivative, -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

[[enzyme::inactive]] double scale = 1.5;

__attribute__((noinline)) void update(bool cond, double a, double *c) {
  if (cond)
    scale *= a;
  else
    *c *= a;
}

// x * x through *c when !cond; x * scale-independent otherwise.
double model(bool cond, double a) {
  double dat = a;
  update(cond, a, &dat);
  return dat + scale * 0.0 + (cond ? a * scale : 0.0);
}

int main() {
  const double a = 3.0;
  // !cond: dat = a * a, d/da = 2a.
  check_close("inactive global, other branch, reverse",
              __enzyme_autodiff<double>((void *)model, enzyme_const, false,
                                        enzyme_out, a),
              2 * a, 0, 1e-12);
  check_close("inactive global, other branch, forward",
              __enzyme_fwddiff<double>((void *)model, enzyme_const, false,
                                       enzyme_dup, a, 1.0),
              2 * a, 0, 1e-12);
  check_close("inactive global kept its value", scale, 1.5, 0, 0);
  // cond: scale *= a (inactive), result a + a * scale: d/da = 1 + scale
  // (scale's own change carries no derivative), on each of two runs.
  for (int run = 0; run < 2; ++run) {
    double s = scale;
    double d = __enzyme_fwddiff<double>((void *)model, enzyme_const, true,
                                        enzyme_dup, a, 1.0);
    check_close("inactive global's branch, forward", d, 1 + s * a, 0, 1e-12);
  }
  return gradcheck_exit();
}
