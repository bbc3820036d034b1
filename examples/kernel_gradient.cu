// The gradient of a CUDA kernel's loss, computed on the device: each thread
// evaluates a smooth potential of its particle, atomically adds it into one
// total, and the gradient kernel asks __enzyme_autodiff for the derivative
// of the whole per-thread computation (including the atomic add) with
// respect to the positions.  Checked on the host against central
// differences of the total.  Built with gpuad::emulator it runs on the CPU;
// with gpuad::gpuad on a GPU, unchanged.
#include <gpuad/gpuad.h>

#include <cmath>
#include <cstdio>
#include <vector>

__device__ void potential(const double *pos, double *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = pos[2 * i], y = pos[2 * i + 1];
  double e = 0.5 * (x * x + 2 * y * y) + 0.1 * sin(3 * x * y);
  atomicAdd(total, e * e);
}

__global__ void energy(const double *pos, double *total, int n) {
  potential(pos, total, n);
}

__global__ void energy_gradient(const double *pos, double *dpos, double *total,
                                double *dtotal, int n) {
  __enzyme_autodiff<void>((void *)potential, enzyme_dup, pos, dpos, enzyme_dup,
                          total, dtotal, n);
}

static double total_on_device(const std::vector<double> &pos, double *dev_pos,
                              double *dev_total, int n) {
  double zero = 0, total;
  cudaMemcpy(dev_pos, pos.data(), pos.size() * sizeof(double),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dev_total, &zero, sizeof zero, cudaMemcpyHostToDevice);
  energy<<<(n + 63) / 64, 64>>>(dev_pos, dev_total, n);
  cudaMemcpy(&total, dev_total, sizeof total, cudaMemcpyDeviceToHost);
  return total;
}

int main() {
  const int n = 200;
  std::vector<double> pos(2 * n), grad(2 * n);
  for (int i = 0; i < 2 * n; ++i)
    pos[i] = std::sin(0.37 * i) + 0.2;

  double *dev_pos, *dev_dpos, *dev_total, *dev_dtotal;
  cudaMalloc(&dev_pos, pos.size() * sizeof(double));
  cudaMalloc(&dev_dpos, pos.size() * sizeof(double));
  cudaMalloc(&dev_total, sizeof(double));
  cudaMalloc(&dev_dtotal, sizeof(double));

  // The gradient: d total / d pos, with the total's adjoint seeded to 1.
  double one = 1;
  cudaMemcpy(dev_pos, pos.data(), pos.size() * sizeof(double),
             cudaMemcpyHostToDevice);
  cudaMemset(dev_dpos, 0, pos.size() * sizeof(double));
  cudaMemset(dev_total, 0, sizeof(double));
  cudaMemcpy(dev_dtotal, &one, sizeof one, cudaMemcpyHostToDevice);
  energy_gradient<<<(n + 63) / 64, 64>>>(dev_pos, dev_dpos, dev_total,
                                         dev_dtotal, n);
  cudaMemcpy(grad.data(), dev_dpos, grad.size() * sizeof(double),
             cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    std::printf("FAIL: a CUDA call failed\n");
    return 1;
  }

  // Central differences of the total, for a few coordinates.
  double worst = 0;
  for (int k : {0, 1, 57, 200, 399}) {
    double h = 1e-6, saved = pos[k];
    pos[k] = saved + h;
    double up = total_on_device(pos, dev_pos, dev_total, n);
    pos[k] = saved - h;
    double down = total_on_device(pos, dev_pos, dev_total, n);
    pos[k] = saved;
    double fd = (up - down) / (2 * h);
    double err = std::fabs(grad[k] - fd) / std::fmax(1.0, std::fabs(fd));
    worst = std::fmax(worst, err);
    std::printf("d total/d pos[%3d] = %+.8f  (central difference %+.8f)\n", k,
                grad[k], fd);
  }
  cudaFree(dev_pos);
  cudaFree(dev_dpos);
  cudaFree(dev_total);
  cudaFree(dev_dtotal);
  if (worst > 1e-5) {
    std::printf("FAIL: gradient differs from central differences by %.2e\n",
                worst);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
