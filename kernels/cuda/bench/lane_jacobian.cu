// Lane batching benchmark: many directions per thread.
//   - a forward Jacobian of an element residual with K = 32 inputs: each
//     thread asks for W of its columns in one request (enzyme_width W);
//   - reverse-mode rows of a model with P = 16 parameters: each thread asks
//     for the gradients of W of its outputs with respect to the parameters.
// W = 4, 8, 16, 32.  With lanes (-gpuad-batch-mapping=lanes or auto) a
// thread's W directions run on W lanes, each with the width-1 derivative's
// registers; with vectors every thread holds W shadows of everything.
// tools/lanes_report.py compiles this file both ways and prints registers
// and spills per width next to the width-1 derivative's.
//
//   lane_jacobian            check: every width's columns and rows against
//                            width-1 requests direction by direction and
//                            central differences (a device test)
//   lane_jacobian --time [n] directions per second on n elements: the
//                            width-W request, and W width-1 launches
//
// gpu-suite-args: --time
// gpu-suite-build: vector -mllvm -gpuad-batch-mapping=vector
#include "include/bench.h"

extern __device__ int enzyme_width;
extern __device__ int enzyme_dupv;

constexpr int K = 32; // element inputs and outputs
constexpr int P = 16; // model parameters
constexpr int M = 32; // model outputs
constexpr int D = 8;  // model data per element

// r = f(u): a dense, smooth residual of K unknowns.
__device__ void element(const double *__restrict__ u, double *__restrict__ r) {
  for (int i = 0; i < K; ++i) {
    double acc = 0.05 * u[i] * u[i] * u[i];
    for (int j = 0; j < K; ++j)
      acc += tanh(u[j] + 0.1 * u[i]) / (1 + (i - j) * (i - j));
    r[i] = acc;
  }
}

// out_k = g_k(p; x) for a parameter vector p and an element's data x.
__device__ void model(const double *__restrict__ p,
                      const double *__restrict__ x, double *__restrict__ out) {
  for (int k = 0; k < M; ++k) {
    double acc = 0;
    for (int i = 0; i < P; ++i)
      acc += p[i] * sin(x[(i + k) % D] * (k + 1) * 0.1 + p[(i + k) % P]);
    out[k] = acc * exp(-0.01 * p[k % P] * p[k % P]);
  }
}

// Thread e: J[e][l][i] = dr_i/du_l for columns l < W (seeds: the identity's
// rows, K apart).
template <int W>
__global__ void jacobianLanes(const double *u, const double *seeds, double *r,
                              double *J, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_fwddiff((void *)element, enzyme_width, W, enzyme_dupv,
                     (long)(K * sizeof(double)), u + (size_t)e * K, seeds,
                     enzyme_dupv, (long)(K * sizeof(double)), r + (size_t)e * K,
                     J + (size_t)e * W * K);
}

__global__ void jacobianOne(const double *u, const double *seed, double *r,
                            double *Jl, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_fwddiff((void *)element, enzyme_dup, u + (size_t)e * K, seed,
                     enzyme_dup, r + (size_t)e * K, Jl + (size_t)e * K);
}

// Thread e: G[e][l][i] = d out_l / d p_i for outputs l < W; S[e] holds
// direction l's seed of the outputs (consumed).
template <int W>
__global__ void gradientLanes(const double *p, double *G, const double *x,
                              double *out, double *S, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_autodiff(
        (void *)model, enzyme_width, W, enzyme_dupv, (long)(P * sizeof(double)),
        p, G + (size_t)e * W * P, enzyme_const, x + (size_t)e * D, enzyme_dupv,
        (long)(M * sizeof(double)), out + (size_t)e * M, S + (size_t)e * W * M);
}

__global__ void gradientOne(const double *p, double *Gl, const double *x,
                            double *out, double *Sl, int n) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n)
    __enzyme_autodiff((void *)model, enzyme_dup, p, Gl + (size_t)e * P,
                      enzyme_const, x + (size_t)e * D, enzyme_dup,
                      out + (size_t)e * M, Sl + (size_t)e * M);
}

namespace {

const int Block = 128;
unsigned Seed = 12345;
/// The program's name as run (the gpu-suite builds it twice).
const char *Program = "lane_jacobian";

int blocks(int N) { return (N + Block - 1) / Block; }

std::vector<double> identityRows(int Rows, int Cols) {
  std::vector<double> S((size_t)Rows * Cols, 0.0);
  for (int L = 0; L < Rows; ++L)
    S[(size_t)L * Cols + L] = 1;
  return S;
}

/// The seeds of W outputs per element: direction l seeds output l.
std::vector<double> outputSeeds(int W, int N) {
  std::vector<double> S;
  for (int E = 0; E < N; ++E) {
    std::vector<double> One = identityRows(W, M);
    S.insert(S.end(), One.begin(), One.end());
  }
  return S;
}

void hostElement(const double *U, double *R) {
  for (int I = 0; I < K; ++I) {
    double Acc = 0.05 * U[I] * U[I] * U[I];
    for (int J = 0; J < K; ++J)
      Acc += std::tanh(U[J] + 0.1 * U[I]) / (1 + (I - J) * (I - J));
    R[I] = Acc;
  }
}

void hostModel(const double *Pv, const double *X, double *Out) {
  for (int Kk = 0; Kk < M; ++Kk) {
    double Acc = 0;
    for (int I = 0; I < P; ++I)
      Acc +=
          Pv[I] * std::sin(X[(I + Kk) % D] * (Kk + 1) * 0.1 + Pv[(I + Kk) % P]);
    Out[Kk] = Acc * std::exp(-0.01 * Pv[Kk % P] * Pv[Kk % P]);
  }
}

/// d out_Row / d v_Col of \p F (In inputs, Out outputs) at \p V, by central
/// differences.
template <class F>
double centralDifference(F Fn, std::vector<double> V, int Outs, int Row,
                         int Col) {
  const double H = 1e-6;
  std::vector<double> Up(Outs), Down(Outs);
  double V0 = V[Col];
  V[Col] = V0 + H;
  Fn(V.data(), Up.data());
  V[Col] = V0 - H;
  Fn(V.data(), Down.data());
  return (Up[Row] - Down[Row]) / (2 * H);
}

Check Lane{"lanes vs width 1", 1e-12}, Fd{"central differences", 1e-6};

template <int W> void checkWidth(int N) {
  std::vector<double> U = randomVector((size_t)N * K, Seed);
  double *dU = toDevice(U), *dSeeds = toDevice(identityRows(K, K));
  double *dR = zeroed<double>((size_t)N * K);
  double *dJ = zeroed<double>((size_t)N * W * K);
  jacobianLanes<W><<<blocks(N), Block>>>(dU, dSeeds, dR, dJ, N);
  std::vector<double> J = toHost(dJ, (size_t)N * W * K);
  double *dJl = zeroed<double>((size_t)N * K);
  for (int L = 0; L < W; ++L) {
    jacobianOne<<<blocks(N), Block>>>(dU, dSeeds + L * K, dR, dJl, N);
    std::vector<double> Col = toHost(dJl, (size_t)N * K);
    for (int E = 0; E < N; ++E)
      for (int I = 0; I < K; ++I) {
        double Got = J[((size_t)E * W + L) * K + I];
        near(Lane, "J", E, Got, Col[(size_t)E * K + I]);
        if (E % 29 == 0 && I % 7 == 0)
          near(Fd, "J vs fd", E, Got,
               centralDifference(hostElement,
                                 std::vector<double>(&U[(size_t)E * K],
                                                     &U[(size_t)(E + 1) * K]),
                                 K, I, L));
      }
  }

  std::vector<double> Pv = randomVector(P, Seed),
                      X = randomVector((size_t)N * D, Seed);
  double *dP = toDevice(Pv), *dX = toDevice(X);
  double *dOut = zeroed<double>((size_t)N * M);
  double *dS = toDevice(outputSeeds(W, N));
  double *dG = zeroed<double>((size_t)N * W * P);
  gradientLanes<W><<<blocks(N), Block>>>(dP, dG, dX, dOut, dS, N);
  std::vector<double> G = toHost(dG, (size_t)N * W * P);
  double *dGl = zeroed<double>((size_t)N * P);
  for (int L = 0; L < W; ++L) {
    std::vector<double> Sl((size_t)N * M, 0.0);
    for (int E = 0; E < N; ++E)
      Sl[(size_t)E * M + L] = 1;
    double *dSl = toDevice(Sl);
    CHECK(cudaMemset(dGl, 0, (size_t)N * P * sizeof(double)));
    gradientOne<<<blocks(N), Block>>>(dP, dGl, dX, dOut, dSl, N);
    std::vector<double> Row = toHost(dGl, (size_t)N * P);
    for (int E = 0; E < N; ++E)
      for (int I = 0; I < P; ++I) {
        double Got = G[((size_t)E * W + L) * P + I];
        near(Lane, "G", E, Got, Row[(size_t)E * P + I]);
        if (E % 31 == 0 && I % 5 == 0)
          near(Fd, "G vs fd", E, Got,
               centralDifference(
                   [&](const double *Q, double *Out) {
                     hostModel(Q, &X[(size_t)E * D], Out);
                   },
                   Pv, M, L, I));
      }
    CHECK(cudaFree(dSl));
  }
  for (double *A : {dU, dSeeds, dR, dJ, dJl, dP, dX, dOut, dS, dG, dGl})
    CHECK(cudaFree(A));
}

int check() {
  const int N = 300; // a partial last warp
  checkWidth<4>(N);
  checkWidth<8>(N);
  checkWidth<16>(N);
  checkWidth<32>(N);
  return verdict("lane_jacobian",
                 "forward Jacobian columns (32 inputs) and reverse rows (16 "
                 "parameters) at widths 4..32 vs width-1 requests and "
                 "central differences; n=300",
                 {&Lane, &Fd});
}

/// Directions per second (millions) of W directions on \p N elements taking
/// \p Ms.
double rate(int N, int W, float Ms) { return double(N) * W / (Ms * 1e3); }

template <int W> void timeWidth(int N) {
  std::vector<double> U = randomVector((size_t)N * K, Seed);
  double *dU = toDevice(U), *dSeeds = toDevice(identityRows(K, K));
  double *dR = zeroed<double>((size_t)N * K);
  double *dJ = zeroed<double>((size_t)N * W * K);
  double *dJl = zeroed<double>((size_t)N * K);
  float Batched = medianMs(
      [&] { jacobianLanes<W><<<blocks(N), Block>>>(dU, dSeeds, dR, dJ, N); });
  float Ones = medianMs([&] {
    for (int L = 0; L < W; ++L)
      jacobianOne<<<blocks(N), Block>>>(dU, dSeeds + L * K, dR, dJl, N);
  });
  std::printf("%s: time forward W=%-2d  width-W request %9.1f "
              "Mdir/s  %d width-1 launches %9.1f Mdir/s  speedup %5.2f\n",
              Program, W, rate(N, W, Batched), W, rate(N, W, Ones),
              Ones / Batched);

  std::vector<double> Pv = randomVector(P, Seed),
                      X = randomVector((size_t)N * D, Seed);
  double *dP = toDevice(Pv), *dX = toDevice(X);
  double *dOut = zeroed<double>((size_t)N * M);
  std::vector<double> Seeds = outputSeeds(W, N);
  double *dS = toDevice(Seeds);
  double *dG = zeroed<double>((size_t)N * W * P);
  double *dGl = zeroed<double>((size_t)N * P);
  double *dSl = toDevice(std::vector<double>((size_t)N * M, 1.0));
  // The seeds are consumed; the timing does not depend on their values.
  float BatchedRev = medianMs(
      [&] { gradientLanes<W><<<blocks(N), Block>>>(dP, dG, dX, dOut, dS, N); });
  float OnesRev = medianMs([&] {
    for (int L = 0; L < W; ++L)
      gradientOne<<<blocks(N), Block>>>(dP, dGl, dX, dOut, dSl, N);
  });
  std::printf("%s: time reverse W=%-2d  width-W request %9.1f "
              "Mdir/s  %d width-1 launches %9.1f Mdir/s  speedup %5.2f\n",
              Program, W, rate(N, W, BatchedRev), W, rate(N, W, OnesRev),
              OnesRev / BatchedRev);
  for (double *A : {dU, dSeeds, dR, dJ, dJl, dP, dX, dOut, dS, dG, dGl, dSl})
    CHECK(cudaFree(A));
}

int timeKernels(int N) {
  timeWidth<4>(N);
  timeWidth<8>(N);
  timeWidth<16>(N);
  timeWidth<32>(N);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (const char *Slash = std::strrchr(Argv[0], '/'))
    Program = Slash + 1;
  if (timeMode(Argc, Argv))
    return timeKernels(Argc > 2 ? std::atoi(Argv[2]) : 1 << 16);
  return check();
}
