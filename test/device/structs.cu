// Structs in the differentiated __device__ function: a pointer to an array
// of structs (enzyme_dup with a shadow array of structs), a struct of doubles
// passed by value (its shadow is a struct of the same type), a struct with
// mixed active and inactive fields (an int index next to doubles), and a
// struct returned through an out-pointer.
//
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O0 -S %s -o %t.O0.ptx
// RUN: %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin
// RUN: FileCheck %s --input-file=%t.O0.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O0.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.O2.ptx
// RUN: %ptxas -arch=sm_90 %t.O2.ptx -o %t.O2.cubin
// RUN: FileCheck %s --input-file=%t.O2.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O2.ptx
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O3 -S %s -o %t.O3.ptx
// RUN: %ptxas -arch=sm_90 %t.O3.ptx -o %t.O3.cubin
// RUN: FileCheck %s --input-file=%t.O3.ptx
// RUN: FileCheck %s --check-prefix=NOSYM --input-file=%t.O3.ptx
// RUN: %gpuad-cc --cuda-host-only -O2 -c %s -o %t.host.o

#include <gpuad/gpuad.h>

struct Particle {
  double pos[3];
  double mass;
  int kind; // inactive
};

struct Pair {
  double a, b;
};

// Kinetic-like energy of particle i; kind selects a constant factor.
__device__ double energy(const Particle *p, int i) {
  const Particle &q = p[i];
  double r2 = q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2];
  double k = q.kind == 0 ? 0.5 : 0.25;
  return k * q.mass * r2 + cos(q.pos[0]);
}

// A struct by value.
__device__ double pair_fn(Pair p) { return p.a * sin(p.b) + p.b * p.b; }

// A struct written through a pointer.
__device__ void rotate(const Pair *in, Pair *out, double theta) {
  double c = cos(theta), s = sin(theta);
  out->a = c * in->a - s * in->b;
  out->b = s * in->a + c * in->b;
}

__global__ void structs(const Particle *p, const Particle *dp, const Pair *pr,
                        const Pair *dpr, Pair *out, Pair *dout,
                        const double *theta, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[2 * i] = __enzyme_fwddiff<double>((void *)energy, enzyme_dup, p, dp,
                                      enzyme_const, i);
  d[2 * i + 1] =
      __enzyme_fwddiff<double>((void *)pair_fn, enzyme_dup, pr[i], dpr[i]);
  __enzyme_fwddiff<void>((void *)rotate, enzyme_dup, pr + i, dpr + i,
                         enzyme_dup, out + i, dout + i, enzyme_dup, theta[i],
                         1.0);
}

// CHECK: .entry {{.*}}structs

// NOSYM-NOT: enzyme
// NOSYM-NOT: .extern .func
