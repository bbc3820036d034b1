// Eigen's fixed-size dot products and matrix-vector products at every
// level, -O0 included.  At -O0 Eigen's vectorised dot goes through
// conj_if<false>::pconj, an accessor that returns a reference to its packet
// argument, inside functions differentiated in split form: the reference
// must not travel on a tape as an address into a finished frame (where
// the adjoint would be lost: b.dot(b)'s derivative 0).  Reverse mode against
// central differences and by the dot-product test against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3

#include <Eigen/Dense>
#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

using Mat2 = Eigen::Matrix<double, 2, 2>;
using Vec2 = Eigen::Matrix<double, 2, 1>;

// y0 = b.b, y1 = (A b).b, y2 = |A b|^2 / 4 + sqrt(0.5 + b.b), with A and b
// built from x.
void model(const double *x, double *y) {
  Mat2 A;
  A << x[0], x[1], 0.5 * x[0], x[1] * x[2];
  Vec2 b(sin(x[0]), cos(x[2]) * x[3]);
  Vec2 c = A * b;
  y[0] = b.dot(b);
  y[1] = c.dot(b);
  y[2] = 0.25 * c.squaredNorm() + sqrt(0.5 + b.dot(b));
}

static void run(double *x, double *y, void *) { model(x, y); }

int main(void) {
  double x[4] = {0.3, -0.7, 0.45, 1.2}, v[4] = {0.2, -0.4, 0.9, 0.3};
  double w[3] = {1.0, -0.5, 0.75}, y[3], dx[4] = {0}, dy[3];
  for (int i = 0; i < 3; ++i)
    dy[i] = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed,
                          y, dy);
  gc_check_vjp("eigen dot", run, x, 4, 3, NULL, w, dx);
  double tx[4], ty[3] = {0};
  for (int i = 0; i < 4; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("eigen dot", v, dx, 4, ty, w, 3);
  return gradcheck_exit();
}
