//===- rs_lookup.cu - Multipole cross sections and their gradient ---------===//
//
// Part of gpuad.
//
// The lookup kernel of a Monte Carlo code that computes cross sections on
// the fly from resonance poles (the windowed multipole method), after
// RSBench (Tramm et al., 2014).  Each nuclide's energy range is cut into
// windows; a window holds a background fit (sigma = E x coefficient, for
// total, absorption and fission) and a run of poles.  A pole is a complex
// position and complex residues for total, absorption and fission, and an
// angular momentum l.  A lookup draws an energy and a material, and for
// each of the material's nuclides sums over the poles of the energy's
// window: residue x w(z) (Doppler broadened: z = (sqrt E - pole) x dopp),
// times, for the total, the phase factor exp(-2i phi_l) of the pole's l.
// Then density x micro cross sections summed over the nuclides: total,
// absorption, fission and elastic (total - absorption) per lookup.
//
// w(z) is the Faddeeva function, approximated as RSBench does: inside
// |z| < 6 the series of Abrarov and Quine (from the Fourier cosine series
// of exp(-t^2/4) on [0, tau], tau = 12, 10 terms; about 1e-5 relative),
// outside it the two-pole-pair form of 4-point Gauss-Hermite quadrature.
// Complex numbers are a struct of two doubles with inline arithmetic, as
// RSBench's GPU ports write them (no C99 complex, no library); with
// -DRS_STD_COMPLEX, std::complex<double>.
//
// Gradients (reverse mode, __enzyme_autodiff of the lookup function) of
// J = W . macro with respect to the densities alone, and to the densities,
// every pole's position and residues and every window's fit.  Checked
// against central differences of the same function on the host (every
// density, a sample of pole and window values; tolerance 1e-6 relative to
// the largest entry) and against forward mode by the dot product (1e-9);
// the device primal against the host (1e-12).
//
//   rs_lookup                       the checks at a small size (CI)
//   rs_lookup --time [lookups]      primal and gradient times at RSBench's
//                                   default size (68 nuclides, 100 windows
//                                   of 10 poles each, 10M lookups) on a GPU
//
// gpu-suite-args: --time
//
//===----------------------------------------------------------------------===//

#include "include/bench.h"
#include "include/mc_lookup.h"

constexpr int NumXs = 4; // total, absorption, fission, elastic
constexpr int NumL = 4;  // angular momenta
constexpr int Block = 256;
constexpr double Dopp = 0.5;

// ---- Complex arithmetic --------------------------------------------------
//
// As RSBench's GPU ports write it: a struct of two doubles and inline
// arithmetic.  Built with -DRS_STD_COMPLEX, std::complex<double> instead:
// * and / become __muldc3/__divdc3, exp and abs the library's cexp and
// cabs (each differentiated by its complex row).

#ifdef RS_STD_COMPLEX
#include <complex>
using Complex = std::complex<double>;
__host__ __device__ inline double re(Complex A) { return A.real(); }
__host__ __device__ inline Complex cexpOf(Complex A) { return std::exp(A); }
__host__ __device__ inline double cabsOf(Complex A) { return std::abs(A); }
#else
struct Complex {
  double Re, Im;
};

__host__ __device__ __forceinline__ double re(Complex A) { return A.Re; }
__host__ __device__ __forceinline__ Complex operator+(Complex A, Complex B) {
  return {A.Re + B.Re, A.Im + B.Im};
}
__host__ __device__ __forceinline__ Complex operator-(Complex A, Complex B) {
  return {A.Re - B.Re, A.Im - B.Im};
}
__host__ __device__ __forceinline__ Complex operator*(Complex A, Complex B) {
  return {A.Re * B.Re - A.Im * B.Im, A.Re * B.Im + A.Im * B.Re};
}
__host__ __device__ __forceinline__ Complex operator*(double S, Complex A) {
  return {S * A.Re, S * A.Im};
}
__host__ __device__ __forceinline__ Complex operator/(Complex A, Complex B) {
  double D = B.Re * B.Re + B.Im * B.Im;
  return {(A.Re * B.Re + A.Im * B.Im) / D, (A.Im * B.Re - A.Re * B.Im) / D};
}
__host__ __device__ __forceinline__ Complex operator/(double S, Complex B) {
  return Complex{S, 0} / B;
}
__host__ __device__ __forceinline__ Complex cexpOf(Complex A) {
  double M = exp(A.Re);
  return {M * cos(A.Im), M * sin(A.Im)};
}
__host__ __device__ __forceinline__ double cabsOf(Complex A) {
  return sqrt(A.Re * A.Re + A.Im * A.Im);
}
#endif

/// The Faddeeva function w(z) = exp(-z^2) erfc(-iz) for Im z > 0.
__host__ __device__ __forceinline__ Complex faddeeva(Complex Z) {
  const Complex I = {0, 1};
  if (cabsOf(Z) < 6) {
    // w(z) ~ i (1 - e^{i tau z}) / (tau z)
    //        + i z sum_n c_n ((-1)^n e^{i tau z} - 1) / (n^2 pi^2 - tau^2 z^2),
    // c_n = 2 tau exp(-(n pi / tau)^2).
    const double Tau = 12;
    const double C[10] = {22.410170833943422, 18.245129223434184,
                          12.951395659591133, 8.015932463667164,
                          4.325729704896439,  2.035319339306731,
                          0.8349752270286814, 0.2986637218561226,
                          0.0931449268789353, 0.02532816871012882};
    Complex E = cexpOf(Tau * (I * Z));
    Complex TauZ2 = (Tau * Tau) * (Z * Z);
    Complex W = I * ((Complex{1, 0} - E) / (Tau * Z));
    Complex Sum = {0, 0};
#pragma unroll
    for (int N = 1; N <= 10; ++N) {
      Complex Num = (N % 2 ? -1.0 : 1.0) * E - Complex{1, 0};
      Complex Den = Complex{N * N * 9.869604401089358, 0} - TauZ2; // n^2 pi^2
      Sum = Sum + C[N - 1] * (Num / Den);
    }
    return W + I * (Z * Sum);
  }
  // (i/pi) sum_k w_k / (z - t_k) over 4 Gauss-Hermite nodes, in pairs:
  // i z (a / (z^2 - b) + c / (z^2 - d)), b, d = (3 -+ sqrt 6) / 2,
  // a, c = 1 / (2 sqrt(pi) (3 -+ sqrt 6)).
  const double A = 0.5124242247547683, B = 0.27525512860841106,
               Cc = 0.051765358792987826, D = 2.724744871391589;
  Complex Z2 = Z * Z;
  return I * (Z * (A / (Z2 - Complex{B, 0}) + Cc / (Z2 - Complex{D, 0})));
}

// ---- The data ------------------------------------------------------------

struct Pole {
  Complex Position;                   // in sqrt(energy)
  Complex Total, Absorption, Fission; // residues
  int L;                              // angular momentum, 0..NumL-1
};

struct Window {
  double Total, Absorption, Fission; // background: sigma = E x coefficient
  int Start, End;                    // the window's poles: [Start, End)
};

// ---- The lookup ----------------------------------------------------------

/// The phase factors exp(-2i phi_l) of the total cross section, with the
/// hard-sphere phase shifts phi_0 = rho, phi_1 = rho - atan(rho), ...
/// (rho = radius x sqrt E).
__host__ __device__ __forceinline__ void
phaseFactors(const double *Radius, double SqrtE, Complex (&Factor)[NumL]) {
#pragma unroll
  for (int L = 0; L < NumL; ++L) {
    double Rho = Radius[L] * SqrtE, Phi = Rho;
    if (L == 1)
      Phi -= atan(Rho);
    else if (L == 2)
      Phi -= atan(3 * Rho / (3 - Rho * Rho));
    else if (L == 3)
      Phi -= atan(Rho * (15 - Rho * Rho) / (15 - 6 * Rho * Rho));
    Factor[L] = {cos(2 * Phi), -sin(2 * Phi)};
  }
}

/// Lookup \p I: its four macroscopic cross sections into Out[4I, 4I+4).
__host__ __device__ __forceinline__ void
macroXs(int I, const Pole *__restrict__ Poles,
        const Window *__restrict__ Windows, const double *__restrict__ Concs,
        double *__restrict__ Out, const double *__restrict__ Radii,
        const int *__restrict__ PoleBase, const int *__restrict__ NumNucs,
        const int *__restrict__ Mats, int NumWindows, int MaxNucs) {
  uint64_t Seed = lcgSkip(StartSeed, 2 * uint64_t(I));
  double E = lcgDraw(Seed);
  int Mat = pickMaterial(lcgDraw(Seed));
  double SqrtE = sqrt(E);
  int Win = int(E * NumWindows);
  if (Win == NumWindows)
    --Win;
  double Macro[NumXs] = {0, 0, 0, 0};
  for (int J = 0; J < NumNucs[Mat]; ++J) {
    int Nuc = Mats[Mat * MaxNucs + J];
    Complex Factor[NumL];
    phaseFactors(&Radii[Nuc * NumL], SqrtE, Factor);
    const Window &W = Windows[Nuc * NumWindows + Win];
    double Total = E * W.Total, Absorption = E * W.Absorption,
           Fission = E * W.Fission;
    for (int K = W.Start; K < W.End; ++K) {
      const Pole &P = Poles[PoleBase[Nuc] + K];
      Complex Psi = faddeeva(Dopp * (Complex{SqrtE, 0} - P.Position));
      Total += re(P.Total * Psi * Factor[P.L]);
      Absorption += re(P.Absorption * Psi);
      Fission += re(P.Fission * Psi);
    }
    double Conc = Concs[Mat * MaxNucs + J];
    Macro[0] += Conc * Total;
    Macro[1] += Conc * Absorption;
    Macro[2] += Conc * Fission;
    Macro[3] += Conc * (Total - Absorption);
  }
  for (int K = 0; K < NumXs; ++K)
    Out[NumXs * I + K] = Macro[K];
}

/// The function differentiated: one lookup per thread.
__device__ void
lookups(const Pole *__restrict__ Poles, const Window *__restrict__ Windows,
        const double *__restrict__ Concs, double *__restrict__ Out,
        const double *__restrict__ Radii, const int *__restrict__ PoleBase,
        const int *__restrict__ NumNucs, const int *__restrict__ Mats,
        int NumWindows, int MaxNucs, int Lookups) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Lookups)
    macroXs(I, Poles, Windows, Concs, Out, Radii, PoleBase, NumNucs, Mats,
            NumWindows, MaxNucs);
}

#define RS_TABLES                                                              \
  const double *Radii, const int *PoleBase, const int *NumNucs,                \
      const int *Mats, int NumWindows, int MaxNucs, int Lookups
#define RS_CONST_TABLES                                                        \
  enzyme_const, Radii, enzyme_const, PoleBase, enzyme_const, NumNucs,          \
      enzyme_const, Mats, NumWindows, MaxNucs, Lookups

__global__ void __launch_bounds__(Block)
    rsPrimal(const Pole *Poles, const Window *Windows, const double *Concs,
             double *Out, RS_TABLES) {
  lookups(Poles, Windows, Concs, Out, Radii, PoleBase, NumNucs, Mats,
          NumWindows, MaxNucs, Lookups);
}

/// d/dConcs only: poles and windows constant.
__global__ void __launch_bounds__(Block)
    rsGradConcs(const Pole *Poles, const Window *Windows, const double *Concs,
                double *ConcsBar, double *Out, double *OutBar, RS_TABLES) {
  __enzyme_autodiff((void *)lookups, enzyme_const, Poles, enzyme_const, Windows,
                    enzyme_dup, Concs, ConcsBar, enzyme_dup, Out, OutBar,
                    RS_CONST_TABLES);
}

/// d/dConcs, d/dPoles (positions and residues) and d/dWindows (fits).
__global__ void __launch_bounds__(Block)
    rsGradAll(const Pole *Poles, Pole *PolesBar, const Window *Windows,
              Window *WindowsBar, const double *Concs, double *ConcsBar,
              double *Out, double *OutBar, RS_TABLES) {
  __enzyme_autodiff((void *)lookups, enzyme_dup, Poles, PolesBar, enzyme_dup,
                    Windows, WindowsBar, enzyme_dup, Concs, ConcsBar,
                    enzyme_dup, Out, OutBar, RS_CONST_TABLES);
}

__global__ void __launch_bounds__(Block)
    rsTangent(const Pole *Poles, const Pole *PolesDot, const Window *Windows,
              const Window *WindowsDot, const double *Concs,
              const double *ConcsDot, double *Out, double *OutDot, RS_TABLES) {
  __enzyme_fwddiff((void *)lookups, enzyme_dup, Poles, PolesDot, enzyme_dup,
                   Windows, WindowsDot, enzyme_dup, Concs, ConcsDot, enzyme_dup,
                   Out, OutDot, RS_CONST_TABLES);
}

// ---- Host: the problem, the checks, the timings --------------------------

struct Problem {
  int NumNucsTotal, NumWindows, MaxNucs, Lookups;
  std::vector<Pole> Poles;
  std::vector<Window> Windows;
  std::vector<double> Concs, Radii;
  std::vector<int> PoleBase, NumNucs, Mats;
};

/// \p Nuclides nuclides of \p NumWindows windows each with 1 to
/// 2 x PolesPerWindow - 1 poles (positions in the window's sqrt-energy
/// range, below the real axis so that z is above it), and the materials
/// (mc_lookup.h).
static Problem makeProblem(int Nuclides, int NumWindows, int PolesPerWindow,
                           int Lookups) {
  Problem P{Nuclides, NumWindows, 0, Lookups};
  unsigned Seed = 2024u;
  auto Uniform = [&](double Lo, double Hi) {
    return Lo + (Hi - Lo) * nextLcg(Seed);
  };
  for (int N = 0; N < Nuclides; ++N) {
    P.PoleBase.push_back(int(P.Poles.size()));
    int Local = 0;
    for (int L = 0; L < NumL; ++L)
      P.Radii.push_back(Uniform(0.5, 3));
    for (int W = 0; W < NumWindows; ++W) {
      int Count = 1 + int(nextLcg(Seed) * (2 * PolesPerWindow - 1));
      P.Windows.push_back({Uniform(0, 1), Uniform(0, 0.5), Uniform(0, 0.3),
                           Local, Local + Count});
      for (int K = 0; K < Count; ++K, ++Local) {
        // sqrt E of the window's energies, plus a margin.
        double Lo = std::sqrt(double(W) / NumWindows) - 0.05;
        double Hi = std::sqrt(double(W + 1) / NumWindows) + 0.05;
        Pole Q;
        Q.Position = {Uniform(Lo, Hi), -Uniform(0.02, 2)};
        Q.Total = {Uniform(-1, 1), Uniform(-1, 1)};
        Q.Absorption = {Uniform(-0.5, 0.5), Uniform(-0.5, 0.5)};
        Q.Fission = {Uniform(-0.3, 0.3), Uniform(-0.3, 0.3)};
        Q.L = int(nextLcg(Seed) * NumL);
        P.Poles.push_back(Q);
      }
    }
  }
  Materials Mat(Nuclides, [&] { return nextLcg(Seed); });
  P.MaxNucs = Mat.MaxNucs;
  P.NumNucs = Mat.NumNucs;
  P.Mats = Mat.Mats;
  P.Concs = Mat.Concs;
  return P;
}

struct DeviceProblem {
  Pole *Poles;
  Window *Windows;
  double *Concs, *Radii;
  int *PoleBase, *NumNucs, *Mats;
  explicit DeviceProblem(const Problem &P)
      : Poles(toDevice(P.Poles)), Windows(toDevice(P.Windows)),
        Concs(toDevice(P.Concs)), Radii(toDevice(P.Radii)),
        PoleBase(toDevice(P.PoleBase)), NumNucs(toDevice(P.NumNucs)),
        Mats(toDevice(P.Mats)) {}
  ~DeviceProblem() {
    for (void *D :
         {(void *)Poles, (void *)Windows, (void *)Concs, (void *)Radii,
          (void *)PoleBase, (void *)NumNucs, (void *)Mats})
      CHECK(cudaFree(D));
  }
};

#define RS_ARGS(D, P)                                                          \
  D.Radii, D.PoleBase, D.NumNucs, D.Mats, P.NumWindows, P.MaxNucs, P.Lookups

static std::vector<double> hostLookups(const Problem &P,
                                       const std::vector<Pole> &Poles,
                                       const std::vector<Window> &Windows,
                                       const std::vector<double> &Concs) {
  std::vector<double> Out(size_t(NumXs) * P.Lookups);
  for (int I = 0; I < P.Lookups; ++I)
    macroXs(I, Poles.data(), Windows.data(), Concs.data(), Out.data(),
            P.Radii.data(), P.PoleBase.data(), P.NumNucs.data(), P.Mats.data(),
            P.NumWindows, P.MaxNucs);
  return Out;
}

// The doubles of a Pole (positions and residues; L is not differentiated)
// and of a Window (the fits; Start and End are not).
constexpr int PoleDoubles = 8, WindowDoubles = 3;

/// The gradient's doubles of \p V (struct of doubles then ints), flattened.
template <class T>
static std::vector<double> doublesOf(const std::vector<T> &V, int Count) {
  std::vector<double> Flat;
  for (const T &X : V)
    Flat.insert(Flat.end(), (const double *)&X, (const double *)&X + Count);
  return Flat;
}

static int check() {
  // The growing tapes of 384 threads (std::complex's calls keep more).
  reserveDeviceHeap(size_t(64) << 20);
  Problem P = makeProblem(24, 8, 6, 384);
  DeviceProblem D(P);
  size_t NOut = size_t(NumXs) * P.Lookups;
  unsigned Seed = 555u;
  std::vector<double> W = randomVector(NOut, Seed);
  int Blocks = (P.Lookups + Block - 1) / Block;

  double *Out = zeroed<double>(NOut);
  rsPrimal<<<Blocks, Block>>>(D.Poles, D.Windows, D.Concs, Out, RS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> Got = toHost(Out, NOut);
  std::vector<double> Want = hostLookups(P, P.Poles, P.Windows, P.Concs);
  Check Primal{"primal", 1e-12};
  for (size_t I = 0; I < NOut; ++I)
    near(Primal, "macro", I, Got[I], Want[I]);

  double *ConcsBar = zeroed<double>(P.Concs.size()), *OutBar = toDevice(W);
  rsGradConcs<<<Blocks, Block>>>(D.Poles, D.Windows, D.Concs, ConcsBar, Out,
                                 OutBar, RS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> GConcsOnly = toHost(ConcsBar, P.Concs.size());
  CHECK(cudaMemset(ConcsBar, 0, P.Concs.size() * sizeof(double)));
  CHECK(cudaMemcpy(OutBar, W.data(), NOut * sizeof(double),
                   cudaMemcpyHostToDevice));
  Pole *PolesBar = zeroed<Pole>(P.Poles.size());
  Window *WindowsBar = zeroed<Window>(P.Windows.size());
  rsGradAll<<<Blocks, Block>>>(D.Poles, PolesBar, D.Windows, WindowsBar,
                               D.Concs, ConcsBar, Out, OutBar, RS_ARGS(D, P));
  CHECK(cudaGetLastError());
  std::vector<double> GConcs = toHost(ConcsBar, P.Concs.size());
  std::vector<double> GPoles =
      doublesOf(toHost(PolesBar, P.Poles.size()), PoleDoubles);
  std::vector<double> GWindows =
      doublesOf(toHost(WindowsBar, P.Windows.size()), WindowDoubles);

  // Central differences of J = W . macro.
  auto J = [&](const std::vector<Pole> &Ps, const std::vector<Window> &Ws,
               const std::vector<double> &Cs) {
    return dot(W, hostLookups(P, Ps, Ws, Cs));
  };
  const double H = 1e-6;
  Check Fd{"fd conc", 1e-6, largest(GConcs)};
  for (size_t K = 0; K < P.Concs.size(); ++K) {
    std::vector<double> Plus = P.Concs, Minus = P.Concs;
    Plus[K] += H;
    Minus[K] -= H;
    double Want =
        (J(P.Poles, P.Windows, Plus) - J(P.Poles, P.Windows, Minus)) / (2 * H);
    near(Fd, "dJ/dconc", K, GConcs[K], Want);
    near(Fd, "dJ/dconc (poles const)", K, GConcsOnly[K], Want);
  }
  Check FdPoles{"fd poles", 1e-6, largest(GPoles)};
  for (int S = 0; S < 24; ++S) {
    size_t Q = size_t(nextLcg(Seed) * P.Poles.size());
    for (int F = 0; F < PoleDoubles; ++F) {
      std::vector<Pole> Plus = P.Poles, Minus = P.Poles;
      ((double *)&Plus[Q])[F] += H;
      ((double *)&Minus[Q])[F] -= H;
      double Want =
          (J(Plus, P.Windows, P.Concs) - J(Minus, P.Windows, P.Concs)) /
          (2 * H);
      near(FdPoles, "dJ/dpole", long(Q * PoleDoubles + F),
           GPoles[Q * PoleDoubles + F], Want);
    }
  }
  Check FdWindows{"fd windows", 1e-6, largest(GWindows)};
  for (int S = 0; S < 24; ++S) {
    size_t Q = size_t(nextLcg(Seed) * P.Windows.size());
    for (int F = 0; F < WindowDoubles; ++F) {
      std::vector<Window> Plus = P.Windows, Minus = P.Windows;
      ((double *)&Plus[Q])[F] += H;
      ((double *)&Minus[Q])[F] -= H;
      double Want =
          (J(P.Poles, Plus, P.Concs) - J(P.Poles, Minus, P.Concs)) / (2 * H);
      near(FdWindows, "dJ/dwindow", long(Q * WindowDoubles + F),
           GWindows[Q * WindowDoubles + F], Want);
    }
  }

  // Forward mode: <W, J v> = <J^T W, v>.  The directions' ints (L, Start,
  // End) are the primal's: integers carry no tangent.
  std::vector<Pole> PolesV = P.Poles;
  std::vector<Window> WindowsV = P.Windows;
  for (Pole &Q : PolesV)
    for (int F = 0; F < PoleDoubles; ++F)
      ((double *)&Q)[F] = 2 * nextLcg(Seed) - 1;
  for (Window &Q : WindowsV)
    for (int F = 0; F < WindowDoubles; ++F)
      ((double *)&Q)[F] = 2 * nextLcg(Seed) - 1;
  std::vector<double> ConcsV = randomVector(P.Concs.size(), Seed);
  Pole *PolesDot = toDevice(PolesV);
  Window *WindowsDot = toDevice(WindowsV);
  double *ConcsDot = toDevice(ConcsV), *OutDot = zeroed<double>(NOut);
  rsTangent<<<Blocks, Block>>>(D.Poles, PolesDot, D.Windows, WindowsDot,
                               D.Concs, ConcsDot, Out, OutDot, RS_ARGS(D, P));
  CHECK(cudaGetLastError());
  Check Dot{"dot", 1e-9};
  near(Dot, "<W, J v> vs <J^T W, v>", 0, dot(W, toHost(OutDot, NOut)),
       dot(GConcs, ConcsV) + dot(GPoles, doublesOf(PolesV, PoleDoubles)) +
           dot(GWindows, doublesOf(WindowsV, WindowDoubles)));

  for (void *Ptr : {(void *)Out, (void *)ConcsBar, (void *)OutBar,
                    (void *)PolesBar, (void *)WindowsBar, (void *)PolesDot,
                    (void *)WindowsDot, (void *)ConcsDot, (void *)OutDot})
    CHECK(cudaFree(Ptr));
  char What[160];
  std::snprintf(What, sizeof What,
                "%d lookups, %d nuclides, %zu poles; d/dconc, d/dpoles, "
                "d/dwindows vs central differences, fwd vs rev",
                P.Lookups, P.NumNucsTotal, P.Poles.size());
  return verdict("rs_lookup", What, {&Primal, &Fd, &FdPoles, &FdWindows, &Dot});
}

static int timeKernels(int Lookups) {
  // The growing tapes (a nuclide's poles, the material's nuclides) of every
  // resident thread.
  reserveDeviceHeap(size_t(4) << 30);
  Problem P = makeProblem(68, 100, 10, Lookups);
  DeviceProblem D(P);
  size_t NOut = size_t(NumXs) * P.Lookups;
  double *Out = zeroed<double>(NOut), *OutBar = zeroed<double>(NOut);
  double *ConcsBar = zeroed<double>(P.Concs.size());
  Pole *PolesBar = zeroed<Pole>(P.Poles.size());
  Window *WindowsBar = zeroed<Window>(P.Windows.size());
  int Blocks = (P.Lookups + Block - 1) / Block;
  float Primal = medianMs([&] {
    rsPrimal<<<Blocks, Block>>>(D.Poles, D.Windows, D.Concs, Out,
                                RS_ARGS(D, P));
  });
  timeRow("rs_lookup", "d/dconc", Primal, medianMs([&] {
            rsGradConcs<<<Blocks, Block>>>(D.Poles, D.Windows, D.Concs,
                                           ConcsBar, Out, OutBar,
                                           RS_ARGS(D, P));
          }));
  timeRow("rs_lookup", "d/d(conc,poles,windows)", Primal, medianMs([&] {
            rsGradAll<<<Blocks, Block>>>(D.Poles, PolesBar, D.Windows,
                                         WindowsBar, D.Concs, ConcsBar, Out,
                                         OutBar, RS_ARGS(D, P));
          }));
  for (void *Ptr : {(void *)Out, (void *)OutBar, (void *)ConcsBar,
                    (void *)PolesBar, (void *)WindowsBar})
    CHECK(cudaFree(Ptr));
  return 0;
}

int main(int Argc, char **Argv) {
  if (timeMode(Argc, Argv))
    return timeKernels(Argc > 2 ? std::atoi(Argv[2]) : 10000000);
  return check();
}
