// Enzyme's Clang attributes, written as Enzyme's documentation shows them,
// in every spelling (GNU, C++11, scoped C++11), on free functions, a
// template, a member function and a global; gpuad-cc loads the frontend
// plugin that understands them.
//  - enzyme_inactive: a call of f(a) = 2a carries no derivative (d/da of
//    f(a) + a^2 is 2a, not 2 + 2a), nor does a stop-gradient identity, nor
//    a global written with an active value that a callee reads.
//  - enzyme_function_like("log1p"): a series for log1p, and a function that
//    is not log1p at all (2a), differentiated as log1p: 1/(1+a).
//  - enzyme_nofree, enzyme_shouldrecompute, enzyme_sparse_accumulate: hints
//    that leave the derivative what finite differences say.
// Reverse mode is checked against the analytic value (and finite differences
// where the attribute does not change the function's derivative), forward
// mode the same, and the dot-product test ties the two.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// Without the frontend plugin clang ignores the attributes (a warning), and
// the same checks fail: the test can tell.  (The inactive global is left
// out there: without the attribute it is an error, not a wrong number.)
// RUN: %clangxx -O2 -fpass-plugin=%plugin -I%gpuad-src/include %itest-flags \
// RUN:   -Wno-unknown-attributes -DWITHOUT_GLOBAL %s -o %t.noplugin -lm
// RUN: not %t.noplugin | FileCheck %s --check-prefix=WITHOUT
// WITHOUT: FAIL inactive f, reverse
// WITHOUT: FAIL stop-gradient, reverse
// WITHOUT: FAIL like log1p (2a), reverse

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

__attribute__((enzyme_inactive)) double twice(double a) { return 2 * a; }
double with_inactive(double a) { return twice(a) + a * a; }

// A stop-gradient: the identity, inactive.  The optimizer must not replace
// the call by its argument before gpuad sees it (d/da of stop(a) * a is a).
__attribute__((enzyme_inactive)) double stop(double a) { return a; }
double with_stop(double a) { return stop(a) * a; }

// The attribute on a declaration: the body is in this file, later.
[[enzyme::inactive]] double thrice(double a);
double with_inactive_decl(double a) { return thrice(a) * a; }
double thrice(double a) { return 3 * a; }

template <class T> [[enzyme_inactive]] T scaled(T a) { return T(5) * a; }
double with_template(double a) { return scaled(a) + sin(a); }

struct Model {
  double k;
  [[enzyme::inactive]] double offset(double a) const { return k * a; }
  double eval(double a) const { return offset(a) + a * a * a; }
};
double with_member(double a) {
  Model m{4.0};
  return m.eval(a);
}

// A global the function writes an active value to, and a callee reads:
// inactive, it needs no shadow (without the attribute, a callee that reads
// globals cannot be told which of them carry derivatives: an error).
#ifndef WITHOUT_GLOBAL
[[enzyme::inactive]] double last_value;
int reports;
__attribute__((noinline)) void report() {
  if (last_value > 100)
    ++reports;
}
double with_inactive_global(double a) {
  last_value = a * a;
  report();
  return a * a * a;
}
#endif

__attribute__((noinline, enzyme_function_like("log1p"))) double
series_log1p(double t) {
  double s = 0.0, p = t;
  for (int k = 1; k < 80; ++k, p *= -t)
    s += p / k;
  return s;
}
double with_series(double a) { return series_log1p(a) * 3.0; }

__attribute__((noinline, enzyme_function_like("log1p"))) double
not_log1p(double a) { return 2 * a; }
double with_not_log1p(double a) { return not_log1p(a); }

[[enzyme::nofree]] __attribute__((noinline)) double
no_free(double a) { return a * exp(a); }
[[enzyme::shouldrecompute]] __attribute__((noinline)) double
recomputed(double a) { return cos(a) * a; }
[[enzyme::sparse_accumulate]] __attribute__((noinline)) double
sparse(double a) { return a / (1 + a * a); }
double with_hints(double a) { return no_free(a) + recomputed(a) * sparse(a); }

// d/da by reverse and forward mode against `want` (and the two against each
// other: for a scalar the dot-product test is equality).  A macro: the
// request must name the function itself.
static void check(const char *name, double rev, double fwd, double want) {
  char label[96];
  snprintf(label, sizeof label, "%s, reverse", name);
  check_close(label, rev, want, GC_RTOL_D, GC_ATOL_D);
  snprintf(label, sizeof label, "%s, forward", name);
  check_close(label, fwd, want, GC_RTOL_D, GC_ATOL_D);
  snprintf(label, sizeof label, "%s, <J 1, 1> = <1, J^T 1>", name);
  check_close(label, fwd, rev, GC_RTOL_DOT, GC_ATOL_DOT);
}
#define CHECK(name, f, a, want)                                                \
  check(name, __enzyme_autodiff((void *)f, a),                                 \
        __enzyme_fwddiff((void *)f, a, 1.0), want)

int main() {
  const double a = 0.3;
  CHECK("inactive f", with_inactive, a, 2 * a);
  CHECK("stop-gradient", with_stop, a, a);
  CHECK("inactive declaration", with_inactive_decl, a, 3 * a);
  CHECK("inactive template", with_template, a, cos(a));
  CHECK("inactive member", with_member, a, 3 * a * a);
#ifndef WITHOUT_GLOBAL
  CHECK("inactive global", with_inactive_global, a, 3 * a * a);
#endif
  CHECK("like log1p (series)", with_series, a, 3.0 / (1 + a));
  CHECK("like log1p (series) fd", with_series, a, gc_fd(with_series, a));
  CHECK("like log1p (2a)", with_not_log1p, a, 1.0 / (1 + a));
  CHECK("hints", with_hints, a, gc_fd(with_hints, a));
  return gradcheck_exit();
}
