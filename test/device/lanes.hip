// HIP: width-N derivatives computed by the lanes of a wavefront (64 lanes,
// so widths up to 64); the program is lanes.cu's.
//
// REQUIRES: hip
// RUN: %gpuad-cc -x hip --cuda-device-only -O2 -S %s -o /dev/null \
// RUN:   -mllvm -gpuad-batch-mapping=lanes -Rpass=gpuad 2>&1 | FileCheck %s
//
// CHECK-DAG: remark: fwd derivative of '_Z4elemIdEvPKT_PS0_ii' at width 64: {{.*}}; directions: lanes (64 lanes per calling thread
// CHECK-DAG: remark: rev derivative of '_Z4elemIdEvPKT_PS0_ii' at width 64: {{.*}}; directions: lanes (64 lanes per calling thread
// CHECK-DAG: remark: fwd derivative of '_Z5tallyPKdPdPi' at width 4: {{.*}}; directions: lanes ({{.*}}; a lane group not all active uses vectors)

#include <hip/hip_runtime.h>
#define LANES_WARP 64
#define LANES_N 76
#include "lanes.cu"
