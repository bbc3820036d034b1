//===- lbm_d3q19.cu - Lattice Boltzmann stream-collide and its gradient ---===//
//
// Part of gpuad.
//
// One time step of a D3Q19 lattice Boltzmann fluid solver with the BGK
// collision operator, after Parboil's LBM benchmark (Stratton et al.,
// 2012): per cell, 19 particle populations f_q moving with velocities e_q
// (rest, 6 axis, 12 face diagonals; weights 1/3, 1/18, 1/36).  A thread
// reads its cell's populations (structure-of-arrays, coalesced), takes the
// density rho = sum f_q and velocity u = sum f_q e_q / rho, relaxes toward
// the equilibrium
//   f_q^eq = w_q rho (1 + 3 e_q.u + 4.5 (e_q.u)^2 - 1.5 u.u)
// with f_q' = (1 - omega) f_q + omega f_q^eq, and pushes f_q' to the
// neighbour in direction e_q (periodic box).  Obstacle cells reflect their
// populations instead (bounce-back); inflow cells have their velocity set.
//
// The gradient of J = W . dst with respect to src runs in split mode, as
// an Enzyme user writes it for GPUs: an augmented kernel
// (__enzyme_augmentfwd) runs the step and stores each thread's tape, of the
// user's own type (the struct __enzyme_augmentfwd is declared to return),
// in a global array; a second kernel calls __enzyme_reverse with it.  Two
// tape types: Tape8, 8 bytes, which holds a pointer to the tape (the
// device heap), and TapeBlob, which holds the tape itself.  Checked
// against the combined gradient (__enzyme_autodiff, 1e-14),
// central differences of the same step on the host (a sample of src;
// 1e-6 relative to the largest entry) and forward mode by the dot product
// (1e-10); the device step against the host (1e-13).
//
//   lbm_d3q19                the checks on a 12 x 10 x 8 box (CI)
//   lbm_d3q19 --time [n]     primal, split (both tapes) and combined
//                            gradient times on an n^3 box (default 128;
//                            Parboil's is 120 x 120 x 150) on a GPU
//
// gpu-suite-args: --time
//
//===----------------------------------------------------------------------===//

#include "include/bench.h"

constexpr int Q = 19;
constexpr int Block = 128;
constexpr double Omega = 1.95;
enum CellKind : unsigned char { Fluid = 0, Obstacle = 1, Inflow = 2 };

/// Velocity q's components (-1, 0, 1) and its opposite: rest, the six axis
/// directions, then the twelve diagonals of two axes.
__host__ __device__ __forceinline__ int velocity(int Dir, int Axis) {
  if (Dir == 0)
    return 0;
  if (Dir <= 6) // +x -x +y -y +z -z
    return (Dir - 1) / 2 == Axis ? ((Dir - 1) % 2 ? -1 : 1) : 0;
  // Diagonals: axis pairs (x,y), (x,z), (y,z), four sign patterns each.
  int Pair = (Dir - 7) / 4, Signs = (Dir - 7) % 4;
  int A = Pair == 2 ? 1 : 0, B = Pair == 0 ? 1 : 2;
  if (Axis == A)
    return Signs & 1 ? -1 : 1;
  if (Axis == B)
    return Signs & 2 ? -1 : 1;
  return 0;
}

__host__ __device__ __forceinline__ int opposite(int Dir) {
  if (Dir == 0)
    return 0;
  if (Dir <= 6)
    return Dir % 2 ? Dir + 1 : Dir - 1;
  return 7 + ((Dir - 7) ^ 3); // both signs flipped
}

__host__ __device__ __forceinline__ double weight(int Dir) {
  return Dir == 0 ? 1.0 / 3 : Dir <= 6 ? 1.0 / 18 : 1.0 / 36;
}

/// The step for cell \p Cell of an NX x NY x NZ periodic box: populations
/// Src[q * N + cell] in, Dst[q * N + neighbour] out.
__host__ __device__ __forceinline__ void streamCollideCell(
    int Cell, const double *__restrict__ Src, double *__restrict__ Dst,
    const unsigned char *__restrict__ Kind, int NX, int NY, int NZ) {
  int N = NX * NY * NZ;
  int X = Cell % NX, Y = Cell / NX % NY, Z = Cell / (NX * NY);
  double F[Q];
#pragma unroll
  for (int Dir = 0; Dir < Q; ++Dir)
    F[Dir] = Src[Dir * N + Cell];
  double Out[Q];
  if (Kind[Cell] == Obstacle) {
#pragma unroll
    for (int Dir = 0; Dir < Q; ++Dir)
      Out[Dir] = F[opposite(Dir)];
  } else {
    double Rho = 0, U[3] = {0, 0, 0};
#pragma unroll
    for (int Dir = 0; Dir < Q; ++Dir) {
      Rho += F[Dir];
#pragma unroll
      for (int A = 0; A < 3; ++A)
        U[A] += velocity(Dir, A) * F[Dir];
    }
#pragma unroll
    for (int A = 0; A < 3; ++A)
      U[A] /= Rho;
    if (Kind[Cell] == Inflow) {
      U[0] = 0.005, U[1] = 0.002, U[2] = 0;
    }
    double U2 = 1.5 * (U[0] * U[0] + U[1] * U[1] + U[2] * U[2]);
#pragma unroll
    for (int Dir = 0; Dir < Q; ++Dir) {
      double EU = velocity(Dir, 0) * U[0] + velocity(Dir, 1) * U[1] +
                  velocity(Dir, 2) * U[2];
      double Eq = weight(Dir) * Rho * (1 + 3 * EU + 4.5 * EU * EU - U2);
      Out[Dir] = (1 - Omega) * F[Dir] + Omega * Eq;
    }
  }
#pragma unroll
  for (int Dir = 0; Dir < Q; ++Dir) {
    int XN = (X + velocity(Dir, 0) + NX) % NX;
    int YN = (Y + velocity(Dir, 1) + NY) % NY;
    int ZN = (Z + velocity(Dir, 2) + NZ) % NZ;
    Dst[Dir * N + (ZN * NY + YN) * NX + XN] = Out[Dir];
  }
}

/// The function differentiated: one cell per thread.
__device__ __forceinline__ void streamCollide(const double *__restrict__ Src,
                                              double *__restrict__ Dst,
                                              const unsigned char *Kind, int NX,
                                              int NY, int NZ) {
  int Cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (Cell < NX * NY * NZ)
    streamCollideCell(Cell, Src, Dst, Kind, NX, NY, NZ);
}

__global__ void __launch_bounds__(Block)
    lbmPrimal(const double *Src, double *Dst, const unsigned char *Kind, int NX,
              int NY, int NZ) {
  streamCollide(Src, Dst, Kind, NX, NY, NZ);
}

// Split mode, as an Enzyme user declares it: the augmented call returns
// the tape as the user's own type, which the forward kernel stores per
// thread; the reverse call takes it back as its last argument.  Tape8 is
// too small for the tape (the 19 populations and the cell kind: 154 B), so
// it carries a pointer to it, on the device heap; TapeBlob, sized for it,
// carries the tape itself (by value, in the global array).
struct Tape8 {
  char x[8];
};
struct TapeBlob {
  char x[160];
};
extern __device__ Tape8 __enzyme_augmentfwd(void *, ...);
extern __device__ TapeBlob __enzyme_augmentfwd_blob(void *, ...);
extern __device__ void __enzyme_reverse(void *, ...);

template <class TapeT>
__global__ void __launch_bounds__(Block)
    lbmAugmented(const double *Src, double *SrcBar, double *Dst, double *DstBar,
                 const unsigned char *Kind, int NX, int NY, int NZ,
                 TapeT *Tapes) {
  // Every launched thread has a tape (threads past the box's end too).
  TapeT &T = Tapes[blockIdx.x * blockDim.x + threadIdx.x];
  if constexpr (sizeof(TapeT) == sizeof(Tape8))
    T = __enzyme_augmentfwd((void *)streamCollide, enzyme_dup, Src, SrcBar,
                            enzyme_dup, Dst, DstBar, enzyme_const, Kind, NX, NY,
                            NZ);
  else
    T = __enzyme_augmentfwd_blob((void *)streamCollide, enzyme_dup, Src, SrcBar,
                                 enzyme_dup, Dst, DstBar, enzyme_const, Kind,
                                 NX, NY, NZ);
}

template <class TapeT>
__global__ void __launch_bounds__(Block)
    lbmReverse(const double *Src, double *SrcBar, double *Dst, double *DstBar,
               const unsigned char *Kind, int NX, int NY, int NZ,
               const TapeT *Tapes) {
  __enzyme_reverse((void *)streamCollide, enzyme_dup, Src, SrcBar, enzyme_dup,
                   Dst, DstBar, enzyme_const, Kind, NX, NY, NZ,
                   Tapes[blockIdx.x * blockDim.x + threadIdx.x]);
}

/// The combined gradient, for comparison.
__global__ void __launch_bounds__(Block)
    lbmGrad(const double *Src, double *SrcBar, double *Dst, double *DstBar,
            const unsigned char *Kind, int NX, int NY, int NZ) {
  __enzyme_autodiff((void *)streamCollide, enzyme_dup, Src, SrcBar, enzyme_dup,
                    Dst, DstBar, enzyme_const, Kind, NX, NY, NZ);
}

__global__ void __launch_bounds__(Block)
    lbmTangent(const double *Src, const double *SrcDot, double *Dst,
               double *DstDot, const unsigned char *Kind, int NX, int NY,
               int NZ) {
  __enzyme_fwddiff((void *)streamCollide, enzyme_dup, Src, SrcDot, enzyme_dup,
                   Dst, DstDot, enzyme_const, Kind, NX, NY, NZ);
}

// ---- Host ------------------------------------------------------------------

struct Box {
  int NX, NY, NZ;
  int cells() const { return NX * NY * NZ; }
  std::vector<unsigned char> Kind;
  std::vector<double> Src;
};

/// A box with a sphere of obstacle cells in the middle, an inflow plane at
/// x = 0, and populations near equilibrium at rest with random noise.
static Box makeBox(int NX, int NY, int NZ) {
  Box B{NX, NY, NZ};
  unsigned Seed = 31u;
  int N = B.cells();
  B.Kind.assign(N, Fluid);
  B.Src.resize(size_t(Q) * N);
  for (int Z = 0; Z < NZ; ++Z)
    for (int Y = 0; Y < NY; ++Y)
      for (int X = 0; X < NX; ++X) {
        int Cell = (Z * NY + Y) * NX + X;
        double DX = X - NX / 2.0, DY = Y - NY / 2.0, DZ = Z - NZ / 2.0;
        double R = 0.25 * std::min(NX, std::min(NY, NZ));
        if (DX * DX + DY * DY + DZ * DZ < R * R)
          B.Kind[Cell] = Obstacle;
        else if (X == 0)
          B.Kind[Cell] = Inflow;
        for (int Dir = 0; Dir < Q; ++Dir)
          B.Src[size_t(Dir) * N + Cell] =
              weight(Dir) * (1 + 0.1 * (nextLcg(Seed) - 0.5));
      }
  return B;
}

static std::vector<double> hostStep(const Box &B,
                                    const std::vector<double> &Src) {
  std::vector<double> Dst(Src.size());
  for (int Cell = 0; Cell < B.cells(); ++Cell)
    streamCollideCell(Cell, Src.data(), Dst.data(), B.Kind.data(), B.NX, B.NY,
                      B.NZ);
  return Dst;
}

/// The split gradient's kernels' arguments.
struct LbmArgs {
  const double *Src;
  double *SrcBar, *Dst, *DstBar;
  const unsigned char *Kind;
  int NX, NY, NZ;
};

/// The split gradient with tapes of type \p TapeT: the augmented kernel
/// stores them in \p Tapes, the reverse kernel reads them back.
template <class TapeT>
static void splitGradient(const LbmArgs &A, int Blocks, TapeT *Tapes) {
  lbmAugmented<TapeT><<<Blocks, Block>>>(A.Src, A.SrcBar, A.Dst, A.DstBar,
                                         A.Kind, A.NX, A.NY, A.NZ, Tapes);
  lbmReverse<TapeT><<<Blocks, Block>>>(A.Src, A.SrcBar, A.Dst, A.DstBar, A.Kind,
                                       A.NX, A.NY, A.NZ, Tapes);
}

/// The lattice itself: 19 distinct velocities, opposites negated, weights
/// summing to 1 with zero mean and isotropic second moment 1/3.
static bool latticeIsD3Q19() {
  double Sum = 0, Mean[3] = {}, Second[3][3] = {};
  for (int D = 0; D < Q; ++D) {
    for (int E = 0; E < D; ++E)
      if (velocity(D, 0) == velocity(E, 0) &&
          velocity(D, 1) == velocity(E, 1) && velocity(D, 2) == velocity(E, 2))
        return false;
    Sum += weight(D);
    for (int A = 0; A < 3; ++A) {
      if (velocity(opposite(D), A) != -velocity(D, A))
        return false;
      Mean[A] += weight(D) * velocity(D, A);
      for (int C = 0; C < 3; ++C)
        Second[A][C] += weight(D) * velocity(D, A) * velocity(D, C);
    }
  }
  bool Ok = std::fabs(Sum - 1) < 1e-15;
  for (int A = 0; A < 3; ++A) {
    Ok &= std::fabs(Mean[A]) < 1e-15;
    for (int C = 0; C < 3; ++C)
      Ok &= std::fabs(Second[A][C] - (A == C ? 1.0 / 3 : 0)) < 1e-15;
  }
  return Ok;
}

static int check() {
  if (!latticeIsD3Q19()) {
    std::printf("lbm_d3q19: FAIL (the velocity set is not D3Q19)\n");
    return 1;
  }
  Box B = makeBox(12, 10, 8);
  int N = B.cells(), Blocks = (N + Block - 1) / Block;
  size_t NF = size_t(Q) * N;
  unsigned Seed = 77u;
  std::vector<double> W(NF), V(NF);
  for (size_t K = 0; K < NF; ++K) {
    W[K] = 2 * nextLcg(Seed) - 1;
    V[K] = 2 * nextLcg(Seed) - 1;
  }
  double *Src = toDevice(B.Src), *Dst = zeroed<double>(NF);
  unsigned char *Kind = toDevice(B.Kind);

  lbmPrimal<<<Blocks, Block>>>(Src, Dst, Kind, B.NX, B.NY, B.NZ);
  CHECK(cudaGetLastError());
  std::vector<double> Got = toHost(Dst, NF), Want = hostStep(B, B.Src);
  Check Primal{"primal", 1e-13};
  for (size_t K = 0; K < NF; ++K)
    near(Primal, "dst", K, Got[K], Want[K]);

  // The combined gradient, then the split ones with both tape types.
  double *SrcBar = zeroed<double>(NF), *DstBar = toDevice(W);
  auto Gradient = [&](auto Run) {
    CHECK(cudaMemset(SrcBar, 0, NF * sizeof(double)));
    CHECK(cudaMemcpy(DstBar, W.data(), NF * sizeof(double),
                     cudaMemcpyHostToDevice));
    Run();
    CHECK(cudaGetLastError());
    return toHost(SrcBar, NF);
  };
  LbmArgs Args{Src, SrcBar, Dst, DstBar, Kind, B.NX, B.NY, B.NZ};
  std::vector<double> Combined = Gradient([&] {
    lbmGrad<<<Blocks, Block>>>(Src, SrcBar, Dst, DstBar, Kind, B.NX, B.NY,
                               B.NZ);
  });
  Tape8 *Tapes = zeroed<Tape8>(size_t(Blocks) * Block);
  TapeBlob *Blobs = zeroed<TapeBlob>(size_t(Blocks) * Block);
  std::vector<double> Split =
      Gradient([&] { splitGradient(Args, Blocks, Tapes); });
  std::vector<double> SplitBlob =
      Gradient([&] { splitGradient(Args, Blocks, Blobs); });
  double Scale = largest(Combined);
  Check Same{"split vs combined", 1e-14, Scale};
  for (size_t K = 0; K < NF; ++K) {
    near(Same, "dJ/dsrc split (Tape8)", K, Split[K], Combined[K]);
    near(Same, "dJ/dsrc split (TapeBlob)", K, SplitBlob[K], Combined[K]);
  }

  Check Fd{"fd", 1e-6, Scale};
  std::vector<double> S = B.Src;
  for (int Sample = 0; Sample < 200; ++Sample) {
    size_t K = size_t(nextLcg(Seed) * NF);
    double H = 1e-6, Keep = S[K];
    S[K] = Keep + H;
    double Plus = dot(W, hostStep(B, S));
    S[K] = Keep - H;
    double Minus = dot(W, hostStep(B, S));
    S[K] = Keep;
    near(Fd, "dJ/dsrc", K, Split[K], (Plus - Minus) / (2 * H));
  }

  double *SrcDot = toDevice(V), *DstDot = zeroed<double>(NF);
  lbmTangent<<<Blocks, Block>>>(Src, SrcDot, Dst, DstDot, Kind, B.NX, B.NY,
                                B.NZ);
  CHECK(cudaGetLastError());
  Check Dot{"dot", 1e-10};
  near(Dot, "<W, J v> vs <J^T W, v>", 0, dot(W, toHost(DstDot, NF)),
       dot(Split, V));

  for (void *P :
       {(void *)Src, (void *)Dst, (void *)Kind, (void *)SrcBar, (void *)DstBar,
        (void *)Tapes, (void *)Blobs, (void *)SrcDot, (void *)DstDot})
    CHECK(cudaFree(P));
  char What[128];
  std::snprintf(What, sizeof What,
                "%d cells; split d/dsrc (tape by pointer and by value) vs "
                "combined, central differences, fwd vs rev",
                N);
  return verdict("lbm_d3q19", What, {&Primal, &Same, &Fd, &Dot});
}

static int timeKernels(int Edge) {
  // Tape8's tapes, every cell's between the two kernels.
  reserveDeviceHeap(size_t(4) << 30);
  Box B = makeBox(Edge, Edge, Edge);
  int N = B.cells(), Blocks = (N + Block - 1) / Block;
  size_t NF = size_t(Q) * N;
  double *Src = toDevice(B.Src), *Dst = zeroed<double>(NF);
  double *SrcBar = zeroed<double>(NF), *DstBar = zeroed<double>(NF);
  unsigned char *Kind = toDevice(B.Kind);
  Tape8 *Tapes = zeroed<Tape8>(size_t(Blocks) * Block);
  TapeBlob *Blobs = zeroed<TapeBlob>(size_t(Blocks) * Block);
  LbmArgs Args{Src, SrcBar, Dst, DstBar, Kind, Edge, Edge, Edge};
  float Primal = medianMs(
      [&] { lbmPrimal<<<Blocks, Block>>>(Src, Dst, Kind, Edge, Edge, Edge); });
  timeRow("lbm_d3q19", "split, Tape8 (heap)", Primal,
          medianMs([&] { splitGradient(Args, Blocks, Tapes); }));
  timeRow("lbm_d3q19", "split, TapeBlob (value)", Primal,
          medianMs([&] { splitGradient(Args, Blocks, Blobs); }));
  timeRow("lbm_d3q19", "combined", Primal, medianMs([&] {
            lbmGrad<<<Blocks, Block>>>(Src, SrcBar, Dst, DstBar, Kind, Edge,
                                       Edge, Edge);
          }));
  for (void *P : {(void *)Src, (void *)Dst, (void *)Kind, (void *)SrcBar,
                  (void *)DstBar, (void *)Tapes, (void *)Blobs})
    CHECK(cudaFree(P));
  return 0;
}

int main(int Argc, char **Argv) {
  if (timeMode(Argc, Argv))
    return timeKernels(Argc > 2 ? std::atoi(Argv[2]) : 128);
  return check();
}
