// Emulator speed (tools/bench.sh, emulator section): blocks of 256 threads
// that each pass 10 barriers, exchanging values through shared memory
// between them.  Prints the time per block for the schedule chosen by
// GPUAD_EMU_SCHEDULE, and checks the result against a host computation.
// Built with `gpuad-cc --emulate`; natively it times the GPU instead.
#include <chrono>
#include <cstdio>
#include <cstdlib>

// Steps of two barriers each (publish, then before overwriting): 10 barriers.
constexpr int Threads = 256, Steps = 5;

__global__ void rotate(const float *x, float *y) {
  __shared__ float tile[Threads];
  int t = threadIdx.x;
  float v = x[blockIdx.x * Threads + t];
  for (int k = 0; k < Steps; ++k) {
    tile[t] = v;
    __syncthreads();
    v = 0.5f * (v + tile[(t + 1) % Threads]);
    __syncthreads();
  }
  y[blockIdx.x * Threads + t] = v;
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 256;
  int n = blocks * Threads;
  float *hx = new float[n], *hy = new float[n];
  for (int i = 0; i < n; ++i)
    hx[i] = float(i % 13);
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  rotate<<<1, Threads>>>(x, y); // warm-up: stacks, first-touch pages
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  rotate<<<blocks, Threads>>>(x, y);
  cudaDeviceSynchronize();
  double us = std::chrono::duration<double, std::micro>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  // Each step averages every value with its right neighbour.
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    float v[Threads], w[Threads];
    for (int t = 0; t < Threads; ++t)
      v[t] = hx[b * Threads + t];
    for (int k = 0; k < Steps; ++k) {
      for (int t = 0; t < Threads; ++t)
        w[t] = 0.5f * (v[t] + v[(t + 1) % Threads]);
      for (int t = 0; t < Threads; ++t)
        v[t] = w[t];
    }
    for (int t = 0; t < Threads; ++t)
      wrong += hy[b * Threads + t] != v[t];
  }
#ifdef GPUAD_EMULATION
  const char *schedule = getenv("GPUAD_EMU_SCHEDULE");
  if (!schedule)
    schedule = "ordered";
#else
  const char *schedule = "GPU";
#endif
  printf("%-24s %-16s %10.1f us/block  (%d blocks, %d barrier passes each, "
         "%s)  %s\n",
         "emu_barriers", "256 threads", us / blocks, blocks, 2 * Steps,
         schedule, wrong ? "WRONG" : "ok");
  return wrong != 0;
}
