// Checkpointed loops in device code: a thread's own time loop whose body
// calls __gpuad_checkpoint(n) keeps n snapshots of its scalar state, per
// thread, in a record of fixed size that the derivative's tape holds (no
// frame per iteration), and runs stretches of the loop again in the reverse
// sweep: binomially where the trip count is known when the loop starts,
// thinned online where the loop's own state decides when it ends.  Each
// gradient is checked against central differences of a host copy, against
// the same loop without the marker (its full tape: the same derivative
// up to rounding), and by the dot-product test against forward mode.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx -Rpass=gpuad -Rpass-missed=gpuad 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o
// The state is the thread's own record: its adjoints are plain adds, no
// atomics (which local memory does not have).
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: FileCheck %s --check-prefix=PRIVATE --input-file=%t.O2.ll
// PRIVATE-LABEL: define internal void @_Z8pendulumILb1EEdddi{{.*}}.reverse_step(
// PRIVATE-NOT: atomicrmw
// PRIVATE: ret void

#include <gpuad/gpuad.h>

// A pendulum, x'' = -k sin(x), by symplectic Euler: the state is (x, v),
// the trip count an argument.  A checkpoints 5 states per thread.
template <bool Checkpointed>
__device__ double pendulum(double k, double x0, int steps) {
  double x = x0, v = 0.0;
  for (int t = 0; t < steps; ++t) {
    if (Checkpointed)
      __gpuad_checkpoint(5);
    v -= 0.01 * k * sin(x);
    x += 0.01 * v;
  }
  return x * x + 0.5 * v;
}
// REMARK-DAG: checkpointed-loops.cu:[[@LINE-8]]:3: remark: loop checkpointed: its state is 24 B of scalars (3 values); snapshots: 5 per thread, scheduled by binomial checkpointing
// REMARK-DAG: checkpointed-loops.cu:[[@LINE-9]]:{{[0-9]+}}: remark: tape: 1 values cached ({{[0-9]+}} B outside loops, 0 loop frames)

// Growth until a threshold: the state decides when the loop ends (online
// thinning), carries an integer besides the floats, and reads an active
// array no one writes (its adjoint is added from every step).
template <bool Checkpointed>
__device__ double grow(const double *w, double r, double x0, double limit) {
  double x = x0, s = 0.0;
  int t = 0;
  while (x < limit && t < 4000) {
    if (Checkpointed)
      __gpuad_checkpoint(3);
    x += r * x * (1.0 - x / (2.0 * limit)) * 0.01 + 0.001 * w[t % 4];
    s += 0.01 * x * w[(t + 1) % 4];
    ++t;
  }
  return s + x;
}
// REMARK-DAG: checkpointed-loops.cu:[[@LINE-9]]:3: remark: loop checkpointed: its state is 24 B of scalars (3 values), what it reads of parameter 1 if code after the loop may change it (32 B); snapshots: 3 per thread, thinned online
// REMARK-DAG: checkpointed-loops.cu:[[@LINE-10]]:{{[0-9]+}}: remark: tape: 1 values cached ({{[0-9]+}} B outside loops, 0 loop frames)

// A loop that writes memory keeps its full tape in device code.
__device__ double written(double *buf, double x0, int steps) {
  double x = x0;
  for (int t = 0; t < steps; ++t) {
    __gpuad_checkpoint(4);
    buf[t % 2] = x;
    x = 0.5 * x + 0.3 * sin(buf[(t + 1) % 2]);
  }
  return x;
}
// REMARK-DAG: checkpointed-loops.cu:[[@LINE-7]]:3: remark: loop not checkpointed (it keeps its full tape): in device code a loop's state must be its scalars, and it reaches the memory of parameter 1

struct KX {
  double k, x0;
};

template <bool Checkpointed>
__global__ void grad_pendulum(const double *k, const double *x0, int steps,
                              double *dk, double *dx0, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  KX g = __enzyme_autodiff<KX>((void *)pendulum<Checkpointed>, k[i], x0[i],
                               enzyme_const, steps);
  dk[i] = g.k;
  dx0[i] = g.x0;
}

__global__ void tangent_pendulum(const double *k, const double *x0,
                                 const double *kdot, const double *xdot,
                                 int steps, double *ydot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    ydot[i] = __enzyme_fwddiff<double>((void *)pendulum<true>, enzyme_dup,
                                       k[i], kdot[i], enzyme_dup, x0[i],
                                       xdot[i], enzyme_const, steps);
}

template <bool Checkpointed>
__global__ void grad_grow(const double *w, double *dw, const double *r,
                          double *dr, double limit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  dr[i] = __enzyme_autodiff<double>((void *)grow<Checkpointed>, enzyme_dup, w,
                                    dw, r[i], enzyme_const, 1.0 + 0.01 * i,
                                    enzyme_const, limit);
}

__global__ void tangent_grow(const double *w, const double *wdot,
                             const double *r, const double *rdot, double limit,
                             double *ydot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    ydot[i] = __enzyme_fwddiff<double>(
        (void *)grow<true>, enzyme_dup, w, wdot, enzyme_dup, r[i], rdot[i],
        enzyme_const, 1.0 + 0.01 * i, enzyme_const, limit);
}

__global__ void grad_written(const double *x0, double *dx0, double *buf,
                             double *dbuf, int steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dx0[i] = __enzyme_autodiff<double>((void *)written, enzyme_dup,
                                       buf + 2 * i, dbuf + 2 * i, x0[i],
                                       enzyme_const, steps);
}

// ---- Run on the emulator (and natively with a GPU): kernel-tests.cmake ----

#include "include/devcheck.h"

static double hostPendulum(double k, double x0, int steps) {
  double x = x0, v = 0.0;
  for (int t = 0; t < steps; ++t) {
    v -= 0.01 * k * std::sin(x);
    x += 0.01 * v;
  }
  return x * x + 0.5 * v;
}

static double hostGrow(const std::vector<double> &w, double r, double x0,
                       double limit) {
  double x = x0, s = 0.0;
  int t = 0;
  while (x < limit && t < 4000) {
    x += r * x * (1.0 - x / (2.0 * limit)) * 0.01 + 0.001 * w[t % 4];
    s += 0.01 * x * w[(t + 1) % 4];
    ++t;
  }
  return s + x;
}

static double hostWritten(double x0, int steps) {
  double buf[2] = {0, 0}, x = x0;
  for (int t = 0; t < steps; ++t) {
    buf[t % 2] = x;
    x = 0.5 * x + 0.3 * std::sin(buf[(t + 1) % 2]);
  }
  return x;
}

const double H = 1e-6;
// Central differences of smooth loops with h = 1e-6: error ~1e-8 here.
static Tol fd{"fd", 1e-6};
// Checkpointed against full tape: the same operations, reordered only where
// the adjoints of the read-only array are summed.
static Tol tape{"full tape", 1e-12};
// <ydot, ybar> = <xdot, xbar>: the same products summed in another order.
static Tol dotTol{"dot", 1e-10};

const int kBlock = 64;

static void checkPendulum(int n, int steps) {
  std::vector<double> k(n), x0(n), kdot(n), xdot(n);
  for (int i = 0; i < n; ++i) {
    k[i] = 1.0 + 0.05 * i;
    x0[i] = 0.3 + 0.02 * i;
    kdot[i] = 0.5 + 0.25 * std::sin(0.3 * i);
    xdot[i] = 0.75 - 0.5 * std::cos(0.2 * i);
  }
  double *dK = deviceCopy(k), *dX0 = deviceCopy(x0), *dKdot = deviceCopy(kdot),
         *dXdot = deviceCopy(xdot);
  std::vector<double> zero(n, 0.0);
  double *gk = deviceCopy(zero), *gx = deviceCopy(zero),
         *fk = deviceCopy(zero), *fx = deviceCopy(zero),
         *ydot = deviceCopy(zero);
  int blocks = (n + kBlock - 1) / kBlock;
  grad_pendulum<true><<<blocks, kBlock>>>(dK, dX0, steps, gk, gx, n);
  grad_pendulum<false><<<blocks, kBlock>>>(dK, dX0, steps, fk, fx, n);
  tangent_pendulum<<<blocks, kBlock>>>(dK, dX0, dKdot, dXdot, steps, ydot, n);
  CHECK(DEVCHECK_API(GetLastError)());
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> hk = hostCopy(gk, n), hx = hostCopy(gx, n),
                      fullK = hostCopy(fk, n), fullX = hostCopy(fx, n),
                      hydot = hostCopy(ydot, n);
  for (int i = 0; i < n; ++i) {
    double dk = (hostPendulum(k[i] + H, x0[i], steps) -
                 hostPendulum(k[i] - H, x0[i], steps)) /
                (2 * H);
    double dx = (hostPendulum(k[i], x0[i] + H, steps) -
                 hostPendulum(k[i], x0[i] - H, steps)) /
                (2 * H);
    expectNear(fd, "pendulum dk", i, hk[i], dk);
    expectNear(fd, "pendulum dx0", i, hx[i], dx);
    expectNear(tape, "pendulum dk vs full tape", i, hk[i], fullK[i]);
    expectNear(tape, "pendulum dx0 vs full tape", i, hx[i], fullX[i]);
    // One output per thread, seed 1: <ydot, 1> = kdot dk + xdot dx0.
    expectNear(dotTol, "pendulum <ydot,ybar>", i, hydot[i],
               kdot[i] * hk[i] + xdot[i] * hx[i]);
  }
}

static void checkGrow(int n, double limit) {
  std::vector<double> w = {1.0, -0.5, 0.75, 0.25}, wdot = {0.3, 0.1, -0.2, 0.4};
  std::vector<double> r(n), rdot(n);
  for (int i = 0; i < n; ++i) {
    r[i] = 0.8 + 0.03 * i;
    rdot[i] = 1.0 - 0.02 * i;
  }
  std::vector<double> zero(n, 0.0), zero4(4, 0.0);
  double *dW = deviceCopy(w), *dWdot = deviceCopy(wdot), *dR = deviceCopy(r),
         *dRdot = deviceCopy(rdot), *gw = deviceCopy(zero4),
         *fw = deviceCopy(zero4), *gr = deviceCopy(zero), *fr = deviceCopy(zero),
         *ydot = deviceCopy(zero);
  int blocks = (n + kBlock - 1) / kBlock;
  grad_grow<true><<<blocks, kBlock>>>(dW, gw, dR, gr, limit, n);
  grad_grow<false><<<blocks, kBlock>>>(dW, fw, dR, fr, limit, n);
  tangent_grow<<<blocks, kBlock>>>(dW, dWdot, dR, dRdot, limit, ydot, n);
  CHECK(DEVCHECK_API(GetLastError)());
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> hw = hostCopy(gw, 4), fullW = hostCopy(fw, 4),
                      hr = hostCopy(gr, n), fullR = hostCopy(fr, n),
                      hydot = hostCopy(ydot, n);
  double sumYdot = 0, sumBar = 0;
  for (int i = 0; i < n; ++i) {
    double x0 = 1.0 + 0.01 * i;
    double dr = (hostGrow(w, r[i] + H, x0, limit) -
                 hostGrow(w, r[i] - H, x0, limit)) /
                (2 * H);
    expectNear(fd, "grow dr", i, hr[i], dr);
    expectNear(tape, "grow dr vs full tape", i, hr[i], fullR[i]);
    sumYdot += hydot[i];
    sumBar += rdot[i] * hr[i];
  }
  // w's adjoint sums every thread's.
  for (int j = 0; j < 4; ++j) {
    std::vector<double> wp = w, wm = w;
    wp[j] += H;
    wm[j] -= H;
    double dw = 0;
    for (int i = 0; i < n; ++i)
      dw += (hostGrow(wp, r[i], 1.0 + 0.01 * i, limit) -
             hostGrow(wm, r[i], 1.0 + 0.01 * i, limit)) /
            (2 * H);
    expectNear(fd, "grow dw", j, hw[j], dw);
    expectNear(tape, "grow dw vs full tape", j, hw[j], fullW[j]);
    sumBar += wdot[j] * hw[j];
  }
  expectNear(dotTol, "grow <ydot,ybar>", 0, sumYdot, sumBar);
}

static void checkWritten(int n, int steps) {
  std::vector<double> x0(n), zero(n, 0.0), zero2(2 * n, 0.0);
  for (int i = 0; i < n; ++i)
    x0[i] = 0.1 * i - 1.0;
  double *dX0 = deviceCopy(x0), *gx = deviceCopy(zero),
         *buf = deviceCopy(zero2), *dbuf = deviceCopy(zero2);
  grad_written<<<(n + kBlock - 1) / kBlock, kBlock>>>(dX0, gx, buf, dbuf,
                                                       steps, n);
  CHECK(DEVCHECK_API(GetLastError)());
  CHECK(DEVCHECK_API(DeviceSynchronize)());
  std::vector<double> hx = hostCopy(gx, n);
  for (int i = 0; i < n; ++i)
    expectNear(fd, "written dx0", i, hx[i],
               (hostWritten(x0[i] + H, steps) - hostWritten(x0[i] - H, steps)) /
                   (2 * H));
}

int main() {
  providePool(256);
  checkPendulum(96, 700);
  checkPendulum(33, 1);
  checkPendulum(17, 0);
  checkGrow(80, 3.0);
  checkWritten(40, 50);
  return finish("per-thread checkpointed loops against central differences, "
                "the full tape and forward mode",
                {&fd, &tape, &dotTol});
}
