// Eigen's general matrix-matrix product (its GEMM path, taken for
// products larger than a few rows): operands packed into stack buffers
// from alloca, aligned by hand, and a vectorised kernel that broadcasts
// with integer shuffles (adjoints added as doubles, buffers kept for the
// backward half).  Reverse mode against central differences and
// by the dot-product test against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3

#include <Eigen/Dense>
#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

enum { K = 8, N = K * K };

// y0 = sum(A A^T A), y1 = |A A^T|^2 for the K x K matrix A in x.
void model(const double *x, double *y) {
  Eigen::Map<const Eigen::MatrixXd> A(x, K, K);
  Eigen::MatrixXd B = A * A.transpose();
  Eigen::MatrixXd C = B * A;
  y[0] = C.sum();
  y[1] = B.squaredNorm();
}

static void run(double *x, double *y, void *) { model(x, y); }

int main(void) {
  static double x[N], v[N], dx[N], tx[N];
  double y[2], dy[2], w[2] = {1.0, -0.5}, ty[2] = {0};
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 * sin(1.3 * i + 0.2);
    v[i] = cos(0.7 * i);
  }
  dy[0] = w[0];
  dy[1] = w[1];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed,
                          y, dy);
  gc_check_vjp("eigen gemm", run, x, N, 2, NULL, w, dx);
  for (int i = 0; i < N; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("eigen gemm", v, dx, N, ty, w, 2);
  return gradcheck_exit();
}
