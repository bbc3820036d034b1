// Calls inside the differentiated function that return pointers (accessor
// style, noinline so they stay calls): into the function's own stack
// buffer, into its own heap buffer, into an active argument, and a field
// accessor on a struct.  The derivative must follow the returned pointer to
// the shadow memory (as C++ operator[] at -O0 needs).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#define NOINLINE __attribute__((noinline))
#define N 5

NOINLINE double *elem(double *base, int i) { return base + i; }

struct particle { int id; double pos; double vel; };
NOINLINE double *vel_of(struct particle *p) { return &p->vel; }

/* Stack buffer written and read through elem(). */
double via_stack(const double *x) {
  double buf[N];
  for (int i = 0; i < N; ++i)
    *elem(buf, i) = x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < N; ++i)
    s += *elem(buf, i) * (i + 1);
  return s;
}

/* Heap buffer written and read through elem(). */
double via_heap(const double *x) {
  double *buf = (double *)malloc(sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    *elem(buf, N - 1 - i) = sin(x[i]);
  double s = 0.0;
  for (int i = 0; i < N; ++i)
    s += *elem(buf, i) * x[i];
  free(buf);
  return s;
}

/* The active argument itself, updated through elem(). */
void via_arg(double *x) {
  for (int i = 1; i < N; ++i)
    *elem(x, i) += *elem(x, i - 1) * 0.5;
}

/* A field accessor on a local struct copied from active data. */
double via_field(const double *x) {
  struct particle p = {7, x[0], x[1]};
  *vel_of(&p) *= p.pos;
  return *vel_of(&p) + p.pos;
}

static double g_stack(double *x, void *c) { (void)c; return via_stack(x); }
static double g_heap(double *x, void *c) { (void)c; return via_heap(x); }
static double g_field(double *x, void *c) { (void)c; return via_field(x); }

int main(void) {
  char nm[64];
  double x[N] = {0.4, -1.1, 0.7, 1.9, -0.3}, dx[N] = {1.0, -0.5, 0.25, 2.0, 0.75};
  double d = __enzyme_fwddiff((void *)via_stack, enzyme_dup, x, dx);
  double want = 0.0;
  for (int i = 0; i < N; ++i)
    want += 2.0 * x[i] * dx[i] * (i + 1);
  check_close("via_stack exact", d, want, 1e-14, 1e-15);
  check_close("via_stack fd", d, gc_fd_dir(g_stack, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);

  d = __enzyme_fwddiff((void *)via_heap, enzyme_dup, x, dx);
  check_close("via_heap fd", d, gc_fd_dir(g_heap, x, dx, N, NULL), GC_RTOL_D, GC_ATOL_D);

  double xa[N], dxa[N];
  memcpy(xa, x, sizeof xa);
  memcpy(dxa, dx, sizeof dxa);
  __enzyme_fwddiff((void *)via_arg, enzyme_dup, xa, dxa);
  double t = dx[0];
  for (int i = 1; i < N; ++i) {
    t = dx[i] + 0.5 * t;
    snprintf(nm, sizeof nm, "via_arg d[%d] exact", i);
    check_close(nm, dxa[i], t, 1e-15, 1e-15);
  }

  d = __enzyme_fwddiff((void *)via_field, enzyme_dup, x, dx);
  check_close("via_field exact", d, dx[1] * x[0] + x[1] * dx[0] + dx[0], 1e-15, 1e-15);
  check_close("via_field fd", d, gc_fd_dir(g_field, x, dx, 2, NULL), GC_RTOL_D, GC_ATOL_D);
  return gradcheck_exit();
}
