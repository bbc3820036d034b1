// Eigen's fixed-size matrices, vectorised by -O2 (Eigen's packets: 
// <2 x double> at 8-byte aligned offsets inside 16-byte aligned matrices):
// out = W b + c for a 3x2 W, and the squared norm of a 3-vector, through
// noinline functions whose arguments are matrices by pointer.  The reverse
// sweep's shadow accesses must keep the primal's alignment (an aligned
// <2 x double> access at offset 24 faults).  Gradients against central
// differences and forward mode (dot-product test), at every level (at -O0
// the evaluators copy blocks and transposes by memcpy in member functions).
// RUN: %gpuad-cc -O0 %itest-flags -I/usr/include/eigen3 %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags -I/usr/include/eigen3 %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags -I/usr/include/eigen3 %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags -I/usr/include/eigen3 %s -o %t.O3 && %t.O3

#include <Eigen/Dense>
#include <gpuad/gpuad.h>
#include <revcheck.h>

using Mat32 = Eigen::Matrix<double, 3, 2>;
using Vec2 = Eigen::Matrix<double, 2, 1>;
using Vec3 = Eigen::Matrix<double, 3, 1>;

__attribute__((noinline)) static void
affine(const Mat32 *__restrict W, const Vec2 *__restrict b,
       const Vec3 *__restrict c, Vec3 *__restrict out) {
  *out = *W * *b + *c;
}

__attribute__((noinline)) static double sumsq(const Vec3 *v) {
  return v->squaredNorm();
}

// x = [W (6, column-major), b (2), c (3)]; y = [out (3), |out|^2].
static void model(const Mat32 *W, const Vec2 *b, const Vec3 *c, Vec3 *out,
                  double *norm) {
  affine(W, b, c, out);
  *norm = sumsq(out);
}

static void unpack(const double *x, Mat32 &W, Vec2 &b, Vec3 &c) {
  for (int i = 0; i < 6; ++i)
    W.data()[i] = x[i];
  b << x[6], x[7];
  c << x[8], x[9], x[10];
}

static void run(double *x, double *y, void *) {
  Mat32 W;
  Vec2 b;
  Vec3 c, out;
  unpack(x, W, b, c);
  model(&W, &b, &c, &out, &y[3]);
  for (int i = 0; i < 3; ++i)
    y[i] = out(i);
}

int main() {
  double x[11], w[4] = {0.3, -1.1, 0.7, 0.25}, v[11];
  for (int i = 0; i < 11; ++i) {
    x[i] = 0.1 * (i + 1) * (i % 2 ? -1 : 1);
    v[i] = 0.05 * (11 - i);
  }
  Mat32 W, dW = Mat32::Zero(), tW;
  Vec2 b, db = Vec2::Zero(), tb;
  Vec3 c, dc = Vec3::Zero(), tc, out, dout, tout;
  double norm = 0, dnorm = w[3], tnorm = 0;
  unpack(x, W, b, c);
  for (int i = 0; i < 3; ++i)
    dout(i) = w[i];
  __enzyme_autodiff<void>((void *)model, enzyme_dup, &W, &dW, enzyme_dup, &b,
                          &db, enzyme_dup, &c, &dc, enzyme_dup, &out, &dout,
                          enzyme_dup, &norm, &dnorm);
  double vjp[11];
  for (int i = 0; i < 6; ++i)
    vjp[i] = dW.data()[i];
  vjp[6] = db(0), vjp[7] = db(1);
  for (int i = 0; i < 3; ++i)
    vjp[8 + i] = dc(i);
  gc_check_vjp("eigen affine + sumsq", run, x, 11, 4, nullptr, w, vjp);

  // Forward mode along v, then <J v, w> = <v, J^T w>.
  unpack(v, tW, tb, tc);
  tout.setZero();
  __enzyme_fwddiff<void>((void *)model, enzyme_dup, &W, &tW, enzyme_dup, &b,
                         &tb, enzyme_dup, &c, &tc, enzyme_dup, &out, &tout,
                         enzyme_dup, &norm, &tnorm);
  double jv[4] = {tout(0), tout(1), tout(2), tnorm};
  gc_check_dot("eigen affine + sumsq", v, vjp, 11, jv, w, 4);
  return gradcheck_exit();
}
