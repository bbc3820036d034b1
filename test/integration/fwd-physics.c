// A realistic kernel: a softened 2-D gravitational n-body system integrated
// with velocity Verlet over arrays, and a damped spring chain integrated
// with RK4.  Tangents of the final energy and final positions with respect to
// an initial position, a mass, and the time step, checked against FD; and
// since Verlet nearly conserves energy, d E_final / d x0 is close to
// d E_initial / d x0.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define NB 4
#define EPS2 0.01

/* State: pos[2*NB], vel[2*NB], mass[NB]. */
static void accel(const double *pos, const double *mass, double *acc) {
  for (int i = 0; i < 2 * NB; ++i)
    acc[i] = 0.0;
  for (int i = 0; i < NB; ++i)
    for (int j = 0; j < NB; ++j) {
      if (i == j)
        continue;
      double dx = pos[2 * j] - pos[2 * i], dy = pos[2 * j + 1] - pos[2 * i + 1];
      double r2 = dx * dx + dy * dy + EPS2;
      double inv = mass[j] / (r2 * sqrt(r2));
      acc[2 * i] += dx * inv;
      acc[2 * i + 1] += dy * inv;
    }
}

double nbody_energy(const double *pos, const double *vel, const double *mass) {
  double e = 0.0;
  for (int i = 0; i < NB; ++i) {
    e += 0.5 * mass[i] * (vel[2 * i] * vel[2 * i] + vel[2 * i + 1] * vel[2 * i + 1]);
    for (int j = i + 1; j < NB; ++j) {
      double dx = pos[2 * j] - pos[2 * i], dy = pos[2 * j + 1] - pos[2 * i + 1];
      e -= mass[i] * mass[j] / sqrt(dx * dx + dy * dy + EPS2);
    }
  }
  return e;
}

/* Integrates `steps` Verlet steps in place; returns the final energy. */
double nbody(double *pos, double *vel, const double *mass, double dt, int steps) {
  double acc[2 * NB];
  accel(pos, mass, acc);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < 2 * NB; ++i) {
      vel[i] += 0.5 * dt * acc[i];
      pos[i] += dt * vel[i];
    }
    accel(pos, mass, acc);
    for (int i = 0; i < 2 * NB; ++i)
      vel[i] += 0.5 * dt * acc[i];
  }
  return nbody_energy(pos, vel, mass);
}

/* Damped chain of NS masses between walls, RK4; returns the final
 * displacement of the middle mass. */
#define NS 5
static void chain_rhs(const double *y, double k, double c, double *f) {
  for (int i = 0; i < NS; ++i) {
    double l = i > 0 ? y[i - 1] : 0.0, r = i < NS - 1 ? y[i + 1] : 0.0;
    f[i] = y[NS + i];
    f[NS + i] = k * (l - 2.0 * y[i] + r) - c * y[NS + i] - 0.3 * y[i] * y[i] * y[i];
  }
}
double spring_chain(const double *y0, double k, double c, double dt, int steps) {
  double y[2 * NS], k1[2 * NS], k2[2 * NS], k3[2 * NS], k4[2 * NS], t[2 * NS];
  memcpy(y, y0, sizeof y);
  for (int s = 0; s < steps; ++s) {
    chain_rhs(y, k, c, k1);
    for (int i = 0; i < 2 * NS; ++i) t[i] = y[i] + 0.5 * dt * k1[i];
    chain_rhs(t, k, c, k2);
    for (int i = 0; i < 2 * NS; ++i) t[i] = y[i] + 0.5 * dt * k2[i];
    chain_rhs(t, k, c, k3);
    for (int i = 0; i < 2 * NS; ++i) t[i] = y[i] + dt * k3[i];
    chain_rhs(t, k, c, k4);
    for (int i = 0; i < 2 * NS; ++i)
      y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  return y[NS / 2];
}

static const double pos0[2 * NB] = {1.0, 0.0, -0.5, 0.8, -0.6, -0.7, 0.1, 0.05};
static const double vel0[2 * NB] = {0.0, 0.6, -0.5, -0.3, 0.4, -0.4, 0.1, 0.1};
static const double mass0[NB] = {1.0, 0.8, 1.2, 0.05};
#define STEPS 200
#define DT 0.002

struct nb_dir { double dpos[2 * NB], dmass[NB], ddt; };
static double g_nbody(double t, void *c) {
  struct nb_dir *d = (struct nb_dir *)c;
  double p[2 * NB], v[2 * NB], m[NB];
  for (int i = 0; i < 2 * NB; ++i) {
    p[i] = pos0[i] + t * d->dpos[i];
    v[i] = vel0[i];
  }
  for (int i = 0; i < NB; ++i)
    m[i] = mass0[i] + t * d->dmass[i];
  return nbody(p, v, m, DT + t * d->ddt, STEPS);
}
static double g_nbody_pos0x(double t, void *c) {
  double p[2 * NB], v[2 * NB];
  (void)c;
  memcpy(p, pos0, sizeof p);
  memcpy(v, vel0, sizeof v);
  p[0] += t;
  nbody(p, v, mass0, DT, STEPS);
  return p[5]; /* final y of body 2 */
}
static double g_energy0(double *p, void *c) { (void)c; return nbody_energy(p, vel0, mass0); }
static double g_chain(double t, void *c) {
  double *dk = (double *)c;
  double y0[2 * NS] = {0.1, -0.2, 0.3, 0.0, 0.15, 0, 0, 0, 0, 0};
  y0[0] += t * dk[0];
  return spring_chain(y0, 4.0 + t * dk[1], 0.2, 0.01 + t * dk[2], 300);
}

int main(void) {
  double p[2 * NB], dp[2 * NB], v[2 * NB], dv[2 * NB], m[NB], dm[NB];
  struct nb_dir dir;

  /* d E_final / d x_0 (initial x of body 0). */
  memset(&dir, 0, sizeof dir);
  dir.dpos[0] = 1.0;
  memcpy(p, pos0, sizeof p);
  memcpy(v, vel0, sizeof v);
  memcpy(m, mass0, sizeof m);
  memcpy(dp, dir.dpos, sizeof dp);
  memset(dv, 0, sizeof dv);
  double dE = __enzyme_fwddiff((void *)nbody, enzyme_dup, p, dp, enzyme_dup, v, dv, enzyme_const,
                               m, enzyme_const, DT, STEPS);
  check_close("nbody dE/dx0 fd", dE, gc_fd_t(g_nbody, 0.0, &dir), 1e-5, 1e-7);
  double e0[2 * NB] = {1, 0, 0, 0, 0, 0, 0, 0};
  check_close("nbody dE/dx0 ~ dE_initial/dx0 (energy conserved)", dE,
              gc_fd_dir(g_energy0, pos0, e0, 2 * NB, NULL), 1e-2, 1e-3);
  /* The final position shadow: body 2's y. */
  check_close("nbody d y2_final / dx0 fd", dp[5], gc_fd_t(g_nbody_pos0x, 0.0, NULL), 1e-5, 1e-7);

  /* A mixed direction: positions, masses and dt together. */
  for (int i = 0; i < 2 * NB; ++i)
    dir.dpos[i] = 0.1 * (i % 3) - 0.1;
  for (int i = 0; i < NB; ++i)
    dir.dmass[i] = 0.05 * i;
  dir.ddt = 0.01;
  memcpy(p, pos0, sizeof p);
  memcpy(v, vel0, sizeof v);
  memcpy(dp, dir.dpos, sizeof dp);
  memset(dv, 0, sizeof dv);
  memcpy(dm, dir.dmass, sizeof dm);
  dE = __enzyme_fwddiff((void *)nbody, enzyme_dup, p, dp, enzyme_dup, v, dv, enzyme_dup, m, dm,
                        enzyme_dup, DT, dir.ddt, STEPS);
  check_close("nbody mixed direction fd", dE, gc_fd_t(g_nbody, 0.0, &dir), 1e-5, 1e-7);

  /* Spring chain: initial displacement, stiffness and step together. */
  double y0[2 * NS] = {0.1, -0.2, 0.3, 0.0, 0.15, 0, 0, 0, 0, 0};
  double dy0[2 * NS] = {1.0};
  double dk[3] = {1.0, 0.5, 0.001};
  double dz = __enzyme_fwddiff((void *)spring_chain, enzyme_dup, y0, dy0, enzyme_dup, 4.0, dk[1],
                               enzyme_const, 0.2, enzyme_dup, 0.01, dk[2], 300);
  check_close("spring_chain mixed direction fd", dz, gc_fd_t(g_chain, 0.0, dk), 1e-5, 1e-8);
  return gradcheck_exit();
}
