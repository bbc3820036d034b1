/*===- fuzzcheck.h - The checks of a generated fuzz program -----*- C/C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Every program tools/fuzz/progen.py writes differentiates one map
 * o = F(u) (u: all inputs, o: all outputs, flattened to doubles) in several
 * modes and hands the results to these checks.  The program supplies F as a
 * double-precision primal (for a float program: the same source rendered in
 * double, so finite differences are accurate) and, for float programs, the
 * float primal too, to reject ill-conditioned points.
 *
 *   fz_init(nin, nout, prim, primf, u0, is_float);
 *       picks a point near u0 where F is finite, moderate (|o| < 1e4) and
 *       smooth along every direction (central differences with steps h and
 *       h/2 agree); exits 3 (inconclusive) when none of 8 tries is.
 *   fz_direction(k, v)    the k-th input direction (unit vectors first).
 *   fz_weight(k, w)       the k-th output weight (the returns', the last
 *                         fz.nret outputs (default 1), are always 1: reverse
 *                         mode seeds an active return with 1).
 *   fz_check_fwd(mode, k, jv)       J v_k against finite differences.
 *   fz_check_rev(mode, k, jtw)      J^T w_k against finite differences and,
 *                                   by the dot-product test, every J v from
 *                                   the width-1 forward mode.
 *   fz_check_same(mode, what, got, want, n)
 *                         a result that must equal another gpuad result
 *                         (width N lanes vs width-1 runs, split vs combined)
 *                         to rounding.
 *   fz_check_fwd_lane(l, jv), fz_check_rev_lane(l, jtw, single)
 *                         lane l of a width-N request: both of the above
 *                         (single: lane l's width-1 run, or null).
 *   return fz_finish();   one line `FZ <mode> PASS|FAIL` per mode seen; exit
 *                         status 0 (all pass) or 1 (a wrong derivative).
 *
 * Tolerances: a derivative d against a central difference D (step h, and D2
 * with step h/2) passes when |d - D2| <= 4 |D - D2| + rtol max(1, |D2|), the
 * first term bounding the truncation error of D2; rtol is 1e-6 for double
 * and 3e-3 for float programs.  Derivatives compared with each other pass
 * within rtol times the sum of the magnitudes of the terms compared (1e-10
 * double, 1e-4 float).
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_FUZZCHECK_H
#define GPUAD_FUZZCHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*fz_prim_fn)(const double *u, double *o);

#define FZ_MAX_IN 512
#define FZ_MAX_OUT 512
#define FZ_MAX_DIRS 16
#define FZ_MAX_MODES 16

static struct {
  int nin, nout, nret, is_float, ndirs;
  fz_prim_fn prim;
  double u0[FZ_MAX_IN];
  double fd[FZ_MAX_DIRS][FZ_MAX_OUT], fd2[FZ_MAX_DIRS][FZ_MAX_OUT];
  double jv[FZ_MAX_DIRS][FZ_MAX_OUT];
  int have_jv[FZ_MAX_DIRS];
  const char *modes[FZ_MAX_MODES];
  int failures[FZ_MAX_MODES], checks[FZ_MAX_MODES], nmodes, printed;
} fz;

static double fz_rand(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xffff) / 65535.0 * 2.0 - 1.0;
}

static void fz_direction(int k, double *v) {
  unsigned st = 977u * (unsigned)k + 13u;
  for (int i = 0; i < fz.nin; ++i)
    v[i] = fz.nin <= 12 ? (i == k ? 1.0 : 0.0) : fz_rand(&st);
}

static void fz_weight(int k, double *w) {
  unsigned st = 7919u * (unsigned)k + 101u;
  for (int i = 0; i < fz.nout; ++i)
    w[i] = i >= fz.nout - (fz.nret ? fz.nret : 1) ? 1.0
                                                 : 0.25 + 0.75 * fz_rand(&st);
}

/* Central differences of F at fz.u0 along v with step h, given F(u0) in
 * o0.  Returns 0 where F is not smooth there: a kink makes the one-sided
 * differences disagree although the central one may look fine. */
static int fz_central(const double *v, double h, const double *o0,
                      double *d) {
  double up[FZ_MAX_IN], dn[FZ_MAX_IN], op[FZ_MAX_OUT], om[FZ_MAX_OUT];
  for (int i = 0; i < fz.nin; ++i) {
    up[i] = fz.u0[i] + h * v[i];
    dn[i] = fz.u0[i] - h * v[i];
  }
  fz.prim(up, op);
  fz.prim(dn, om);
  for (int i = 0; i < fz.nout; ++i) {
    d[i] = (op[i] - om[i]) / (2.0 * h);
    double ahead = (op[i] - o0[i]) / h, behind = (o0[i] - om[i]) / h;
    if (!isfinite(d[i]) ||
        fabs(ahead - behind) > (fz.is_float ? 1e-2 : 1e-3) *
                                   fmax(1.0, fabs(d[i])))
      return 0;
  }
  return 1;
}

static int fz_smooth_here(void) {
  double v[FZ_MAX_IN], o[FZ_MAX_OUT];
  fz.prim(fz.u0, o);
  for (int i = 0; i < fz.nout; ++i)
    if (!isfinite(o[i]) || fabs(o[i]) > 1e4)
      return 0;
  double h = fz.is_float ? 1e-4 : 1e-6;
  for (int k = 0; k < fz.ndirs; ++k) {
    fz_direction(k, v);
    if (!fz_central(v, h, o, fz.fd[k]) || !fz_central(v, h / 2, o, fz.fd2[k]))
      return 0;
    for (int i = 0; i < fz.nout; ++i) {
      double a = fz.fd[k][i], b = fz.fd2[k][i];
      /* A kink or a jump between the steps: the halved step does not agree
       * with the full one to second order. */
      if (fabs(a - b) > 1e-4 * fmax(1.0, fabs(b)) || fabs(b) > 1e6)
        return 0;
    }
  }
  return 1;
}

/* Returns the point chosen; the program copies it into its inputs. */
static const double *fz_init(int nin, int nout, fz_prim_fn prim,
                             fz_prim_fn primf, const double *u0,
                             int is_float) {
  if (nin > FZ_MAX_IN || nout > FZ_MAX_OUT) {
    printf("FZ harness: too many inputs or outputs\n");
    exit(2);
  }
  fz.nin = nin;
  fz.nout = nout;
  fz.prim = prim;
  fz.is_float = is_float;
  fz.ndirs = nin <= 12 ? nin : 4;
  unsigned st = 4242u;
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (int i = 0; i < nin; ++i) {
      double u = u0[i] + (attempt ? 0.05 * attempt * fz_rand(&st) : 0.0);
      fz.u0[i] = is_float ? (double)(float)u : u;
    }
    if (!fz_smooth_here())
      continue;
    if (primf) {
      /* The float program must compute what the double one does. */
      double a[FZ_MAX_OUT], b[FZ_MAX_OUT];
      int close = 1;
      prim(fz.u0, a);
      primf(fz.u0, b);
      for (int i = 0; i < nout; ++i)
        close &= fabs(a[i] - b[i]) <= 1e-4 * fmax(1.0, fabs(a[i]));
      if (!close)
        continue;
    }
    return fz.u0;
  }
  printf("FZ inconclusive: no smooth, well-conditioned point found\n");
  exit(3);
}

static int fz_mode(const char *mode) {
  for (int m = 0; m < fz.nmodes; ++m)
    if (!strcmp(fz.modes[m], mode))
      return m;
  fz.modes[fz.nmodes] = mode;
  return fz.nmodes++;
}

static void fz_compare(const char *mode, const char *what, int i, double got,
                       double want, double tol) {
  int m = fz_mode(mode);
  ++fz.checks[m];
  if (isfinite(got) && fabs(got - want) <= tol)
    return;
  ++fz.failures[m];
  if (fz.printed++ < 20)
    printf("FZ mismatch %s %s[%d]: got %.17g want %.17g (tol %.3g)\n", mode,
           what, i, got, want, tol);
}

static double fz_fd_tol(double fd, double fd2) {
  double rtol = fz.is_float ? 3e-3 : 1e-6;
  return 4.0 * fabs(fd - fd2) + rtol * fmax(1.0, fabs(fd2));
}

static void fz_check_fwd(const char *mode, int k, const double *jv) {
  char what[64];
  snprintf(what, sizeof what, "J v%d", k);
  for (int i = 0; i < fz.nout; ++i)
    fz_compare(mode, what, i, jv[i], fz.fd2[k][i],
               fz_fd_tol(fz.fd[k][i], fz.fd2[k][i]));
  if (k < FZ_MAX_DIRS && !strcmp(mode, "fwd")) {
    memcpy(fz.jv[k], jv, sizeof(double) * (size_t)fz.nout);
    fz.have_jv[k] = 1;
  }
}

static void fz_check_rev(const char *mode, int k, const double *jtw) {
  double w[FZ_MAX_OUT], v[FZ_MAX_IN];
  double rtol = fz.is_float ? 1e-4 : 1e-10;
  char what[64];
  fz_weight(k, w);
  for (int d = 0; d < fz.ndirs; ++d) {
    double lhs = 0, rhs = 0, rfd = 0, rfd1 = 0, mag = 0;
    fz_direction(d, v);
    for (int i = 0; i < fz.nin; ++i) {
      lhs += jtw[i] * v[i];
      mag += fabs(jtw[i] * v[i]);
    }
    for (int i = 0; i < fz.nout; ++i) {
      rfd += w[i] * fz.fd2[d][i];
      rfd1 += w[i] * fz.fd[d][i];
      if (fz.have_jv[d]) {
        rhs += w[i] * fz.jv[d][i];
        mag += fabs(w[i] * fz.jv[d][i]);
      }
    }
    snprintf(what, sizeof what, "<J^T w%d, v%d> vs fd", k, d);
    fz_compare(mode, what, 0, lhs, rfd, fz_fd_tol(rfd1, rfd));
    if (fz.have_jv[d]) {
      snprintf(what, sizeof what, "<J^T w%d, v%d> vs <w, Jv>", k, d);
      fz_compare(mode, what, 0, lhs, rhs, rtol * (mag + 1e-30) + 1e-300);
    }
  }
}

static void fz_check_same(const char *mode, const char *what,
                          const double *got, const double *want, int n) {
  double rtol = fz.is_float ? 1e-5 : 1e-12;
  for (int i = 0; i < n; ++i)
    fz_compare(mode, what, i, got[i], want[i],
               rtol * fmax(1.0, fabs(want[i])));
}

/* Lane l of a width-N forward request: direction l (mod the directions
 * checked) against finite differences and the width-1 run. */
static void fz_check_fwd_lane(int l, const double *jv) {
  int k = l % fz.ndirs;
  fz_check_fwd("fwd-width", k, jv);
  if (fz.have_jv[k])
    fz_check_same("fwd-width", "lane vs width 1", jv, fz.jv[k], fz.nout);
}

/* Lane l of a width-N reverse request (weight l): against finite
 * differences, forward mode, and the width-1 run (\p single; null: none). */
static void fz_check_rev_lane(int l, const double *jtw, const double *single) {
  fz_check_rev("rev-width", l, jtw);
  if (single)
    fz_check_same("rev-width", "lane vs width 1", jtw, single, fz.nin);
}

static int fz_finish(void) {
  int bad = 0;
  for (int m = 0; m < fz.nmodes; ++m) {
    printf("FZ %s %s (%d checks, %d failed)\n", fz.modes[m],
           fz.failures[m] ? "FAIL" : "PASS", fz.checks[m], fz.failures[m]);
    bad |= fz.failures[m] != 0;
  }
  return bad;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUAD_FUZZCHECK_H */
