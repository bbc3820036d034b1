/*===- Cublas.h - What cuBLAS derivatives call besides cuBLAS ---*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * The derivative of a cuBLAS call runs on the call's handle and stream and
 * touches device memory only through cuBLAS and the CUDA runtime: these
 * helpers read and update a scalar that lives in host or device memory (as
 * the handle's pointer mode said at the call), switch the handle to host
 * scalars while the derivative's own calls run, allocate and zero device
 * scratch on the handle's stream, and stage device memory through the host
 * for what no cuBLAS routine computes.  A null handle stands for the legacy
 * API's default stream.  Host code only; the CUDA runtime
 * and cuBLAS are declared here, not included, so the runtime builds
 * without CUDA.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_CUBLAS_H
#define GPUAD_RUNTIME_CUBLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The handle's pointer mode: 0 host, 1 device (cublasPointerMode_t). */
int gpuad_cublas_pointer_mode(void *handle);
/* Sets host scalars; returns the mode it replaced. */
int gpuad_cublas_host_scalars(void *handle);
void gpuad_cublas_restore_scalars(void *handle, int mode);

/* The scalar at `p` (in device memory where `mode` is 1). */
double gpuad_cublas_read_f64(void *handle, int mode, const double *p);
float gpuad_cublas_read_f32(void *handle, int mode, const float *p);
/* *p += delta. */
void gpuad_cublas_add_f64(void *handle, int mode, double *p, double delta);
void gpuad_cublas_add_f32(void *handle, int mode, float *p, float delta);
/* *p = value. */
void gpuad_cublas_write_f64(void *handle, int mode, double *p, double value);
void gpuad_cublas_write_f32(void *handle, int mode, float *p, float value);
/* Returns *p and sets it to zero (an adjoint, taken). */
double gpuad_cublas_take_f64(void *handle, int mode, double *p);
float gpuad_cublas_take_f32(void *handle, int mode, float *p);

/* Device memory on the handle's stream; a failure aborts. */
void *gpuad_cublas_alloc(void *handle, size_t bytes);
void gpuad_cublas_free(void *handle, void *p);
/* Zeroes n elements of `bytes` bytes each at stride |inc| from p. */
void gpuad_cublas_zero(void *handle, int n, void *p, int inc, int bytes);

/* A host copy of `bytes` of device memory, once the handle's stream has
 * written it (a loop over elements runs on it); and the copy written back
 * and freed. */
void *gpuad_cublas_stage_in(void *handle, const void *device, size_t bytes);
void gpuad_cublas_stage_out(void *handle, void *device, void *host,
                            size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_CUBLAS_H */
