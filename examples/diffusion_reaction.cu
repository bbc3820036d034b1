// Fitting a 2-D diffusion-reaction model's coefficient field by gradient
// descent, with the gradient of the whole GPU program.
//
// The model (Fisher-KPP) on an n x n periodic grid:
//
//   du/dt = div(k grad u) + r u (1 - u)
//
// explicit Euler, `steps` steps of two kernels -- a diffusion stencil into a
// second buffer (the two are swapped on the host) and a reaction in place --
// then a misfit kernel that sums (u - target)^2 per block in shared memory,
// and the loss finished on the host.  `simulate` is an ordinary CUDA host
// driver (cudaMalloc, cudaMemcpy, launches, cudaFree); gpuad differentiates
// it as a whole from one __enzyme_autodiff call: the derivative launches
// the kernels' adjoint kernels in reverse order and moves adjoints back
// through every copy.  Nothing in the program is gpuad-specific but that
// call.
//
// The program makes a target from a "true" field k*, checks the gradient at
// the starting guess against central differences and forward mode, then
// fits k from a constant start and prints the loss curve.  It runs natively
// (gpuad-cc -O2 diffusion_reaction.cu) or on the CPU emulator (gpuad-cc
// --emulate ...), and exits non-zero if a check fails or the fit does not
// reduce the loss 20-fold.
#include <gpuad/gpuad.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef __HIP__
#include <hip/hip_runtime.h>
#define API(name) hip##name
#else
#define API(name) cuda##name
#endif

namespace dr {

constexpr int Tile = 8;

struct Problem {
  int n = 24;      ///< grid points per side
  int steps = 80;  ///< time steps
  double dt = 0.5; ///< time step (stable while dt * 4 * max k < 1)
  double rate = 0.05;
};

__device__ inline int wrap(int i, int n) { return (i + n) % n; }

/// out = in + dt * div(k grad in), k averaged onto the faces.
__global__ void diffuse(double *out, const double *in, const double *k,
                        double dt, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n)
    return;
  int c = y * n + x;
  double flux = 0;
  int neighbours[4] = {y * n + wrap(x - 1, n), y * n + wrap(x + 1, n),
                       wrap(y - 1, n) * n + x, wrap(y + 1, n) * n + x};
  for (int j : neighbours)
    flux += 0.5 * (k[c] + k[j]) * (in[j] - in[c]);
  out[c] = in[c] + dt * flux;
}

/// u += dt * r u (1 - u), in place.
__global__ void react(double *u, double dt, double rate, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    double v = u[y * n + x];
    u[y * n + x] = v + dt * rate * v * (1 - v);
  }
}

/// Per block: the sum of (u - target)^2 over its tile.
__global__ void misfit(double *partial, const double *u, const double *target,
                       int n) {
  __shared__ double s[Tile * Tile];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  double d = x < n && y < n ? u[y * n + x] - target[y * n + x] : 0.0;
  s[t] = d * d;
  __syncthreads();
  for (int w = Tile * Tile / 2; w > 0; w /= 2) {
    if (t < w)
      s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.y * gridDim.x + blockIdx.x] = s[0];
}

static void check(int status, const char *what) {
  if (status != 0) {
    std::fprintf(stderr, "diffusion_reaction: %s failed (%d)\n", what, status);
    std::exit(1);
  }
}

/// Runs the model from u0 with coefficients k; returns the misfit to target
/// (null: no misfit; the final state goes to final_u instead).
double simulate(const double *k, const double *u0, const double *target,
                double *final_u, const Problem *p) {
  int n = p->n, cells = n * n;
  size_t bytes = cells * sizeof(double);
  dim3 block(Tile, Tile), grid((n + Tile - 1) / Tile, (n + Tile - 1) / Tile);
  int blocks = grid.x * grid.y;
  double *a, *b, *dk, *dtarget, *partial;
  check(API(Malloc)(&a, bytes), "malloc");
  check(API(Malloc)(&b, bytes), "malloc");
  check(API(Malloc)(&dk, bytes), "malloc");
  check(API(Malloc)(&dtarget, bytes), "malloc");
  check(API(Malloc)(&partial, blocks * sizeof(double)), "malloc");
  check(API(Memcpy)(a, u0, bytes, API(MemcpyHostToDevice)), "copy");
  check(API(Memcpy)(dk, k, bytes, API(MemcpyHostToDevice)), "copy");
  check(API(Memcpy)(dtarget, target, bytes, API(MemcpyHostToDevice)), "copy");
  for (int t = 0; t < p->steps; ++t) {
    diffuse<<<grid, block>>>(b, a, dk, p->dt, n);
    react<<<grid, block>>>(b, p->dt, p->rate, n);
    double *swap = a;
    a = b;
    b = swap;
  }
  double loss = 0;
  if (final_u) {
    check(API(Memcpy)(final_u, a, bytes, API(MemcpyDeviceToHost)), "copy");
  } else {
    misfit<<<grid, block>>>(partial, a, dtarget, n);
    std::vector<double> sums(blocks);
    check(API(Memcpy)(sums.data(), partial, blocks * sizeof(double),
                      API(MemcpyDeviceToHost)),
          "copy");
    for (double s : sums)
      loss += s;
  }
  check(API(Free)(a), "free");
  check(API(Free)(b), "free");
  check(API(Free)(dk), "free");
  check(API(Free)(dtarget), "free");
  check(API(Free)(partial), "free");
  return loss;
}

/// The gradient of simulate's misfit with respect to k (grad zeroed here).
double gradient(const std::vector<double> &k, const std::vector<double> &u0,
                const std::vector<double> &target, std::vector<double> &grad,
                const Problem &p) {
  std::fill(grad.begin(), grad.end(), 0.0);
  __enzyme_autodiff<void>((void *)simulate, enzyme_dup, k.data(), grad.data(),
                          enzyme_const, u0.data(), enzyme_const, target.data(),
                          enzyme_const, (double *)nullptr, enzyme_const, &p);
  return simulate(k.data(), u0.data(), target.data(), nullptr, &p);
}

/// The directional derivative of the misfit along v (forward mode).
double tangent(const std::vector<double> &k, std::vector<double> v,
               const std::vector<double> &u0, const std::vector<double> &target,
               const Problem &p) {
  return __enzyme_fwddiff<double>((void *)simulate, enzyme_dup, k.data(),
                                  v.data(), enzyme_const, u0.data(),
                                  enzyme_const, target.data(), enzyme_const,
                                  (double *)nullptr, enzyme_const, &p);
}

/// The starting state, the true field and the starting guess.
void setUp(const Problem &p, std::vector<double> &u0,
           std::vector<double> &kTrue, std::vector<double> &kStart) {
  int n = p.n;
  u0.resize(n * n);
  kTrue.resize(n * n);
  kStart.assign(n * n, 0.1);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      double fx = double(x) / n, fy = double(y) / n;
      u0[y * n + x] = 0.1 + 0.8 * std::exp(-40 * ((fx - 0.3) * (fx - 0.3) +
                                                  (fy - 0.5) * (fy - 0.5)));
      kTrue[y * n + x] =
          0.1 + 0.08 * std::sin(2 * M_PI * fx) * std::cos(2 * M_PI * fy);
    }
}

/// The gradient against central differences at coefficients \p At (the
/// worst relative error) and against forward mode along a direction (the
/// dot-product test).
struct GradientCheck {
  double fd = 0, dot = 0;
  bool passed() const { return fd <= 1e-5 && dot <= 1e-9; } // (NaN fails)
};
GradientCheck checkGradient(const std::vector<double> &k,
                            const std::vector<double> &grad,
                            const std::vector<double> &u0,
                            const std::vector<double> &target, const Problem &p,
                            const std::vector<int> &At) {
  GradientCheck c;
  for (int i : At) {
    std::vector<double> kp = k, km = k;
    double h = 1e-6;
    kp[i] += h;
    km[i] -= h;
    double fd = (simulate(kp.data(), u0.data(), target.data(), nullptr, &p) -
                 simulate(km.data(), u0.data(), target.data(), nullptr, &p)) /
                (2 * h);
    double err = std::fabs(grad[i] - fd) / std::fmax(std::fabs(fd), 1e-3);
    if (!(err <= c.fd)) // (a NaN stays)
      c.fd = err;
  }
  std::vector<double> v(k.size());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = std::sin(0.7 * i);
  double jv = 0, fwd = tangent(k, v, u0, target, p);
  for (size_t i = 0; i < v.size(); ++i)
    jv += grad[i] * v[i];
  c.dot = std::fabs(fwd - jv) / std::fmax(std::fabs(jv), 1e-12);
  return c;
}

} // namespace dr

#ifndef DIFFUSION_REACTION_NO_MAIN
int main(int argc, char **argv) {
  using namespace dr;
  Problem p;
  int iterations = argc > 1 ? std::atoi(argv[1]) : 25;
  std::vector<double> u0, kTrue, k;
  setUp(p, u0, kTrue, k);
  std::vector<double> target(p.n * p.n), grad(p.n * p.n);
  simulate(kTrue.data(), u0.data(), u0.data(), target.data(), &p);

  // The gradient at the start: against central differences at a few
  // coefficients (rtol 1e-5), and against forward mode along a direction
  // (the dot-product test, rtol 1e-9).
  double loss = gradient(k, u0, target, grad, p);
  GradientCheck c = checkGradient(k, grad, u0, target, p,
                                  {0, 37, p.n * p.n / 2 + 5, p.n * p.n - 1});
  std::printf("gradient check: central differences rel err %.1e (tol 1e-5), "
              "forward vs reverse rel err %.1e (tol 1e-9)\n",
              c.fd, c.dot);
  int failures = !c.passed();

  // Gradient descent with a normalised step, shrinking when the loss rises.
  double first = loss, step = 0.02;
  std::printf("iteration %3d  loss %.6e\n", 0, loss);
  for (int it = 1; it <= iterations; ++it) {
    double norm = 0;
    for (double g : grad)
      norm = std::fmax(norm, std::fabs(g));
    std::vector<double> next = k;
    for (size_t i = 0; i < k.size(); ++i)
      next[i] = std::fmin(0.24, std::fmax(0.0, k[i] - step * grad[i] / norm));
    std::vector<double> nextGrad(grad.size());
    double nextLoss = gradient(next, u0, target, nextGrad, p);
    if (nextLoss < loss) {
      k = next;
      grad = nextGrad;
      loss = nextLoss;
      step *= 1.2;
    } else {
      step *= 0.5;
    }
    std::printf("iteration %3d  loss %.6e\n", it, loss);
  }
  bool fitted = loss < first / 20;
  std::printf("%s: loss %.3e -> %.3e (%s)\n",
              failures ? "FAIL" : (fitted ? "PASS" : "FAIL"), first, loss,
              fitted ? "reduced more than 20-fold" : "not reduced 20-fold");
  return failures || !fitted;
}
#endif
