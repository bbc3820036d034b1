// std::copy between array members of a stepper object that has integer,
// flag and pointer members after them (boost odeint's state wrappers at
// -O0).  std::copy's memmove sees a `double *` whose caller also knows the
// members after the array; the copy's length is known only at run time.
// Its adjoint must move the array's floats (and stop the program if a copy
// ever ran past them), and a pointer bumped by a run-time index into the
// array must not take the neighbouring members as the array's elements.
// Reverse mode against central differences and by the dot-product test
// against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <algorithm>
#include <array>
#include <gpuad/gpuad.h>
#include <revcheck.h>

enum { N = 3, Steps = 20 };

using State = std::array<double, N>;

struct Stepper {
  State x;     // the state, then members that are not floats
  int calls = 0;
  bool first = true;
  long steps = 0;
  State dxdt;
  double *scale = nullptr;
  unsigned order = 2;
};

static void rhs(const State &x, State &dxdt, double k) {
  for (int i = 0; i < N; ++i)
    dxdt[i] = -k * x[i] + 0.1 * x[(i + 1) % N] * x[(i + 1) % N];
}

__attribute__((noinline)) static void save(const State &from, State &to) {
  std::copy(from.begin(), from.end(), to.begin());
}

// Sum of the state's elements, through a pointer bumped by a run-time
// index.
__attribute__((noinline)) static double total(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}

__attribute__((noinline)) static void step(Stepper &s, double dt) {
  State start;
  save(s.x, start);
  rhs(s.x, s.dxdt, *s.scale);
  for (int i = 0; i < N; ++i)
    s.x[i] += dt * s.dxdt[i];
  // Heun's correction from the saved start.
  State mid;
  rhs(s.x, mid, *s.scale);
  for (int i = 0; i < N; ++i)
    s.x[i] = start[i] + 0.5 * dt * (s.dxdt[i] + mid[i]);
  s.calls += 2;
  s.first = false;
  ++s.steps;
}

// y = (the state after Steps steps, the sum of its elements).
static void model(double *x, double *y, void *ctx) {
  (void)ctx;
  double k = 1.2;
  Stepper s;
  s.scale = &k;
  save(*reinterpret_cast<const State *>(x), s.x);
  for (int t = 0; t < Steps; ++t)
    step(s, 0.05);
  State out;
  save(s.x, out);
  for (int i = 0; i < N; ++i)
    y[i] = out[i];
  y[N] = total(s.x.data(), N) * s.steps;
}

static void grad(double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy,
                    enzyme_const, (void *)nullptr);
}

int main() {
  double x[N] = {1.0, 0.4, -0.7}, v[N] = {0.3, -1.1, 0.8};
  double w[N + 1] = {1.0, -0.5, 0.25, 0.125};
  double dx[N] = {0}, y[N + 1], dy[N + 1];
  std::copy(w, w + N + 1, dy);
  grad(x, dx, y, dy);
  gc_check_vjp("array member copy", model, x, N, N + 1, nullptr, w, dx);
  double ty[N + 1] = {0};
  __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_dup, y, ty,
                   enzyme_const, (void *)nullptr);
  gc_check_dot("array member copy", v, dx, N, ty, w, N + 1);
  return gradcheck_exit();
}
