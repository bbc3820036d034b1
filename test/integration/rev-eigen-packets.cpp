// Eigen's SSE2 packet broadcasts (pbroadcast4, pbroadcast2, as its matrix
// product kernel uses them) shuffle doubles with integer shuffles: after
// optimisation, <4 x i32> loads and shuffles whose lanes are halves of
// doubles.  Their adjoints must be added as doubles, not as floats of the
// lanes' width (the matrix product's gradient was off by thousands), and
// a shuffle moves whole doubles.  Reverse mode against central differences
// and by the dot-product test against forward mode.
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3

#include <Eigen/Core>
#include <gpuad/gpuad.h>
#include <revcheck.h>

using namespace Eigen::internal;

enum { N = 10 };

// r = a (x0 + x1 + x2 + x3) + c (x6 + x7), lanes broadcast by pbroadcast4
// and pbroadcast2, with a = (x4, x5), c = (x8, x9).
void model(const double *x, double *y) {
  alignas(16) double In[N];
  for (int i = 0; i < N; ++i)
    In[i] = x[i];
  Packet2d B0, B1, B2, B3, C0, C1;
  pbroadcast4(In, B0, B1, B2, B3);
  pbroadcast2(In + 6, C0, C1);
  Packet2d A = pload<Packet2d>(In + 4), C = pload<Packet2d>(In + 8);
  Packet2d R = pset1<Packet2d>(0.0);
  R = pmadd(A, B0, R);
  R = pmadd(A, B1, R);
  R = pmadd(A, B2, R);
  R = pmadd(A, B3, R);
  R = pmadd(C, C0, R);
  R = pmadd(C, C1, R);
  alignas(16) double Out[2];
  pstore(Out, R);
  y[0] = 1.5 * Out[0] + 0.5 * Out[1];
  y[1] = Out[0] * Out[1];
}

static void run(double *x, double *y, void *) { model(x, y); }

int main(void) {
  double x[N], v[N], dx[N] = {0}, y[2], dy[2], w[2] = {1.0, -0.5};
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 * sin(1.3 * i + 0.2) + 0.5;
    v[i] = cos(0.9 * i);
  }
  dy[0] = w[0];
  dy[1] = w[1];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed,
                          y, dy);
  gc_check_vjp("eigen packets", run, x, N, 2, NULL, w, dx);
  double tx[N], ty[2] = {0};
  for (int i = 0; i < N; ++i)
    tx[i] = v[i];
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, x, tx, enzyme_dup, y, ty);
  gc_check_dot("eigen packets", v, dx, N, ty, w, 2);
  return gradcheck_exit();
}
