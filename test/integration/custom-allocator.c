// Enzyme's __enzyme_allocation_like: a user's allocator and deallocator are
// treated as malloc and free.  The shadow of a block comes from the same
// allocator (zeroed) and goes back through the user's deallocator, given the
// arguments the registration names ("2,-1": the allocator's argument 2, then
// the block).  Two allocators: a bump allocator over a global arena (gpuad
// would otherwise see active values stored into a global) whose release takes
// the arena's top and the block, and a counting malloc wrapper whose free
// takes the block alone.  Derivatives are checked against central finite
// differences and, for reverse mode, by the dot-product test against forward
// mode; every block the counting allocator handed out is freed.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

static _Alignas(16) char arena[1 << 16];
static size_t arena_top;
static int arena_releases;
static const void *arena_last_released;

void *arena_alloc(void *base, size_t size, size_t *top) {
  void *p = (char *)base + *top;
  *top += (size + 15) & ~(size_t)15;
  return p;
}
/* Blocks are not reused; the release records the block if it is the
 * arena's. */
void arena_release(size_t *top, void *p) {
  ++arena_releases;
  if ((char *)p >= arena && (char *)p < arena + *top)
    arena_last_released = p;
}
void *__enzyme_allocation_like[4] = {(void *)arena_alloc, (void *)1,
                                     (void *)"2,-1", (void *)arena_release};

static int live_blocks;
__attribute__((noinline)) void *counted_alloc(size_t size) {
  ++live_blocks;
  return malloc(size);
}
__attribute__((noinline)) void counted_free(void *p) {
  --live_blocks;
  free(p);
}
void *__enzyme_allocation_like_counted[4] = {
    (void *)counted_alloc, (void *)0, (void *)"-1", (void *)counted_free};

double energy(const double *x, int n) {
  double *t = arena_alloc(arena, n * sizeof(double), &arena_top);
  double *u = counted_alloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    t[i] = sin(x[i]) * x[i];
    u[i] = t[i] * t[i] + x[i];
  }
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += t[i] * u[(i + 1) % n];
  counted_free(u);
  arena_release(&arena_top, t);
  return s;
}

static void energy_vec(double *x, double *y, void *ctx) {
  (void)ctx;
  y[0] = energy(x, N);
}

int main(void) {
  double x0[N] = {0.4, -0.9, 1.2, 0.3, -0.5, 0.8}, one = 1.0;
  double x[N], dx[N] = {0}, v[N];
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N);
  /* The primal's blocks and their shadows: two releases each. */
  check_true("reverse: shadows released through the user's functions",
             live_blocks == 0 && arena_releases == 2);
  gc_check_vjp("energy", energy_vec, x0, N, 1, NULL, &one, dx);
  gc_direction(v, N, 1);
  arena_releases = 0;
  double jv = __enzyme_fwddiff((void *)energy, enzyme_dup, x, v,
                               enzyme_const, N);
  check_true("forward: shadows released through the user's functions",
             live_blocks == 0 && arena_releases == 2);
  gc_check_dot("energy", v, dx, N, &jv, &one, 1);
  return gradcheck_exit();
}
