// The CUDA runtime API subset the emulator implements, each call checked:
// memory (malloc, memset, copies in every direction, async forms), symbols
// (__constant__ and __device__ variables, to and from, with offsets),
// streams, events, sticky errors, device properties and attributes,
// occupancy queries, pitched 2-D memory, registered host memory, and
// launches with 3-D grids and blocks and dynamic shared memory.
#include <cstdio>
#include <cstring>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
             cudaGetErrorString(e_));                                          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond);               \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__constant__ int weights[8];
__device__ unsigned long long visits;

// Every thread of a 3-D grid of 3-D blocks writes its linear id, weighted,
// through dynamic shared memory.
__global__ void ids(int *out) {
  extern __shared__ int scratch[];
  int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int perBlock = blockDim.x * blockDim.y * blockDim.z;
  scratch[t] = b * perBlock + t;
  __syncthreads();
  int mirror = perBlock - 1 - t;
  out[b * perBlock + mirror] = scratch[mirror] * weights[(b + t) % 8];
  atomicAdd(&visits, 1ull);
}

// Adds 1 to every element of a pitched 2-D array.
__global__ void bump(float *a, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height)
    reinterpret_cast<float *>(reinterpret_cast<char *>(a) + y * pitch)[x] += 1;
}

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  EXPECT(count == 1);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock >= 1024);

  // Memory and copies.
  const int n = 1000;
  int host[n], back[n];
  for (int i = 0; i < n; ++i)
    host[i] = i * 7 - 3;
  int *a, *b;
  CHECK(cudaMalloc(&a, sizeof host));
  CHECK(cudaMalloc(&b, sizeof host));
  CHECK(cudaMemset(a, 0xff, sizeof host));
  CHECK(cudaMemcpy(back, a, sizeof back, cudaMemcpyDeviceToHost));
  EXPECT(back[0] == -1 && back[n - 1] == -1);
  CHECK(cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, a, sizeof host, cudaMemcpyDeviceToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  memset(back, 0, sizeof back);
  CHECK(cudaMemcpyAsync(back, b, sizeof back, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  EXPECT(memcmp(back, host, sizeof host) == 0);

  // Symbols, with an offset.
  int w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof w));
  int w2[2] = {10, 20};
  CHECK(cudaMemcpyToSymbol(weights, w2, sizeof w2, 3 * sizeof(int)));
  int wb[8];
  CHECK(cudaMemcpyFromSymbol(wb, weights, sizeof wb));
  EXPECT(wb[2] == 3 && wb[3] == 10 && wb[4] == 20 && wb[5] == 6);
  unsigned long long zero = 0;
  CHECK(cudaMemcpyToSymbol(visits, &zero, sizeof zero));

  // A 3-D launch with dynamic shared memory, timed with events.
  dim3 grid(3, 2, 2), block(4, 3, 5);
  int perBlock = 4 * 3 * 5, blocks = 3 * 2 * 2, total = perBlock * blocks;
  int *out;
  CHECK(cudaMalloc(&out, total * sizeof(int)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  ids<<<grid, block, perBlock * sizeof(int), stream>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0);
  CHECK(cudaDeviceSynchronize());
  int result[3 * 2 * 2 * 60];
  CHECK(cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost));
  for (int bI = 0; bI < blocks; ++bI)
    for (int t = 0; t < perBlock; ++t) {
      int mirror = perBlock - 1 - t;
      int expected = (bI * perBlock + mirror) * wb[(bI + t) % 8];
      if (result[bI * perBlock + mirror] != expected) {
        printf("ids: block %d thread %d: got %d, expected %d\n", bI, t,
               result[bI * perBlock + mirror], expected);
        return 1;
      }
    }
  unsigned long long seen = 0;
  CHECK(cudaMemcpyFromSymbol(&seen, visits, sizeof seen));
  EXPECT(seen == (unsigned long long)total);

  // Sticky errors: a bad symbol copy is reported, peeked, then cleared.
  int notASymbol = 0;
  EXPECT(cudaMemcpyToSymbol(notASymbol, w, sizeof(int)) != cudaSuccess);
  EXPECT(cudaPeekAtLastError() != cudaSuccess);
  EXPECT(cudaGetLastError() != cudaSuccess);
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
  // A copy past the end of a symbol is an invalid value.
  EXPECT(cudaMemcpyToSymbol(weights, w, 2 * sizeof w) == cudaErrorInvalidValue);
  cudaGetLastError();

  // Attributes and occupancy (cudaOccupancyMaxPotentialBlockSize is a
  // template over these).
  int attr = 0, version = 0;
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0));
  EXPECT(attr == 32);
  CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxSharedMemoryPerBlock, 0));
  EXPECT(attr >= 48 * 1024);
  CHECK(cudaRuntimeGetVersion(&version));
  EXPECT(version > 0);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, ids));
  EXPECT(fa.maxThreadsPerBlock >= 1024);
  int minGrid = 0, bestBlock = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bestBlock, bump));
  EXPECT(bestBlock > 0 && bestBlock <= 1024 && minGrid > 0);

  // Pitched 2-D memory: set, copy in, bump on the device, copy out.
  const int cols = 37, rows = 5;
  float grid2[rows][cols];
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      grid2[y][x] = float(y * 100 + x);
  float *pitched;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void **)&pitched, &pitch, cols * sizeof(float), rows));
  EXPECT(pitch >= cols * sizeof(float));
  CHECK(cudaMemset2D(pitched, pitch, 0, cols * sizeof(float), rows));
  CHECK(cudaMemcpy2D(pitched, pitch, grid2, cols * sizeof(float),
                     cols * sizeof(float), rows, cudaMemcpyHostToDevice));
  bump<<<dim3((cols + 31) / 32, rows), 32>>>(pitched, pitch, cols, rows);
  CHECK(cudaGetLastError());
  float back2[rows][cols];
  CHECK(cudaMemcpy2D(back2, cols * sizeof(float), pitched, pitch,
                     cols * sizeof(float), rows, cudaMemcpyDeviceToHost));
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      EXPECT(back2[y][x] == grid2[y][x] + 1);

  // Registered host memory is usable by kernels.
  static float pinned[64];
  CHECK(cudaHostRegister(pinned, sizeof pinned, 0));
  float *alias;
  CHECK(cudaHostGetDevicePointer((void **)&alias, pinned, 0));
  bump<<<2, 32>>>(alias, sizeof pinned, 64, 1);
  CHECK(cudaDeviceSynchronize());
  EXPECT(pinned[0] == 1 && pinned[63] == 1);
  CHECK(cudaHostUnregister(pinned));
  CHECK(cudaFree(pitched));

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  printf("runtime-api: PASS (%d threads in a 3-D launch)\n", total);
  return 0;
}
