// Result structs the x86-64 ABI returns through memory (sret): three or four
// doubles from width 3 and width 4 requests, and {primal, tangent[2]} from
// primal_return at width 2.  Also a struct of three floats (returned in
// registers as {<2 x float>, float}).  Each lane is compared with the
// width-1 result and with FD.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <cmath>
#include <cstdio>

struct R3 { double a, b, c; };
struct R4 { double d[4]; };
struct PT2 { double primal; double t[2]; };
struct F3 { float a, b, c; };

// f: R^3 -> R.
double f(double x, double y, double z) {
  return std::exp(0.3 * x) * std::sin(y) + x * y * z + std::log(1.0 + z * z);
}
float ff(float x, float y, float z) { return x * y + std::sin(z) * x; }

static double g_f(double t, void *c) {
  const double *p = static_cast<const double *>(c);
  return f(p[0] + t * p[3], p[1] + t * p[4], p[2] + t * p[5]);
}

int main() {
  char nm[96];
  const double x = 0.4, y = -0.9, z = 1.3;
  // Gradient in one width-3 call: lanes are the unit directions.
  R3 g = __enzyme_fwddiff<R3>((void *)f, enzyme_width, 3, enzyme_dup, x, 1.0, 0.0, 0.0,
                              enzyme_dup, y, 0.0, 1.0, 0.0, enzyme_dup, z, 0.0, 0.0, 1.0);
  double lanes[3] = {g.a, g.b, g.c};
  double want[3] = {0.3 * std::exp(0.3 * x) * std::sin(y) + y * z,
                    std::exp(0.3 * x) * std::cos(y) + x * z, x * y + 2 * z / (1 + z * z)};
  for (int l = 0; l < 3; ++l) {
    double e[3] = {l == 0 ? 1.0 : 0.0, l == 1 ? 1.0 : 0.0, l == 2 ? 1.0 : 0.0};
    double w = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, e[0], enzyme_dup, y, e[1],
                                        enzyme_dup, z, e[2]);
    double p[6] = {x, y, z, e[0], e[1], e[2]};
    std::snprintf(nm, sizeof nm, "R3 lane %d = width1", l);
    check_close(nm, lanes[l], w, 1e-15, 0.0);
    std::snprintf(nm, sizeof nm, "R3 lane %d exact", l);
    check_close(nm, lanes[l], want[l], 1e-14, 1e-15);
    std::snprintf(nm, sizeof nm, "R3 lane %d fd", l);
    check_close(nm, lanes[l], gc_fd_t(g_f, 0.0, p), GC_RTOL_D, GC_ATOL_D);
  }

  // Width 4: the fourth lane is the sum of the other three directions.
  R4 g4 = __enzyme_fwddiff<R4>((void *)f, enzyme_width, 4, enzyme_dup, x, 1.0, 0.0, 0.0, 1.0,
                               enzyme_dup, y, 0.0, 1.0, 0.0, 1.0, enzyme_dup, z, 0.0, 0.0, 1.0,
                               1.0);
  for (int l = 0; l < 3; ++l) {
    std::snprintf(nm, sizeof nm, "R4 lane %d exact", l);
    check_close(nm, g4.d[l], want[l], 1e-14, 1e-15);
  }
  check_close("R4 lane 3 = sum", g4.d[3], want[0] + want[1] + want[2], 1e-14, 1e-15);

  // primal_return at width 2: {primal, {t0, t1}} is 24 bytes (sret).
  PT2 pt = __enzyme_fwddiff<PT2>((void *)f, enzyme_width, 2, enzyme_primal_return, enzyme_dup, x,
                                 1.0, 0.5, enzyme_dup, y, 0.0, -1.0, enzyme_dup, z, 0.0, 2.0);
  check_close("PT2 primal", pt.primal, f(x, y, z), 1e-15, 0.0);
  check_close("PT2 lane 0", pt.t[0], want[0], 1e-14, 1e-15);
  check_close("PT2 lane 1", pt.t[1], 0.5 * want[0] - want[1] + 2.0 * want[2], 1e-14, 1e-15);

  // Three floats.
  const float xf = 0.4f, yf = -0.9f, zf = 1.3f;
  F3 gf = __enzyme_fwddiff<F3>((void *)ff, enzyme_width, 3, enzyme_dup, xf, 1.0f, 0.0f, 0.0f,
                               enzyme_dup, yf, 0.0f, 1.0f, 0.0f, enzyme_dup, zf, 0.0f, 0.0f, 1.0f);
  double xd = xf, yd = yf, zd = zf;
  check_close("F3 lane 0 exact", gf.a, yd + std::sin(zd), GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("F3 lane 1 exact", gf.b, xd, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  check_close("F3 lane 2 exact", gf.c, std::cos(zd) * xd, GC_RTOL_EXACTF, GC_ATOL_EXACTF);
  return gradcheck_exit();
}
