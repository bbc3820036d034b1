//===- diffusion_reaction.cu - A whole driver's gradient, timed -----------===//
//
// Part of gpuad.
//
// The diffusion-reaction solver of examples/diffusion_reaction.cu (a host
// driver: cudaMalloc, copies, a time loop of a stencil and an in-place
// kernel with its buffers swapped on the host, a shared-memory misfit, the
// loss finished on the host), differentiated as a whole from one
// __enzyme_autodiff call.
//
//   diffusion_reaction              the checks on a 16 x 16 grid, 20 steps:
//                                   the gradient against central
//                                   differences (1e-5) and forward mode by
//                                   the dot product (1e-9) (CI, emulator)
//   diffusion_reaction --time [n] [steps]
//                                   gradient / primal time of the whole
//                                   driver on an n x n grid (default 1024,
//                                   500 steps), and the device memory the
//                                   gradient holds at its peak against the
//                                   primal's (sampled with cudaMemGetInfo
//                                   from a second host thread)
//
// gpu-suite-args: --time
//
//===----------------------------------------------------------------------===//

#define DIFFUSION_REACTION_NO_MAIN
#include "../../../examples/diffusion_reaction.cu"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point From) {
  return std::chrono::duration<double>(Clock::now() - From).count();
}

/// The most device memory in use while \p Run runs, in bytes, sampled.
template <class Body> size_t peakDeviceBytes(Body Run) {
  size_t Free = 0, Total = 0;
  (void)API(MemGetInfo)(&Free, &Total);
  size_t Base = Total - Free;
  std::atomic<bool> Done{false};
  std::atomic<size_t> Peak{Base};
  std::thread Sampler([&] {
    while (!Done) {
      size_t F = 0, T = 0;
      if (API(MemGetInfo)(&F, &T) == 0)
        Peak = std::max<size_t>(Peak, T - F);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  Run();
  Done = true;
  Sampler.join();
  return Peak - Base;
}

int checks() {
  dr::Problem p;
  p.n = 16;
  p.steps = 20;
  std::vector<double> u0, kTrue, k;
  dr::setUp(p, u0, kTrue, k);
  std::vector<double> target(p.n * p.n), grad(p.n * p.n);
  dr::simulate(kTrue.data(), u0.data(), u0.data(), target.data(), &p);
  dr::gradient(k, u0, target, grad, p);
  std::vector<int> at;
  for (int c = 0; c < p.n * p.n; c += 17)
    at.push_back(c);
  dr::GradientCheck c = dr::checkGradient(k, grad, u0, target, p, at);
  std::printf("diffusion_reaction: %s (central differences %.1e, tol 1e-5; "
              "dot product %.1e, tol 1e-9)\n",
              c.passed() ? "PASS" : "FAIL", c.fd, c.dot);
  return !c.passed();
}

int timed(int n, int steps) {
  dr::Problem p;
  p.n = n;
  p.steps = steps;
  p.dt = 0.5;
  std::vector<double> u0, kTrue, k;
  dr::setUp(p, u0, kTrue, k);
  std::vector<double> target(n * n), grad(n * n);
  dr::simulate(kTrue.data(), u0.data(), u0.data(), target.data(), &p);
  // Warm up, then one timed run each (the driver is seconds long).
  dr::simulate(k.data(), u0.data(), target.data(), nullptr, &p);
  double primal = 0, gradient = 0;
  size_t primalPeak = peakDeviceBytes([&] {
    auto t = Clock::now();
    dr::simulate(k.data(), u0.data(), target.data(), nullptr, &p);
    primal = seconds(t);
  });
  size_t gradientPeak = peakDeviceBytes([&] {
    auto t = Clock::now();
    dr::gradient(k, u0, target, grad, p);
    gradient = seconds(t);
  });
  double state = double(n) * n * sizeof(double);
  std::printf("diffusion_reaction %dx%d, %d steps: gradient/primal time "
              "%.2f (gradient includes one primal for the loss); device "
              "memory at peak: primal %.1f MiB, gradient %.1f MiB (%.1fx; "
              "%.0f states of %.1f MiB)\n",
              n, n, steps, (gradient - primal) / primal, primalPeak / 1048576.0,
              gradientPeak / 1048576.0,
              double(gradientPeak) / std::max<size_t>(primalPeak, 1),
              gradientPeak / state, state / 1048576.0);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "--time"))
    return timed(argc > 2 ? std::atoi(argv[2]) : 1024,
                 argc > 3 ? std::atoi(argv[3]) : 500);
  return checks();
}
