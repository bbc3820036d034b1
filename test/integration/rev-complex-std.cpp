// std::complex<double> and std::complex<float> (libstdc++: its operators
// and functions call compiler-rt's __muldc3/__divdc3 and libm's cabs, carg,
// cexp, clog, csqrt, cpow, csin, ... at every optimisation level), forward
// and reverse.  Each function reads complex numbers from an array of real
// parts and writes its complex results over it:
//   - double: revcheck.h's in-place check (reverse against central
//     differences, rtol 1e-6; the dot-product test against forward mode,
//     rtol 1e-10; reverse at width 2 against single runs);
//   - float: forward and reverse against central differences of the same
//     template in double (rtol 1e-4: float rounding), and the dot-product
//     test between them (rtol 1e-5).
// At -O0 every operator is a call (operator* copies its operand into a
// local and calls operator*= on it, which reads __rep() by value): reverse
// mode goes through split-form callees with stack locals.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <complex>

#define N 4

template <typename T> using C = std::complex<T>;

template <typename T> static void put(T *x, C<T> p, C<T> q) {
  x[0] = p.real(), x[1] = p.imag(), x[2] = q.real(), x[3] = q.imag();
}

template <typename T> static void arith(T *x, int) {
  C<T> a(x[0], x[1]), b(x[2], x[3]);
  C<T> p = a * b + std::conj(a) / b, q = a / (b * b) - T(2) * a;
  p *= a;
  q /= C<T>(T(1.5), T(-0.5)) + b;
  put(x, p, q);
}

template <typename T> static void elementary(T *x, int) {
  C<T> a(x[0], x[1]), b(x[2], x[3]);
  C<T> p = std::exp(a) * std::log(b) + std::sqrt(a);
  C<T> q = std::pow(a, b) + std::pow(b, T(2.5)) + std::pow(a, 3);
  put(x, p, q);
}

template <typename T> static void real_valued(T *x, int) {
  C<T> a(x[0], x[1]), b(x[2], x[3]);
  T r = std::abs(a), t = std::arg(b), s = std::norm(a * b);
  C<T> p = std::polar(r, t);
  put(x, p, C<T>(s, std::abs(b) * std::arg(a)));
}

template <typename T> static void trig(T *x, int) {
  C<T> a(x[0], x[1]), b(x[2], x[3]);
  put(x, std::sin(a) * std::cos(b) + std::tan(a),
      std::sinh(b) - std::cosh(a) * std::tanh(b));
}

// A sum of poles times a Gaussian: the shape of a multipole resonance sum.
template <typename T> static void poles(T *x, int) {
  C<T> z(x[0], x[1]), w(x[2], x[3]), s = 0;
  for (int k = 0; k < 3; ++k) {
    C<T> p = C<T>(T(0.5 * k - 0.3), T(-0.2 - 0.1 * k)) * w;
    s += C<T>(T(1), T(0.3 * k)) / (z - p);
  }
  s *= std::exp(-z * z);
  put(x, s, C<T>(std::abs(s), std::arg(s)));
}

#define BOTH(fn)                                                               \
  static void fn##_double(double *x, int n) { fn<double>(x, n); }              \
  static void fn##_float(float *x, int n) { fn<float>(x, n); }                 \
  GC_INPLACE(fn##_double)
BOTH(arith)
BOTH(elementary)
BOTH(real_valued)
BOTH(trig)
BOTH(poles)

using fn_d = void (*)(double *, int);
using fn_f = void (*)(float *, int);

static void as_vec(double *x, double *y, void *c) {
  (*static_cast<fn_d *>(c))(x, N);
  memcpy(y, x, N * sizeof(double));
}

// The float version F against central differences of the double version D
// (template arguments: requests name the function itself).
template <fn_d D, fn_f F>
static void check_float(const char *name, const double *x0) {
  fn_d d = D;
  const double rtol = 1e-4, atol = 1e-5;
  float x[N], t[N], w[N];
  double v[N], wd[N], fd[N], jv[N], vjp[N];
  char label[96];
  gc_direction(v, N, 1);
  gc_direction(wd, N, 2);
  for (int i = 0; i < N; ++i)
    x[i] = float(x0[i]), t[i] = float(v[i]), w[i] = float(wd[i]);
  __enzyme_fwddiff<void>((void *)F, enzyme_dup, x, t, N);
  gc_fd_dir_vec(as_vec, x0, v, N, N, &d, fd);
  for (int i = 0; i < N; ++i) {
    snprintf(label, sizeof label, "%s float fwd [%d] fd", name, i);
    check_close(label, t[i], fd[i], rtol, atol);
    jv[i] = t[i];
  }
  for (int i = 0; i < N; ++i)
    x[i] = float(x0[i]);
  __enzyme_autodiff<void>((void *)F, enzyme_dup, x, w, N);
  for (int j = 0; j < N; ++j) {
    double e[N] = {0}, want = 0;
    vjp[j] = w[j];
    e[j] = 1;
    gc_fd_dir_vec(as_vec, x0, e, N, N, &d, fd);
    for (int i = 0; i < N; ++i)
      want += wd[i] * fd[i];
    snprintf(label, sizeof label, "%s float vjp[%d] fd", name, j);
    check_close(label, vjp[j], want, rtol, atol);
  }
  snprintf(label, sizeof label, "%s float <Jv,w> = <v,J^T w>", name);
  check_close(label, gc_dot(v, vjp, N), gc_dot(jv, wd, N), 1e-5, 1e-6);
}

// Away from branch cuts and poles.
static const double X0[N] = {0.7, -0.4, -1.2, 0.9};
static const double X1[N] = {-0.35, 1.3, 0.6, 0.25};

#define CHECK_FLOAT(fn, x0) check_float<fn##_double, fn##_float>(#fn, x0)

int main() {
  for (const double *x0 : {X0, X1}) {
    GC_CHECK_INPLACE(arith_double, x0, N);
    GC_CHECK_INPLACE(elementary_double, x0, N);
    GC_CHECK_INPLACE(real_valued_double, x0, N);
    GC_CHECK_INPLACE(trig_double, x0, N);
    GC_CHECK_INPLACE(poles_double, x0, N);
    CHECK_FLOAT(arith, x0);
    CHECK_FLOAT(elementary, x0);
    CHECK_FLOAT(real_valued, x0);
    CHECK_FLOAT(trig, x0);
    CHECK_FLOAT(poles, x0);
  }
  return gradcheck_exit();
}
