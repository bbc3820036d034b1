// Batched forward mode (width 3) through memory: a malloc'd work buffer, a
// stack array, memcpy/memset, a noinline callee that writes through
// pointers, and a data-dependent loop.  Each lane must equal the width-1
// derivative with that lane's direction.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef struct { double d[3]; } vec3;
vec3 __enzyme_fwddiff_vec3(void *, ...);

#define N 6

__attribute__((noinline)) void smooth_into(const double *in, double *out, int n) {
  for (int i = 0; i < n; ++i) {
    double l = in[i > 0 ? i - 1 : 0], r = in[i < n - 1 ? i + 1 : n - 1];
    out[i] = 0.25 * l + 0.5 * in[i] + 0.25 * r;
  }
}

double kernel(const double *x, double a, double *y) {
  double *work = (double *)malloc(sizeof(double) * N);
  double tmp[N];
  memcpy(work, x, sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    work[i] = tanh(a * work[i]);
  smooth_into(work, tmp, N);
  memset(work, 0, sizeof(double) * N);
  double s = 0.0;
  int i = 0;
  while (i < N && s < 2.5) { /* exits on the data */
    work[i] = tmp[i] * tmp[i];
    s += work[i] + 0.3;
    ++i;
  }
  memcpy(y, work, sizeof(double) * N);
  free(work);
  return s * a;
}

int main(void) {
  char nm[96];
  double x[N] = {0.9, -0.4, 1.6, 0.2, -1.3, 0.7}, a = 1.2;
  double dirs[3][N], da[3] = {0.0, 1.0, -0.5};
  for (int l = 0; l < 3; ++l)
    for (int i = 0; i < N; ++i)
      dirs[l][i] = l == 1 ? 0.0 : cos(0.7 * i + l);
  double y[N], dy[3][N];
  vec3 r = __enzyme_fwddiff_vec3((void *)kernel, enzyme_width, 3, enzyme_dup, x, dirs[0], dirs[1],
                                 dirs[2], enzyme_dup, a, da[0], da[1], da[2], enzyme_dup, y, dy[0],
                                 dy[1], dy[2]);
  for (int l = 0; l < 3; ++l) {
    double dx1[N], y1[N], dy1[N];
    memcpy(dx1, dirs[l], sizeof dx1);
    double w = __enzyme_fwddiff((void *)kernel, enzyme_dup, x, dx1, enzyme_dup, a, da[l],
                                enzyme_dup, y1, dy1);
    snprintf(nm, sizeof nm, "kernel lane %d = width1", l);
    check_close(nm, r.d[l], w, 1e-14, 1e-15);
    for (int i = 0; i < N; ++i) {
      snprintf(nm, sizeof nm, "kernel y shadow lane %d [%d] = width1", l, i);
      check_close(nm, dy[l][i], dy1[i], 1e-14, 1e-15);
    }
  }
  /* Lane 1 moves only a; FD in a. */
  double h = 1e-6 * 1.2, yp[N], ym[N];
  double fd = (kernel(x, a + h, yp) - kernel(x, a - h, ym)) / (2 * h);
  check_close("kernel lane 1 fd (d/da)", r.d[1], fd, GC_RTOL_D, GC_ATOL_D);
  check_close("kernel y[1] shadow lane 1 fd", dy[1][1], (yp[1] - ym[1]) / (2 * h), GC_RTOL_D,
              GC_ATOL_D);
  return gradcheck_exit();
}
