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
// forward mode); the device part is checked by compiling it (ptxas) until a
// GPU or the CPU emulator runs it.
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
  double u = 2.0 * (i % width) / width - 1.0, v = 2.0 * (i / width) / width - 1.0;
  image[i] = shade_pixel(u, v, L, 16.0);
}

__global__ void shade_dlight(double *dimage, int width, const Light *L,
                             const Light *dL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * width)
    return;
  double u = 2.0 * (i % width) / width - 1.0, v = 2.0 * (i / width) / width - 1.0;
  dimage[i] = __enzyme_fwddiff<double>((void *)shade_pixel, enzyme_const, u,
                                       enzyme_const, v, enzyme_dup, L, dL,
                                       enzyme_const, 16.0);
}

__global__ void shade_grad_light(int width, const Light *L, Light *gradL) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width * width)
    return;
  double u = 2.0 * (i % width) / width - 1.0, v = 2.0 * (i / width) / width - 1.0;
  __enzyme_autodiff<void>((void *)shade_pixel, enzyme_const, u, enzyme_const,
                          v, enzyme_dup, L, gradL, enzyme_const, 16.0);
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
        double fd = (shade_pixel(u, v, &Lp, 16.0) -
                     shade_pixel(u, v, &Lm, 16.0)) / (2 * h);
        worst = std::fmax(worst, std::fabs(gp[k] - fd) /
                                     std::fmax(1.0, std::fabs(fd)));
      }
      double fwd = __enzyme_fwddiff<double>((void *)shade_pixel, enzyme_const,
                                            u, enzyme_const, v, enzyme_dup, &Lc,
                                            &dL, enzyme_const, 16.0);
      double dot = g.x * dL.x + g.y * dL.y + g.z * dL.z + g.power * dL.power;
      worst = std::fmax(worst, std::fabs(dot - fwd) / std::fmax(1.0, std::fabs(fwd)));
      failures += worst > 1e-6;
      std::printf("pixel (%+.1f,%+.1f): grad light = (%+.6f %+.6f %+.6f %+.6f)"
                  "  worst rel.err vs fd / forward %.1e\n",
                  u, v, g.x, g.y, g.z, g.power, worst);
    }
  return failures;
}

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
      double fd = (shade_pixel(u, v, &Lp, 16.0) - shade_pixel(u, v, &Lm, 16.0)) /
                  (2 * h);
      double err = std::fabs(d - fd) / std::fmax(1.0, std::fabs(fd));
      failures += err > 1e-6;
      std::printf("pixel (%+.1f,%+.1f): dI/dlight.x = %+.8f  fd = %+.8f  rel.err %.1e\n",
                  u, v, d, fd, err);
    }
  failures += checkReverse(L, dL);
  std::printf("host gradient check (tolerance 1e-6 relative): %s\n",
              failures ? "FAIL" : "PASS");
  return failures != 0;
}
#endif
