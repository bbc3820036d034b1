// A buffer from alloca, aligned by hand on its address's bits (Eigen's
// stack buffers for matrix products: `(p + 15) & ~15`), filled and read by
// noinline callees inside a function the caller differentiates in split
// form.  The backward half reads values the callees left in the buffer, so
// the buffer must outlive the forward half (on the host: the heap) though
// the pointer the callees see is an integer turned back into an address;
// and the heap block, made on one path only, reaches the tape through a
// slot (the tape took it where it did not dominate: invalid IR).
// Reverse mode against the analytic gradient and by the dot-product test
// against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <alloca.h>
#include <gpuad/gpuad.h>
#include <revcheck.h>
#include <stdint.h>

enum { N = 8 };

__attribute__((noinline)) static void pack(double *dst, const double *src,
                                           int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = src[n - 1 - i];
}

__attribute__((noinline)) static double sum_squares(const double *buf, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * buf[i];
  return s;
}

// out = sum x_i^2, through a buffer on the stack aligned by hand; a given
// buffer is used instead, as Eigen's blocking does.
__attribute__((noinline)) static void through_buffer(const double *x, int n,
                                                     double *out,
                                                     double *given) {
  double *buf =
      given ? given
            : (double *)(((uintptr_t)alloca(sizeof(double) * n + 15) + 15) &
                         ~(uintptr_t)15);
  pack(buf, x, n);
  *out = sum_squares(buf, n);
}

// y0 = (sum x_i^2)^2, y1 = sin(x0) * sum x_i^2.
void model(const double *x, double *y) {
  double s;
  through_buffer(x, N, &s, 0);
  y[0] = s * s;
  y[1] = sin(x[0]) * s;
}

static void run(double *x, double *y, void *ctx) {
  (void)ctx;
  model(x, y);
}

int main(void) {
  double x[N], v[N], dx[N] = {0}, y[2], dy[2], w[2] = {1.0, -0.75};
  for (int i = 0; i < N; ++i) {
    x[i] = 0.1 * i + 0.3;
    v[i] = cos(0.8 * i);
  }
  dy[0] = w[0];
  dy[1] = w[1];
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += x[i] * x[i];
  for (int i = 0; i < N; ++i) {
    double want = w[0] * 4 * s * x[i] + w[1] * sin(x[0]) * 2 * x[i] +
                  (i == 0 ? w[1] * cos(x[0]) * s : 0.0);
    check_close("aligned alloca vjp", dx[i], want, 1e-12, 1e-12);
  }
  gc_check_vjp("aligned alloca", run, x, N, 2, NULL, w, dx);
  double tx[N], ty[2] = {0};
  for (int i = 0; i < N; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("aligned alloca", v, dx, N, ty, w, 2);
  return gradcheck_exit();
}
