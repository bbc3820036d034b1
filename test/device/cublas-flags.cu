// cuBLAS's flags, every combination, on the emulator: gemm (both
// transposes), gemv, symv, syr2, trmv, trsv, syrk, symm and trsm (each
// triangle, transpose, diagonal and side) on 4 x 4 matrices with leading
// dimension 5, each in a loss |out|^2 of its output.  The flags are run-time
// arguments of one derivative per routine.  Checked per combination:
// reverse against central differences (rtol 1e-6, every input and alpha)
// and forward by the dot-product test (rtol 1e-10).
//
// REQUIRES: cuda, openblas
// RUN: %gpuad-cc --emulate -O2 %s -o %t -lcublas
// RUN: %t | FileCheck %s
// RUN: %gpuad-cc --emulate -O0 %s -o %t.O0 -lcublas
// RUN: %t.O0 | FileCheck %s
// CHECK: cublas-flags.cu: PASS (66 flag combinations

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "include/devcheck.h"

extern int enzyme_dup, enzyme_out, enzyme_const;
template <class R, class... T> R __enzyme_autodiff(void *, T...);
template <class R, class... T> R __enzyme_fwddiff(void *, T...);

constexpr int N = 4, Ld = 5, Mat = Ld * N;
// The inputs, one host array: A, B, C (Mat each), x, y (N each).
constexpr int Inputs = 3 * Mat + 2 * N;

using Op = cublasOperation_t;
using Fill = cublasFillMode_t;
using Diag = cublasDiagType_t;
using Side = cublasSideMode_t;

struct Device {
  double *A, *B, *C, *x, *y;
};

double *piece(const double *in, int at, int n) {
  double *p;
  CHECK(cudaMalloc(&p, n * sizeof(double)));
  CHECK(cudaMemcpy(p, in + at, n * sizeof(double), cudaMemcpyHostToDevice));
  return p;
}

Device upload(const double *in) {
  return {piece(in, 0, Mat), piece(in, Mat, Mat), piece(in, 2 * Mat, Mat),
          piece(in, 3 * Mat, N), piece(in, 3 * Mat + N, N)};
}

// |out|^2 over an n x cols block at leading dimension ld, and the frees.
double finish(cublasHandle_t h, Device d, const double *out, int rows,
              int ld) {
  double r = 0, s;
  for (int j = 0; j < (rows == 1 ? 1 : N); ++j) {
    cublasDdot_v2(h, rows == 1 ? N : rows, out + j * ld, 1, out + j * ld, 1,
                  &s);
    r += s;
  }
  for (double *p : {d.A, d.B, d.C, d.x, d.y})
    CHECK(cudaFree(p));
  return r;
}

double gemm(cublasHandle_t h, int ta, int tb, const double *in, double a) {
  Device d = upload(in);
  double b = 0.5;
  cublasDgemm_v2(h, Op(ta), Op(tb), N, N, N, &a, d.A, Ld, d.B, Ld, &b, d.C,
                 Ld);
  return finish(h, d, d.C, N, Ld);
}
double gemv(cublasHandle_t h, int t, const double *in, double a) {
  Device d = upload(in);
  double b = 0.5;
  cublasDgemv_v2(h, Op(t), N, N, &a, d.A, Ld, d.x, 1, &b, d.y, 1);
  return finish(h, d, d.y, 1, 1);
}
double symv(cublasHandle_t h, int uplo, const double *in, double a) {
  Device d = upload(in);
  double b = 0.5;
  cublasDsymv_v2(h, Fill(uplo), N, &a, d.A, Ld, d.x, 1, &b, d.y, 1);
  return finish(h, d, d.y, 1, 1);
}
double syr2(cublasHandle_t h, int uplo, const double *in, double a) {
  Device d = upload(in);
  cublasDsyr2_v2(h, Fill(uplo), N, &a, d.x, 1, d.y, 1, d.A, Ld);
  return finish(h, d, d.A, N, Ld);
}
double trmv(cublasHandle_t h, int uplo, int t, int diag, const double *in,
            double a) {
  Device d = upload(in);
  cublasDscal_v2(h, N, &a, d.x, 1);
  cublasDtrmv_v2(h, Fill(uplo), Op(t), Diag(diag), N, d.A, Ld, d.x, 1);
  return finish(h, d, d.x, 1, 1);
}
double trsv(cublasHandle_t h, int uplo, int t, int diag, const double *in,
            double a) {
  Device d = upload(in);
  cublasDscal_v2(h, N, &a, d.x, 1);
  cublasDtrsv_v2(h, Fill(uplo), Op(t), Diag(diag), N, d.A, Ld, d.x, 1);
  return finish(h, d, d.x, 1, 1);
}
double syrk(cublasHandle_t h, int uplo, int t, const double *in, double a) {
  Device d = upload(in);
  double b = 0.5;
  cublasDsyrk_v2(h, Fill(uplo), Op(t), N, N, &a, d.A, Ld, &b, d.C, Ld);
  return finish(h, d, d.C, N, Ld);
}
double symm(cublasHandle_t h, int side, int uplo, const double *in, double a) {
  Device d = upload(in);
  double b = 0.5;
  cublasDsymm_v2(h, Side(side), Fill(uplo), N, N, &a, d.A, Ld, d.B, Ld, &b,
                 d.C, Ld);
  return finish(h, d, d.C, N, Ld);
}
double trsm(cublasHandle_t h, int side, int uplo, int t, int diag,
            const double *in, double a) {
  Device d = upload(in);
  cublasDtrsm_v2(h, Side(side), Fill(uplo), Op(t), Diag(diag), N, N, &a, d.A,
                 Ld, d.B, Ld);
  return finish(h, d, d.B, N, Ld);
}

Tol fd{"fd", 1e-6}, dot{"dot", 1e-10};
int combinations = 0;

// Checks the derivatives of loss f(h, flags..., in, alpha) for one
// combination of flags.
template <auto F, class... Flags>
void check(const char *name, cublasHandle_t h, Flags... flags) {
  void *fn = (void *)F;
  auto f = reinterpret_cast<double (*)(cublasHandle_t, Flags...,
                                       const double *, double)>(fn);
  std::vector<double> in(Inputs), g(Inputs, 0.0), v(Inputs);
  for (int i = 0; i < Inputs; ++i) {
    in[i] = 0.4 * std::sin(1.3 * i + 0.2);
    v[i] = std::cos(0.7 * i);
  }
  for (int i = 0; i < N; ++i) // a well-conditioned triangle either way
    in[i * Ld + i] += 2.5;
  double alpha = 0.8, va = 0.3;
  double ga = __enzyme_autodiff<double>(fn, enzyme_const, h, flags...,
                                        enzyme_dup, in.data(), g.data(),
                                        enzyme_out, alpha);
  for (int i = 0; i < Inputs; ++i) {
    double x = in[i], step = 1e-6 * std::fmax(std::fabs(x), 1.0);
    in[i] = x + step;
    double up = f(h, flags..., in.data(), alpha);
    in[i] = x - step;
    double down = f(h, flags..., in.data(), alpha);
    in[i] = x;
    expectNear(fd, name, i, g[i], (up - down) / (2 * step));
  }
  double step = 1e-6;
  expectNear(fd, name, -1, ga,
             (f(h, flags..., in.data(), alpha + step) -
              f(h, flags..., in.data(), alpha - step)) /
                 (2 * step));
  double t = __enzyme_fwddiff<double>(fn, enzyme_const, h, flags...,
                                      enzyme_dup, in.data(), v.data(),
                                      enzyme_dup, alpha, va);
  expectNear(dot, name, 0, t, dotProduct(g, v) + ga * va);
  ++combinations;
}

int main() {
  cublasHandle_t h;
  cublasCreate_v2(&h);
  const int T[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  const int U[] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};
  const int D[] = {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT};
  const int S[] = {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT};
  for (int a : T)
    for (int b : T)
      check<gemm>("gemm", h, a, b);
  for (int t : T)
    check<gemv>("gemv", h, t);
  for (int u : U) {
    check<symv>("symv", h, u);
    check<syr2>("syr2", h, u);
    for (int t : T) {
      check<syrk>("syrk", h, u, t);
      for (int d : D) {
        check<trmv>("trmv", h, u, t, d);
        check<trsv>("trsv", h, u, t, d);
      }
    }
    for (int s : S) {
      check<symm>("symm", h, s, u);
      for (int t : {CUBLAS_OP_N, CUBLAS_OP_T})
        for (int d : D)
          check<trsm>("trsm", h, s, u, t, d);
    }
  }
  cublasDestroy_v2(h);
  char what[64];
  std::snprintf(what, sizeof what, "%d flag combinations", combinations);
  return finish(what, {&fd, &dot});
}
