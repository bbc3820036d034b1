//===- hex_element.cu - Hexahedral element forces and EOS, and gradients --===//
//
// Part of gpuad.
//
// One Lagrangian hydrodynamics element update per thread, in the style of
// LULESH's CalcVolumeForceForElems, CalcKinematicsForElems and EvalEOSForElems
// (Karlin et al., LLNL-TR-490254), on a structured mesh of 8-node hexahedra:
//  - gather the element's 8 node coordinates and velocities (node list);
//  - the trilinear map's coefficients; from them the exact volume (the
//    integral of det J in closed form) and the shape-function derivatives
//    at the centre, B_a = cof(J0) s_a (the derivative of 8 det J0 by node
//    a; s_a the node's natural coordinates), and the velocity divergence;
//  - a characteristic length (volume over the largest face's area) and a
//    von Neumann-Richtmyer artificial viscosity in compression;
//  - an ideal-gas EOS update of energy and pressure with a half-step
//    predictor, cut-offs and the sound speed;
//  - node forces: (p + q) B_a, plus Flanagan-Belytschko hourglass control
//    (the four hourglass modes made orthogonal to the linear fields).
// Inputs: node coordinates and velocities, element energy, pressure,
// viscosity, relative volume, reference volume and sound speed.  Outputs:
// new energy, pressure, viscosity, sound speed, relative volume and the 24
// force components, per element (forces in LULESH's per-element layout, for
// a node kernel to gather).
//
// The gradient (reverse mode, __enzyme_autodiff) of J = W . outputs with
// respect to all twelve inputs is checked against central differences of
// the same function on the host (a sample of each input; tolerance 1e-6
// relative to the input's largest gradient entry) and against forward mode
// by the dot product (1e-10); the device primal against the host (1e-12).
//
//   hex_element              the checks on a 5^3 mesh (the emulator in CI)
//   hex_element --time [n]   primal and gradient times on an n^3 mesh
//                            (default 100, LULESH's -s 100) on a GPU
//
// gpu-suite-args: --time
//
//===----------------------------------------------------------------------===//

#include "include/bench.h"

constexpr int Block = 128;

// Material and method constants (LULESH's defaults where it has them).
constexpr double Rho0 = 1.0;      // reference density
constexpr double C1s = 2.0 / 3;   // gamma - 1 of the ideal gas
constexpr double Emin = -1e15;    // energy floor
constexpr double Pmin = 0;        // pressure floor
constexpr double PCut = 1e-7;     // |p| below this is 0
constexpr double QLin = 0.5;      // linear viscosity coefficient
constexpr double QQuad = 2.0 / 3; // quadratic viscosity coefficient
constexpr double HgCoef = 3.0;    // hourglass control coefficient

/// The natural coordinate (+-1) along \p Dir of hexahedron node \p A, in the
/// usual order: bottom face 0-3 counter-clockwise, top face 4-7 above it.
__host__ __device__ __forceinline__ double nodeSign(int A, int Dir) {
  int Corner = A & 3;
  bool Plus = Dir == 0   ? Corner == 1 || Corner == 2
              : Dir == 1 ? Corner >= 2
                         : A >= 4;
  return Plus ? 1.0 : -1.0;
}

/// Monomial \p K of the trilinear basis at node \p A: xi, eta, zeta (K = 0,
/// 1, 2), then xi eta, eta zeta, zeta xi, xi eta zeta (3..6; the last four
/// are the hourglass modes).
__host__ __device__ __forceinline__ double monomial(int K, int A) {
  double X = nodeSign(A, 0), Y = nodeSign(A, 1), Z = nodeSign(A, 2);
  switch (K) {
  case 0:
    return X;
  case 1:
    return Y;
  case 2:
    return Z;
  case 3:
    return X * Y;
  case 4:
    return Y * Z;
  case 5:
    return Z * X;
  default:
    return X * Y * Z;
  }
}

__host__ __device__ __forceinline__ double
triple(const double (&U)[3], const double (&V)[3], const double (&W)[3]) {
  return U[0] * (V[1] * W[2] - V[2] * W[1]) +
         U[1] * (V[2] * W[0] - V[0] * W[2]) +
         U[2] * (V[0] * W[1] - V[1] * W[0]);
}

/// The largest squared face area, each face's area half the cross product
/// of its diagonals.
__host__ __device__ __forceinline__ double
maxFaceArea2(const double (&Pos)[3][8]) {
  const int Face[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                          {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  double Max = 0;
#pragma unroll
  for (int F = 0; F < 6; ++F) {
    double D1[3], D2[3], Cross[3];
#pragma unroll
    for (int I = 0; I < 3; ++I) {
      D1[I] = Pos[I][Face[F][2]] - Pos[I][Face[F][0]];
      D2[I] = Pos[I][Face[F][3]] - Pos[I][Face[F][1]];
    }
    Cross[0] = D1[1] * D2[2] - D1[2] * D2[1];
    Cross[1] = D1[2] * D2[0] - D1[0] * D2[2];
    Cross[2] = D1[0] * D2[1] - D1[1] * D2[0];
    Max = fmax(Max, 0.25 * (Cross[0] * Cross[0] + Cross[1] * Cross[1] +
                            Cross[2] * Cross[2]));
  }
  return Max;
}

/// The ideal-gas pressure at energy \p E, with LULESH's cut-off and floor.
__host__ __device__ __forceinline__ double pressure(double Bvc, double E) {
  double P = Bvc * E;
  if (fabs(P) < PCut)
    P = 0;
  return fmax(P, Pmin);
}

/// The coefficients of a field given at the 8 nodes in the trilinear basis:
/// u(xi) = u0 + sum_k c_k m_k(xi), c_k = sum_a u_a m_k(s_a) / 8.
__host__ __device__ __forceinline__ void modes(const double (&U)[3][8],
                                               double (&C)[7][3]) {
#pragma unroll
  for (int K = 0; K < 7; ++K)
#pragma unroll
    for (int I = 0; I < 3; ++I) {
      double S = 0;
#pragma unroll
      for (int A = 0; A < 8; ++A)
        S += U[I][A] * monomial(K, A);
      C[K][I] = S / 8;
    }
}

/// The element's geometry from the position modes a_k = Coef[k-1]: the
/// Jacobian at the centre is J0 = [a1 a2 a3]; its cofactors, 8 det J0.
struct Geometry {
  double Coef[7][3];
  double Cof[3][3];
  double VolC;

  __host__
      __device__ __forceinline__ explicit Geometry(const double (&Pos)[3][8]) {
    modes(Pos, Coef);
    // Cof[i][j]: the cofactor of J0[i][j] = Coef[j][i].
#pragma unroll
    for (int I = 0; I < 3; ++I)
#pragma unroll
      for (int J = 0; J < 3; ++J) {
        int I1 = (I + 1) % 3, I2 = (I + 2) % 3, J1 = (J + 1) % 3,
            J2 = (J + 2) % 3;
        Cof[I][J] = Coef[J1][I1] * Coef[J2][I2] - Coef[J2][I1] * Coef[J1][I2];
      }
    VolC = 8 * triple(Coef[0], Coef[1], Coef[2]);
  }

  /// The exact volume: the integral of det J over [-1, 1]^3.  Terms odd in
  /// a natural coordinate vanish, leaving
  /// 8 [a1,a2,a3] + 8/3 ([a1,a4,a6] + [a6,a5,a3] + [a4,a2,a5]).
  __host__ __device__ __forceinline__ double volume() const {
    return VolC + 8.0 / 3 *
                      (triple(Coef[0], Coef[3], Coef[5]) +
                       triple(Coef[5], Coef[4], Coef[2]) +
                       triple(Coef[3], Coef[1], Coef[4]));
  }

  /// B_a = cof(J0) s_a: the shape functions' gradient at the centre times
  /// 8 det J0 (the derivative of 8 det J0 by node a's position).
  __host__ __device__ __forceinline__ void b(int A, double (&Ba)[3]) const {
#pragma unroll
    for (int I = 0; I < 3; ++I)
      Ba[I] = Cof[I][0] * nodeSign(A, 0) + Cof[I][1] * nodeSign(A, 1) +
              Cof[I][2] * nodeSign(A, 2);
  }
};

/// Element \p El: outputs from inputs (see the file comment).  Forces go to
/// F[(3a + d) * NumElem + El] for node a, direction d.
__host__ __device__ __forceinline__ void
hexElement(int El, int NumElem, const int *__restrict__ Nodelist,
           const double *X, const double *Y, const double *Z, const double *Xd,
           const double *Yd, const double *Zd, const double *__restrict__ E,
           const double *__restrict__ P, const double *__restrict__ Q,
           const double *__restrict__ V, const double *__restrict__ Volo,
           const double *__restrict__ Ss, double *__restrict__ ENew,
           double *__restrict__ PNew, double *__restrict__ QNew,
           double *__restrict__ SsNew, double *__restrict__ VNew,
           double *__restrict__ F) {
  double Pos[3][8], Vel[3][8];
#pragma unroll
  for (int A = 0; A < 8; ++A) {
    int N = Nodelist[8 * El + A];
    Pos[0][A] = X[N], Pos[1][A] = Y[N], Pos[2][A] = Z[N];
    Vel[0][A] = Xd[N], Vel[1][A] = Yd[N], Vel[2][A] = Zd[N];
  }
  Geometry Geo(Pos);
  double Volume = Geo.volume();
  double Length = Volume / sqrt(maxFaceArea2(Pos));
  double VelModes[7][3];
  modes(Vel, VelModes);

  // The velocity gradient times 8 det J0, L = sum_a v_a B_a^T
  // = 8 [b1 b2 b3] cof(J0)^T (b_k the velocity modes); its trace over
  // 8 det J0 is the divergence.
  double L[3][3], InvVolC = 1 / Geo.VolC;
#pragma unroll
  for (int I = 0; I < 3; ++I)
#pragma unroll
    for (int J = 0; J < 3; ++J)
      L[I][J] =
          8 * (VelModes[0][I] * Geo.Cof[J][0] + VelModes[1][I] * Geo.Cof[J][1] +
               VelModes[2][I] * Geo.Cof[J][2]);
  double Div = (L[0][0] + L[1][1] + L[2][2]) * InvVolC;

  // Flanagan-Belytschko hourglass control: mode k's vector at node a is
  // g_ka = m_k(s_a) - (x . m_k) . B_a / (8 det J0), with x . m_k = 8 a_k;
  // the mode's velocity H_k = sum_a g_ka v_a = 8 b_k - 8 L a_k / (8 det J0).
  double H[4][3];
#pragma unroll
  for (int K = 0; K < 4; ++K)
#pragma unroll
    for (int I = 0; I < 3; ++I)
      H[K][I] = 8 * (VelModes[3 + K][I] - (L[I][0] * Geo.Coef[3 + K][0] +
                                           L[I][1] * Geo.Coef[3 + K][1] +
                                           L[I][2] * Geo.Coef[3 + K][2]) *
                                              InvVolC);

  // Viscosity in compression, then the EOS: a half-step predictor and the
  // corrector with the new viscosity.
  double VRel = Volume / Volo[El], DelV = VRel - V[El];
  double Rho = Rho0 / VRel;
  double QN = 0;
  if (Div < 0)
    QN = Rho *
         (QQuad * Length * Length * Div * Div - QLin * Length * Ss[El] * Div);
  double Bvc = C1s / VRel, Pbvc = C1s;
  double PQOld = P[El] + Q[El];
  double EHalf = fmax(E[El] - 0.5 * DelV * PQOld, Emin);
  double PHalf = pressure(Bvc, EHalf);
  double EN = fmax(EHalf + 0.5 * DelV * (3 * PQOld - 4 * (PHalf + QN)), Emin);
  double PN = pressure(Bvc, EN);
  double Ss2 = (Pbvc * EN + VRel * VRel * Bvc * PN) / Rho0;
  double SsN = Ss2 > 1e-36 ? sqrt(Ss2) : 1e-18;
  ENew[El] = EN, PNew[El] = PN, QNew[El] = QN, SsNew[El] = SsN;
  VNew[El] = VRel;

  // Node forces: the stress (p + q) B_a and the hourglass forces
  // -coef sum_k g_ka H_k.
  double HgForce = -HgCoef * 0.01 * SsN * Rho0 * Volo[El] / cbrt(Volume);
#pragma unroll
  for (int A = 0; A < 8; ++A) {
    double Ba[3], Fa[3];
    Geo.b(A, Ba);
#pragma unroll
    for (int I = 0; I < 3; ++I)
      Fa[I] = (PN + QN) * Ba[I];
#pragma unroll
    for (int K = 0; K < 4; ++K) {
      const double (&XG)[3] = Geo.Coef[3 + K];
      double G = monomial(3 + K, A) -
                 8 * (XG[0] * Ba[0] + XG[1] * Ba[1] + XG[2] * Ba[2]) * InvVolC;
#pragma unroll
      for (int I = 0; I < 3; ++I)
        Fa[I] += HgForce * G * H[K][I];
    }
#pragma unroll
    for (int I = 0; I < 3; ++I)
      F[(3 * A + I) * NumElem + El] = Fa[I];
  }
}

/// The function differentiated: one element per thread.
__device__ __forceinline__ void
elements(int NumElem, const int *__restrict__ Nodelist, const double *X,
         const double *Y, const double *Z, const double *Xd, const double *Yd,
         const double *Zd, const double *__restrict__ E,
         const double *__restrict__ P, const double *__restrict__ Q,
         const double *__restrict__ V, const double *__restrict__ Volo,
         const double *__restrict__ Ss, double *__restrict__ ENew,
         double *__restrict__ PNew, double *__restrict__ QNew,
         double *__restrict__ SsNew, double *__restrict__ VNew,
         double *__restrict__ F) {
  int El = blockIdx.x * blockDim.x + threadIdx.x;
  if (El < NumElem)
    hexElement(El, NumElem, Nodelist, X, Y, Z, Xd, Yd, Zd, E, P, Q, V, Volo, Ss,
               ENew, PNew, QNew, SsNew, VNew, F);
}

// The twelve inputs and six outputs, in the order elements() takes them.
// The kernels take them as separate pointer parameters, and a shadow
// (adjoint or tangent) for each.
constexpr int NumIn = 12, NumOut = 6;
struct Arrays {
  double *In[NumIn], *Out[NumOut];
};
#define HEX_PARAMS(Pre)                                                        \
  double *Pre##0, double *Pre##1, double *Pre##2, double *Pre##3,              \
      double *Pre##4, double *Pre##5, double *Pre##6, double *Pre##7,          \
      double *Pre##8, double *Pre##9, double *Pre##10, double *Pre##11,        \
      double *Pre##E, double *Pre##P, double *Pre##Q, double *Pre##Ss,         \
      double *Pre##V, double *Pre##F
#define HEX_ARGS(A)                                                            \
  A.In[0], A.In[1], A.In[2], A.In[3], A.In[4], A.In[5], A.In[6], A.In[7],      \
      A.In[8], A.In[9], A.In[10], A.In[11], A.Out[0], A.Out[1], A.Out[2],      \
      A.Out[3], A.Out[4], A.Out[5]

__global__ void __launch_bounds__(Block)
    hexPrimal(int NumElem, const int *Nodelist, HEX_PARAMS(A)) {
  elements(NumElem, Nodelist, A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11,
           AE, AP, AQ, ASs, AV, AF);
}

// A request with every input and output dup: (primal, shadow) pairs.
#define HEX_DUP_ARGS(fn, S)                                                    \
  fn((void *)elements, NumElem, enzyme_const, Nodelist, enzyme_dup, A0, S##0,  \
     enzyme_dup, A1, S##1, enzyme_dup, A2, S##2, enzyme_dup, A3, S##3,         \
     enzyme_dup, A4, S##4, enzyme_dup, A5, S##5, enzyme_dup, A6, S##6,         \
     enzyme_dup, A7, S##7, enzyme_dup, A8, S##8, enzyme_dup, A9, S##9,         \
     enzyme_dup, A10, S##10, enzyme_dup, A11, S##11, enzyme_dup, AE, S##E,     \
     enzyme_dup, AP, S##P, enzyme_dup, AQ, S##Q, enzyme_dup, ASs, S##Ss,       \
     enzyme_dup, AV, S##V, enzyme_dup, AF, S##F)

__global__ void __launch_bounds__(Block)
    hexGrad(int NumElem, const int *Nodelist, HEX_PARAMS(A), HEX_PARAMS(B)) {
  HEX_DUP_ARGS(__enzyme_autodiff, B);
}

__global__ void __launch_bounds__(Block)
    hexTangent(int NumElem, const int *Nodelist, HEX_PARAMS(A), HEX_PARAMS(D)) {
  HEX_DUP_ARGS(__enzyme_fwddiff, D);
}

// ---- Host: the mesh, the checks, the timings -----------------------------

struct Mesh {
  int NumElem, NumNode;
  std::vector<int> Nodelist;
  std::vector<double> In[NumIn]; // X Y Z Xd Yd Zd (nodes), E P Q V Volo Ss
};

constexpr const char *InName[NumIn] = {"x", "y", "z", "xd", "yd",   "zd",
                                       "e", "p", "q", "v",  "volo", "ss"};

/// An n^3 block of unit cubes with jittered nodes, random velocities
/// (compressing and expanding elements) and a state near the reference.
static Mesh makeMesh(int N) {
  Mesh M;
  int NN = N + 1;
  M.NumElem = N * N * N;
  M.NumNode = NN * NN * NN;
  unsigned Seed = 4242u;
  auto Node = [&](int I, int J, int K) { return (K * NN + J) * NN + I; };
  for (int D = 0; D < 6; ++D)
    M.In[D].resize(M.NumNode);
  for (int K = 0; K < NN; ++K)
    for (int J = 0; J < NN; ++J)
      for (int I = 0; I < NN; ++I) {
        int Id = Node(I, J, K), Pos[3] = {I, J, K};
        for (int D = 0; D < 3; ++D) {
          M.In[D][Id] = Pos[D] + 0.2 * (nextLcg(Seed) - 0.5);
          M.In[3 + D][Id] = 0.4 * (nextLcg(Seed) - 0.5);
        }
      }
  const int Corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                            {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int K = 0; K < N; ++K)
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < N; ++I)
        for (const int *C : Corner)
          M.Nodelist.push_back(Node(I + C[0], J + C[1], K + C[2]));
  for (int El = 0; El < M.NumElem; ++El) {
    M.In[6].push_back(1 + nextLcg(Seed));          // e
    M.In[7].push_back(0.5 + nextLcg(Seed));        // p
    M.In[8].push_back(0.1 * nextLcg(Seed));        // q
    M.In[9].push_back(0.9 + 0.2 * nextLcg(Seed));  // v
    M.In[10].push_back(0.9 + 0.2 * nextLcg(Seed)); // volo
    M.In[11].push_back(0.5 + nextLcg(Seed));       // ss
  }
  return M;
}

static size_t outSize(int NumElem, int O) {
  return size_t(NumElem) * (O == NumOut - 1 ? 24 : 1);
}

/// Every element on the host; the outputs concatenated.
static std::vector<double>
hostElements(const Mesh &M, const std::vector<double> (&In)[NumIn]) {
  std::vector<double> Out[NumOut], All;
  for (int O = 0; O < NumOut; ++O)
    Out[O].resize(outSize(M.NumElem, O));
  for (int El = 0; El < M.NumElem; ++El)
    hexElement(El, M.NumElem, M.Nodelist.data(), In[0].data(), In[1].data(),
               In[2].data(), In[3].data(), In[4].data(), In[5].data(),
               In[6].data(), In[7].data(), In[8].data(), In[9].data(),
               In[10].data(), In[11].data(), Out[0].data(), Out[1].data(),
               Out[2].data(), Out[3].data(), Out[4].data(), Out[5].data());
  for (const std::vector<double> &O : Out)
    All.insert(All.end(), O.begin(), O.end());
  return All;
}

/// Device arrays for \p Host (inputs, outputs) or zeroed ones of its sizes.
static Arrays deviceArrays(const Mesh &M, const std::vector<double> *Host) {
  Arrays A;
  for (int I = 0; I < NumIn; ++I)
    A.In[I] = Host ? toDevice(Host[I]) : zeroed<double>(M.In[I].size());
  for (int O = 0; O < NumOut; ++O)
    A.Out[O] = Host ? toDevice(Host[NumIn + O])
                    : zeroed<double>(outSize(M.NumElem, O));
  return A;
}

static void freeArrays(Arrays &A) {
  for (double *D : A.In)
    CHECK(cudaFree(D));
  for (double *D : A.Out)
    CHECK(cudaFree(D));
}

/// The outputs of \p A concatenated, or its inputs.
static std::vector<double> fetch(const Mesh &M, const Arrays &A, bool Outputs,
                                 int Which) {
  return Outputs ? toHost(A.Out[Which], outSize(M.NumElem, Which))
                 : toHost(A.In[Which], M.In[Which].size());
}

static int check() {
  Mesh M = makeMesh(5);
  unsigned Seed = 99u;
  size_t NOut = 0;
  for (int O = 0; O < NumOut; ++O)
    NOut += outSize(M.NumElem, O);
  // Seeds W (outputs) and directions Dir (inputs) for the gradient checks.
  std::vector<double> Seeds[NumIn + NumOut], Dir[NumIn + NumOut], W;
  for (int I = 0; I < NumIn; ++I) {
    Seeds[I].assign(M.In[I].size(), 0.0);
    for (double &X : Dir[I] = Seeds[I])
      X = 2 * nextLcg(Seed) - 1;
  }
  for (int O = 0; O < NumOut; ++O) {
    Dir[NumIn + O].assign(outSize(M.NumElem, O), 0.0);
    for (double &X : Seeds[NumIn + O] = Dir[NumIn + O])
      X = 2 * nextLcg(Seed) - 1;
    W.insert(W.end(), Seeds[NumIn + O].begin(), Seeds[NumIn + O].end());
  }
  std::vector<double> Inputs[NumIn + NumOut];
  for (int I = 0; I < NumIn; ++I)
    Inputs[I] = M.In[I];
  for (int O = 0; O < NumOut; ++O)
    Inputs[NumIn + O].assign(outSize(M.NumElem, O), 0.0);
  Arrays A = deviceArrays(M, Inputs), Bar = deviceArrays(M, Seeds),
         Dot = deviceArrays(M, Dir);
  int *Nodelist = toDevice(M.Nodelist);
  int Blocks = (M.NumElem + Block - 1) / Block;

  hexPrimal<<<Blocks, Block>>>(M.NumElem, Nodelist, HEX_ARGS(A));
  CHECK(cudaGetLastError());
  std::vector<double> Want = hostElements(M, M.In), Got;
  for (int O = 0; O < NumOut; ++O) {
    std::vector<double> Part = fetch(M, A, true, O);
    Got.insert(Got.end(), Part.begin(), Part.end());
  }
  Check Primal{"primal", 1e-12};
  for (size_t K = 0; K < NOut; ++K)
    near(Primal, "output", K, Got[K], Want[K]);

  hexGrad<<<Blocks, Block>>>(M.NumElem, Nodelist, HEX_ARGS(A), HEX_ARGS(Bar));
  hexTangent<<<Blocks, Block>>>(M.NumElem, Nodelist, HEX_ARGS(A),
                                HEX_ARGS(Dot));
  CHECK(cudaGetLastError());

  // Central differences of J = W . outputs, a sample of each input.
  Check Fd[NumIn];
  double Forward = 0, Reverse = 0;
  std::vector<double> In[NumIn];
  for (int I = 0; I < NumIn; ++I)
    In[I] = M.In[I];
  for (int I = 0; I < NumIn; ++I) {
    std::vector<double> G = fetch(M, Bar, false, I);
    Fd[I] = Check{InName[I], 1e-6, largest(G)};
    Reverse += dot(G, Dir[I]);
    for (int S = 0; S < 24; ++S) {
      size_t K = size_t(nextLcg(Seed) * G.size());
      double H = 1e-6 * std::fmax(std::fabs(In[I][K]), 1.0), Keep = In[I][K];
      In[I][K] = Keep + H;
      double Plus = dot(W, hostElements(M, In));
      In[I][K] = Keep - H;
      double Minus = dot(W, hostElements(M, In));
      In[I][K] = Keep;
      near(Fd[I], InName[I], K, G[K], (Plus - Minus) / (2 * H));
    }
  }
  for (int O = 0; O < NumOut; ++O)
    Forward += dot(fetch(M, Dot, true, O), Seeds[NumIn + O]);
  Check DotCheck{"dot", 1e-10};
  near(DotCheck, "<W, J v> vs <J^T W, v>", 0, Forward, Reverse);

  freeArrays(A);
  freeArrays(Bar);
  freeArrays(Dot);
  CHECK(cudaFree(Nodelist));
  std::vector<const Check *> Checks = {&Primal, &DotCheck};
  Check AllFd{"fd", 1e-6};
  for (const Check &C : Fd) {
    AllFd.Worst = std::fmax(AllFd.Worst, C.Worst);
    AllFd.Compared += C.Compared;
  }
  Checks.push_back(&AllFd);
  char What[128];
  std::snprintf(What, sizeof What,
                "%d elements; d/d(12 inputs) vs central differences, fwd vs "
                "rev",
                M.NumElem);
  return verdict("hex_element", What, Checks);
}

static int timeKernels(int N) {
  Mesh M = makeMesh(N);
  std::vector<double> Inputs[NumIn + NumOut];
  for (int I = 0; I < NumIn; ++I)
    Inputs[I] = M.In[I];
  for (int O = 0; O < NumOut; ++O)
    Inputs[NumIn + O].assign(outSize(M.NumElem, O), 1.0);
  Arrays A = deviceArrays(M, Inputs), Bar = deviceArrays(M, Inputs);
  int *Nodelist = toDevice(M.Nodelist);
  int Blocks = (M.NumElem + Block - 1) / Block;
  float Primal = medianMs(
      [&] { hexPrimal<<<Blocks, Block>>>(M.NumElem, Nodelist, HEX_ARGS(A)); });
  timeRow("hex_element", "d/d(all inputs)", Primal, medianMs([&] {
            hexGrad<<<Blocks, Block>>>(M.NumElem, Nodelist, HEX_ARGS(A),
                                       HEX_ARGS(Bar));
          }));
  freeArrays(A);
  freeArrays(Bar);
  CHECK(cudaFree(Nodelist));
  return 0;
}

int main(int Argc, char **Argv) {
  if (timeMode(Argc, Argv))
    return timeKernels(Argc > 2 ? std::atoi(Argv[2]) : 100);
  return check();
}
