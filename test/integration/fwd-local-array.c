// Forward mode through stack arrays indexed at run time: a lookup table built
// from the input and read at data-dependent indices, a circular buffer
// (moving average), a variable-length array, and a local array of structs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* Powers of x in a table, combined through an index permutation. */
double table_lookup(double x, const int *idx, int n) {
  double pw[8];
  pw[0] = 1.0;
  for (int i = 1; i < 8; ++i)
    pw[i] = pw[i - 1] * x;
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += pw[idx[i] & 7] * (i + 1);
  return s;
}

/* Moving average with a circular buffer of width w over a signal x*sin(i). */
double moving_average(double x, int len, int w) {
  double ring[16] = {0};
  double sum = 0.0, out = 0.0;
  for (int i = 0; i < len; ++i) {
    double v = x * sin(0.3 * i) + x * x * 0.01 * i;
    int slot = i % w;
    sum += v - ring[slot];
    ring[slot] = v;
    out += sum / w;
  }
  return out;
}

/* A VLA sized by a parameter, filled and reduced twice. */
double vla(double x, int n) {
  double t[n];
  for (int i = 0; i < n; ++i)
    t[i] = exp(-x * i / n);
  for (int i = n - 1; i > 0; --i)
    t[i - 1] += 0.5 * t[i];
  return t[0];
}

/* A local array of structs picked by a run-time index. */
struct cell { int tag; double val; };
double cells(double x, int pick) {
  struct cell c[5];
  for (int i = 0; i < 5; ++i) {
    c[i].tag = i * 3;
    c[i].val = cos(x * (i + 1)) + c[i].tag;
  }
  c[pick].val *= x;
  return c[pick].val + c[(pick + 2) % 5].val;
}

static const int *g_idx;
static int g_n, g_w, g_pick;
static double g_table(double x) { return table_lookup(x, g_idx, g_n); }
static double g_moving(double x) { return moving_average(x, g_n, g_w); }
static double g_vla(double x) { return vla(x, g_n); }
static double g_cells(double x) { return cells(x, g_pick); }

int main(void) {
  char nm[96];
  static const int idx[] = {3, 0, 7, 5, 5, 1, 2, 6, 4, 7, 0, 3};
  g_idx = idx;
  g_n = 12;
  double x = 0.85;
  double d = __enzyme_fwddiff((void *)table_lookup, enzyme_dup, x, 1.0, enzyme_const, idx, 12);
  double want = 0.0;
  for (int i = 0; i < 12; ++i)
    want += idx[i] ? idx[i] * pow(x, idx[i] - 1) * (i + 1) : 0.0;
  check_close("table_lookup exact", d, want, 1e-12, 1e-14);
  check_close("table_lookup fd", d, gc_fd(g_table, x), GC_RTOL_D, GC_ATOL_D);

  volatile int ws[] = {1, 3, 7, 16};
  for (int k = 0; k < 4; ++k) {
    g_w = ws[k];
    g_n = 40;
    d = __enzyme_fwddiff((void *)moving_average, enzyme_dup, 1.3, 1.0, 40, g_w);
    snprintf(nm, sizeof nm, "moving_average w=%d fd", g_w);
    check_close(nm, d, gc_fd(g_moving, 1.3), GC_RTOL_D, GC_ATOL_D);
  }

  volatile int ns[] = {1, 5, 33};
  for (int k = 0; k < 3; ++k) {
    g_n = ns[k];
    d = __enzyme_fwddiff((void *)vla, enzyme_dup, 0.7, 1.0, g_n);
    snprintf(nm, sizeof nm, "vla n=%d fd", g_n);
    check_close(nm, d, gc_fd(g_vla, 0.7), GC_RTOL_D, GC_ATOL_D);
  }

  for (int p = 0; p < 5; ++p) {
    g_pick = p;
    d = __enzyme_fwddiff((void *)cells, enzyme_dup, 0.4, 1.0, p);
    snprintf(nm, sizeof nm, "cells pick=%d exact", p);
    int q = (p + 2) % 5;
    want = cos(0.4 * (p + 1)) + 3.0 * p - 0.4 * (p + 1) * sin(0.4 * (p + 1)) -
           (q + 1) * sin(0.4 * (q + 1));
    check_close(nm, d, want, 1e-13, 1e-14);
    snprintf(nm, sizeof nm, "cells pick=%d fd", p);
    check_close(nm, d, gc_fd(g_cells, 0.4), GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
