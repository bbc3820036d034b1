// Forward mode on float code: float scalars passed through C varargs (promoted
// to double by the caller; the plugin narrows them back), a float result
// read through the plain double-returning entry point and through a
// float-returning one, float arrays with float shadows, mixed float/double
// arithmetic, and width 2 with a struct of two floats.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

float __enzyme_fwddiff_f(void *, ...);
typedef struct { float d[2]; } vec2f;
vec2f __enzyme_fwddiff_vec2f(void *, ...);

/* A float logistic regression loss for one sample. */
float logloss(float w, float b, float x, float label) {
  float z = w * x + b;
  float p = 1.0f / (1.0f + expf(-z));
  return -(label * logf(p) + (1.0f - label) * logf(1.0f - p));
}

/* Float arrays: a float dot product with a float scale. */
float fdot(const float *a, const float *b, int n, float scale) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s * scale;
}

/* Mixed precision: float input, double arithmetic, double result. */
double widen(float x, double y) {
  double xd = x;
  return xd * xd * y + sin(xd) * (float)(y * 0.5);
}

static float g_logloss_w(float w) { return logloss(w, 0.3f, 1.7f, 1.0f); }
static float g_logloss_b(float b) { return logloss(-0.4f, b, 1.7f, 0.0f); }
static float g_widen_fl(float x) { return (float)widen(x, 1.25); }
static float g_fdot(float *a, void *c) { return fdot(a, (const float *)c, 4, 1.5f); }

int main(void) {
  float w = -0.4f, b = 0.3f, x = 1.7f;
  /* Through the double-returning entry: the float result is widened. */
  double d = __enzyme_fwddiff((void *)logloss, enzyme_dup, w, 1.0f, enzyme_const, b,
                              enzyme_const, x, enzyme_const, 1.0f);
  double z = (double)w * x + b, p = 1.0 / (1.0 + exp(-z));
  check_close("logloss d/dw (label 1) exact", d, -(1.0 - p) * x, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("logloss d/dw fd", d, gc_fdf(g_logloss_w, w), GC_RTOL_F, GC_ATOL_F);
  /* Through a float-returning entry, tangent of b, label 0. */
  float df = __enzyme_fwddiff_f((void *)logloss, enzyme_const, w, enzyme_dup, b, 1.0f,
                                enzyme_const, x, enzyme_const, 0.0f);
  check_close("logloss d/db (label 0) exact", df, p, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("logloss d/db fd", df, gc_fdf(g_logloss_b, b), GC_RTOL_F, GC_ATOL_F);

  /* Float arrays. */
  float a[4] = {0.5f, -1.25f, 2.0f, 0.75f}, da[4] = {1.0f, 0.5f, -1.0f, 0.25f};
  float bb[4] = {1.5f, 0.25f, -0.5f, 2.0f}, dbb[4] = {0.0f, 1.0f, 0.0f, -2.0f};
  df = __enzyme_fwddiff_f((void *)fdot, enzyme_dup, a, da, enzyme_dup, bb, dbb, 4, enzyme_dup,
                          1.5f, 0.5f);
  double want = 0.0, s = 0.0;
  for (int i = 0; i < 4; ++i) {
    want += (double)da[i] * bb[i] + (double)a[i] * dbb[i];
    s += (double)a[i] * bb[i];
  }
  check_close("fdot exact", df, want * 1.5 + s * 0.5, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("fdot d/da fd",
              __enzyme_fwddiff_f((void *)fdot, enzyme_dup, a, da, enzyme_const, bb, 4,
                                 enzyme_const, 1.5f),
              gc_fd_dirf(g_fdot, a, da, 4, bb), GC_RTOL_F, GC_ATOL_F);

  /* Mixed precision. */
  d = __enzyme_fwddiff((void *)widen, enzyme_dup, 0.6f, 1.0f, enzyme_const, 1.25);
  double xd = 0.6f;
  check_close("widen d/dx exact", d, 2.0 * xd * 1.25 + cos(xd) * 0.625, 1e-7, 1e-9);
  check_close("widen d/dx fd (float)", d, gc_fdf(g_widen_fl, 0.6f), GC_RTOL_F, GC_ATOL_F);
  d = __enzyme_fwddiff((void *)widen, enzyme_const, 0.6f, enzyme_dup, 1.25, 1.0);
  check_close("widen d/dy exact", d, xd * xd + sin(xd) * 0.5, 1e-7, 1e-9);

  /* Width 2 with float lanes. */
  vec2f r = __enzyme_fwddiff_vec2f((void *)logloss, enzyme_width, 2, enzyme_dup, w, 1.0f, 0.0f,
                                   enzyme_dup, b, 0.0f, 1.0f, enzyme_const, x, enzyme_const, 1.0f);
  check_close("logloss width2 lane0 exact", r.d[0], -(1.0 - p) * x, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("logloss width2 lane1 exact", r.d[1], -(1.0 - p), GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  return gradcheck_exit();
}
