// Enzyme's registrations in C++: the registered functions have mangled
// names (a free function, an overload, a static member), and the
// registration globals are plain globals (mangled too: their names only need
// to contain the keyword), one extern "C", one a static member and one a
// variable in a namespace.  A std::vector-based model calls them; checked
// against central finite differences and, for reverse mode, by the
// dot-product test against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <vector>

static int augmented = 0, reversed = 0, forwarded = 0;

// An opaque scaled sine: gpuad cannot see through the volatile pointer.
static double sine_impl(double x, double k) { return std::sin(k * x); }
static double (*volatile sine_ptr)(double, double) = sine_impl;
double scaled_sine(double x, double k) { return sine_ptr(x, k); }
// An overload with the same name, not registered (and not called).
double scaled_sine(float x) { return std::sin(x); }

struct SineTape {
  double cosine;
};
struct SineAug {
  SineTape tape;
  double result;
};
struct SineAdjoints {
  double dx, dk;
};
SineAug sine_aug(double x, double k) {
  ++augmented;
  return {{std::cos(k * x)}, std::sin(k * x)};
}
SineAdjoints sine_rev(double x, double k, double seed, SineTape t) {
  ++reversed;
  return {seed * k * t.cosine, seed * x * t.cosine};
}
double sine_fwd(double x, double dx, double k, double dk) {
  ++forwarded;
  return std::cos(k * x) * (k * dx + x * dk);
}

extern "C" {
void *__enzyme_register_gradient_sine[3] = {
    (void *)(double (*)(double, double))scaled_sine, (void *)sine_aug,
    (void *)sine_rev};
}

struct Spring {
  // Energy of a spring of stiffness k stretched to x (opaque).
  static double energy(const double *x, double k);
  struct Aug {
    double x; // the tape: x[0], whose memory is freed before the reverse
    double result;
  };
  struct Pair {
    double result, tangent;
  };
  static Aug energy_aug(const double *x, const double *dx, double k);
  static double energy_rev(const double *x, double *dx, double k, double seed,
                           double tape);
  static Pair energy_fwd(const double *x, const double *dx, double k,
                         double dk);
  static void *registration[3];
};
static double energy_impl(const double *x, double k) {
  return 0.5 * k * x[0] * x[0];
}
static double (*volatile energy_ptr)(const double *, double) = energy_impl;
double Spring::energy(const double *x, double k) { return energy_ptr(x, k); }
Spring::Aug Spring::energy_aug(const double *x, const double *, double k) {
  ++augmented;
  return {x[0], 0.5 * k * x[0] * x[0]};
}
// x points into model()'s vector, freed when model() returns, before the
// reverse runs: the reverse reads x[0] from the tape.
double Spring::energy_rev(const double *, double *dx, double k, double seed,
                          double x0) {
  ++reversed;
  dx[0] += seed * k * x0;
  return seed * 0.5 * x0 * x0;
}
Spring::Pair Spring::energy_fwd(const double *x, const double *dx, double k,
                                double dk) {
  ++forwarded;
  return {0.5 * k * x[0] * x[0], k * x[0] * dx[0] + 0.5 * x[0] * x[0] * dk};
}
void *Spring::registration[3] = {(void *)Spring::energy,
                                 (void *)Spring::energy_aug,
                                 (void *)Spring::energy_rev};
namespace rules {
void *__enzyme_register_derivative_spring[2] = {(void *)Spring::energy,
                                                (void *)Spring::energy_fwd};
void *__enzyme_register_derivative_sine[2] = {
    (void *)(double (*)(double, double))scaled_sine, (void *)sine_fwd};
} // namespace rules
// The static member's name does not contain the keyword; this one does.
void *__enzyme_register_gradient_spring[3] = {(void *)Spring::energy,
                                              (void *)Spring::energy_aug,
                                              (void *)Spring::energy_rev};

double model(double *x, int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += scaled_sine(v[i], 1.0 + 0.5 * i) + Spring::energy(&v[i], 2.0 + i);
  return s;
}

static void model_vec(double *x, double *y, void *) { y[0] = model(x, 4); }

int main() {
  double x0[4] = {0.3, -0.8, 1.1, 0.5}, one = 1.0;
  double x[4], dx[4] = {0}, v[4];
  std::copy(x0, x0 + 4, x);
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_const, 4);
  gc_check_vjp("model", model_vec, x0, 4, 1, nullptr, &one, dx);
  check_true("registered reverse functions ran",
             augmented == 8 && reversed == 8);
  gc_direction(v, 4, 1);
  double jv = __enzyme_fwddiff<double>((void *)model, enzyme_dup, x, v,
                                       enzyme_const, 4);
  gc_check_dot("model", v, dx, 4, &jv, &one, 1);
  check_true("registered forward functions ran", forwarded == 8);
  return gradcheck_exit();
}
