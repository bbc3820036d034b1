// Batched forward mode, width 4: the full gradient of a 4-input function in
// one call (four unit directions as lanes), and the full 4x4 Jacobian of a
// vector function through four shadow output arrays.  Each lane must equal
// the width-1 derivative in that direction and the central FD.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef struct { double d[4]; } vec4;
vec4 __enzyme_fwddiff_vec4(void *, ...);

/* Extended Rosenbrock in 4 variables plus a coupling term; `scale` is an
 * active scalar with its own four tangents. */
double rosen(const double *x, double scale) {
  double s = 0.0;
  for (int i = 0; i < 3; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s += 100.0 * a * a + b * b;
  }
  return scale * s + sin(x[0] * x[3]);
}

/* A vector function R^4 -> R^4: a rotation-like map with nonlinearity. */
void vfun(const double *x, double *y) {
  y[0] = x[0] * cos(x[1]) - x[2];
  y[1] = x[0] * sin(x[1]) + x[3] * x[3];
  y[2] = exp(0.5 * x[2]) * x[3];
  y[3] = log(1.0 + x[0] * x[0]) + x[1] * x[2] * x[3];
}

static double g_rosen(double *x, void *c) { return rosen(x, *(double *)c); }
static void g_vfun(double *x, double *y, void *c) { (void)c; vfun(x, y); }

int main(void) {
  char nm[96];
  double x[4] = {0.9, 1.2, -0.4, 0.7}, scale = 1.3;
  double e[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

  /* Gradient w.r.t. x (scale's tangents zero). */
  vec4 g = __enzyme_fwddiff_vec4((void *)rosen, enzyme_width, 4, enzyme_dup, x, e[0], e[1], e[2],
                                 e[3], enzyme_dup, scale, 0.0, 0.0, 0.0, 0.0);
  for (int l = 0; l < 4; ++l) {
    double dx[4];
    memcpy(dx, e[l], sizeof dx);
    double w = __enzyme_fwddiff((void *)rosen, enzyme_dup, x, dx, enzyme_dup, scale, 0.0);
    snprintf(nm, sizeof nm, "rosen grad[%d] = width1", l);
    check_close(nm, g.d[l], w, 1e-15, 0.0);
    snprintf(nm, sizeof nm, "rosen grad[%d] fd", l);
    check_close(nm, g.d[l], gc_fd_dir(g_rosen, x, e[l], 4, &scale), GC_RTOL_D, GC_ATOL_D);
  }
  /* Lanes with a scale tangent: lane l scales the unit direction by l and
   * moves `scale` by 0.5 l. */
  double dirs[4][4];
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < 4; ++i)
      dirs[l][i] = e[l][i] * (l + 1);
  vec4 g2 = __enzyme_fwddiff_vec4((void *)rosen, enzyme_width, 4, enzyme_dup, x, dirs[0], dirs[1],
                                  dirs[2], dirs[3], enzyme_dup, scale, 0.0, 0.5, 1.0, 1.5);
  double s0 = 0.0;
  for (int i = 0; i < 3; ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
    s0 += 100.0 * a * a + b * b;
  }
  for (int l = 0; l < 4; ++l) {
    snprintf(nm, sizeof nm, "rosen scaled lane %d", l);
    check_close(nm, g2.d[l], (l + 1) * g.d[l] + 0.5 * l * s0, 1e-13, 1e-13);
  }

  /* Jacobian: column l of J in the shadow output of lane l. */
  double y[4], J[4][4];
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < 4; ++i)
      J[l][i] = -123.0;
  __enzyme_fwddiff((void *)vfun, enzyme_width, 4, enzyme_dup, x, e[0], e[1], e[2], e[3],
                   enzyme_dup, y, J[0], J[1], J[2], J[3]);
  for (int l = 0; l < 4; ++l) {
    double col[4];
    gc_fd_dir_vec(g_vfun, x, e[l], 4, 4, NULL, col);
    for (int i = 0; i < 4; ++i) {
      snprintf(nm, sizeof nm, "vfun J[%d][%d] fd", i, l);
      check_close(nm, J[l][i], col[i], GC_RTOL_D, GC_ATOL_D);
    }
  }
  check_close("vfun J[0][0] exact", J[0][0], cos(x[1]), 1e-15, 0.0);
  check_close("vfun J[3][2] exact", J[2][3], x[1] * x[3], 1e-15, 0.0);
  check_close("vfun primal y[2]", y[2], exp(0.5 * x[2]) * x[3], 1e-15, 0.0);
  return gradcheck_exit();
}
