/*===- spring_chain.c - Forward-mode example on the host -------------------===*
 *
 * Part of gpuad.
 *
 * A chain of masses joined by springs, under gravity.  The energy E(x) of
 * positions x is differentiated in forward mode: dE(x)[v], the directional
 * derivative along v, for one direction and for four at once (enzyme_width
 * 4), checked against central finite differences; and in reverse mode: the
 * whole gradient dE/dx in one call, plus dE/dk and dE/drest of the spring
 * constants (enzyme_out), checked by the dot-product test against forward
 * mode and against finite differences.
 *
 *===----------------------------------------------------------------------===*/

#include <gpuad/gpuad.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 64 };

typedef struct {
  double d[4];
} vec4;
vec4 __enzyme_fwddiff_vec4(void *, ...);
typedef struct {
  double dk, drest;
} spring_adjoints;
spring_adjoints __enzyme_autodiff_springs(void *, ...);

/// Spring energy of a chain of N 2-D points (x0,y0,x1,y1,...).
double chain_energy(const double *x, int n, double k, double rest) {
  double e = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double dx = x[2 * i + 2] - x[2 * i];
    double dy = x[2 * i + 3] - x[2 * i + 1];
    double len = sqrt(dx * dx + dy * dy);
    e += 0.5 * k * (len - rest) * (len - rest);
  }
  for (int i = 0; i < n; ++i)
    e += 9.81 * x[2 * i + 1]; /* gravity, unit masses */
  return e;
}

static double directional_fd(const double *x, const double *v) {
  double xp[2 * N], xm[2 * N], h = 1e-6;
  for (int i = 0; i < 2 * N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  return (chain_energy(xp, N, 40.0, 0.1) - chain_energy(xm, N, 40.0, 0.1)) /
         (2 * h);
}

int main(void) {
  double x[2 * N], v[4][2 * N];
  srand(7);
  for (int i = 0; i < 2 * N; ++i) {
    x[i] = 0.12 * (i / 2) + 0.01 * (rand() % 100) / 100.0;
    for (int l = 0; l < 4; ++l)
      v[l][i] = (rand() % 2001) / 1000.0 - 1.0;
  }

  double dE = __enzyme_fwddiff((void *)chain_energy, enzyme_dup, x, v[0],
                               enzyme_const, N, 40.0, 0.0, 0.1, 0.0);
  double fd = directional_fd(x, v[0]);
  double err = fabs(dE - fd) / fmax(1.0, fabs(fd));
  printf(
      "forward mode  dE.v = %.10f  finite difference = %.10f  rel.err %.1e\n",
      dE, fd, err);

  vec4 batch = __enzyme_fwddiff_vec4(
      (void *)chain_energy, enzyme_width, 4, enzyme_dup, x, v[0], v[1], v[2],
      v[3], enzyme_const, N, 40.0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.0);
  double worst = err;
  for (int l = 0; l < 4; ++l) {
    double want = directional_fd(x, v[l]);
    double e = fabs(batch.d[l] - want) / fmax(1.0, fabs(want));
    worst = fmax(worst, e);
    printf("width 4, lane %d: dE.v = %.10f  finite difference = %.10f  rel.err "
           "%.1e\n",
           l, batch.d[l], want, e);
  }
  /* Reverse mode: grad_x E (added into g), and the adjoints of k and rest. */
  double g[2 * N] = {0};
  spring_adjoints a = __enzyme_autodiff_springs(
      (void *)chain_energy, enzyme_dup, x, g, enzyme_const, N, enzyme_out, 40.0,
      enzyme_out, 0.1);
  double gv = 0;
  for (int i = 0; i < 2 * N; ++i)
    gv += g[i] * v[0][i];
  double dot_err = fabs(gv - dE) / fmax(1.0, fabs(dE));
  printf("reverse mode  grad.v = %.10f  forward dE.v = %.10f  rel.err %.1e\n",
         gv, dE, dot_err);
  double h = 1e-6;
  double fd_k =
      (chain_energy(x, N, 40.0 + h, 0.1) - chain_energy(x, N, 40.0 - h, 0.1)) /
      (2 * h);
  double fd_rest =
      (chain_energy(x, N, 40.0, 0.1 + h) - chain_energy(x, N, 40.0, 0.1 - h)) /
      (2 * h);
  double k_err = fmax(fabs(a.dk - fd_k) / fmax(1.0, fabs(fd_k)),
                      fabs(a.drest - fd_rest) / fmax(1.0, fabs(fd_rest)));
  printf("reverse mode  dE/dk = %.10f (fd %.10f)  dE/drest = %.10f (fd %.10f)"
         "  rel.err %.1e\n",
         a.dk, fd_k, a.drest, fd_rest, k_err);
  worst = fmax(worst, fmax(dot_err, k_err));

  int ok = worst < 1e-6;
  printf("gradient check (tolerance 1e-6 relative): %s\n",
         ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
