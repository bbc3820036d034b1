// Forward mode through loops whose trip count is known only at run time:
// an int parameter, a length read from memory, a loop with a break on an
// integer condition, and a loop counting down with a run-time stride.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* x^n by repeated multiplication: d = n x^(n-1). */
double ipow(double x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; ++i)
    r *= x;
  return r;
}

/* Weighted sum with the length in memory: sum_i w[i] * sin(x * (i+1)). */
struct series {
  int n;
  double w[16];
};
double weighted(const struct series *s, double x) {
  double acc = 0.0;
  for (int i = 0; i < s->n; ++i)
    acc += s->w[i] * sin(x * (i + 1));
  return acc;
}

/* Stops after `limit` iterations or when the step counter hits a multiple
 * of 7 beyond 10, whichever is first (integer-only exit condition). */
double with_break(double x, int limit) {
  double y = x;
  for (int i = 1; i <= limit; ++i) {
    y = 0.5 * y + cos(y) * x;
    if (i > 10 && i % 7 == 0)
      break;
  }
  return y;
}

/* Backwards with a run-time stride over a length-n array of the input. */
double strided(double x, int n, int stride) {
  double acc = 0.0;
  for (int i = n - 1; i >= 0; i -= stride)
    acc = acc * 0.9 + exp(-0.1 * i * x);
  return acc;
}

static int g_n, g_s;
static double g_ipow(double x) { return ipow(x, g_n); }
static double g_with_break(double x) { return with_break(x, g_n); }
static double g_strided(double x) { return strided(x, g_n, g_s); }
static const struct series *g_ser;
static double g_weighted(double x) { return weighted(g_ser, x); }

int main(void) {
  char nm[96];
  struct series ser;
  for (int i = 0; i < 16; ++i)
    ser.w[i] = 1.0 / (1.0 + i) * (i % 2 ? -1.0 : 1.0);
  g_ser = &ser;
  /* volatile so -O2 cannot fold the counts into the call. */
  volatile int counts[] = {0, 1, 2, 5, 13, 16};
  for (int c = 0; c < 6; ++c) {
    int n = counts[c];
    g_n = n;
    ser.n = n;
    double x = 0.85;
    double d = __enzyme_fwddiff((void *)ipow, enzyme_dup, x, 1.0, n);
    snprintf(nm, sizeof nm, "ipow'(%g, n=%d) exact", x, n);
    check_close(nm, d, n == 0 ? 0.0 : n * ipow(x, n - 1), 1e-13, 1e-15);
    snprintf(nm, sizeof nm, "ipow'(%g, n=%d) fd", x, n);
    check_close(nm, d, gc_fd(g_ipow, x), GC_RTOL_D, GC_ATOL_D);

    /* The series struct holds an int and a constant table: const. */
    d = __enzyme_fwddiff((void *)weighted, enzyme_const, &ser, enzyme_dup, x, 1.0);
    double want = 0.0;
    for (int i = 0; i < n; ++i)
      want += ser.w[i] * (i + 1) * cos(x * (i + 1));
    snprintf(nm, sizeof nm, "weighted'(%g, n=%d) exact", x, n);
    check_close(nm, d, want, 1e-12, 1e-14);
    snprintf(nm, sizeof nm, "weighted'(%g, n=%d) fd", x, n);
    check_close(nm, d, gc_fd(g_weighted, x), GC_RTOL_D, GC_ATOL_D);

    d = __enzyme_fwddiff((void *)with_break, enzyme_dup, x, 1.0, n);
    snprintf(nm, sizeof nm, "with_break'(%g, limit=%d) fd", x, n);
    check_close(nm, d, gc_fd(g_with_break, x), GC_RTOL_D, GC_ATOL_D);

    for (int s = 1; s <= 3; ++s) {
      g_s = s;
      d = __enzyme_fwddiff((void *)strided, enzyme_dup, x, 1.0, n, s);
      snprintf(nm, sizeof nm, "strided'(%g, n=%d, stride=%d) fd", x, n, s);
      check_close(nm, d, gc_fd(g_strided, x), GC_RTOL_D, GC_ATOL_D);
    }
  }
  /* with_break with a large limit must stop at i = 14. */
  g_n = 1000;
  double d = __enzyme_fwddiff((void *)with_break, enzyme_dup, 0.85, 1.0, 1000);
  check_close("with_break'(0.85, limit=1000) fd", d, gc_fd(g_with_break, 0.85), GC_RTOL_D,
              GC_ATOL_D);
  return gradcheck_exit();
}
