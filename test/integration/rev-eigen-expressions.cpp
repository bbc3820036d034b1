// Eigen's dynamic-size expressions at every level, -O0 included.  At -O0
// every expression object (a difference of matrices, a block, its
// transpose, a product) is built and copied by member functions: the type
// analysis must follow them from the caller that knows what they hold into
// the constructors that copy them (memcpys of pointers and indices that
// carry no adjoint).  Reverse mode against central differences and by the
// dot-product test against forward mode.  At -O1 a transpose's reference
// member is copied as an integer: its shadow must be the shadow address.
// With -g too: the halves of a split derivative must keep their debug
// locations in their own subprograms, or the DWARF writer fails.
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3
// With a tape budget (loops refused; their functions as they were):
// RUN: %gpuad-cc -O1 -mllvm -gpuad-tape-budget=1 %itest-flags -I/usr/include/eigen3 %s -o %t.budget && %t.budget
// RUN: %gpuad-cc -O2 -g %itest-flags -I/usr/include/eigen3 %s -o %t.g && %t.g

#include <Eigen/Dense>
#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

// y0 = |W - M|^2 (elementwise), y1 = (W b).b + W.row(1).M.col(2),
// y2 = |W^T b|^2, for 3x3 W and M and a 3-vector b built from x.
void model(const double *x, double *y) {
  Eigen::MatrixXd W(3, 3), M(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      W(i, j) = x[3 * i + j];
      M(i, j) = 0.1 * (i + 2 * j) * x[(i + j) % 9];
    }
  Eigen::VectorXd b(3);
  b << x[0], sin(x[4]), x[8] * x[1];
  auto &&Diff = W - M;
  y[0] = (Diff.array() * Diff.array()).sum();
  Eigen::VectorXd c = W * b;
  y[1] = c.dot(b) + W.row(1).dot(M.col(2));
  y[2] = (W.transpose() * b).squaredNorm();
}

static void run(double *x, double *y, void *) { model(x, y); }

int main(void) {
  double x[9], v[9], dx[9] = {0}, y[3], dy[3], w[3] = {1.0, -0.5, 0.75};
  for (int i = 0; i < 9; ++i) {
    x[i] = 0.3 * sin(1.7 * i + 0.4) + 0.1 * i;
    v[i] = cos(0.9 * i);
  }
  for (int i = 0; i < 3; ++i)
    dy[i] = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed,
                          y, dy);
  gc_check_vjp("eigen expressions", run, x, 9, 3, NULL, w, dx);
  double tx[9], ty[3] = {0};
  for (int i = 0; i < 9; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("eigen expressions", v, dx, 9, ty, w, 3);
  return gradcheck_exit();
}
