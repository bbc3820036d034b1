// Reverse mode with heap memory inside the differentiated code: malloc,
// calloc, realloc (growing a buffer), free (also conditional, and of blocks
// allocated in a loop), posix_memalign and aligned_alloc.  Shadows must be
// allocated, zeroed, kept until the reverse sweep is done with them, and
// freed: the valgrind run checks that nothing leaks and nothing is touched
// after it is freed.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O0 > /dev/null %}
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#define _POSIX_C_SOURCE 200112L
#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

/* A temporary array: malloc, fill, reduce, free. */
double temp(double *x, int n) {
  double *t = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    t[i] = sin(x[i]) * x[(i + 1) % n];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[n - 1 - i];
  free(t);
  return s;
}

/* calloc'd accumulators, a block per loop iteration, freed in the loop. */
double perstep(double *x, int n) {
  double *acc = (double *)calloc(n, sizeof(double));
  for (int step = 0; step < 3; ++step) {
    double *w = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; ++i)
      w[i] = x[i] * (step + 1) + acc[i];
    for (int i = 0; i < n; ++i)
      acc[i] = 0.5 * w[i] * w[(i + step) % n];
    free(w);
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += acc[i];
  free(acc);
  return s;
}

/* A buffer grown by realloc while values are appended. */
double grow(double *x, int n) {
  int cap = 1, len = 0;
  double *buf = (double *)malloc(sizeof(double) * cap);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i) {
      if (len == cap) {
        cap *= 2;
        buf = (double *)realloc(buf, sizeof(double) * cap);
      }
      buf[len] = x[i] * (r + 1) + (len ? buf[len - 1] * 0.1 : 0.0);
      ++len;
    }
  double s = 0.0;
  for (int i = 0; i < len; ++i)
    s += buf[i] * buf[i];
  free(buf);
  return s;
}

/* Aligned allocations, and a free that only happens on one path. */
double aligned(double *x, int n) {
  double *a = NULL, *b = (double *)aligned_alloc(64, sizeof(double) * 8);
  if (posix_memalign((void **)&a, 32, sizeof(double) * n) != 0)
    return 0.0;
  for (int i = 0; i < n; ++i)
    a[i] = exp(0.3 * x[i]);
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += a[i] * x[n - 1 - i];
  double *keep = a;
  if (s > 100.0) {
    free(a);
    keep = NULL;
  }
  b[0] = s * s;
  s = b[0] + (keep ? keep[0] : 0.0);
  free(b);
  free(keep);
  return s;
}

GC_SCALAR_OF_ARRAY(temp)
GC_SCALAR_OF_ARRAY(perstep)
GC_SCALAR_OF_ARRAY(grow)
GC_SCALAR_OF_ARRAY(aligned)

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(temp, x, N);
  GC_CHECK_SCALAR(perstep, x, N);
  GC_CHECK_SCALAR(grow, x, N);
  GC_CHECK_SCALAR(aligned, x, N);
  return gradcheck_exit();
}
