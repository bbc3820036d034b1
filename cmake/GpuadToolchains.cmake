# Locates the GPU toolchains gpuad compiles for.  Neither is required to build
# the plugin; tests that need one declare it (lit REQUIRES) and are reported as
# unsupported when it is missing.

set(GPUAD_CUDA_PATH "/usr/local/cuda" CACHE PATH "CUDA toolkit root")
find_program(GPUAD_PTXAS ptxas HINTS ${GPUAD_CUDA_PATH}/bin NO_DEFAULT_PATH)
set(GPUAD_LIBDEVICE "${GPUAD_CUDA_PATH}/nvvm/libdevice/libdevice.10.bc")
if(GPUAD_PTXAS AND EXISTS ${GPUAD_LIBDEVICE})
  set(GPUAD_HAVE_CUDA ON)
else()
  set(GPUAD_HAVE_CUDA OFF)
endif()

# Debian's ROCm 5.2 device libraries (package rocm-device-libs) and HIP headers
# (libamdhip64-dev) work with clang 22 for device compiles.
set(GPUAD_ROCM_PATH "/usr" CACHE PATH "ROCm root (holds include/hip)")
set(GPUAD_ROCM_DEVICE_LIBS "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
    CACHE PATH "Directory holding ocml.bc and the oclc_*.bc control libraries")
if(EXISTS ${GPUAD_ROCM_DEVICE_LIBS}/ocml.bc
   AND EXISTS ${GPUAD_ROCM_PATH}/include/hip/hip_runtime.h)
  set(GPUAD_HAVE_HIP ON)
else()
  set(GPUAD_HAVE_HIP OFF)
endif()
message(STATUS "gpuad: CUDA device compiles ${GPUAD_HAVE_CUDA}, HIP device compiles ${GPUAD_HAVE_HIP}")
