// HIP twin of kernels/cuda/bench/diffusion_reaction.cu: the same program,
// compiled as HIP (the example it includes spells the runtime calls for
// both).
#include <hip/hip_runtime.h>

#include "../../cuda/bench/diffusion_reaction.cu"
