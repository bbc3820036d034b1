//===- xs_lookup.cu - Macroscopic cross sections and their gradient -------===//
//
// Part of gpuad.
//
// The lookup kernel of a Monte Carlo neutron transport code, after XSBench's
// event-based kernel with its unionized energy grid (Tramm et al., 2014).
// Each nuclide has a table of energies with five microscopic cross sections
// (total, elastic, absorption, fission, nu-fission) per point.  The
// unionized grid is every nuclide's energies merged and sorted; for each of
// its points an index grid gives, per nuclide, the nuclide's grid point at
// or below that energy.  A lookup draws a particle energy and a material
// from a 63-bit LCG skipped ahead to its own stream (include/mc_lookup.h),
// finds the energy in the unionized grid by binary search,
// and sums over the material's nuclides density x the nuclide's cross
// sections interpolated linearly between the two grid points around the
// energy: five macroscopic cross sections per lookup.
//
// Gradients (reverse mode, __enzyme_autodiff of the lookup function) of
// J = sum W . macro with respect to the nuclide densities alone (grid
// constant) and to the densities and the whole nuclide grid (energies and
// cross sections).  Checked against central differences of the same function
// run on the host (every density, a sample of grid points; tolerance 1e-6
// relative to the largest entry) and against forward mode (__enzyme_fwddiff)
// by the dot product (1e-10).  The device primal is checked against the host
// (1e-12).
//
//   xs_lookup             the checks, at a small size (the emulator in CI)
//   xs_lookup --time [lookups [gridpoints]]
//                         primal and gradient times at XSBench's "small"
//                         problem (68 nuclides, 11303 points each, 17M
//                         lookups) on a GPU (tools/gpu-suite.sh)
//
// gpu-suite-args: --time
//
//===----------------------------------------------------------------------===//

#include "include/bench.h"
#include "include/mc_lookup.h"

constexpr int NumXs = 5;
constexpr int Block = 256;

struct GridPoint {
  double Energy;
  double Xs[NumXs];
};

// ---- The lookup ---------------------------------------------------------

/// The last point of \p Energy[0, N) at or below \p E (0 below the first).
__host__ __device__ inline int gridSearch(const double *Energy, int N,
                                          double E) {
  int Lo = 0, Hi = N - 1;
  while (Hi - Lo > 1) {
    int Mid = Lo + (Hi - Lo) / 2;
    if (Energy[Mid] > E)
      Hi = Mid;
    else
      Lo = Mid;
  }
  return Lo;
}

/// Lookup \p I: its five macroscopic cross sections into Out[5I, 5I+5).
__host__ __device__ inline void
macroXs(int I, const GridPoint *__restrict__ Grid,
        const double *__restrict__ Concs, double *__restrict__ Out,
        const double *__restrict__ UnionEnergy,
        const int *__restrict__ UnionIndex, const int *__restrict__ NumNucs,
        const int *__restrict__ Mats, int NumIsotopes, int NumGridpoints,
        int NumUnion, int MaxNucs) {
  uint64_t Seed = lcgSkip(StartSeed, 2 * uint64_t(I));
  double E = lcgDraw(Seed);
  int Mat = pickMaterial(lcgDraw(Seed));
  int U = gridSearch(UnionEnergy, NumUnion, E);
  double Macro[NumXs] = {0, 0, 0, 0, 0};
  for (int J = 0; J < NumNucs[Mat]; ++J) {
    int Nuc = Mats[Mat * MaxNucs + J];
    double Conc = Concs[Mat * MaxNucs + J];
    int Idx = UnionIndex[size_t(U) * NumIsotopes + Nuc];
    if (Idx == NumGridpoints - 1)
      --Idx;
    const GridPoint &Lo = Grid[size_t(Nuc) * NumGridpoints + Idx];
    const GridPoint &Hi = Grid[size_t(Nuc) * NumGridpoints + Idx + 1];
    double F = (Hi.Energy - E) / (Hi.Energy - Lo.Energy);
    for (int K = 0; K < NumXs; ++K)
      Macro[K] += Conc * (Hi.Xs[K] - F * (Hi.Xs[K] - Lo.Xs[K]));
  }
  for (int K = 0; K < NumXs; ++K)
    Out[NumXs * I + K] = Macro[K];
}

/// The function differentiated: one lookup per thread.
__device__ void
lookups(const GridPoint *__restrict__ Grid, const double *__restrict__ Concs,
        double *__restrict__ Out, const double *__restrict__ UnionEnergy,
        const int *__restrict__ UnionIndex, const int *__restrict__ NumNucs,
        const int *__restrict__ Mats, int NumIsotopes, int NumGridpoints,
        int NumUnion, int MaxNucs, int Lookups) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Lookups)
    macroXs(I, Grid, Concs, Out, UnionEnergy, UnionIndex, NumNucs, Mats,
            NumIsotopes, NumGridpoints, NumUnion, MaxNucs);
}

// The index arrays and sizes every kernel takes after the active arrays.
#define XS_TABLES                                                              \
  const double *UnionEnergy, const int *UnionIndex, const int *NumNucs,        \
      const int *Mats, int NumIsotopes, int NumGridpoints, int NumUnion,       \
      int MaxNucs, int Lookups
#define XS_CONST_TABLES                                                        \
  enzyme_const, UnionEnergy, enzyme_const, UnionIndex, enzyme_const, NumNucs,  \
      enzyme_const, Mats, NumIsotopes, NumGridpoints, NumUnion, MaxNucs,       \
      Lookups

__global__ void __launch_bounds__(Block)
    xsPrimal(const GridPoint *Grid, const double *Concs, double *Out,
             XS_TABLES) {
  lookups(Grid, Concs, Out, UnionEnergy, UnionIndex, NumNucs, Mats, NumIsotopes,
          NumGridpoints, NumUnion, MaxNucs, Lookups);
}

/// d/dConcs only: the grid is constant.
__global__ void __launch_bounds__(Block)
    xsGradConcs(const GridPoint *Grid, const double *Concs, double *ConcsBar,
                double *Out, double *OutBar, XS_TABLES) {
  __enzyme_autodiff((void *)lookups, enzyme_const, Grid, enzyme_dup, Concs,
                    ConcsBar, enzyme_dup, Out, OutBar, XS_CONST_TABLES);
}

/// d/dConcs and d/dGrid.
__global__ void __launch_bounds__(Block)
    xsGradAll(const GridPoint *Grid, GridPoint *GridBar, const double *Concs,
              double *ConcsBar, double *Out, double *OutBar, XS_TABLES) {
  __enzyme_autodiff((void *)lookups, enzyme_dup, Grid, GridBar, enzyme_dup,
                    Concs, ConcsBar, enzyme_dup, Out, OutBar, XS_CONST_TABLES);
}

/// The tangent of the macroscopic cross sections (the dot-product test).
__global__ void __launch_bounds__(Block)
    xsTangent(const GridPoint *Grid, const GridPoint *GridDot,
              const double *Concs, const double *ConcsDot, double *Out,
              double *OutDot, XS_TABLES) {
  __enzyme_fwddiff((void *)lookups, enzyme_dup, Grid, GridDot, enzyme_dup,
                   Concs, ConcsDot, enzyme_dup, Out, OutDot, XS_CONST_TABLES);
}

// ---- Host: the problem, the checks, the timings --------------------------

struct Problem {
  int NumIsotopes, NumGridpoints, NumUnion, MaxNucs, Lookups;
  std::vector<GridPoint> Grid;
  std::vector<double> Concs, UnionEnergy;
  std::vector<int> UnionIndex, NumNucs, Mats;
};

/// Random sorted nuclide grids, the materials (mc_lookup.h), and the
/// unionized grid with its index grid.
static Problem makeProblem(int NumIsotopes, int NumGridpoints, int Lookups) {
  Problem P{NumIsotopes, NumGridpoints, NumIsotopes * NumGridpoints, 0,
            Lookups};
  unsigned Seed = 12345u;
  P.Grid.resize(size_t(NumIsotopes) * NumGridpoints);
  for (int N = 0; N < NumIsotopes; ++N) {
    GridPoint *G = &P.Grid[size_t(N) * NumGridpoints];
    for (int K = 0; K < NumGridpoints; ++K) {
      G[K].Energy = nextLcg(Seed);
      for (double &X : G[K].Xs)
        X = nextLcg(Seed);
    }
    std::sort(G, G + NumGridpoints, [](const GridPoint &A, const GridPoint &B) {
      return A.Energy < B.Energy;
    });
  }
  Materials Mat(NumIsotopes, [&] { return nextLcg(Seed); });
  P.MaxNucs = Mat.MaxNucs;
  P.NumNucs = Mat.NumNucs;
  P.Mats = Mat.Mats;
  P.Concs = Mat.Concs;
  for (const GridPoint &G : P.Grid)
    P.UnionEnergy.push_back(G.Energy);
  std::sort(P.UnionEnergy.begin(), P.UnionEnergy.end());
  P.UnionIndex.resize(size_t(P.NumUnion) * NumIsotopes);
  for (int N = 0; N < NumIsotopes; ++N) {
    const GridPoint *G = &P.Grid[size_t(N) * NumGridpoints];
    int K = 0;
    for (int U = 0; U < P.NumUnion; ++U) {
      while (K + 1 < NumGridpoints && G[K + 1].Energy <= P.UnionEnergy[U])
        ++K;
      P.UnionIndex[size_t(U) * NumIsotopes + N] = K;
    }
  }
  return P;
}

/// The problem's arrays on the device.
struct DeviceProblem {
  GridPoint *Grid;
  double *Concs, *UnionEnergy;
  int *UnionIndex, *NumNucs, *Mats;
  explicit DeviceProblem(const Problem &P)
      : Grid(toDevice(P.Grid)), Concs(toDevice(P.Concs)),
        UnionEnergy(toDevice(P.UnionEnergy)),
        UnionIndex(toDevice(P.UnionIndex)), NumNucs(toDevice(P.NumNucs)),
        Mats(toDevice(P.Mats)) {}
  ~DeviceProblem() {
    for (void *D : {(void *)Grid, (void *)Concs, (void *)UnionEnergy,
                    (void *)UnionIndex, (void *)NumNucs, (void *)Mats})
      CHECK(cudaFree(D));
  }
};

#define XS_ARGS(D, P)                                                          \
  D.UnionEnergy, D.UnionIndex, D.NumNucs, D.Mats, P.NumIsotopes,               \
      P.NumGridpoints, P.NumUnion, P.MaxNucs, P.Lookups

/// Every lookup's cross sections on the host.
static std::vector<double> hostLookups(const Problem &P,
                                       const std::vector<GridPoint> &Grid,
                                       const std::vector<double> &Concs) {
  std::vector<double> Out(size_t(NumXs) * P.Lookups);
  for (int I = 0; I < P.Lookups; ++I)
    macroXs(I, Grid.data(), Concs.data(), Out.data(), P.UnionEnergy.data(),
            P.UnionIndex.data(), P.NumNucs.data(), P.Mats.data(), P.NumIsotopes,
            P.NumGridpoints, P.NumUnion, P.MaxNucs);
  return Out;
}

static int check() {
  Problem P = makeProblem(34, 32, 1000);
  DeviceProblem D(P);
  size_t NOut = size_t(NumXs) * P.Lookups, NGrid = P.Grid.size();
  unsigned Seed = 777u;
  std::vector<double> W = randomVector(NOut, Seed);
  int Blocks = (P.Lookups + Block - 1) / Block;

  // The primal against the host.
  double *Out = zeroed<double>(NOut);
  xsPrimal<<<Blocks, Block>>>(D.Grid, D.Concs, Out, XS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> Got = toHost(Out, NOut);
  std::vector<double> Want = hostLookups(P, P.Grid, P.Concs);
  Check Primal{"primal", 1e-12};
  for (size_t I = 0; I < NOut; ++I)
    near(Primal, "macro", I, Got[I], Want[I]);

  // Both gradients.
  double *ConcsBar = zeroed<double>(P.Concs.size());
  double *OutBar = toDevice(W);
  xsGradConcs<<<Blocks, Block>>>(D.Grid, D.Concs, ConcsBar, Out, OutBar,
                                 XS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> GConcsOnly = toHost(ConcsBar, P.Concs.size());
  CHECK(cudaMemset(ConcsBar, 0, P.Concs.size() * sizeof(double)));
  CHECK(cudaMemcpy(OutBar, W.data(), NOut * sizeof(double),
                   cudaMemcpyHostToDevice));
  GridPoint *GridBar = zeroed<GridPoint>(NGrid);
  xsGradAll<<<Blocks, Block>>>(D.Grid, GridBar, D.Concs, ConcsBar, Out, OutBar,
                               XS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> GConcs = toHost(ConcsBar, P.Concs.size());
  std::vector<GridPoint> GGridPoints = toHost(GridBar, NGrid);
  std::vector<double> GGrid((double *)GGridPoints.data(),
                            (double *)(GGridPoints.data() + NGrid));

  // Central differences of J = W . macro on the host.
  auto J = [&](const std::vector<GridPoint> &G, const std::vector<double> &C) {
    return dot(W, hostLookups(P, G, C));
  };
  Check Fd{"fd", 1e-6, largest(GConcs)};
  const double H = 1e-6;
  for (size_t K = 0; K < P.Concs.size(); ++K) {
    std::vector<double> Plus = P.Concs, Minus = P.Concs;
    Plus[K] += H;
    Minus[K] -= H;
    double Want = (J(P.Grid, Plus) - J(P.Grid, Minus)) / (2 * H);
    near(Fd, "dJ/dconc", K, GConcs[K], Want);
    near(Fd, "dJ/dconc (grid const)", K, GConcsOnly[K], Want);
  }
  Check FdGrid{"fd grid", 1e-6, largest(GGrid)};
  for (int S = 0; S < 40; ++S) {
    size_t Point = size_t(nextLcg(Seed) * NGrid);
    for (int F = 0; F < 1 + NumXs; ++F) {
      std::vector<GridPoint> Plus = P.Grid, Minus = P.Grid;
      ((double *)&Plus[Point])[F] += H;
      ((double *)&Minus[Point])[F] -= H;
      double Want = (J(Plus, P.Concs) - J(Minus, P.Concs)) / (2 * H);
      near(FdGrid, "dJ/dgrid", long(Point * (1 + NumXs) + F),
           GGrid[Point * (1 + NumXs) + F], Want);
    }
  }

  // Forward mode: <W, J v> = <J^T W, v>.
  std::vector<double> ConcsV = randomVector(P.Concs.size(), Seed);
  std::vector<double> GridV = randomVector(GGrid.size(), Seed);
  double *ConcsDot = toDevice(ConcsV), *GridDot = toDevice(GridV);
  double *OutDot = zeroed<double>(NOut);
  xsTangent<<<Blocks, Block>>>(D.Grid, (const GridPoint *)GridDot, D.Concs,
                               ConcsDot, Out, OutDot, XS_ARGS(D, P));
  CHECK(cudaGetLastError());
  Check Dot{"dot", 1e-10};
  near(Dot, "<W, J v> vs <J^T W, v>", 0, dot(W, toHost(OutDot, NOut)),
       dot(GConcs, ConcsV) + dot(GGrid, GridV));

  for (void *Ptr :
       {(void *)Out, (void *)ConcsBar, (void *)OutBar, (void *)GridBar,
        (void *)ConcsDot, (void *)GridDot, (void *)OutDot})
    CHECK(cudaFree(Ptr));
  char What[160];
  std::snprintf(What, sizeof What,
                "%d lookups, %d nuclides x %d points; d/dconc and d/dgrid vs "
                "central differences, fwd vs rev",
                P.Lookups, P.NumIsotopes, P.NumGridpoints);
  return verdict("xs_lookup", What, {&Primal, &Fd, &FdGrid, &Dot});
}

static int timeKernels(int Lookups, int Gridpoints) {
  Problem P = makeProblem(68, Gridpoints, Lookups);
  DeviceProblem D(P);
  size_t NOut = size_t(NumXs) * P.Lookups;
  double *Out = zeroed<double>(NOut), *OutBar = zeroed<double>(NOut);
  double *ConcsBar = zeroed<double>(P.Concs.size());
  GridPoint *GridBar = zeroed<GridPoint>(P.Grid.size());
  int Blocks = (P.Lookups + Block - 1) / Block;
  float Primal = medianMs([&] {
    xsPrimal<<<Blocks, Block>>>(D.Grid, D.Concs, Out, XS_ARGS(D, P));
  });
  timeRow("xs_lookup", "d/dconc", Primal, medianMs([&] {
            xsGradConcs<<<Blocks, Block>>>(D.Grid, D.Concs, ConcsBar, Out,
                                           OutBar, XS_ARGS(D, P));
          }));
  timeRow("xs_lookup", "d/dconc+d/dgrid", Primal, medianMs([&] {
            xsGradAll<<<Blocks, Block>>>(D.Grid, GridBar, D.Concs, ConcsBar,
                                         Out, OutBar, XS_ARGS(D, P));
          }));
  for (void *Ptr :
       {(void *)Out, (void *)OutBar, (void *)ConcsBar, (void *)GridBar})
    CHECK(cudaFree(Ptr));
  return 0;
}

int main(int Argc, char **Argv) {
  if (timeMode(Argc, Argv))
    return timeKernels(Argc > 2 ? std::atoi(Argv[2]) : 17000000,
                       Argc > 3 ? std::atoi(Argv[3]) : 11303);
  return check();
}
