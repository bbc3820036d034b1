// C++ calls through pointers, reverse and forward mode: virtual methods
// (base pointers to derived objects, one of them calling another virtual
// method), and an ODE integrator template (RK4 over several steps, odeint
// style) that calls `system(x, dxdt, t)` through a function pointer, a
// functor holding one, and a std::function.  Checked against finite
// differences, by the dot-product test against forward mode, and at width 2.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0 > %t.O0.out
// RUN: FileCheck %s --input-file %t.O0.out
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// With a tape budget, a time loop calling through pointers keeps its tape:
// RUN: %gpuad-cc -O0 -mllvm -gpuad-tape-budget=1 %itest-flags %s -o %t.budget -lm && %t.budget > /dev/null
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O0 > /dev/null %}
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}
// CHECK: gradcheck: all

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <functional>

#define N 6
#define NOINLINE __attribute__((noinline))

// ---- Virtual methods -------------------------------------------------------

struct Material {
  virtual ~Material() {}
  virtual double stress(double strain) const = 0;
  // Calls another virtual method through this.
  virtual double energy(const double *u, int i) const {
    double e = u[i + 1] - u[i];
    return 0.5 * e * stress(e);
  }
};

struct Linear : Material {
  double k;
  explicit Linear(double k) : k(k) {}
  double stress(double e) const override { return k * e; }
};

struct NeoHookean : Material {
  double mu;
  explicit NeoHookean(double mu) : mu(mu) {}
  double stress(double e) const override { return mu * (e + e * e * e); }
};

struct Contact : Material {
  double gap;
  explicit Contact(double gap) : gap(gap) {}
  double stress(double e) const override { return std::exp(e - gap); }
  double energy(const double *u, int i) const override {
    return std::log1p(std::exp(u[i] * u[i + 1] - gap));
  }
};

NOINLINE double assemble(const Material *const *parts, const double *u, int n) {
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i)
    s += parts[i % 3]->energy(u, i);
  return s;
}

double materials(double *u, int n) {
  Linear a(2.0);
  NeoHookean b(0.7);
  Contact c(0.3);
  const Material *parts[3] = {&b, &c, &a};
  double s = assemble(parts, u, n);
  // Objects made on the heap, called through the base class.
  Material *m = new NeoHookean(1.5);
  s += m->energy(u, 1) * u[0];
  delete m;
  return s;
}

// ---- An ODE integrator template -------------------------------------------

typedef void (*system_fn)(const double *x, double *dxdt, double t);

static void pendulum(const double *x, double *dxdt, double t) {
  dxdt[0] = x[1];
  dxdt[1] = -2.0 * std::sin(x[0]) - 0.1 * x[1] + 0.3 * std::cos(t);
}

static void lotka(const double *x, double *dxdt, double t) {
  dxdt[0] = x[0] * (1.0 - 0.5 * x[1]);
  dxdt[1] = x[1] * (0.25 * x[0] - 0.75) + 0.01 * t;
}

// Classic RK4 over `steps` steps; System is called as system(x, dxdt, t).
// The work arrays are on the heap: see the std::function case below.
template <class System>
void rk4(System &&system, double *x, double t0, double dt, int steps) {
  double *k = new double[10];
  double *k1 = k, *k2 = k + 2, *k3 = k + 4, *k4 = k + 6, *y = k + 8;
  for (int s = 0; s < steps; ++s) {
    double t = t0 + s * dt;
    system(x, k1, t);
    for (int i = 0; i < 2; ++i)
      y[i] = x[i] + 0.5 * dt * k1[i];
    system(y, k2, t + 0.5 * dt);
    for (int i = 0; i < 2; ++i)
      y[i] = x[i] + 0.5 * dt * k2[i];
    system(y, k3, t + 0.5 * dt);
    for (int i = 0; i < 2; ++i)
      y[i] = x[i] + dt * k3[i];
    system(y, k4, t + dt);
    for (int i = 0; i < 2; ++i)
      x[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  delete[] k;
}

NOINLINE void integrate_ptr(system_fn f, double *x, int steps) {
  rk4(f, x, 0.0, 0.1, steps);
}

// A functor holding the system and a time scale.
struct Scaled {
  system_fn f;
  double scale;
  void operator()(const double *x, double *dxdt, double t) const {
    f(x, dxdt, t * scale);
  }
};

NOINLINE void integrate_functor(const Scaled &s, double *x, int steps) {
  rk4(s, x, 0.0, 0.1, steps);
}

NOINLINE void
integrate_function(const std::function<void(const double *, double *, double)> &f,
                   double *x, int steps) {
  rk4(f, x, 0.0, 0.1, steps);
}

// The systems are chosen from data: x[0] < 10 always picks the first.
static system_fn choose(double v) { return v > 10.0 ? lotka : pendulum; }

double ode_pointer(double *x, int n) {
  double s[2] = {x[0], x[1]}, l[2] = {x[2] + 1.0, x[3] + 1.0};
  integrate_ptr(choose(x[0]), s, 8);
  integrate_ptr(choose(x[1] + 20.0), l, 6);
  return s[0] * s[1] + l[0] + x[4] * l[1];
}

double ode_functor(double *x, int n) {
  double s[2] = {x[0], x[1]};
  Scaled sys = {choose(x[1]), 1.5};
  integrate_functor(sys, s, 8);
  return s[0] + s[1] * s[1];
}

double ode_function(double *x, int n) {
  double s[2] = {x[2], x[3]};
  std::function<void(const double *, double *, double)> f = pendulum;
  integrate_function(f, s, 8);
  std::function<void(const double *, double *, double)> g =
      [](const double *x, double *dxdt, double t) { lotka(x, dxdt, 2.0 * t); };
  s[0] += 1.0;
  s[1] += 1.0;
  integrate_function(g, s, 4);
  return s[0] * x[5] + s[1];
}

GC_SCALAR_OF_ARRAY(materials)
GC_SCALAR_OF_ARRAY(ode_pointer)
GC_SCALAR_OF_ARRAY(ode_functor)
GC_SCALAR_OF_ARRAY(ode_function)

int main() {
  double x0[N] = {0.3, 0.8, -0.5, 1.1, 0.2, 0.6};
  GC_CHECK_SCALAR(materials, x0, N);
  GC_CHECK_SCALAR(ode_pointer, x0, N);
  GC_CHECK_SCALAR(ode_functor, x0, N);
  GC_CHECK_SCALAR(ode_function, x0, N);
  return gradcheck_exit();
}
