// Reverse and forward mode through OpenMP parallel regions, run by teams of
// 1 to 4 threads: worksharing loops (static, cyclic and dynamic schedules),
// reductions (+, *, max, min), critical sections, atomics, single and master,
// barriers between loops, private, firstprivate and lastprivate variables,
// a region in a time loop, a num_threads clause, calls inside the region,
// sections, a collapsed loop with a guided schedule, and a worksharing loop
// in a function the region calls (orphaned).  Each region is
// `void f(double *x, double *y, double k, int n)`; the gradient with
// respect to x and k is checked against central
// differences, and against forward mode by the dot-product test.  Adjoints
// that several threads add to the same place (k's, a stencil's neighbours,
// a reduction's) must be summed without a race.
// REQUIRES: openmp
// RUN: %gpuad-cc -fopenmp -O0 %itest-flags %s -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O0 && env OMP_NUM_THREADS=3 %t.O0
// RUN: %gpuad-cc -fopenmp -O2 %itest-flags %s -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=2 %t.O2 && env OMP_NUM_THREADS=4 %t.O2

#include <gpuad/gpuad.h>
#include <omp.h>
#include <revcheck.h>

void map(double *x, double *y, double k, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] = sin(x[i]) * x[i] * k;
}

/* In place, then serial code after the region. */
void inplace(double *x, double *y, double k, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    x[i] *= x[i] * k;
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
  x[0] = 0;
}

/* Neighbours' adjoints: threads' chunks meet. */
void stencil(double *x, double *y, double k, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; ++i)
    y[i] = x[i - 1] - 2 * x[i] + x[i + 1] + k * x[i] * x[i] * x[i];
}

void cyclic(double *x, double *y, double k, int n) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < n; ++i)
    y[i] = exp(0.3 * k * x[i]);
}

void sum_dynamic(double *x, double *y, double k, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 3)
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * k;
  y[0] = s;
}

void product(double *x, double *y, double k, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; ++i)
    p *= 1 + 0.1 * x[i];
  y[0] = p * k;
}

void maximum(double *x, double *y, double k, int n) {
  double m = -1e300, l = 1e300;
#pragma omp parallel for reduction(max : m) reduction(min : l)
  for (int i = 0; i < n; ++i) {
    m = fmax(m, x[i] * k + 0.01 * i);
    l = fmin(l, x[i] * x[i] - 0.01 * i);
  }
  y[0] = m;
  y[1] = l * k;
}

void critical(double *x, double *y, double k, int n) {
  double res = 0;
#pragma omp parallel
  {
    double mine = 0;
#pragma omp for
    for (int i = 0; i < n; ++i)
      mine += x[i] * x[i];
#pragma omp critical
    res += mine * k;
  }
  y[0] = res;
}

void atomic(double *x, double *y, double k, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double v = x[i] * k * x[i];
#pragma omp atomic
    s += v;
  }
  y[0] = s;
}

/* Each thread's copy of c starts at k and grows over its chunk. */
void first_private(double *x, double *y, double k, int n) {
  double c = k;
#pragma omp parallel for firstprivate(c)
  for (int i = 0; i < n; ++i) {
    y[i] = c * x[i];
    c += 0.1 * x[i];
  }
}

void last_private(double *x, double *y, double k, int n) {
  double t = 0;
#pragma omp parallel for lastprivate(t)
  for (int i = 0; i < n; ++i) {
    t = x[i] * k;
    y[i] = t * t;
  }
  y[0] += t;
}

/* single (and its barrier), a loop reading another thread's elements after
   it, master. */
void single_master(double *x, double *y, double k, int n) {
#pragma omp parallel
  {
#pragma omp single
    x[0] *= k;
#pragma omp for
    for (int i = 0; i < n; ++i)
      y[i] = x[i] * x[(i + 1) % n];
#pragma omp master
    y[0] += x[1] * k;
  }
}

/* Two loops; the second reads what other threads wrote in the first. */
void two_loops(double *x, double *y, double k, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      x[i] = sin(x[i] * k);
#pragma omp for
    for (int i = 0; i < n; ++i)
      y[i] = x[n - 1 - i] * x[i];
  }
}

__attribute__((noinline)) static void set(double *a, double v) { *a = v; }
__attribute__((noinline)) static double cube(double v) { return v * v * v; }

void calls(double *x, double *y, double k, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double m;
    set(&m, x[i]);
    y[i] = cube(m) * k;
  }
}

/* A region per step: each step's tape is its own. */
void steps(double *x, double *y, double k, int n) {
  for (int t = 0; t < 4; ++t) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      y[i] = x[i] + 0.1 * k * sin(x[(i + 1) % n]);
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      x[i] = y[i];
  }
}

/* Two sections, each on whichever thread takes it. */
void sections(double *x, double *y, double k, int n) {
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < n / 2; ++i)
      y[i] = x[i] * k;
#pragma omp section
    for (int i = n / 2; i < n; ++i)
      y[i] = sin(x[i]) * k;
  }
}

/* A collapsed pair of loops (one 64-bit iteration space), guided. */
void collapsed(double *x, double *y, double k, int n) {
  int rows = n / 4;
#pragma omp parallel for collapse(2) schedule(guided)
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < 4; ++c)
      y[4 * r + c] = x[4 * r + c] * x[4 * r + (c + 1) % 4] * k;
}

/* A worksharing loop in a function the region calls (orphaned), and a
   per-thread partial sum indexed by the thread's number. */
__attribute__((noinline)) static void orphan(double *x, double *y, double k,
                                             int n, double *partial) {
#pragma omp for
  for (int i = 0; i < n; ++i) {
    y[i] = x[i] * x[i] * k;
    partial[omp_get_thread_num()] += y[i];
  }
}

void orphaned(double *x, double *y, double k, int n) {
  double partial[64] = {0};
#pragma omp parallel
  orphan(x, y, k, n, partial);
  for (int t = 0; t < 64; ++t)
    y[0] += 0.1 * partial[t];
}

void three_threads(double *x, double *y, double k, int n) {
#pragma omp parallel for num_threads(3)
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i] * k + omp_get_thread_num() * 0.0;
}

/* The harness: input x0[0..n) and k = x0[n]; y has n outputs. */
#define VEC(fn)                                                                \
  static void fn##_vec(double *xk, double *y, void *c) {                       \
    int n_ = *(int *)c;                                                        \
    memset(y, 0, sizeof(double) * (size_t)n_);                                 \
    fn(xk, y, xk[n_], n_);                                                     \
  }

#define CHECK(fn, x0, n)                                                       \
  do {                                                                         \
    int n_ = (n);                                                              \
    size_t b_ = sizeof(double) * (size_t)(n_ + 1);                             \
    double *x_ = malloc(b_), *y_ = calloc(n_ + 1, 8), *g_ = calloc(n_ + 1, 8); \
    double *w_ = malloc(b_), *d_ = malloc(b_), *v_ = malloc(b_);               \
    double *t_ = malloc(b_), *j_ = calloc(n_ + 1, 8);                          \
    memcpy(x_, x0, b_);                                                        \
    gc_direction(w_, n_, 3);                                                   \
    memcpy(d_, w_, b_);                                                        \
    g_[n_] = __enzyme_autodiff((void *)fn, enzyme_dup, x_, g_, enzyme_dup, y_, \
                               d_, enzyme_out, x0[n_], enzyme_const, n_);      \
    gc_check_vjp(#fn, fn##_vec, x0, n_ + 1, n_, &n_, w_, g_);                  \
    memcpy(x_, x0, b_);                                                        \
    memset(y_, 0, b_);                                                         \
    gc_direction(v_, n_ + 1, 4);                                               \
    memcpy(t_, v_, b_);                                                        \
    __enzyme_fwddiff((void *)fn, enzyme_dup, x_, t_, enzyme_dup, y_, j_,       \
                     enzyme_dup, x0[n_], v_[n_], enzyme_const, n_);            \
    gc_check_dot(#fn, v_, g_, n_ + 1, j_, w_, n_);                             \
    free(x_), free(y_), free(g_), free(w_), free(d_), free(v_), free(t_),      \
        free(j_);                                                              \
  } while (0)

VEC(map)
VEC(inplace)
VEC(stencil)
VEC(cyclic)
VEC(sum_dynamic)
VEC(product)
VEC(maximum)
VEC(critical)
VEC(atomic)
VEC(first_private)
VEC(last_private)
VEC(single_master)
VEC(two_loops)
VEC(calls)
VEC(steps)
VEC(three_threads)
VEC(sections)
VEC(collapsed)
VEC(orphaned)

int main(void) {
  enum { N = 37 };
  double x0[N + 1];
  for (int i = 0; i < N; ++i)
    x0[i] = 0.5 + 0.4 * sin(0.9 * i);
  x0[N] = 1.3;
  printf("threads: %d\n", omp_get_max_threads());
  CHECK(map, x0, N);
  CHECK(inplace, x0, N);
  CHECK(stencil, x0, N);
  CHECK(cyclic, x0, N);
  CHECK(sum_dynamic, x0, N);
  CHECK(product, x0, N);
  CHECK(maximum, x0, N);
  CHECK(critical, x0, N);
  CHECK(atomic, x0, N);
  CHECK(first_private, x0, N);
  CHECK(last_private, x0, N);
  CHECK(single_master, x0, N);
  CHECK(two_loops, x0, N);
  CHECK(calls, x0, N);
  CHECK(steps, x0, N);
  CHECK(three_threads, x0, N);
  CHECK(sections, x0, N);
  CHECK(collapsed, x0, N - 1);
  CHECK(orphaned, x0, N);
  return gradcheck_exit();
}
