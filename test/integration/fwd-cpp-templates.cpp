// The C++ form of the ABI: __enzyme_fwddiff<Ret>(...) keeps argument types
// (no varargs promotion), so float arguments stay float.  The differentiated
// functions are template instantiations and call class methods (a
// non-virtual member, a const member, a static member, and an operator
// overload); a free function template is differentiated at two types.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <cmath>
#include <cstdio>

template <typename T> struct Vec2 {
  T x, y;
  Vec2 operator+(const Vec2 &o) const { return {x + o.x, y + o.y}; }
  Vec2 operator*(T s) const { return {x * s, y * s}; }
  T dot(const Vec2 &o) const { return x * o.x + y * o.y; }
};

template <typename T> class Spring {
public:
  Spring(T k, T rest) : k_(k), rest_(rest) {}
  __attribute__((noinline)) T energy(const Vec2<T> &a, const Vec2<T> &b) const {
    Vec2<T> d = a + b * T(-1);
    T len = std::sqrt(d.dot(d));
    return T(0.5) * k_ * (len - rest_) * (len - rest_);
  }
  static T damping(T v) { return v * v * T(0.1); }

private:
  T k_, rest_;
};

// Energy of a chain of three springs between p0..p3, endpoints fixed; the
// interior points move along a direction with parameter s.
template <typename T> T chain(T s, T k) {
  Spring<T> spring(k, T(1));
  Vec2<T> p[4] = {{T(0), T(0)}, {T(1) + s, T(0.2)}, {T(2), T(-0.3) + s * s}, {T(3.2), T(0)}};
  T e = 0;
  for (int i = 0; i < 3; ++i)
    e += spring.energy(p[i], p[i + 1]);
  return e + Spring<T>::damping(s);
}

template <typename T> T poly(T x) { return x * x * x - T(2) * x + T(1) / (T(1) + x * x); }

static double g_chain_s(double s) { return chain<double>(s, 3.0); }
static double g_chain_k(double k) { return chain<double>(0.15, k); }
static float g_chain_sf(float s) { return chain<float>(s, 3.0f); }

int main() {
  char nm[96];
  const double ss[] = {-0.2, 0.15, 0.4};
  for (double s : ss) {
    double d = __enzyme_fwddiff<double>((void *)chain<double>, enzyme_dup, s, 1.0, enzyme_const,
                                        3.0);
    std::snprintf(nm, sizeof nm, "chain<double> d/ds(%g) fd", s);
    check_close(nm, d, gc_fd(g_chain_s, s), GC_RTOL_D, GC_ATOL_D);

    // float: arguments stay float in C++ (no promotion).
    float sf = (float)s;
    float df = __enzyme_fwddiff<float>((void *)chain<float>, enzyme_dup, sf, 1.0f, enzyme_const,
                                       3.0f);
    std::snprintf(nm, sizeof nm, "chain<float> d/ds(%g) fd", s);
    check_close(nm, df, gc_fdf(g_chain_sf, sf), GC_RTOL_F, GC_ATOL_F);
    std::snprintf(nm, sizeof nm, "chain<float> ~ chain<double> (%g)", s);
    check_close(nm, df, gc_fd(g_chain_s, (double)sf), 1e-3, 1e-4);
  }
  // The spring constant: energy is linear in k, damping is not.
  double dk = __enzyme_fwddiff<double>((void *)chain<double>, enzyme_const, 0.15, enzyme_dup, 3.0,
                                       1.0);
  check_close("chain d/dk = (E - damping)/k", dk,
              (chain<double>(0.15, 3.0) - Spring<double>::damping(0.15)) / 3.0, 1e-13, 1e-15);
  check_close("chain d/dk fd", dk, gc_fd(g_chain_k, 3.0), GC_RTOL_D, GC_ATOL_D);

  // Default template argument: Ret = double.
  double dp = __enzyme_fwddiff((void *)poly<double>, enzyme_dup, 0.7, 1.0);
  check_close("poly<double> default Ret exact", dp,
              3 * 0.49 - 2 - 2 * 0.7 / ((1 + 0.49) * (1 + 0.49)), 1e-14, 1e-15);
  float dpf = __enzyme_fwddiff<float>((void *)poly<float>, enzyme_dup, 0.7f, 1.0f);
  double x = 0.7f;
  check_close("poly<float> exact", dpf, 3 * x * x - 2 - 2 * x / ((1 + x * x) * (1 + x * x)),
              GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  return gradcheck_exit();
}
