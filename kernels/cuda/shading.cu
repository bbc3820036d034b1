//===- shading.cu - Derivatives of a shading kernel -----------------------===//
//
// Part of gpuad.
//
// Each thread shades one pixel of a sphere lit by a point light (Lambert +
// Blinn-Phong).  `shade` is the primal kernel; `shade_dlight` computes, per
// pixel, the derivative of the intensity with respect to the light's x
// position, by forward mode through the same __device__ function;
// `shade_grad_light` the gradient of the summed image with respect to all
// four light parameters, by reverse mode (every pixel adds into the same
// gradient, atomically).  The host part checks the same function's
// derivatives on the CPU against finite differences (and reverse against
// forward mode); the device part runs the three kernels on a GPU, or on the
// CPU emulator (gpuad-cc --emulate), and checks the device gradient against
// the host's and, by the dot-product test, against the device tangents.
//
//===----------------------------------------------------------------------===//

#include <gpuad/gpuad.h>

#include <cmath>
#include <cstdio>

struct Light {
  double x, y, z, power;
};

/// Intensity at pixel (u, v) in [-1, 1]^2 of a unit sphere at the origin seen
/// along -z.
__host__ __device__ double shade_pixel(double u, double v, const Light *L,
                                       double shininess) {
  double r2 = u * u + v * v;
  if (r2 >= 1.0)
    return 0.0; // background
  double nz = sqrt(1.0 - r2);
  double lx = L->x - u, ly = L->y - v, lz = L->z - nz;
  double dist = sqrt(lx * lx + ly * ly + lz * lz);
  lx /= dist, ly /= dist, lz /= dist;
  double lambert = fmax(0.0, u * lx + v * ly + nz * lz);
  double hx = lx, hy = ly, hz = lz + 1.0; // half vector (view along +z)
  double hn = sqrt(hx * hx + hy * hy + hz * hz);
  double spec = pow(fmax(0.0, (u * hx + v * hy + nz * hz) / hn), shininess);
  return L->power * (lambert + 0.5 * spec) / (dist * dist);
}

__global__ void shade(double *image, int width, const Light *L) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * width)
    return;
  double u = 2.0 * (i % width) / width - 1.0,
         v = 2.0 * (i / width) / width - 1.0;
  image[i] = shade_pixel(u, v, L, 16.0);
}

__global__ void shade_dlight(double *dimage, int width, const Light *L,
                             const Light *dL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * width)
    return;
  double u = 2.0 * (i % width) / width - 1.0,
         v = 2.0 * (i / width) / width - 1.0;
  dimage[i] = __enzyme_fwddiff<double>((void *)shade_pixel, enzyme_const, u,
                                       enzyme_const, v, enzyme_dup, L, dL,
                                       enzyme_const, 16.0);
}

__global__ void shade_grad_light(int width, const Light *L, Light *gradL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * width)
    return;
  double u = 2.0 * (i % width) / width - 1.0,
         v = 2.0 * (i / width) / width - 1.0;
  __enzyme_autodiff<void>((void *)shade_pixel, enzyme_const, u, enzyme_const, v,
                          enzyme_dup, L, gradL, enzyme_const, 16.0);
}

#ifndef __CUDA_ARCH__
/// Reverse mode on the host: the gradient with respect to the light, checked
/// against a finite difference per parameter and, by the dot-product test,
/// against forward mode along dL.  Returns the number of failures.
static int checkReverse(const Light &L, const Light &dL) {
  int failures = 0;
  for (double u : {-0.5, 0.1})
    for (double v : {-0.3, 0.2}) {
      Light g = {0, 0, 0, 0};
      Light Lc = L;
      __enzyme_autodiff<void>((void *)shade_pixel, enzyme_const, u,
                              enzyme_const, v, enzyme_dup, &Lc, &g,
                              enzyme_const, 16.0);
      double *gp = &g.x, worst = 0;
      for (int k = 0; k < 4; ++k) {
        double h = 1e-6;
        Light Lp = L, Lm = L;
        (&Lp.x)[k] += h, (&Lm.x)[k] -= h;
        double fd =
            (shade_pixel(u, v, &Lp, 16.0) - shade_pixel(u, v, &Lm, 16.0)) /
            (2 * h);
        worst = std::fmax(worst, std::fabs(gp[k] - fd) /
                                     std::fmax(1.0, std::fabs(fd)));
      }
      double fwd = __enzyme_fwddiff<double>((void *)shade_pixel, enzyme_const,
                                            u, enzyme_const, v, enzyme_dup, &Lc,
                                            &dL, enzyme_const, 16.0);
      double dot = g.x * dL.x + g.y * dL.y + g.z * dL.z + g.power * dL.power;
      worst = std::fmax(worst,
                        std::fabs(dot - fwd) / std::fmax(1.0, std::fabs(fwd)));
      failures += worst > 1e-6;
      std::printf("pixel (%+.1f,%+.1f): grad light = (%+.6f %+.6f %+.6f %+.6f)"
                  "  worst rel.err vs fd / forward %.1e\n",
                  u, v, g.x, g.y, g.z, g.power, worst);
    }
  return failures;
}

#ifdef __HIP__
// Compiled as HIP only for the AMDGPU resource report: no device run.
static int checkDevice(const Light &, const Light &) { return -1; }
#else
/// The kernels on the device: the summed image's gradient (one atomic
/// accumulation by every pixel) against the sum of the host's per-pixel
/// gradients, and <gradient, dL> against the sum of the device tangents.
/// Returns the number of failures, or -1 when there is no device.
static int checkDevice(const Light &L, const Light &dL) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return -1;
  const int width = 48, n = width * width, block = 128;
  Light *dev, *devTangent, *devGrad;
  double *image, *dimage;
  Light zero = {0, 0, 0, 0};
  if (cudaMalloc(&dev, sizeof(Light)) ||
      cudaMalloc(&devTangent, sizeof(Light)) ||
      cudaMalloc(&devGrad, sizeof(Light)) ||
      cudaMalloc(&image, n * sizeof(double)) ||
      cudaMalloc(&dimage, n * sizeof(double)))
    return 1;
  cudaMemcpy(dev, &L, sizeof L, cudaMemcpyHostToDevice);
  cudaMemcpy(devTangent, &dL, sizeof dL, cudaMemcpyHostToDevice);
  cudaMemcpy(devGrad, &zero, sizeof zero, cudaMemcpyHostToDevice);
  int blocks = (n + block - 1) / block;
  shade<<<blocks, block>>>(image, width, dev);
  shade_dlight<<<blocks, block>>>(dimage, width, dev, devTangent);
  shade_grad_light<<<blocks, block>>>(width, dev, devGrad);
  if (cudaDeviceSynchronize() != cudaSuccess ||
      cudaGetLastError() != cudaSuccess)
    return 1;
  static double hostImage[n], hostTangent[n];
  Light grad;
  cudaMemcpy(hostImage, image, sizeof hostImage, cudaMemcpyDeviceToHost);
  cudaMemcpy(hostTangent, dimage, sizeof hostTangent, cudaMemcpyDeviceToHost);
  cudaMemcpy(&grad, devGrad, sizeof grad, cudaMemcpyDeviceToHost);

  // The host's gradient of the same sum, pixel by pixel (reverse mode on the
  // host, itself checked against finite differences above).
  double expected[4] = {0, 0, 0, 0}, tangentSum = 0, worstPixel = 0;
  for (int i = 0; i < n; ++i) {
    double u = 2.0 * (i % width) / width - 1.0,
           v = 2.0 * (i / width) / width - 1.0;
    Light g = {0, 0, 0, 0}, Lc = L;
    __enzyme_autodiff<void>((void *)shade_pixel, enzyme_const, u, enzyme_const,
                            v, enzyme_dup, &Lc, &g, enzyme_const, 16.0);
    for (int k = 0; k < 4; ++k)
      expected[k] += (&g.x)[k];
    tangentSum += hostTangent[i];
    worstPixel = std::fmax(
        worstPixel, std::fabs(hostImage[i] - shade_pixel(u, v, &L, 16.0)));
  }
  // Sums of 2304 terms accumulated in a different order (atomics): 1e-10
  // relative leaves room for reassociation, not for a wrong derivative.
  const double tolerance = 1e-10;
  double worst = 0;
  for (int k = 0; k < 4; ++k)
    worst = std::fmax(worst, std::fabs((&grad.x)[k] - expected[k]) /
                                 std::fmax(1.0, std::fabs(expected[k])));
  double dot =
      grad.x * dL.x + grad.y * dL.y + grad.z * dL.z + grad.power * dL.power;
  double dotErr =
      std::fabs(dot - tangentSum) / std::fmax(1.0, std::fabs(tangentSum));
  std::printf(
      "device: %d pixels; grad light of the summed image = (%+.6f %+.6f "
      "%+.6f %+.6f)\n",
      n, grad.x, grad.y, grad.z, grad.power);
  std::printf("device: rel.err vs host gradient %.1e, dot product vs device "
              "tangents %.1e, primal image %.1e\n",
              worst, dotErr, worstPixel);
  cudaFree(dev), cudaFree(devTangent), cudaFree(devGrad), cudaFree(image),
      cudaFree(dimage);
  return (worst > tolerance) + (dotErr > tolerance) + (worstPixel > 1e-12);
}
#endif

int main() {
  Light L = {0.8, 0.9, 2.5, 3.0}, dL = {1.0, 0.0, 0.0, 0.0};
  int failures = 0;
  for (double u : {-0.5, 0.1, 0.6})
    for (double v : {-0.3, 0.2}) {
      double d = __enzyme_fwddiff<double>((void *)shade_pixel, enzyme_const, u,
                                          enzyme_const, v, enzyme_dup, &L, &dL,
                                          enzyme_const, 16.0);
      double h = 1e-6;
      Light Lp = L, Lm = L;
      Lp.x += h, Lm.x -= h;
      double fd =
          (shade_pixel(u, v, &Lp, 16.0) - shade_pixel(u, v, &Lm, 16.0)) /
          (2 * h);
      double err = std::fabs(d - fd) / std::fmax(1.0, std::fabs(fd));
      failures += err > 1e-6;
      std::printf("pixel (%+.1f,%+.1f): dI/dlight.x = %+.8f  fd = %+.8f  "
                  "rel.err %.1e\n",
                  u, v, d, fd, err);
    }
  failures += checkReverse(L, dL);
  std::printf("host gradient check (tolerance 1e-6 relative): %s\n",
              failures ? "FAIL" : "PASS");
  int device = checkDevice(L, dL);
  if (device < 0)
    std::printf("device: no GPU here; build with gpuad-cc --emulate to run the "
                "kernels on the CPU emulator\n");
  else
    std::printf("device gradient check (tolerance 1e-10 relative): %s\n",
                device ? "FAIL" : "PASS");
  return failures != 0 || device > 0;
}
#endif
