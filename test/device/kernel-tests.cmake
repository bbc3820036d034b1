# The CUDA forward/reverse kernel tests of this directory, run: each file's
# main checks its derivatives against central differences of a host copy
# (and, where the file has them, lanes against single-width requests and
# forward against reverse mode); see cmake/GpuadTesting.cmake for the
# emulator and native runs.  math-needs-missing-double.cu is an error test
# with no program.

gpuad_add_device_test(kernel-atomics atomics.cu)
gpuad_add_device_test(kernel-checkpointed-loops checkpointed-loops.cu)
gpuad_add_device_test(kernel-checkpointed-loops-O0 checkpointed-loops.cu
                      FLAGS -O0)
gpuad_add_device_test(kernel-custom-derivatives custom-derivatives.cu)
gpuad_add_device_test(kernel-custom-derivatives-O0 custom-derivatives.cu
                      FLAGS -O0)
gpuad_add_device_test(kernel-custom-gradient-launch custom-gradient-launch.cu)
gpuad_add_device_test(kernel-custom-gradient-launch-O0
                      custom-gradient-launch.cu FLAGS -O0)
gpuad_add_device_test(kernel-elementwise elementwise.cu)
gpuad_add_device_test(kernel-enzyme-entry-points enzyme-entry-points.cu)
gpuad_add_device_test(kernel-enzyme-entry-points-O0 enzyme-entry-points.cu
                      FLAGS -O0)
gpuad_add_device_test(kernel-enzyme-attributes enzyme-attributes.cu)
gpuad_add_device_test(kernel-enzyme-attributes-O0 enzyme-attributes.cu
                      FLAGS -O0)
gpuad_add_device_test(kernel-fast-intrinsics fast-intrinsics.cu)
gpuad_add_device_test(kernel-fast-intrinsics-fast-math fast-intrinsics.cu
                      FLAGS -ffast-math -fcuda-flush-denormals-to-zero)
gpuad_add_device_test(kernel-host-device host-device.cu)
gpuad_add_device_test(kernel-loops loops.cu)
gpuad_add_device_test(kernel-loops-O0 loops.cu FLAGS -O0)
gpuad_add_device_test(kernel-math-double math-double.cu)
gpuad_add_device_test(kernel-math-double-const-args math-double.cu
                      FLAGS -DCONST_ARGS)
gpuad_add_device_test(kernel-math-extra math-extra.cu)
gpuad_add_device_test(kernel-math-float math-float.cu)
gpuad_add_device_test(kernel-math-float-only-missing math-float.cu
                      FLAGS -DONLY_MISSING)
gpuad_add_device_test(kernel-noinline-calls noinline-calls.cu)
gpuad_add_device_test(kernel-noinline-calls-O0 noinline-calls.cu FLAGS -O0)
gpuad_add_device_test(kernel-function-pointers function-pointers.cu)
gpuad_add_device_test(kernel-function-pointers-O0 function-pointers.cu FLAGS -O0)
gpuad_add_device_test(kernel-pointers pointers.cu)
gpuad_add_device_test(kernel-reverse reverse.cu)
gpuad_add_device_test(kernel-reverse-O0 reverse.cu FLAGS -O0)
gpuad_add_device_test(kernel-shared-sync shared-sync.cu)
gpuad_add_device_test(kernel-shared-sync-O0 shared-sync.cu FLAGS -O0)
gpuad_add_device_test(kernel-structs structs.cu)
gpuad_add_device_test(kernel-tape-cut tape-cut.cu)
gpuad_add_device_test(kernel-tape-cut-O0 tape-cut.cu FLAGS -O0)
gpuad_add_device_test(kernel-thread-ids thread-ids.cu)
gpuad_add_device_test(kernel-lanes lanes.cu
                      FLAGS -O2 -mllvm -gpuad-batch-mapping=lanes
                      SCHEDULES ordered shuffled)
gpuad_add_device_test(kernel-lanes-concurrent lanes.cu
                      FLAGS -O2 -mllvm -gpuad-batch-mapping=lanes -DLANES_QUICK
                      SCHEDULES concurrent)
gpuad_add_device_test(kernel-lanes-O0 lanes.cu
                      FLAGS -O0 -mllvm -gpuad-batch-mapping=lanes
                      SCHEDULES ordered)
gpuad_add_device_test(kernel-lanes-vector lanes.cu
                      FLAGS -O2 -mllvm -gpuad-batch-mapping=vector
                      SCHEDULES ordered)
gpuad_add_device_test(kernel-width2 width2.cu)
gpuad_add_device_test(kernel-width2-O0 width2.cu FLAGS -O0)
gpuad_add_device_test(kernel-warp-shuffles warp-shuffles.cu)
gpuad_add_device_test(kernel-warp-shuffles-O0 warp-shuffles.cu FLAGS -O0)
gpuad_add_device_test(kernel-as-function kernel-as-function.cu)
gpuad_add_device_test(kernel-as-function-O0 kernel-as-function.cu FLAGS -O0)
gpuad_add_device_test(kernel-shared-barriers shared-barriers.cu)
gpuad_add_device_test(kernel-shared-barriers-O0 shared-barriers.cu FLAGS -O0)
gpuad_add_device_test(kernel-math-rounded-ldg math-rounded-ldg.cu)
gpuad_add_device_test(kernel-math-rounded-ldg-O0 math-rounded-ldg.cu FLAGS -O0)
gpuad_add_device_test(kernel-per-lane-pointers per-lane-pointers.cu)
gpuad_add_device_test(kernel-per-lane-pointers-O0 per-lane-pointers.cu FLAGS -O0)
gpuad_add_device_test(kernel-gradient-suite gradient-suite.cu)
gpuad_add_device_test(kernel-gradient-suite-O0 gradient-suite.cu FLAGS -O0)
gpuad_add_device_test(kernel-gradient-suite-pool gradient-suite.cu
                      FLAGS -O2 -mllvm -gpuad-tape-placement=pool)
gpuad_add_device_test(kernel-gradient-suite-shared gradient-suite.cu
                      FLAGS -O2 -mllvm -gpuad-tape-placement=shared)
gpuad_add_device_test(kernel-dynamic-shared dynamic-shared.cu)
gpuad_add_device_test(kernel-dynamic-shared-O0 dynamic-shared.cu FLAGS -O0)
gpuad_add_device_test(kernel-shared-split shared-split.cu)
gpuad_add_device_test(kernel-shared-split-O0 shared-split.cu FLAGS -O0)
gpuad_add_device_test(kernel-tape-arena tape-arena.cu)
gpuad_add_device_test(kernel-split-user-tape split-user-tape.cu)
gpuad_add_device_test(kernel-split-user-tape-O0 split-user-tape.cu FLAGS -O0)
gpuad_add_device_test(kernel-unmodified-tapes unmodified-tapes.cu)
gpuad_add_device_test(kernel-unmodified-tapes-O0 unmodified-tapes.cu FLAGS -O0)
gpuad_add_device_test(kernel-device-heap device-heap.cu)
gpuad_add_device_test(kernel-device-heap-O0 device-heap.cu FLAGS -O0)
gpuad_add_device_test(kernel-device-heap-pool device-heap.cu FLAGS -O2 -DPOOL)
# Thrust (and the CUB kernels under it, with their inline PTX) on device
# vectors, and a gradient reduced by Thrust: sm_75 (gpuad-cc's default) in
# every schedule (thrust.cu's own RUN lines run sm_90 in one).
gpuad_add_device_test(kernel-thrust thrust.cu)
# The inline PTX translator instruction by instruction, against the PTX
# ISA's definitions (sm_90 adds redux, elect and cp.async).
gpuad_add_device_test(kernel-inline-ptx inline-ptx.cu)
gpuad_add_device_test(kernel-inline-ptx-O0 inline-ptx.cu FLAGS -O0)
gpuad_add_device_test(kernel-inline-ptx-sm90 inline-ptx.cu
                      FLAGS -O2 --cuda-gpu-arch=sm_90)
gpuad_add_device_test(kernel-complex complex.cu)
gpuad_add_device_test(kernel-complex-O0 complex.cu FLAGS -O0)
gpuad_add_device_test(kernel-cxx-api cxx-api.cu FLAGS -O2 -std=c++17)
gpuad_add_device_test(kernel-cxx-api-O0 cxx-api.cu FLAGS -O0 -std=c++17)
gpuad_add_device_test(kernel-runtime-memory runtime-memory.cu)
gpuad_add_device_test(kernel-runtime-memory-O0 runtime-memory.cu FLAGS -O0)
gpuad_add_device_test(kernel-host-launch host-launch.cu)
gpuad_add_device_test(kernel-host-launch-O0 host-launch.cu FLAGS -O0)
# Its time loop checkpointed: by a marker, at -O2 and -O0, and by a budget.
gpuad_add_device_test(kernel-host-launch-checkpointed host-launch.cu
                      FLAGS -O2 -DCHECKPOINTED=3)
gpuad_add_device_test(kernel-host-launch-checkpointed-O0 host-launch.cu
                      FLAGS -O0 -DCHECKPOINTED=3)
gpuad_add_device_test(kernel-host-launch-budget host-launch.cu
                      FLAGS -O2 -DCHECKPOINTED=0 -mllvm -gpuad-tape-budget=1)
gpuad_add_device_test(kernel-host-launch-struct host-launch-struct.cu)
gpuad_add_device_test(kernel-host-launch-struct-O0 host-launch-struct.cu FLAGS -O0)
# cuBLAS from a differentiated driver (the file's own RUN lines check -O2
# and -O0 on the emulator's cuBLAS): natively, against the real one.
gpuad_add_device_test(kernel-cublas-gradients cublas-gradients.cu
                      FLAGS -O2 -lcublas SCHEDULES ordered)
# Thrust algorithms from a differentiated driver, run as gpuad's map
# kernels (the file's own RUN lines check -O2 and -O0 in one schedule).
gpuad_add_device_test(kernel-host-thrust host-thrust.cu)
