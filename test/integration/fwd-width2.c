// Batched forward mode, width 2: `enzyme_width, 2` and then two shadows per
// dup argument; the result is a struct of two tangents.  Each lane must equal
// the width-1 derivative in that lane's direction, and both must match FD.
// Covers scalar arguments, input and output arrays (two shadow arrays
// each), a noinline callee, and a loop.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef struct { double d[2]; } vec2;
vec2 __enzyme_fwddiff_vec2(void *, ...);

#define N 5

/* f(x, y) with both scalars active. */
double scalar2(double x, double y) { return sin(x * y) + x * x * exp(-y); }

__attribute__((noinline)) double helper(double a, const double *v) {
  double s = 0.0;
  for (int i = 0; i < N; ++i)
    s += tanh(a * v[i]);
  return s;
}

/* Reads v, writes out[], returns a scalar; calls helper. */
double arrays(const double *v, double a, double *out) {
  for (int i = 0; i < N; ++i)
    out[i] = v[i] * v[(i + 1) % N] * a;
  return helper(a, v) + out[2];
}

struct ctx { double v[N], dv[N], a, da; };
static double g_arrays(double t, void *c) {
  struct ctx *p = (struct ctx *)c;
  double v[N], o[N];
  for (int i = 0; i < N; ++i)
    v[i] = p->v[i] + t * p->dv[i];
  return arrays(v, p->a + t * p->da, o);
}
static double g_out3(double t, void *c) {
  struct ctx *p = (struct ctx *)c;
  double v[N], o[N];
  for (int i = 0; i < N; ++i)
    v[i] = p->v[i] + t * p->dv[i];
  arrays(v, p->a + t * p->da, o);
  return o[3];
}
static double g_scalar2(double t, void *c) { double *p = (double *)c; return scalar2(p[0] + t * p[2], p[1] + t * p[3]); }

int main(void) {
  char nm[96];
  /* Scalars: lane 0 is d/dx, lane 1 is a mixed direction. */
  double x = 0.7, y = -1.2;
  vec2 r = __enzyme_fwddiff_vec2((void *)scalar2, enzyme_width, 2, enzyme_dup, x, 1.0, 0.3,
                                 enzyme_dup, y, 0.0, -0.8);
  double w0 = __enzyme_fwddiff((void *)scalar2, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0);
  double w1 = __enzyme_fwddiff((void *)scalar2, enzyme_dup, x, 0.3, enzyme_dup, y, -0.8);
  check_close("scalar2 lane0 = width1", r.d[0], w0, 1e-15, 0.0);
  check_close("scalar2 lane1 = width1", r.d[1], w1, 1e-15, 0.0);
  double p0[4] = {x, y, 1.0, 0.0}, p1[4] = {x, y, 0.3, -0.8};
  check_close("scalar2 lane0 fd", r.d[0], gc_fd_t(g_scalar2, 0.0, p0), GC_RTOL_D, GC_ATOL_D);
  check_close("scalar2 lane1 fd", r.d[1], gc_fd_t(g_scalar2, 0.0, p1), GC_RTOL_D, GC_ATOL_D);
  check_close("scalar2 lane0 exact", r.d[0], y * cos(x * y) + 2.0 * x * exp(-y), 1e-14, 1e-15);

  /* Arrays: two shadow arrays for v and for out. */
  struct ctx c[2] = {{{0.5, -0.3, 1.2, 0.8, -1.0}, {1, 0, 0, 0, 0}, 0.9, 0.0},
                     {{0.5, -0.3, 1.2, 0.8, -1.0}, {0.2, -0.5, 1.0, 0.3, 0.7}, 0.9, 1.5}};
  double v[N], o[N], dv0[N], dv1[N], do0[N], do1[N];
  memcpy(v, c[0].v, sizeof v);
  memcpy(dv0, c[0].dv, sizeof dv0);
  memcpy(dv1, c[1].dv, sizeof dv1);
  r = __enzyme_fwddiff_vec2((void *)arrays, enzyme_width, 2, enzyme_dup, v, dv0, dv1, enzyme_dup,
                            c[0].a, c[0].da, c[1].da, enzyme_dup, o, do0, do1);
  for (int l = 0; l < 2; ++l) {
    double vv[N], dvv[N], oo[N], doo[N];
    memcpy(vv, c[l].v, sizeof vv);
    memcpy(dvv, c[l].dv, sizeof dvv);
    double w = __enzyme_fwddiff((void *)arrays, enzyme_dup, vv, dvv, enzyme_dup, c[l].a, c[l].da,
                                enzyme_dup, oo, doo);
    double *dol = l ? do1 : do0;
    snprintf(nm, sizeof nm, "arrays lane%d = width1", l);
    check_close(nm, r.d[l], w, 1e-15, 0.0);
    snprintf(nm, sizeof nm, "arrays lane%d fd", l);
    check_close(nm, r.d[l], gc_fd_t(g_arrays, 0.0, &c[l]), GC_RTOL_D, GC_ATOL_D);
    for (int i = 0; i < N; ++i) {
      snprintf(nm, sizeof nm, "arrays out shadow lane%d [%d] = width1", l, i);
      check_close(nm, dol[i], doo[i], 1e-15, 0.0);
    }
    snprintf(nm, sizeof nm, "arrays out[3] lane%d fd", l);
    check_close(nm, dol[3], gc_fd_t(g_out3, 0.0, &c[l]), GC_RTOL_D, GC_ATOL_D);
  }
  check_close("arrays primal out[1]", o[1], v[1] * v[2] * 0.9, 1e-15, 0.0);
  return gradcheck_exit();
}
