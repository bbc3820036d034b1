/*===- Cublas.c - What cuBLAS derivatives call besides cuBLAS -------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Cublas.h"

#include <stdio.h>
#include <stdlib.h>

/* The CUDA runtime's and cuBLAS's C interface, as their headers declare it
 * (enums are ints, handles and streams pointers). */
int cublasGetPointerMode_v2(void *handle, int *mode);
int cublasSetPointerMode_v2(void *handle, int mode);
int cublasGetStream_v2(void *handle, void **stream);
int cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind,
                    void *stream);
int cudaStreamSynchronize(void *stream);
int cudaMallocAsync(void **p, size_t bytes, void *stream);
int cudaFreeAsync(void *p, void *stream);
int cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width,
                      size_t height, void *stream);
int cudaDeviceSynchronize(void);

enum { HostToDevice = 1, DeviceToHost = 2, DevicePointers = 1 };

static void check(int status, const char *what) {
  if (status == 0)
    return;
  fprintf(stderr, "gpuad: %s failed (status %d) in a cuBLAS derivative\n",
          what, status);
  abort();
}

/* The handle's stream; the legacy API (no handle) runs on the default
 * stream, unless cublasSetKernelStream chose another, which cannot be read
 * back: its derivatives wait for the whole device around what they do on
 * the default stream (settle). */
static void *streamOf(void *handle) {
  void *stream = 0;
  if (handle)
    check(cublasGetStream_v2(handle, &stream), "cublasGetStream");
  return stream;
}

static void settle(void *handle) {
  if (!handle)
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

int gpuad_cublas_pointer_mode(void *handle) {
  int mode = 0;
  check(cublasGetPointerMode_v2(handle, &mode), "cublasGetPointerMode");
  return mode;
}

int gpuad_cublas_host_scalars(void *handle) {
  int mode = gpuad_cublas_pointer_mode(handle);
  check(cublasSetPointerMode_v2(handle, 0), "cublasSetPointerMode");
  return mode;
}

void gpuad_cublas_restore_scalars(void *handle, int mode) {
  check(cublasSetPointerMode_v2(handle, mode), "cublasSetPointerMode");
}

/* Copies between a scalar in device memory and the host, in stream order,
 * and waits for it. */
static void transfer(void *handle, void *to, const void *from, size_t bytes,
                     int kind) {
  void *stream = streamOf(handle);
  settle(handle);
  check(cudaMemcpyAsync(to, from, bytes, kind, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

#define GPUAD_CUBLAS_SCALAR(T, Suffix)                                         \
  T gpuad_cublas_read_##Suffix(void *handle, int mode, const T *p) {          \
    T v;                                                                       \
    if (mode != DevicePointers)                                                \
      return *p;                                                               \
    transfer(handle, &v, p, sizeof v, DeviceToHost);                           \
    return v;                                                                  \
  }                                                                            \
  void gpuad_cublas_write_##Suffix(void *handle, int mode, T *p, T value) {   \
    if (mode != DevicePointers)                                                \
      *p = value;                                                              \
    else                                                                       \
      transfer(handle, p, &value, sizeof value, HostToDevice);                 \
  }                                                                            \
  void gpuad_cublas_add_##Suffix(void *handle, int mode, T *p, T delta) {     \
    gpuad_cublas_write_##Suffix(                                               \
        handle, mode, p, gpuad_cublas_read_##Suffix(handle, mode, p) + delta); \
  }                                                                            \
  T gpuad_cublas_take_##Suffix(void *handle, int mode, T *p) {                \
    T v = gpuad_cublas_read_##Suffix(handle, mode, p);                         \
    gpuad_cublas_write_##Suffix(handle, mode, p, 0);                           \
    return v;                                                                  \
  }

GPUAD_CUBLAS_SCALAR(double, f64)
GPUAD_CUBLAS_SCALAR(float, f32)

void *gpuad_cublas_alloc(void *handle, size_t bytes) {
  void *p = 0;
  if (bytes)
    check(cudaMallocAsync(&p, bytes, streamOf(handle)), "cudaMallocAsync");
  settle(handle);
  return p;
}

void gpuad_cublas_free(void *handle, void *p) {
  if (!p)
    return;
  settle(handle);
  check(cudaFreeAsync(p, streamOf(handle)), "cudaFreeAsync");
}

void gpuad_cublas_zero(void *handle, int n, void *p, int inc, int bytes) {
  size_t stride = (size_t)(inc < 0 ? -inc : inc) * (size_t)bytes;
  if (n <= 0)
    return;
  /* n rows of one element each, `stride` bytes apart. */
  settle(handle);
  check(cudaMemset2DAsync(p, stride ? stride : (size_t)bytes, 0, (size_t)bytes,
                          (size_t)n, streamOf(handle)),
        "cudaMemset2DAsync");
  settle(handle);
}

void *gpuad_cublas_stage_in(void *handle, const void *device, size_t bytes) {
  void *host = malloc(bytes ? bytes : 1);
  if (!host) {
    fprintf(stderr, "gpuad: out of host memory staging %zu bytes\n", bytes);
    abort();
  }
  if (bytes)
    transfer(handle, host, device, bytes, DeviceToHost);
  return host;
}

void gpuad_cublas_stage_out(void *handle, void *device, void *host,
                            size_t bytes) {
  if (bytes)
    transfer(handle, device, host, bytes, HostToDevice);
  free(host);
}
