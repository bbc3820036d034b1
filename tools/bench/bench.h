/*===- bench.h - Timing and heap accounting for gpuad benchmarks -*- C -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * A benchmark program defines its primal and gradient as `void fn(void *)`
 * over one context and calls bench_report(), which prints one line:
 *
 *   name  size  primal  gradient  gradient/primal  tape-bytes  peak-RSS  check
 *
 * Times are the best of 5 batches, each long enough (>= 20 ms) to time; the
 * primal and gradient are measured in the same run, so their ratio is the
 * number to read.  "tape bytes" is the peak of heap bytes the gradient call
 * holds beyond what the primal call holds (the tape, and shadows of heap
 * temporaries); values gpuad keeps in registers or on the stack are not
 * heap.  Peak RSS is the process's, after the gradient ran (the primal's
 * runs are small next to it).  The program is linked with -Wl,--wrap=malloc,...
 * (tools/bench.sh) so every allocation, including those of generated code, is
 * counted. `check` is the program's own comparison of one gradient component
 * with a central finite difference, so a fast wrong gradient cannot pass
 * unseen.
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_BENCH_H
#define GPUAD_BENCH_H

#include <malloc.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* ---- Heap accounting (through the linker's --wrap) ---------------------- */

static size_t bench_live, bench_peak;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

static void bench_account(void *p, int sign) {
  if (!p)
    return;
  size_t n = malloc_usable_size(p);
  if (sign > 0) {
    bench_live += n;
    if (bench_live > bench_peak)
      bench_peak = bench_live;
  } else {
    bench_live -= n;
  }
}

void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  bench_account(p, +1);
  return p;
}
void *__wrap_calloc(size_t n, size_t s) {
  void *p = __real_calloc(n, s);
  bench_account(p, +1);
  return p;
}
void *__wrap_realloc(void *q, size_t n) {
  bench_account(q, -1);
  void *p = __real_realloc(q, n);
  bench_account(p ? p : q, +1);
  return p;
}
void __wrap_free(void *p) {
  bench_account(p, -1);
  __real_free(p);
}

/* Peak heap bytes held during one call of fn, beyond what was held before. */
static size_t bench_peak_bytes(void (*fn)(void *), void *ctx) {
  size_t base = bench_live;
  bench_peak = bench_live;
  fn(ctx);
  return bench_peak - base;
}

/* ---- Timing ------------------------------------------------------------- */

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Seconds per call: best of 5 batches of >= 20 ms.  The call goes through
 * a volatile pointer so the compiler cannot hoist a pure primal out of the
 * repetition loop. */
__attribute__((noinline)) static double bench_time(void (*fn)(void *),
                                                   void *ctx) {
  void (*volatile call)(void *) = fn;
  long reps = 1;
  for (;;) {
    double t0 = bench_now();
    for (long i = 0; i < reps; ++i)
      call(ctx);
    if (bench_now() - t0 >= 0.02 || reps >= (1L << 40))
      break;
    reps *= 2;
  }
  double best = 1e300;
  for (int b = 0; b < 5; ++b) {
    double t0 = bench_now();
    for (long i = 0; i < reps; ++i)
      call(ctx);
    double t = (bench_now() - t0) / reps;
    if (t < best)
      best = t;
  }
  return best;
}

static const char *bench_duration(double s, char *buf) {
  if (s < 1e-3)
    sprintf(buf, "%.1f us", s * 1e6);
  else
    sprintf(buf, "%.2f ms", s * 1e3);
  return buf;
}

/* Times primal and gradient, measures the gradient's extra heap, prints one
 * line.  check_rel: relative difference of the program's FD check. */
static void bench_report(const char *name, const char *size,
                         void (*primal)(void *), void (*gradient)(void *),
                         void *ctx, double check_rel) {
  char a[32], b[32];
  size_t primal_heap = bench_peak_bytes(primal, ctx);
  size_t grad_heap = bench_peak_bytes(gradient, ctx);
  double tp = bench_time(primal, ctx), tg = bench_time(gradient, ctx);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%-24s %-16s %12s %12s %8.2fx %14zu %6.1f MB  %s (rel %.1e)\n", name,
         size, bench_duration(tp, a), bench_duration(tg, b), tg / tp,
         grad_heap > primal_heap ? grad_heap - primal_heap : 0,
         ru.ru_maxrss / 1024.0, check_rel < 1e-5 ? "ok" : "MISMATCH",
         check_rel);
  fflush(stdout);
}

/* Relative difference |a - b| / max(|b|, 1e-12). */
static double bench_rel(double a, double b) {
  double d = fabs(b) > 1e-12 ? fabs(b) : 1e-12;
  return fabs(a - b) / d;
}

#endif /* GPUAD_BENCH_H */
