// a / sqrt(b) differentiated as one rule (one division, t = 1/(sqrt(b) b),
// nothing through the square root) and squares as one contribution
// (2 DI x): checked against finite differences, forward mode
// (dot-product test) and, for the scalar shapes, width 2 -- where the rule
// applies (potentials, normalisation, a constant numerator, float) and where
// it must not (the square root used twice, an inactive denominator); the
// float normalisation against the double one.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

/* Pair potential: m_i m_j / |r_i - r_j| (a / sqrt(b), b a sum of squares). */
double potential(double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i += 2)
    for (int j = i + 2; j < n; j += 2) {
      double dx = x[i] - x[j], dy = x[i + 1] - x[j + 1];
      e += (1.0 + 0.1 * i) * (1.0 + 0.1 * j) / sqrt(dx * dx + dy * dy + 0.01);
    }
  return e;
}
/* A constant numerator, and fma-contracted squares at -O2. */
double inverse_norm(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = fma(x[i], x[i], s);
  return 1.0 / sqrt(s);
}
/* The square root used twice: the two rules compose as usual. */
double twice(double *x, int n) {
  double s = sqrt(x[0] * x[0] + x[1] * x[1]);
  return x[2] / s + s * x[3];
}
/* Normalisation, out = x / |x|. */
void normalize(double *out, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  for (int i = 0; i < n; i++)
    out[i] = x[i] / sqrt(s);
}
/* The same in float (against the double gradient: float rounding). */
float normalize_f(float *out, const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  for (int i = 0; i < n; i++)
    out[i] = x[i] / sqrtf(s);
  return 0;
}
/* The denominator inactive (a constant argument's square root). */
double scaled(double *x, int n) {
  double c = n;
  return x[0] / sqrt(c) + x[1] * x[1] / sqrt(c + x[2] * x[2]);
}

GC_SCALAR_OF_ARRAY(potential)
GC_SCALAR_OF_ARRAY(inverse_norm)
GC_SCALAR_OF_ARRAY(twice)
GC_SCALAR_OF_ARRAY(scaled)
GC_OUT_OF_ARRAY(normalize)

static const double x0[N] = {0.7, -1.3, 1.1, 0.4, -0.9, 1.6};

int main(void) {
  GC_CHECK_SCALAR(potential, x0, N);
  GC_CHECK_SCALAR(inverse_norm, x0, N);
  GC_CHECK_SCALAR(twice, x0, N);
  GC_CHECK_SCALAR(scaled, x0, N);
  GC_CHECK_OUT(normalize, x0, N);
  {
    double x[N], out[N], dx[N] = {0}, dout[N];
    float xf[N], outf[N], dxf[N] = {0}, doutf[N];
    memcpy(x, x0, sizeof x);
    gc_direction(dout, N, 3);
    for (int i = 0; i < N; i++) {
      xf[i] = (float)x0[i];
      doutf[i] = (float)dout[i];
    }
    __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x,
                      dx, N);
    __enzyme_autodiff((void *)normalize_f, enzyme_dup, outf, doutf, enzyme_dup,
                      xf, dxf, N);
    for (int i = 0; i < N; i++) /* float against double: 1e-5 relative */
      check_close("normalize_f vjp", dxf[i], dx[i], 1e-5, 1e-6);
  }
  return gradcheck_exit();
}
