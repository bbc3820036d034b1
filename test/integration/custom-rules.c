// Enzyme's registrations and annotations in a C program, as Enzyme users
// write them:
//  - __enzyme_register_gradient / __enzyme_register_derivative for a
//    function whose body gpuad cannot differentiate (an indirect call through
//    a volatile pointer), so only the user's rule can give the derivative:
//    a scalar one (the tape a struct, the augmented function returning
//    {tape, result}) and an array one with an integer length (taken once,
//    and, in Enzyme's older form, twice);
//  - __enzyme_register_splitderivative (an augmented function of the
//    arguments alone, then a forward function taking the tape), used for
//    forward mode;
//  - functions registered without the shadow of a pointer argument the
//    call passes as constant (Enzyme's form for constant arguments);
//  - __enzyme_inactivefn and annotate("enzyme_inactive") on a function that
//    stores an active value to a global (an error without them);
//  - __enzyme_function_like: a series for log1p differentiated as log1p;
//  - __enzyme_inactive_global: a global the active value is stored to.
// Split mode (__enzyme_augmentfwd / __enzyme_reverse of a registered
// function) calls the user's two functions with the tape between them.
// Every derivative is checked against central finite differences and, for
// reverse mode, by the dot-product test against forward mode; the user's
// functions are counted to show they ran.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %gpuad-cc -O2 %itest-flags -DINTEGERS_TWICE %s -o %t.twice -lm && %t.twice
// The registrations are gone from the program (they spoke to gpuad only).
// RUN: llvm-nm %t.O0 | FileCheck %s --check-prefix=SYM
// RUN: llvm-nm %t.O2 | FileCheck %s --check-prefix=SYM
// SYM-NOT: __enzyme

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 5

static int augmented_calls, reverse_calls, forward_calls;

typedef struct {
  void *tape;
  double primal;
} split_aug;
split_aug __enzyme_augmentfwd_split(void *, ...);

/* ---- A scalar function: softplus, through an opaque pointer. ---- */
static double softplus_impl(double x) { return log1p(exp(x)); }
static double (*volatile softplus_ptr)(double) = softplus_impl;
double softplus(double x) { return softplus_ptr(x); }

typedef struct {
  double sigmoid;
} sp_tape;
typedef struct {
  sp_tape tape;
  double result;
} sp_augmented;

sp_augmented softplus_aug(double x) {
  ++augmented_calls;
  sp_augmented a = {{1.0 / (1.0 + exp(-x))}, log1p(exp(x))};
  return a;
}
double softplus_rev(double x, double seed, sp_tape tape) {
  ++reverse_calls;
  return seed * tape.sigmoid;
}
typedef struct {
  double primal, tangent;
} sp_pair;
sp_pair softplus_fwd(double x, double dx) {
  ++forward_calls;
  sp_pair p = {log1p(exp(x)), dx / (1.0 + exp(-x))};
  return p;
}
void *__enzyme_register_gradient_softplus[3] = {
    (void *)softplus, (void *)softplus_aug, (void *)softplus_rev};
void *__enzyme_register_derivative_softplus[2] = {(void *)softplus,
                                                  (void *)softplus_fwd};

/* ---- An array function: y[i] = x[i]^3 (in place on y), opaque. ---- */
static void cube_impl(const double *x, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i] * x[i];
}
static void (*volatile cube_ptr)(const double *, double *, int) = cube_impl;
void cube(const double *x, double *y, int n) { cube_ptr(x, y, n); }

#ifdef INTEGERS_TWICE
#define INT_ARGS int n, int n_again
#else
#define INT_ARGS int n
#endif
/* The augmented function runs the primal and keeps x (x may be overwritten
 * before the reverse runs). */
void *cube_aug(const double *x, const double *dx, double *y, double *dy,
               INT_ARGS) {
  ++augmented_calls;
  double *saved = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) {
    saved[i] = x[i];
    y[i] = x[i] * x[i] * x[i];
  }
  return saved;
}
/* y was overwritten: its adjoint moves to x and becomes 0. */
void cube_rev(const double *x, double *dx, double *y, double *dy, INT_ARGS,
              void *tape) {
  ++reverse_calls;
  double *saved = tape;
  for (int i = 0; i < n; ++i) {
    dx[i] += 3.0 * saved[i] * saved[i] * dy[i];
    dy[i] = 0.0;
  }
  free(saved);
}
void cube_fwd(const double *x, const double *dx, double *y, double *dy,
              INT_ARGS) {
  ++forward_calls;
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[i] * x[i];
    dy[i] = 3.0 * x[i] * x[i] * dx[i];
  }
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_aug,
                                            (void *)cube_rev};
void *__enzyme_register_derivative_cube[2] = {(void *)cube,
                                              (void *)cube_fwd};

/* ---- hypot, registered in Enzyme's split forward form. ---- */
static double hyp_impl(double x, double y) { return sqrt(x * x + y * y); }
static double (*volatile hyp_ptr)(double, double) = hyp_impl;
double hyp(double x, double y) { return hyp_ptr(x, y); }
typedef struct {
  void *tape;
  double result;
} hyp_augmented;
hyp_augmented hyp_aug(double x, double y) {
  double *r = malloc(sizeof(double));
  *r = sqrt(x * x + y * y);
  hyp_augmented a = {r, *r};
  return a;
}
sp_pair hyp_fwd(double x, double dx, double y, double dy, void *tape) {
  ++forward_calls;
  double r = *(double *)tape;
  free(tape);
  sp_pair p = {r, (x * dx + y * dy) / r};
  return p;
}
void *__enzyme_register_splitderivative_hyp[3] = {(void *)hyp, (void *)hyp_aug,
                                                  (void *)hyp_fwd};
double hyp_model(const double *x) { return hyp(x[0], x[1]) * x[2]; }
static void hyp_model_vec(double *x, double *y, void *ctx) {
  (void)ctx;
  y[0] = hyp_model(x);
}

/* ---- y[i] *= s[0], s constant at the call: no shadow for s.  (Its body
 * is plain code, so gpuad sees that s and y are unrelated; the counts show
 * the registered functions ran instead.) ---- */
static int scale_calls;
__attribute__((noinline)) void scale(const double *s, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] *= s[0];
}
void *scale_aug(const double *s, double *y, double *dy, int n) {
  ++scale_calls;
  scale(s, y, n);
  return NULL;
}
void scale_rev(const double *s, double *y, double *dy, int n, void *tape) {
  ++scale_calls;
  for (int i = 0; i < n; ++i)
    dy[i] *= s[0];
}
void scale_fwd(const double *s, double *y, double *dy, int n) {
  ++scale_calls;
  for (int i = 0; i < n; ++i) {
    y[i] *= s[0];
    dy[i] *= s[0];
  }
}
void *__enzyme_register_gradient_scale[3] = {(void *)scale, (void *)scale_aug,
                                             (void *)scale_rev};
void *__enzyme_register_derivative_scale[2] = {(void *)scale,
                                               (void *)scale_fwd};

/* sum of squares of s[0] * y. */
double scaled_norm(double *y, const double *s, int n) {
  scale(s, y, n);
  double r = 0.0;
  for (int i = 0; i < n; ++i)
    r += y[i] * y[i];
  return r;
}
static void scaled_norm_vec(double *y, double *out, void *s) {
  out[0] = scaled_norm(y, s, N);
}

/* ---- Inactive functions and globals. ---- */
double last_logged, last_noted, last_stored;
__attribute__((noinline)) void log_value(double v) { last_logged = v; }
void *__enzyme_inactivefn[1] = {(void *)log_value};
__attribute__((noinline, annotate("enzyme_inactive"))) void note(double v) {
  last_noted = v;
}
void *__enzyme_inactive_global[1] = {(void *)&last_stored};

/* ---- Function-like: a series for log1p(t), |t| < 1. ---- */
double series_log1p(double t) {
  double s = 0.0, p = t;
  for (int k = 1; k < 60; ++k, p *= -t)
    s += p / k;
  return s;
}
void *__enzyme_function_like[2] = {(void *)series_log1p, (void *)"log1p"};

/* The program: y = x^3 elementwise, then sum of softplus(y_i) plus a
 * log1p series; the inactive calls log what they see. */
double model(double *x, double *y, int n) {
  cube(x, y, n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) {
    s += softplus(y[i]) * (1.0 + 0.1 * i);
    log_value(s);
    note(y[i]);
  }
  last_stored = s;
  return s + series_log1p(0.3 * x[0]);
}

static void model_vec(double *x, double *y, void *ctx) {
  double scratch[N];
  (void)ctx;
  y[0] = model(x, scratch, N);
}

int main(void) {
  double x0[N] = {0.4, -0.7, 0.9, 0.2, -0.3}, one = 1.0;
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, v[N], dv[N];

  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, N);
  gc_check_vjp("model", model_vec, x0, N, 1, NULL, &one, dx);
  check_true("registered reverse functions ran",
             augmented_calls == N + 1 && reverse_calls == N + 1);

  memcpy(x, x0, sizeof x);
  gc_direction(v, N, 1);
  memset(dv, 0, sizeof dv);
  double jv = __enzyme_fwddiff((void *)model, enzyme_dup, x, v, enzyme_dup,
                               y, dv, enzyme_const, N);
  gc_check_dot("model", v, dx, N, &jv, &one, 1);
  check_true("registered forward functions ran", forward_calls == N + 1);

  /* A registered function requested directly. */
  double t = 0.8;
  check_close("softplus' (combined)", __enzyme_autodiff((void *)softplus, t),
              1.0 / (1.0 + exp(-t)), GC_RTOL_D, GC_ATOL_D);
  check_close("softplus' (forward)",
              __enzyme_fwddiff((void *)softplus, t, 1.0),
              1.0 / (1.0 + exp(-t)), GC_RTOL_D, GC_ATOL_D);
  /* Forward mode through the split registration. */
  {
    double h[3] = {0.6, -1.1, 0.9}, dh[3] = {0.3, 0.5, -0.7}, fd;
    forward_calls = 0;
    double t = __enzyme_fwddiff((void *)hyp_model, enzyme_dup, h, dh);
    gc_fd_dir_vec(hyp_model_vec, h, dh, 3, 1, NULL, &fd);
    check_close("hyp_model (split forward) vs fd", t, fd, GC_RTOL_D,
                GC_ATOL_D);
    check_true("split forward: the registered function ran",
               forward_calls == 1);
  }

  /* A pointer constant at the call. */
  {
    double s = 1.7, yc[N], dyc[N] = {0}, vy[N];
    memcpy(yc, x0, sizeof yc);
    __enzyme_autodiff((void *)scaled_norm, enzyme_dup, yc, dyc, enzyme_const,
                      &s, enzyme_const, N);
    gc_check_vjp("scaled_norm", scaled_norm_vec, x0, N, 1, &s, &one, dyc);
    memcpy(yc, x0, sizeof yc);
    gc_direction(vy, N, 1);
    double jvy = __enzyme_fwddiff((void *)scaled_norm, enzyme_dup, yc, vy,
                                  enzyme_const, &s, enzyme_const, N);
    gc_direction(vy, N, 1);
    gc_check_dot("scaled_norm", vy, dyc, N, &jvy, &one, 1);
    check_true("scaled_norm: the registered functions ran", scale_calls == 3);
  }

  /* Split mode: the user's tape travels in the program's heap box. */
  augmented_calls = reverse_calls = 0;
  split_aug a = __enzyme_augmentfwd_split((void *)softplus, enzyme_out, t);
  check_close("softplus (split, primal)", a.primal, log1p(exp(t)),
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("softplus' (split)",
              __enzyme_reverse((void *)softplus, enzyme_out, t, 2.0, a.tape),
              2.0 / (1.0 + exp(-t)), GC_RTOL_D, GC_ATOL_D);
  check_true("split: the user's functions ran once each",
             augmented_calls == 1 && reverse_calls == 1);
  return gradcheck_exit();
}
