// enzyme::autodiff of functions that return a class owning memory
// (std::vector<double>, as Enzyme's CppSugar sret test does): forward mode
// returns the tangent as a std::vector (Duplicated, DuplicatedNoNeed,
// ForwardWithPrimal, Const) and reverse mode the primal (ReverseWithPrimal,
// Const return) with the adjoints of the inputs.  Tangents are compared
// with the analytic Jacobian-vector product and central differences
// (GC_RTOL_D), reverse mode with the dot-product test against forward mode
// (GC_RTOL_DOT); valgrind checks that every vector the request built is
// freed exactly once.
// RUN: %gpuad-cc -std=c++17 -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -std=c++17 -O1 %itest-flags %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -std=c++17 -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -std=c++17 -O3 %itest-flags %s -o %t.O3 && %t.O3
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O0 %}
// RUN: %if valgrind %{ valgrind -q --error-exitcode=9 --leak-check=full %t.O2 %}

#include <enzyme/enzyme>

#include <revcheck.h>

#include <algorithm>
#include <cmath>
#include <vector>

using enzyme::Const;
using enzyme::Duplicated;
using enzyme::DuplicatedNoNeed;
using enzyme::Forward;
using enzyme::ForwardWithPrimal;
using enzyme::get;
using enzyme::Reverse;
using enzyme::ReverseWithPrimal;

// y_i = sin(x_i) * x_{i+1} (cyclic) and y_n = the sum of squares: a result
// longer than the input, grown with push_back.
std::vector<double> stretch(const std::vector<double> &x) {
  std::vector<double> y;
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    y.push_back(std::sin(x[i]) * x[(i + 1) % x.size()]);
    s += x[i] * x[i];
  }
  y.push_back(s);
  return y;
}

// The input itself, copied (the copy constructor's memmove).
std::vector<double> copy(const std::vector<double> &x) { return x; }

// A loss of the result: what the reverse-mode request differentiates.
double loss(const std::vector<double> &x, const std::vector<double> &w) {
  std::vector<double> y = stretch(x);
  double l = 0;
  for (size_t i = 0; i < y.size(); ++i)
    l += w[i] * y[i];
  return l;
}

static std::vector<double> jvp(const std::vector<double> &x,
                               const std::vector<double> &v) {
  size_t n = x.size();
  std::vector<double> t(n + 1, 0.0);
  for (size_t i = 0; i < n; ++i) {
    size_t j = (i + 1) % n;
    t[i] = std::cos(x[i]) * x[j] * v[i] + std::sin(x[i]) * v[j];
    t[n] += 2 * x[i] * v[i];
  }
  return t;
}

static void check_vector(const char *name, const std::vector<double> &got,
                         const std::vector<double> &want, double rtol,
                         double atol) {
  check_true(name, got.size() == want.size());
  for (size_t i = 0; i < got.size() && i < want.size(); ++i)
    check_close(name, got[i], want[i], rtol, atol);
}

int main() {
  std::vector<double> x{0.3, -1.1, 0.7, 2.0}, v{0.5, 0.25, -1.0, 0.8};
  std::vector<double> want = jvp(x, v);
  // Central differences of stretch along v.
  std::vector<double> fd(x.size() + 1);
  {
    const double h = 1e-6;
    std::vector<double> p = x, m = x;
    for (size_t i = 0; i < x.size(); ++i) {
      p[i] += h * v[i];
      m[i] -= h * v[i];
    }
    std::vector<double> yp = stretch(p), ym = stretch(m);
    for (size_t i = 0; i < fd.size(); ++i)
      fd[i] = (yp[i] - ym[i]) / (2 * h);
  }

  std::vector<double> t = get<0>(
      enzyme::autodiff<Forward, DuplicatedNoNeed<std::vector<double>>>(
          stretch, Duplicated<const std::vector<double> &>(x, v)));
  check_vector("DuplicatedNoNeed tangent", t, want, GC_RTOL_EXACT,
               GC_ATOL_EXACT);
  check_vector("DuplicatedNoNeed tangent fd", t, fd, GC_RTOL_D, GC_ATOL_D);

  auto both = enzyme::autodiff<Forward, Duplicated<std::vector<double>>>(
      stretch, Duplicated<const std::vector<double> &>(x, v));
  check_vector("Duplicated primal", get<0>(both), stretch(x), 0, 0);
  check_vector("Duplicated tangent", get<1>(both), want, GC_RTOL_EXACT,
               GC_ATOL_EXACT);

  auto withPrimal =
      enzyme::autodiff<ForwardWithPrimal, Duplicated<std::vector<double>>>(
          copy, Duplicated<const std::vector<double> &>(x, v));
  check_vector("copy primal", get<0>(withPrimal), x, 0, 0);
  check_vector("copy tangent", get<1>(withPrimal), v, 0, 0);

  auto constant = enzyme::autodiff<Forward, Const<std::vector<double>>>(
      stretch, Duplicated<const std::vector<double> &>(x, v));
  check_vector("Const return: the primal", get<0>(constant), stretch(x), 0,
               0);

  // Reverse: the primal comes back, and the adjoint of x is w^T J.
  std::vector<double> w{1.0, -0.5, 0.25, 2.0, 0.1}, dx(x.size(), 0.0);
  auto rev = enzyme::autodiff<ReverseWithPrimal, Const<std::vector<double>>>(
      copy, Duplicated<const std::vector<double> &>(x, dx));
  check_vector("reverse primal", get<1>(rev), x, 0, 0);
  check_vector("reverse adjoint of a copy (none: Const return)", dx,
               std::vector<double>(x.size(), 0.0), 0, 0);

  std::fill(dx.begin(), dx.end(), 0.0);
  double dl = 0;
  enzyme::autodiff<Reverse>(loss, Duplicated<const std::vector<double> &>(x, dx),
                            Const<const std::vector<double> &>(w));
  for (size_t i = 0; i < want.size(); ++i)
    dl += w[i] * want[i];
  check_close("reverse <w, Jv> = <J^T w, v>", gc_dot(dx.data(), v.data(),
                                                      (int)x.size()),
              dl, GC_RTOL_DOT, GC_ATOL_DOT);
  return gradcheck_exit();
}
