# The device suite: self-checking CUDA programs from kernels/cuda/, each
# comparing its kernels with a host reference and exiting non-zero on a
# mismatch.  See cmake/GpuadTesting.cmake for the runs each one becomes.

gpuad_add_device_test(suite-reduce-shared ../../kernels/cuda/reduce_shared.cu)
gpuad_add_device_test(suite-matmul-tiled ../../kernels/cuda/matmul_tiled.cu)
gpuad_add_device_test(suite-warp-reduce ../../kernels/cuda/warp_reduce.cu)
gpuad_add_device_test(suite-histogram ../../kernels/cuda/histogram.cu)
gpuad_add_device_test(suite-stencil-halo ../../kernels/cuda/stencil_halo.cu)
