// What -Rpass=gpuad says of each loop gpuad checkpoints, and -Rpass-missed
// of each it cannot: the loop then keeps its full tape, and its gradient
// is still right (checked here against central differences).  Reasons: a
// call that may do I/O, a pointer stored to memory, a write through a
// pointer the loop loads, a write at offsets no trip count bounds.  With a
// budget, the outermost loops that hold a loop are checkpointed without a
// marker; a loop with none inside is left alone.
// RUN: %gpuad-cc -O2 %itest-flags %s -c -o /dev/null -Rpass=gpuad \
// RUN:   -Rpass-missed=gpuad 2>&1 | FileCheck %s --check-prefix=MARKED
// RUN: %gpuad-cc -O2 -mllvm -gpuad-tape-budget=16 -DNO_MARKERS %itest-flags \
// RUN:   %s -c -o /dev/null -Rpass=gpuad -Rpass-missed=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET
// RUN: %gpuad-cc -O2 -mllvm -gpuad-tape-budget=16 -DNO_MARKERS %itest-flags \
// RUN:   %s -c -o /dev/null -Rpass=gpuad -Rpass-missed=gpuad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t -lm && %t
// RUN: %gpuad-cc -O2 -mllvm -gpuad-tape-budget=16 -DNO_MARKERS %itest-flags %s -o %t.budget -lm && %t.budget

#include <gpuad/gpuad.h>
#include <gradcheck.h>
#include <stdio.h>

#ifdef NO_MARKERS
#define MARK(n) (void)0
#else
#define MARK(n) __gpuad_checkpoint(n)
#endif

#define N 8
int Steps = 20; /* not a constant the optimiser could fold */

// MARKED: checkpoint-remarks.c:[[@LINE+5]]:3: remark: loop checkpointed: its state is {{[0-9]+}} B of scalars ({{[0-9]+}} value{{s?}}), {{.*}}the memory it writes of parameter 2; snapshots: 3, scheduled by binomial checkpointing (revolve; the trip count is known when the loop starts) [-Rpass=gpuad]
// BUDGET: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop checkpointed: {{.*}} the memory it writes of parameter 2; snapshots: as many as 16 MiB hold, scheduled by binomial checkpointing
double smooth_into(double *x, double *u, int n, int steps) {
  for (int i = 0; i < n; ++i)
    u[i] = x[i];
  for (int t = 0; t < steps; ++t) {
    MARK(3);
    for (int i = 1; i < n - 1; ++i)
      u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + sin(u[i + 1]));
  }
  return u[3] * u[4];
}
static double u[N];
static double smooth(double *x) { return smooth_into(x, u, N, Steps); }

// MARKED: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop checkpointed:{{.*}}thinned online (the trip count is known only when the loop ends)
double settle(double *x) {
  double y = x[0], z = x[1];
  int t = 0;
  while (fabs(y - z) > 1e-3 && t < 500) {
    MARK(4);
    double y2 = y + 0.1 * (z - y), z2 = z + 0.05 * (y - z) * cos(y);
    y = y2;
    z = z2;
    ++t;
  }
  return y * z;
}

// A constant trip count and snapshot count: the remark quotes revolve's cost.
// MARKED: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop checkpointed: {{.*}}snapshots: 4, scheduled by binomial checkpointing (revolve; the trip count is known when the loop starts); each step runs 3.{{[0-9]+}} times forward on average
double fixed(double *x, double *u) {
  for (int i = 0; i < N; ++i)
    u[i] = x[i];
  for (int t = 0; t < 100; ++t) {
    MARK(4);
    for (int i = 1; i < N - 1; ++i)
      u[i] = u[i] * 0.9 + 0.05 * sin(u[i - 1] + u[i + 1]);
  }
  return u[3];
}
static double fixed_u[N];
static double fixed1(double *x) { return fixed(x, fixed_u); }

// MARKED: checkpoint-remarks.c:[[@LINE+3]]:3: remark: loop not checkpointed (it keeps its full tape): it calls 'printf', which may write memory or do I/O that running the loop again would repeat
double noisy(double *x) {
  double s = x[0];
  for (int t = 0; t < Steps; ++t) {
    MARK(2);
    for (int i = 0; i < 3; ++i)
      s = s * 0.9 + sin(s);
    if (t == Steps + 1000)
      printf("%g\n", s);
  }
  return s;
}

// MARKED: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop not checkpointed (it keeps its full tape): it stores a pointer to memory (line [[@LINE+6]])
static double *slots[2];
double pointers(double *x) {
  double a = x[0];
  for (int t = 0; t < Steps; ++t) {
    MARK(2);
    slots[t & 1] = x;
    a = a * 0.5 + x[t & 1] * x[1];
  }
  return a;
}

// MARKED: checkpoint-remarks.c:[[@LINE+3]]:3: remark: loop not checkpointed (it keeps its full tape): it writes parameter 2 at offsets gpuad cannot bound before the loop runs (line [[@LINE+6]])
static int perm[N] = {3, 1, 4, 0, 5, 2, 7, 6};
double scatter(double *x, double *w) {
  for (int t = 0; t < 4; ++t) {
    MARK(2);
    for (int i = 0; i < N; ++i)
      w[perm[(i + t) % N]] = x[i] * sin(w[i] + t);
  }
  return w[0] * w[5];
}

// BUDGET-NOT: remark: loop {{.*}}checkpointed{{.*}}
// BUDGET: remark: tape
double plain(double *x) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += x[i] * x[i];
  return s;
}

// Two time loops in one function: the first refused (the function gets its
// body back), the second checkpointed.
// TWO-DAG: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop not checkpointed (it keeps its full tape): it calls 'printf'
// TWO-DAG: checkpoint-remarks.c:[[@LINE+11]]:3: remark: loop checkpointed:
double two(double *x, double *u, int n, int steps) {
  double s = x[0];
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < n; ++i)
      s = s * 0.9 + sin(s + x[i]);
    if (t == steps + 1000)
      printf("%g\n", s);
  }
  for (int i = 0; i < n; ++i)
    u[i] = x[i] * s;
  for (int t = 0; t < steps; ++t)
    for (int i = 1; i < n - 1; ++i)
      u[i] = 0.5 * u[i] + 0.25 * sin(u[i - 1] + u[i + 1]);
  return u[2] * u[5];
}
static double two_u[N];
static double two1(double *x) { return two(x, two_u, N, Steps); }

// A batched (width 2) gradient of a checkpointed loop: this derivative
// keeps the full tape, and says so.
// MARKED: checkpoint-remarks.c:[[@LINE+4]]:3: remark: loop checkpointed:
// MARKED: checkpoint-remarks.c:[[@LINE+3]]:3: remark: loop not checkpointed in this derivative (it keeps its full tape there): it is a batched derivative (width 2): snapshots and reverse steps are made at width 1 only
double batched(double *x) {
  double y = x[0], z = x[1];
  for (int t = 0; t < Steps; ++t) {
    MARK(3);
    double y2 = y + 0.1 * sin(z - y), z2 = z + 0.05 * (y - z) * cos(y);
    y = y2;
    z = z2;
  }
  return y * z;
}
double __enzyme_autodiff_w2(void *, ...);

typedef double (*Fn)(double *);
static double scatter_w[N];
static double scatter1(double *x) {
  for (int i = 0; i < N; ++i)
    scatter_w[i] = 0.1 * i;
  return scatter(x, scatter_w);
}

/* The gradient of f at x against central differences. */
static void check_gradient(const char *name, Fn f, const double *g,
                           double *x, int n) {
  char label[96];
  for (int j = 0; j < n; ++j) {
    double s = x[j], h = 1e-6;
    x[j] = s + h;
    double fp = f(x);
    x[j] = s - h;
    double fm = f(x);
    x[j] = s;
    snprintf(label, sizeof label, "%s grad[%d] fd", name, j);
    check_close(label, g[j], (fp - fm) / (2 * h), GC_RTOL_D, GC_ATOL_D);
  }
}

int main(void) {
  double x[N], g[N], dw[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.1 * sin(i);
#define GRADIENT(fn)                                                           \
  do {                                                                         \
    memset(g, 0, sizeof g);                                                    \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, g);                           \
    check_gradient(#fn, fn, g, x, N);                                          \
  } while (0)
  {
    double du[N] = {0};
    memset(g, 0, sizeof g);
    __enzyme_autodiff((void *)smooth_into, enzyme_dup, x, g, enzyme_dup, u, du,
                      enzyme_const, N, enzyme_const, Steps);
    check_gradient("smooth", smooth, g, x, N);
  }
  GRADIENT(settle);
  {
    double du[N] = {0};
    memset(g, 0, sizeof g);
    __enzyme_autodiff((void *)fixed, enzyme_dup, x, g, enzyme_dup, fixed_u, du);
    check_gradient("fixed", fixed1, g, x, N);
  }
  GRADIENT(noisy);
  GRADIENT(pointers);
  GRADIENT(plain);
  {
    double du[N] = {0};
    memset(g, 0, sizeof g);
    __enzyme_autodiff((void *)two, enzyme_dup, x, g, enzyme_dup, two_u, du,
                      enzyme_const, N, enzyme_const, Steps);
    check_gradient("two", two1, g, x, N);
  }
  for (int i = 0; i < N; ++i)
    scatter_w[i] = 0.1 * i;
  memset(g, 0, sizeof g);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)scatter, enzyme_dup, x, g, enzyme_dup, scatter_w,
                    dw);
  check_gradient("scatter", scatter1, g, x, N);
  {
    /* Both lanes are seeded with 1: each is the gradient. */
    double g2[2 * N] = {0};
    __enzyme_autodiff_w2((void *)batched, enzyme_width, 2, enzyme_dupv,
                         sizeof(double) * N, x, g2);
    check_gradient("batched lane 0", batched, g2, x, N);
    check_gradient("batched lane 1", batched, g2 + N, x, N);
  }
  {
    // Its buffer constant (its derivatives live in a scratch shadow).
    memset(g, 0, sizeof g);
    __enzyme_autodiff((void *)smooth_into, enzyme_dup, x, g, enzyme_const, u,
                      enzyme_const, N, enzyme_const, Steps);
    check_gradient("smooth, constant buffer", smooth, g, x, N);
  }
  return gradcheck_exit();
}
