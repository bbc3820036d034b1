// Forward mode through calls that survive optimisation (noinline helpers):
// scalar helpers, helpers taking and writing pointers, one helper called with
// different activity from two call sites (an active and an inactive
// argument), a helper called in a loop, and a chain of calls three deep.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define NOINLINE __attribute__((noinline))

NOINLINE double sq_plus_sin(double a, double b) { return a * a + sin(b); }

/* Writes two results through pointers. */
NOINLINE void polar(double x, double y, double *r, double *theta) {
  *r = sqrt(x * x + y * y);
  *theta = atan2(y, x);
}

/* Reads an array, returns a weighted norm; w is sometimes active. */
NOINLINE double wnorm(const double *v, const double *w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += w[i] * v[i] * v[i];
  return sqrt(s);
}

/* Three deep. */
NOINLINE double level3(double x) { return exp(-x * x); }
NOINLINE double level2(double x, double y) { return level3(x * y) * y + level3(y); }
NOINLINE double level1(double x) { return level2(x, 1.0 + x) * level2(0.5, x); }

/* sq_plus_sin is called with (active, constant) and (constant, active);
 * polar writes into locals; wnorm is called with constant and active
 * weights; level1 calls a chain. */
double outer(const double *v, double t) {
  double w[4] = {1.0, 2.0, 0.5, 1.5};
  double tw[4];
  for (int i = 0; i < 4; ++i)
    tw[i] = w[i] * (1.0 + t * i);
  double a = sq_plus_sin(t, 0.25);     /* second arg constant */
  double b = sq_plus_sin(1.5, v[0]);   /* first arg constant */
  double r, th;
  polar(v[1], t, &r, &th);
  double n1 = wnorm(v, w, 4);          /* weights inactive */
  double n2 = wnorm(v, tw, 4);         /* weights active */
  double acc = 0.0;
  for (int i = 0; i < 3; ++i)
    acc += sq_plus_sin(v[i], v[i + 1] * t);
  return a * b + r * th + n1 - n2 * 0.5 + acc + level1(t * 0.3);
}

struct dir { double v[4], dv[4], t, dt; };
static double g_outer(double s, void *c) {
  struct dir *d = (struct dir *)c;
  double v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = d->v[i] + s * d->dv[i];
  return outer(v, d->t + s * d->dt);
}
static double g_level1(double x) { return level1(x); }

int main(void) {
  struct dir d = {{0.8, -0.6, 1.1, 0.4}, {0.5, 1.0, -0.3, 0.2}, 0.9, 0.7};
  double dv[4];
  memcpy(dv, d.dv, sizeof dv);
  double got = __enzyme_fwddiff((void *)outer, enzyme_dup, d.v, dv, enzyme_dup, d.t, d.dt);
  check_close("outer (all active) fd", got, gc_fd_t(g_outer, 0.0, &d), GC_RTOL_D, GC_ATOL_D);

  /* Only t active. */
  struct dir dt = d;
  memset(dt.dv, 0, sizeof dt.dv);
  dt.dt = 1.0;
  got = __enzyme_fwddiff((void *)outer, enzyme_const, d.v, enzyme_dup, d.t, 1.0);
  check_close("outer (t only) fd", got, gc_fd_t(g_outer, 0.0, &dt), GC_RTOL_D, GC_ATOL_D);

  /* Only v active. */
  struct dir dvv = d;
  dvv.dt = 0.0;
  got = __enzyme_fwddiff((void *)outer, enzyme_dup, d.v, dv, enzyme_const, d.t);
  check_close("outer (v only) fd", got, gc_fd_t(g_outer, 0.0, &dvv), GC_RTOL_D, GC_ATOL_D);

  /* The helpers directly: polar's outputs. */
  double r, th, dr = 7.0, dth = 7.0;
  __enzyme_fwddiff((void *)polar, enzyme_dup, 3.0, 1.0, enzyme_dup, 4.0, 0.0, enzyme_dup, &r, &dr,
                   enzyme_dup, &th, &dth);
  check_close("polar dr/dx exact", dr, 3.0 / 5.0, 1e-15, 0.0);
  check_close("polar dtheta/dx exact", dth, -4.0 / 25.0, 1e-15, 0.0);
  check_close("polar primal r", r, 5.0, 0.0, 0.0);

  const double xs[] = {-0.7, 0.2, 1.3};
  for (int i = 0; i < 3; ++i) {
    char nm[64];
    got = __enzyme_fwddiff((void *)level1, enzyme_dup, xs[i], 1.0);
    snprintf(nm, sizeof nm, "level1'(%g) fd", xs[i]);
    check_close(nm, got, gc_fd(g_level1, xs[i]), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
