// Reverse mode through C++: new/delete and new[]/delete[] inside the
// differentiated function, std::vector temporaries, a class with methods
// and a template, and enzyme_out adjoints returned as a struct.  Run under
// valgrind too: the shadows of new'd blocks must be deleted.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O0 > /dev/null %}
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O1 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <vector>

#define N 6

// Trapezoid rule over samples held in a new[]'d array.
double trapezoid(double *x, int n) {
  double *f = new double[n];
  for (int i = 0; i < n; ++i)
    f[i] = std::exp(-x[i] * x[i]);
  double s = 0.0;
  for (int i = 0; i + 1 < n; ++i)
    s += 0.5 * (f[i] + f[i + 1]) * (1.0 + 0.1 * i);
  delete[] f;
  return s;
}

struct Spring {
  double k, rest;
  Spring(double k, double rest) : k(k), rest(rest) {}
  double energy(double a, double b) const {
    double d = b - a - rest;
    return 0.5 * k * d * d;
  }
};

// A chain of springs, each a new'd object.
double springs(double *x, int n) {
  double e = 0.0;
  for (int i = 0; i + 1 < n; ++i) {
    Spring *s = new Spring(1.0 + x[i] * x[i], 0.5);
    e += s->energy(x[i], x[i + 1]);
    delete s;
  }
  return e;
}

template <typename T> T dotSelf(const std::vector<T> &v) {
  T s = 0;
  for (const T &e : v)
    s += e * e;
  return s;
}

// std::vector temporaries, grown with push_back.  At -O0 the element copies
// happen in out-of-line library templates that memmove bytes whose type no
// analysis of the callee chain can tell (begin() hands over an untyped
// pointer); gpuad reports that as an error, so this case runs optimised only.
#ifdef __OPTIMIZE__
double vectors(double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(std::sin(x[i]) * (i + 1));
  std::vector<double> w(v.begin(), v.end());
  for (size_t i = 0; i < w.size(); ++i)
    w[i] *= v[w.size() - 1 - i];
  return dotSelf(w);
}
#endif

struct Grad2 {
  double da, db;
};

double rosenbrock(double a, double b) {
  return (1.0 - a) * (1.0 - a) + 100.0 * (b - a * a) * (b - a * a);
}

GC_SCALAR_OF_ARRAY(trapezoid)
GC_SCALAR_OF_ARRAY(springs)
#ifdef __OPTIMIZE__
GC_SCALAR_OF_ARRAY(vectors)
#endif

int main() {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(trapezoid, x, N);
  GC_CHECK_SCALAR(springs, x, N);
#ifdef __OPTIMIZE__
  GC_CHECK_SCALAR(vectors, x, N);
#endif

  // Two enzyme_out arguments: their adjoints come back as a struct.
  Grad2 g = __enzyme_autodiff<Grad2>((void *)rosenbrock, enzyme_out, 0.7,
                                     enzyme_out, 1.2);
  double a = 0.7, b = 1.2;
  check_close("rosenbrock da", g.da,
              -2.0 * (1.0 - a) - 400.0 * a * (b - a * a), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("rosenbrock db", g.db, 200.0 * (b - a * a), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  return gradcheck_exit();
}
