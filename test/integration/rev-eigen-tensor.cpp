// Eigen's tensor module at every level: a convolution of a 3-d tensor by a
// 2-d kernel over two of its dimensions, then a sum of squares.  Tensors
// carry their dimensions in index arrays (std::array<long, N>) that every
// evaluator copies: at -O0 through member functions, at -O2 through
// memcpys of the inlined objects.  The type analysis must know them for
// integers (from the declared parameter types, constant initializers and
// how they are used) so the copies need no adjoint.  At -O1 the kernel's
// storage is copied by a memcpy of a run-time length whose doubles only the
// caller knows, four pointers deep (assignment, convolution, kernel,
// storage).  Reverse mode against central differences and by the
// dot-product test against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3

#include <unsupported/Eigen/CXX11/Tensor>
#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

enum { NIn = 2 * 3 * 4, NKernel = 2 * 2, N = NIn + NKernel };

// y0 = sum(conv(input, kernel)^2), y1 = sum(conv(input, kernel)) * k00.
void model(const double *x, double *y) {
  Eigen::Tensor<double, 3> Input(2, 3, 4);
  Eigen::Tensor<double, 2> Kernel(2, 2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        Input(i, j, k) = x[12 * i + 4 * j + k];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      Kernel(i, j) = x[NIn + 2 * i + j];
  Eigen::array<ptrdiff_t, 2> Dims({1, 2});
  Eigen::Tensor<double, 3> Out = Input.convolve(Kernel, Dims);
  Eigen::Tensor<double, 0> Squares = (Out * Out).sum();
  Eigen::Tensor<double, 0> Sum = Out.sum();
  y[0] = Squares();
  y[1] = Sum() * x[NIn];
}

static void run(double *x, double *y, void *) { model(x, y); }

int main(void) {
  double x[N], v[N], dx[N] = {0}, y[2], dy[2], w[2] = {1.0, -0.5};
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 * sin(1.3 * i + 0.2) + 0.05 * i;
    v[i] = cos(0.7 * i);
  }
  for (int i = 0; i < 2; ++i)
    dy[i] = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed,
                          y, dy);
  gc_check_vjp("eigen tensor", run, x, N, 2, NULL, w, dx);
  double tx[N], ty[2] = {0};
  for (int i = 0; i < N; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("eigen tensor", v, dx, N, ty, w, 2);
  return gradcheck_exit();
}
