// C99 double complex and float complex arithmetic and <complex.h>, forward
// and reverse: *, / (compiler-rt's __muldc3/__divdc3/__mulsc3/__divsc3, which
// clang calls for / and, behind an inline fast path, for *; the libcalls are
// also called directly), cabs, carg, cexp, clog, csqrt,
// cpow, csin/ccos/ctan, csinh/ccosh/ctanh, and a sum of poles.  Each function
// reads complex numbers from an array of real parts and writes complex
// results over it, so the checks see the whole 2x2 Jacobian of every real
// part:
//   - double: revcheck.h's in-place check (reverse against central
//     differences, rtol 1e-6; the dot-product test against forward mode,
//     rtol 1e-10; reverse at width 2 against single runs), and forward at
//     width 2 against single runs (rtol 1e-13);
//   - float: forward and reverse against central differences of the same
//     code in double (rtol 1e-4: float rounding), and the dot-product test
//     between them (rtol 1e-5); both at width 2 against single runs;
//   - branch cuts and z = 0, against their analytic one-sided derivatives.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <complex.h>

#define N 4
// C11's CMPLX/CMPLXF (glibc hides them from clang): x + i y exactly, also for
// infinite or signed-zero parts.
#define CMPLX_D(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLX_F(x, y) __builtin_complex((float)(x), (float)(y))

typedef struct { double d[2]; } vec2;
vec2 __enzyme_fwddiff_vec2(void *, ...);

// The libcalls themselves (clang calls __muldc3 only when the inline
// product is NaN): the rule, not the fast path, is what these check.
double complex __muldc3(double, double, double, double);
double complex __divdc3(double, double, double, double);
float complex __mulsc3(float, float, float, float);
float complex __divsc3(float, float, float, float);
#define MUL_double __muldc3
#define DIV_double __divdc3
#define MUL_float __mulsc3
#define DIV_float __divsc3

// Each body is written once over a real type T and its complex type.
#define DEFINE(T, CT, CM, F)                                                   \
  static void muldiv_##T(T *x, int n) {                                        \
    CT a = CM(x[0], x[1]), b = CM(x[2], x[3]);                                 \
    CT p = a * b, q = a / b;                                                   \
    x[0] = creal##F(p), x[1] = cimag##F(p), x[2] = creal##F(q),                \
    x[3] = cimag##F(q);                                                        \
  }                                                                            \
  static void libcalls_##T(T *x, int n) {                                      \
    CT p = MUL_##T(x[0], x[1], x[2], x[3]);                                    \
    CT q = DIV_##T(x[0], x[1], x[2], x[3]);                                    \
    x[0] = creal##F(p), x[1] = cimag##F(p), x[2] = creal##F(q),                \
    x[3] = cimag##F(q);                                                        \
  }                                                                            \
  static void explog_##T(T *x, int n) {                                        \
    CT a = CM(x[0], x[1]), b = CM(x[2], x[3]);                                 \
    CT p = cexp##F(a), q = clog##F(b) * a;                                     \
    x[0] = creal##F(p), x[1] = cimag##F(p), x[2] = creal##F(q),                \
    x[3] = cimag##F(q);                                                        \
  }                                                                            \
  static void sqrtpow_##T(T *x, int n) {                                       \
    CT a = CM(x[0], x[1]), b = CM(x[2], x[3]);                                 \
    CT p = csqrt##F(a) / b, q = cpow##F(a, b);                                 \
    x[0] = creal##F(p), x[1] = cimag##F(p), x[2] = creal##F(q),                \
    x[3] = cimag##F(q);                                                        \
  }                                                                            \
  static void absarg_##T(T *x, int n) {                                        \
    CT a = CM(x[0], x[1]), b = CM(x[2], x[3]);                                 \
    CT c = conj##F(a) * b;                                                     \
    x[0] = cabs##F(a), x[1] = carg##F(a), x[2] = cabs##F(c) * carg##F(b),      \
    x[3] = creal##F(c) + cimag##F(c);                                          \
  }                                                                            \
  static void trig_##T(T *x, int n) {                                          \
    CT a = CM(x[0], x[1]), b = CM(x[2], x[3]);                                 \
    CT p = csin##F(a) + ccos##F(b) * ctan##F(a);                               \
    CT q = csinh##F(b) - ccosh##F(a) * ctanh##F(b);                            \
    x[0] = creal##F(p), x[1] = cimag##F(p), x[2] = creal##F(q),                \
    x[3] = cimag##F(q);                                                        \
  }                                                                            \
  /* A resonance sum: residues r_k over poles p_k, times a Gaussian. */        \
  static void poles_##T(T *x, int n) {                                         \
    CT z = CM(x[0], x[1]), s = 0;                                              \
    for (int k = 0; k < 3; ++k) {                                              \
      CT p = CM((T)(0.5 * k - 0.3), (T)(-0.2 - 0.1 * k)) * CM(x[2], x[3]);    \
      s += CM((T)1, (T)(0.3 * k)) / (z - p);                                   \
    }                                                                          \
    s *= cexp##F(-z * z);                                                      \
    x[0] = creal##F(s), x[1] = cimag##F(s), x[2] = cabs##F(s),                 \
    x[3] = carg##F(s);                                                         \
  }

DEFINE(double, double complex, CMPLX_D, )
DEFINE(float, float complex, CMPLX_F, f)

GC_INPLACE(muldiv_double)
GC_INPLACE(libcalls_double)
GC_INPLACE(explog_double)
GC_INPLACE(sqrtpow_double)
GC_INPLACE(absarg_double)
GC_INPLACE(trig_double)
GC_INPLACE(poles_double)

typedef void (*fn_d)(double *, int);

// Forward at width 2 (enzyme_dupv) against two single runs.  (Requests
// name the function itself, so the checks are macros.)
#define CHECK_FWD_WIDTH2(f, x0)                                                \
  do {                                                                         \
    double x_[N], l_[2 * N], s_[2 * N];                                        \
    for (int k_ = 0; k_ < 2; ++k_) {                                           \
      memcpy(x_, x0, sizeof x_);                                               \
      gc_direction(s_ + k_ * N, N, 4 + k_);                                    \
      __enzyme_fwddiff((void *)f, enzyme_dup, x_, s_ + k_ * N, N);             \
    }                                                                          \
    memcpy(x_, x0, sizeof x_);                                                 \
    gc_direction(l_, N, 4);                                                    \
    gc_direction(l_ + N, N, 5);                                                \
    __enzyme_fwddiff((void *)f, enzyme_width, 2, enzyme_dupv,                  \
                     (int)(N * sizeof(double)), x_, l_, N);                    \
    gc_check_lanes(#f " fwd width 2", l_, s_, N, 2);                           \
  } while (0)

// Float at width 2, forward and reverse, against single runs (the float
// complex parts travel as <2 x float>, so each lane is an array element of
// the shadow; rtol 1e-6: the same float operations, maybe vectorised).
#define CHECK_FLOAT_WIDTH2(fn, x0)                                             \
  do {                                                                         \
    float x_[N], l_[2 * N], s_[2 * N], r_[2 * N], rs_[2 * N];                  \
    for (int k_ = 0; k_ < 2; ++k_) {                                           \
      for (int i_ = 0; i_ < N; ++i_) {                                         \
        x_[i_] = (float)x0[i_];                                                \
        s_[k_ * N + i_] = l_[k_ * N + i_] = (float)sin(1.3 * i_ + 0.7 * k_);   \
        rs_[k_ * N + i_] = r_[k_ * N + i_] = (float)cos(0.9 * i_ - 0.4 * k_);  \
      }                                                                        \
      __enzyme_fwddiff((void *)fn, enzyme_dup, x_, s_ + k_ * N, N);            \
      for (int i_ = 0; i_ < N; ++i_)                                           \
        x_[i_] = (float)x0[i_];                                                \
      __enzyme_autodiff((void *)fn, enzyme_dup, x_, rs_ + k_ * N, N);          \
    }                                                                          \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      x_[i_] = (float)x0[i_];                                                  \
    __enzyme_fwddiff((void *)fn, enzyme_width, 2, enzyme_dupv,                 \
                     (int)(N * sizeof(float)), x_, l_, N);                     \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      x_[i_] = (float)x0[i_];                                                  \
    __enzyme_autodiff((void *)fn, enzyme_width, 2, enzyme_dupv,                \
                      (int)(N * sizeof(float)), x_, r_, N);                    \
    for (int i_ = 0; i_ < 2 * N; ++i_) {                                       \
      char label_[96];                                                         \
      snprintf(label_, sizeof label_, #fn " fwd width 2 [%d]", i_);            \
      check_close(label_, l_[i_], s_[i_], 1e-6, 1e-7);                         \
      snprintf(label_, sizeof label_, #fn " rev width 2 [%d]", i_);            \
      check_close(label_, r_[i_], rs_[i_], 1e-6, 1e-7);                        \
    }                                                                          \
  } while (0)

static void as_vec(double *x, double *y, void *c) {
  (*(fn_d *)c)(x, N);
  memcpy(y, x, N * sizeof(double));
}

// The float version (fn_float) against central differences of the double
// version (fn_double).
#define CHECK_FLOAT(fn, x0)                                                    \
  do {                                                                         \
    fn_d d_ = fn##_double;                                                     \
    float x_[N], t_[N], w_[N];                                                 \
    double v_[N], wd_[N], fd_[N], jv_[N], vjp_[N];                             \
    char label_[96];                                                           \
    gc_direction(v_, N, 1);                                                    \
    gc_direction(wd_, N, 2);                                                   \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      x_[i_] = (float)x0[i_], t_[i_] = (float)v_[i_], w_[i_] = (float)wd_[i_]; \
    __enzyme_fwddiff((void *)fn##_float, enzyme_dup, x_, t_, N);               \
    gc_fd_dir_vec(as_vec, x0, v_, N, N, &d_, fd_);                             \
    for (int i_ = 0; i_ < N; ++i_) {                                           \
      snprintf(label_, sizeof label_, #fn " float fwd [%d] fd", i_);           \
      check_close(label_, t_[i_], fd_[i_], 1e-4, 1e-5);                        \
      jv_[i_] = t_[i_];                                                        \
    }                                                                          \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      x_[i_] = (float)x0[i_];                                                  \
    __enzyme_autodiff((void *)fn##_float, enzyme_dup, x_, w_, N);              \
    for (int i_ = 0; i_ < N; ++i_)                                             \
      vjp_[i_] = w_[i_];                                                       \
    for (int j_ = 0; j_ < N; ++j_) {                                           \
      double e_[N] = {0}, want_ = 0;                                           \
      e_[j_] = 1;                                                              \
      gc_fd_dir_vec(as_vec, x0, e_, N, N, &d_, fd_);                           \
      for (int i_ = 0; i_ < N; ++i_)                                           \
        want_ += wd_[i_] * fd_[i_];                                            \
      snprintf(label_, sizeof label_, #fn " float vjp[%d] fd", j_);            \
      check_close(label_, vjp_[j_], want_, 1e-4, 1e-5);                        \
    }                                                                          \
    check_close(#fn " float <Jv,w> = <v,J^T w>", gc_dot(v_, vjp_, N),          \
                gc_dot(jv_, wd_, N), 1e-5, 1e-6);                              \
  } while (0)

// Points away from branch cuts (negative real axis of clog, csqrt, cpow,
// carg) and poles.
static const double X0[N] = {0.7, -0.4, -1.2, 0.9};
static const double X1[N] = {-0.35, 1.3, 0.6, 0.25};

// Tangent of re/im of f's first result at z = (x, y) in direction (dx, dy),
// with (b0, b1) the second operand.
#define TANGENT(f, x, y, dx, dy, b0, b1, out)                                  \
  do {                                                                         \
    double v_[N] = {x, y, b0, b1}, t_[N] = {dx, dy, 0, 0};                     \
    __enzyme_fwddiff((void *)f, enzyme_dup, v_, t_, N);                        \
    out[0] = t_[0], out[1] = t_[1];                                            \
  } while (0)

static void sqrt_of(double *x, int n) {
  double complex s = csqrt(CMPLX_D(x[0], x[1]));
  x[0] = creal(s), x[1] = cimag(s);
}
static void log_of(double *x, int n) {
  double complex s = clog(CMPLX_D(x[0], x[1]));
  x[0] = creal(s), x[1] = cimag(s);
}
static void pow_of(double *x, int n) {
  double complex s = cpow(CMPLX_D(x[0], x[1]), CMPLX_D(x[2], x[3]));
  x[0] = creal(s), x[1] = cimag(s);
}
static double abs_of(double x, double y) { return cabs(CMPLX_D(x, y)); }

// On the negative real axis, C99 makes clog and csqrt continuous from the
// side the sign of the zero imaginary part picks; the derivative is the
// one-sided one from there: clog' = 1/z, csqrt' = 1/(2 csqrt z).
static void check_branch_cuts(void) {
  double t[2];
  TANGENT(log_of, -2.0, 0.0, 0.0, 1.0, 0, 0, t); // i / z = -0.5 i
  check_close("clog'(-2+0i) i re", t[0], 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("clog'(-2+0i) i im", t[1], -0.5, GC_RTOL_EXACT, GC_ATOL_EXACT);
  TANGENT(log_of, -2.0, -0.0, 1.0, 0.0, 0, 0, t); // 1 / z = -0.5
  check_close("clog'(-2-0i) re", t[0], -0.5, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("clog'(-2-0i) im", t[1], 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  // csqrt(-4 + 0i) = 2i: derivative 1/(4i) = -i/4; csqrt(-4 - 0i) = -2i: i/4.
  TANGENT(sqrt_of, -4.0, 0.0, 1.0, 0.0, 0, 0, t);
  check_close("csqrt'(-4+0i) im", t[1], -0.25, GC_RTOL_EXACT, GC_ATOL_EXACT);
  TANGENT(sqrt_of, -4.0, -0.0, 1.0, 0.0, 0, 0, t);
  check_close("csqrt'(-4-0i) im", t[1], 0.25, GC_RTOL_EXACT, GC_ATOL_EXACT);
  // z^w at z = 0: d/dz is 1 for w = 1, 0 for Re w > 1.
  TANGENT(pow_of, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, t);
  check_close("cpow(0,1) d/dz re", t[0], 1.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("cpow(0,1) d/dz im", t[1], 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  TANGENT(pow_of, 0.0, 0.0, 0.3, -0.2, 2.5, 0.5, t);
  check_close("cpow(0,2.5+.5i) d/dz re", t[0], 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("cpow(0,2.5+.5i) d/dz im", t[1], 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  // |z| at 0: 0 (as fabs), not NaN.
  double dx = __enzyme_autodiff((void *)abs_of, 0.0, enzyme_const, 0.0);
  check_close("cabs'(0)", dx, 0.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
}

int main(void) {
  GC_CHECK_INPLACE(muldiv_double, X0, N);
  GC_CHECK_INPLACE(libcalls_double, X0, N);
  GC_CHECK_INPLACE(libcalls_double, X1, N);
  GC_CHECK_INPLACE(explog_double, X0, N);
  GC_CHECK_INPLACE(sqrtpow_double, X0, N);
  GC_CHECK_INPLACE(absarg_double, X0, N);
  GC_CHECK_INPLACE(trig_double, X0, N);
  GC_CHECK_INPLACE(poles_double, X0, N);
  GC_CHECK_INPLACE(muldiv_double, X1, N);
  GC_CHECK_INPLACE(sqrtpow_double, X1, N);
  GC_CHECK_INPLACE(poles_double, X1, N);
  CHECK_FWD_WIDTH2(muldiv_double, X0);
  CHECK_FWD_WIDTH2(libcalls_double, X0);
  CHECK_FWD_WIDTH2(sqrtpow_double, X0);
  CHECK_FWD_WIDTH2(poles_double, X0);
  CHECK_FLOAT_WIDTH2(libcalls_float, X0);
  CHECK_FLOAT_WIDTH2(explog_float, X0);
  CHECK_FLOAT_WIDTH2(sqrtpow_float, X0);
  CHECK_FLOAT_WIDTH2(absarg_float, X0);
  CHECK_FLOAT_WIDTH2(poles_float, X0);
  for (int p = 0; p < 2; ++p) {
    const double *x0 = p ? X1 : X0;
    CHECK_FLOAT(muldiv, x0);
    CHECK_FLOAT(libcalls, x0);
    CHECK_FLOAT(explog, x0);
    CHECK_FLOAT(sqrtpow, x0);
    CHECK_FLOAT(absarg, x0);
    CHECK_FLOAT(trig, x0);
    CHECK_FLOAT(poles, x0);
  }
  check_branch_cuts();
  return gradcheck_exit();
}
