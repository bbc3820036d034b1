// Batched forward mode with enzyme_dupv: `enzyme_width, N, enzyme_dupv,
// stride, p, base` gives lane v the shadow pointer base + v*stride bytes.
// Shadows packed in one 2-D array (stride = row size), shadows in a padded
// layout (stride larger than the data), dupv on an output array, and dupv
// mixed with an ordinary dup scalar.  Each lane is checked against the
// width-1 derivative with the same direction and against FD.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef struct { double d[3]; } vec3;
vec3 __enzyme_fwddiff_vec3(void *, ...);

#define N 6

/* A smooth scalar of an array and a scalar. */
double energy(const double *x, double k) {
  double e = 0.0;
  for (int i = 0; i + 1 < N; ++i) {
    double d = x[i + 1] - x[i];
    e += k * d * d * d * d + cos(x[i]);
  }
  return e;
}

/* y = cumulative sums of x^2. */
void cumsq(const double *x, double *y) {
  double s = 0.0;
  for (int i = 0; i < N; ++i) {
    s += x[i] * x[i];
    y[i] = s;
  }
}

static double g_energy(double *x, void *c) { return energy(x, *(double *)c); }
static void g_cumsq(double *x, double *y, void *c) { (void)c; cumsq(x, y); }

int main(void) {
  char nm[96];
  double x[N] = {0.1, 0.5, -0.2, 0.9, 1.4, 0.3}, k = 0.75;
  /* Three directions packed as rows of one array. */
  double dirs[3][N];
  for (int v = 0; v < 3; ++v)
    for (int i = 0; i < N; ++i)
      dirs[v][i] = sin(1.0 + v * 2.0 + i * 0.7);

  vec3 r = __enzyme_fwddiff_vec3((void *)energy, enzyme_width, 3, enzyme_dupv,
                                 (long)sizeof(dirs[0]), x, &dirs[0][0], enzyme_const, k);
  for (int v = 0; v < 3; ++v) {
    double dx[N];
    memcpy(dx, dirs[v], sizeof dx);
    double w = __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx, enzyme_const, k);
    snprintf(nm, sizeof nm, "energy dupv packed lane %d = width1", v);
    check_close(nm, r.d[v], w, 1e-15, 0.0);
    snprintf(nm, sizeof nm, "energy dupv packed lane %d fd", v);
    check_close(nm, r.d[v], gc_fd_dir(g_energy, x, dirs[v], N, &k), GC_RTOL_D, GC_ATOL_D);
  }

  /* Padded layout: each lane's shadow followed by unrelated data. */
  struct padded { double pre; double dx[N]; double junk[3]; } lanes[3];
  for (int v = 0; v < 3; ++v) {
    lanes[v].pre = 1e300;
    memcpy(lanes[v].dx, dirs[2 - v], sizeof lanes[v].dx);
    lanes[v].junk[0] = lanes[v].junk[1] = lanes[v].junk[2] = -1e300;
  }
  /* dupv mixed with a dup scalar: k gets three tangents. */
  r = __enzyme_fwddiff_vec3((void *)energy, enzyme_width, 3, enzyme_dupv,
                            (long)sizeof(struct padded), x, lanes[0].dx, enzyme_dup, k, 0.0, 1.0,
                            -2.0);
  double kd[3] = {0.0, 1.0, -2.0};
  for (int v = 0; v < 3; ++v) {
    double dx[N];
    memcpy(dx, dirs[2 - v], sizeof dx);
    double w = __enzyme_fwddiff((void *)energy, enzyme_dup, x, dx, enzyme_dup, k, kd[v]);
    snprintf(nm, sizeof nm, "energy dupv padded lane %d = width1", v);
    check_close(nm, r.d[v], w, 1e-15, 0.0);
  }
  check_true("padding untouched", lanes[1].pre == 1e300 && lanes[2].junk[2] == -1e300);

  /* dupv on the output too: lane v writes its tangents to out[v]. */
  double y[N], out[3][N];
  for (int v = 0; v < 3; ++v)
    for (int i = 0; i < N; ++i)
      out[v][i] = 42.0;
  __enzyme_fwddiff((void *)cumsq, enzyme_width, 3, enzyme_dupv, (long)sizeof(dirs[0]), x,
                   &dirs[0][0], enzyme_dupv, (long)sizeof(out[0]), y, &out[0][0]);
  for (int v = 0; v < 3; ++v) {
    double want[N];
    gc_fd_dir_vec(g_cumsq, x, dirs[v], N, N, NULL, want);
    for (int i = 0; i < N; ++i) {
      snprintf(nm, sizeof nm, "cumsq dupv out lane %d [%d] fd", v, i);
      check_close(nm, out[v][i], want[i], GC_RTOL_D, GC_ATOL_D);
    }
  }
  return gradcheck_exit();
}
