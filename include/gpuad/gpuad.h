/*===- gpuad/gpuad.h - The derivative call ABI -----------------*- C/C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Declarations of the Enzyme-compatible call ABI that gpuad implements, for C,
 * C++, CUDA and HIP, so programs need not declare it by hand:
 *
 *   double dy = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);      // C
 *   double dy = __enzyme_fwddiff<double>((void *)f, enzyme_dup, x, dx);  // C++
 *
 * The calls exist only until the gpuad pass replaces them; a program
 * compiled without the plugin fails to link (undefined __enzyme_* symbols).
 * The markers are globals whose names the pass recognises; their values are
 * never read.  In CUDA/HIP files the device compilation sees them as
 * __device__ variables and the host compilation as host variables, so both
 * host code and kernels can make requests.
 *
 * In C the entry points return double; for other result types declare your
 * own under a name that contains the entry point, e.g.
 *   typedef struct { double d[2]; } vec2;
 *   vec2 __enzyme_fwddiff_vec2(void *, ...);
 *
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_GPUAD_H
#define GPUAD_GPUAD_H

#include <stddef.h>

#if defined(__CUDACC__) || defined(__HIP__)
#define GPUAD_HOST_DEVICE __host__ __device__
#else
#define GPUAD_HOST_DEVICE
#endif

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define GPUAD_MARKER extern __device__ int
#elif defined(__cplusplus)
#define GPUAD_MARKER extern "C" int
#else
#define GPUAD_MARKER extern int
#endif

/* Activity markers: which arguments carry derivatives, and how. */
GPUAD_MARKER enzyme_dup;       /* primal, then its shadow (one per lane) */
GPUAD_MARKER enzyme_dupnoneed; /* as dup; the primal result is not needed */
GPUAD_MARKER enzyme_dupv;  /* stride, primal, base: lane v at base+v*stride */
GPUAD_MARKER enzyme_const; /* no derivative */
GPUAD_MARKER enzyme_out;   /* reverse mode: adjoint returned */
GPUAD_MARKER enzyme_width; /* N: every dup carries N shadows */
/* Request-wide markers. */
GPUAD_MARKER enzyme_primal_return;
GPUAD_MARKER enzyme_noret;
GPUAD_MARKER enzyme_const_return;
GPUAD_MARKER enzyme_dup_return;
GPUAD_MARKER enzyme_active_return;
GPUAD_MARKER enzyme_tape;
GPUAD_MARKER enzyme_allocated;
/* __enzyme_batch: one value all lanes share, W values, or stride and base. */
GPUAD_MARKER enzyme_scalar;
GPUAD_MARKER enzyme_vector;
GPUAD_MARKER enzyme_buffer;

#undef GPUAD_MARKER

#ifdef __cplusplus

/* C++ (and CUDA/HIP): the result type is a template argument, defaulting to
 * double; arguments keep their types (no variadic promotion). */
template <typename Ret = double, typename... Args>
GPUAD_HOST_DEVICE Ret __enzyme_fwddiff(void *, Args...) noexcept;
template <typename Ret = double, typename... Args>
GPUAD_HOST_DEVICE Ret __enzyme_autodiff(void *, Args...) noexcept;
template <typename Ret = void *, typename... Args>
GPUAD_HOST_DEVICE Ret __enzyme_augmentfwd(void *, Args...) noexcept;
template <typename Ret = double, typename... Args>
GPUAD_HOST_DEVICE Ret __enzyme_reverse(void *, Args...) noexcept;
template <typename... Args>
GPUAD_HOST_DEVICE size_t __enzyme_augmentsize(void *, Args...) noexcept;
/* f evaluated for W lanes; Ret holds the W results (e.g. a struct of W
 * doubles). */
template <typename Ret, typename... Args>
GPUAD_HOST_DEVICE Ret __enzyme_batch(void *, Args...) noexcept;
/* base in the program, base + k * step in code differentiated k times. */
GPUAD_HOST_DEVICE unsigned long long
__enzyme_iter(unsigned long long base, unsigned long long step) noexcept;

#else /* C */

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
size_t __enzyme_augmentsize(void *, ...);
/* __enzyme_batch returns the program's own type: declare it as
 * `Vec4 __enzyme_batch(void *, ...);` (or with a suffix, for several). */
unsigned long long __enzyme_iter(unsigned long long base,
                                 unsigned long long step);

#endif

/* Checkpointing: called in a loop's body, asks reverse mode to keep
 * `snapshots` states of the loop (the values it carries from one iteration
 * to the next and the memory it writes) instead of every iteration's tape,
 * and to run stretches of the loop again from them (binomial
 * checkpointing).  0: as many states as the tape budget (-mllvm
 * -gpuad-tape-budget=MiB; 64 MiB when none is given) holds.  In device code
 * (a kernel's own loop, per thread) the count is a constant, the state the
 * loop's scalars, and 0 means as many as 1 KiB per thread holds.  The call
 * does nothing else, and a loop gpuad cannot checkpoint keeps its full tape
 * with a remark (-Rpass-missed=gpuad) saying why. */
#ifdef __cplusplus
extern "C"
#endif
    GPUAD_HOST_DEVICE void __gpuad_checkpoint(long snapshots);

#undef GPUAD_HOST_DEVICE

#endif /* GPUAD_GPUAD_H */
