// HIP twin of kernels/cuda/bench/lane_jacobian.cu: the same program, compiled
// as HIP (kernels/cuda/bench/include/bench.h maps its runtime calls to HIP's).
#include <hip/hip_runtime.h>

#include "../../cuda/bench/lane_jacobian.cu"
