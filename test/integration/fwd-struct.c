// Forward mode through structs passed by pointer: mixed int and double
// fields (the shadow struct's int fields are ignored), nested structs, an
// array of structs, a struct written as output, and a struct by value.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

struct params {
  int order;    /* how many terms */
  double scale; /* active */
  int flags;    /* bit 0: add offset */
  double offset;
  double w[4];
};

double eval_params(const struct params *p, double x) {
  double s = 0.0, xk = 1.0;
  for (int k = 0; k < p->order; ++k) {
    s += p->w[k] * xk;
    xk *= x;
  }
  s *= p->scale;
  if (p->flags & 1)
    s += p->offset;
  return s;
}

struct vec3 { double x, y, z; };
struct body {
  int id;
  struct vec3 pos;
  struct vec3 vel;
  double mass;
};

/* Kinetic plus a pairwise potential over an array of structs. */
double energy(const struct body *b, int n) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    const struct vec3 *v = &b[i].vel;
    e += 0.5 * b[i].mass * (v->x * v->x + v->y * v->y + v->z * v->z);
    for (int j = i + 1; j < n; ++j) {
      double dx = b[i].pos.x - b[j].pos.x, dy = b[i].pos.y - b[j].pos.y,
             dz = b[i].pos.z - b[j].pos.z;
      e -= b[i].mass * b[j].mass / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return e;
}

/* Writes a struct: the centre of mass and total momentum. */
struct summary { int count; struct vec3 com; struct vec3 momentum; };
void summarize(const struct body *b, int n, struct summary *out) {
  double m = 0.0;
  out->count = n;
  out->com.x = out->com.y = out->com.z = 0.0;
  out->momentum = out->com;
  for (int i = 0; i < n; ++i) {
    m += b[i].mass;
    out->com.x += b[i].mass * b[i].pos.x;
    out->com.y += b[i].mass * b[i].pos.y;
    out->com.z += b[i].mass * b[i].pos.z;
    out->momentum.x += b[i].mass * b[i].vel.x;
    out->momentum.y += b[i].mass * b[i].vel.y;
    out->momentum.z += b[i].mass * b[i].vel.z;
  }
  out->com.x /= m;
  out->com.y /= m;
  out->com.z /= m;
}

/* A struct passed by value; with three doubles the x86-64 C ABI passes it in
 * memory (byval), to the function and through the varargs of the request
 * alike, so one marker covers the whole struct.  (A struct of two doubles is
 * split into two scalar arguments at the IR level, and the markers then
 * apply per scalar, as in Enzyme: not tested here.) */
struct tri { double a, b, c; };
double by_value(struct tri p, double x) { return p.a * x * x + p.b * sin(x) + p.c * x; }

#define NB 4
static void fill(struct body *b, int which) {
  for (int i = 0; i < NB; ++i) {
    b[i].id = which ? 1000 + i : i;
    b[i].pos.x = which ? 0.1 * i : cos(i * 1.3) * 2.0;
    b[i].pos.y = which ? -0.2 : sin(i * 1.7) * 1.5;
    b[i].pos.z = which ? 0.05 * i * i : 0.3 * i;
    b[i].vel.x = which ? 1.0 : 0.2 * i;
    b[i].vel.y = which ? 0.0 : -0.1 * i;
    b[i].vel.z = which ? -0.5 : 0.05;
    b[i].mass = which ? 0.3 : 1.0 + 0.5 * i;
  }
}

static struct body g_b[NB], g_db[NB];
/* g_b + t g_db, ints copied. */
static void along(struct body *out, double t) {
  for (int i = 0; i < NB; ++i) {
    out[i] = g_b[i];
    out[i].pos.x += t * g_db[i].pos.x;
    out[i].pos.y += t * g_db[i].pos.y;
    out[i].pos.z += t * g_db[i].pos.z;
    out[i].vel.x += t * g_db[i].vel.x;
    out[i].vel.y += t * g_db[i].vel.y;
    out[i].vel.z += t * g_db[i].vel.z;
    out[i].mass += t * g_db[i].mass;
  }
}
static double g_energy(double t, void *c) { struct body b[NB]; (void)c; along(b, t); return energy(b, NB); }
static double g_summary(double t, void *c) {
  struct body b[NB];
  struct summary s;
  along(b, t);
  summarize(b, NB, &s);
  switch (*(int *)c) {
  case 0: return s.com.x;
  case 1: return s.com.y;
  case 2: return s.com.z;
  case 3: return s.momentum.x;
  case 4: return s.momentum.y;
  default: return s.momentum.z;
  }
}
static struct params g_p, g_dp;
static double g_params(double t, void *c) {
  struct params p = g_p;
  (void)c;
  p.scale += t * g_dp.scale;
  p.offset += t * g_dp.offset;
  for (int k = 0; k < 4; ++k)
    p.w[k] += t * g_dp.w[k];
  return eval_params(&p, 0.8 + t * 0.5);
}

int main(void) {
  char nm[96];
  /* The shadow's int fields hold junk: they must not matter. */
  struct params p = {4, 1.5, 1, -0.25, {0.5, -1.0, 0.75, 2.0}};
  struct params dp = {-77, 0.2, 12345, 1.0, {1.0, 0.5, -0.5, 0.1}};
  g_p = p;
  g_dp = dp;
  double d = __enzyme_fwddiff((void *)eval_params, enzyme_dup, &p, &dp, enzyme_dup, 0.8, 0.5);
  check_close("eval_params fd", d, gc_fd_t(g_params, 0.0, NULL), GC_RTOL_D, GC_ATOL_D);
  double want = 0.0, xk = 1.0;
  for (int k = 0; k < 4; ++k) {
    want += (dp.w[k] * p.scale + p.w[k] * dp.scale) * xk + (k ? p.scale * p.w[k] * k * pow(0.8, k - 1) * 0.5 : 0.0);
    xk *= 0.8;
  }
  check_close("eval_params exact", d, want + dp.offset, 1e-13, 1e-14);

  fill(g_b, 0);
  fill(g_db, 1);
  struct body b[NB], db[NB];
  memcpy(b, g_b, sizeof b);
  memcpy(db, g_db, sizeof db);
  d = __enzyme_fwddiff((void *)energy, enzyme_dup, b, db, NB);
  check_close("energy array-of-structs fd", d, gc_fd_t(g_energy, 0.0, NULL), GC_RTOL_D, GC_ATOL_D);
  check_true("energy leaves shadow ids alone", db[2].id == 1002);

  struct summary s, ds;
  memset(&ds, 0x7f, sizeof ds);
  __enzyme_fwddiff((void *)summarize, enzyme_dup, b, db, NB, enzyme_dup, &s, &ds);
  double dsv[6] = {ds.com.x, ds.com.y, ds.com.z, ds.momentum.x, ds.momentum.y, ds.momentum.z};
  for (int c = 0; c < 6; ++c) {
    snprintf(nm, sizeof nm, "summary field %d fd", c);
    check_close(nm, dsv[c], gc_fd_t(g_summary, 0.0, &c), GC_RTOL_D, GC_ATOL_D);
  }
  check_true("summary primal count written", s.count == NB);

  struct tri pr = {1.25, -0.5, 3.0}, dpr = {0.5, 2.0, -1.5};
  d = __enzyme_fwddiff((void *)by_value, enzyme_dup, pr, dpr, enzyme_dup, 0.9, 1.0);
  check_close("struct by value (byval) exact", d,
              dpr.a * 0.81 + dpr.b * sin(0.9) + dpr.c * 0.9 + pr.a * 1.8 + pr.b * cos(0.9) + pr.c,
              1e-13, 1e-14);
  return gradcheck_exit();
}
