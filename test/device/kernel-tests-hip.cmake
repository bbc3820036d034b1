# The HIP forward/reverse kernel tests of this directory, run (each file's
# main checks its derivatives against central differences of a host copy;
# see cmake/GpuadTesting.cmake for the emulator and native runs).
gpuad_add_device_test(kernel-hip-checkpointed-loops checkpointed-loops.hip)
gpuad_add_device_test(kernel-hip-checkpointed-loops-O0 checkpointed-loops.hip
                      FLAGS -O0)
gpuad_add_device_test(kernel-hip-elementwise elementwise.hip)
gpuad_add_device_test(kernel-hip-fast-intrinsics fast-intrinsics.hip)
gpuad_add_device_test(kernel-hip-host-device host-device.hip)
gpuad_add_device_test(kernel-hip-kernels kernels.hip)
gpuad_add_device_test(kernel-hip-kernels-O0 kernels.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-math math.hip)
gpuad_add_device_test(kernel-hip-math-only-missing math.hip
                      FLAGS -DONLY_MISSING)
gpuad_add_device_test(kernel-hip-math-const-args math.hip FLAGS -DCONST_ARGS)
gpuad_add_device_test(kernel-hip-math-extra math-extra.hip)
gpuad_add_device_test(kernel-hip-custom-derivatives custom-derivatives.hip)
gpuad_add_device_test(kernel-hip-enzyme-attributes enzyme-attributes.hip)
gpuad_add_device_test(kernel-hip-enzyme-entry-points enzyme-entry-points.hip)
gpuad_add_device_test(kernel-hip-custom-derivatives-O0 custom-derivatives.hip
                      FLAGS -O0)
gpuad_add_device_test(kernel-hip-reverse reverse.hip)
gpuad_add_device_test(kernel-hip-reverse-O0 reverse.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-width-atomics width-atomics.hip)
# The emulator's wavefront operations are slow under concurrent threads.
gpuad_add_device_test(kernel-hip-lanes lanes.hip
                      FLAGS -O2 -mllvm -gpuad-batch-mapping=lanes
                      SCHEDULES ordered shuffled)
gpuad_add_device_test(kernel-hip-lanes-O0 lanes.hip
                      FLAGS -O0 -mllvm -gpuad-batch-mapping=lanes
                      SCHEDULES ordered)
gpuad_add_device_test(kernel-hip-lanes-vector lanes.hip
                      FLAGS -O2 -mllvm -gpuad-batch-mapping=vector
                      SCHEDULES ordered)
gpuad_add_device_test(kernel-hip-warp-shuffles warp-shuffles.hip)
gpuad_add_device_test(kernel-hip-warp-shuffles-O0 warp-shuffles.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-shared-barriers shared-barriers.hip)
gpuad_add_device_test(kernel-hip-shared-barriers-O0 shared-barriers.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-as-function kernel-as-function.hip)
gpuad_add_device_test(kernel-hip-as-function-O0 kernel-as-function.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-gradient-suite gradient-suite.hip)
gpuad_add_device_test(kernel-hip-gradient-suite-O0 gradient-suite.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-gradient-suite-pool gradient-suite.hip
                      FLAGS -O2 -mllvm -gpuad-tape-placement=pool)
gpuad_add_device_test(kernel-hip-gradient-suite-shared gradient-suite.hip
                      FLAGS -O2 -mllvm -gpuad-tape-placement=shared)
gpuad_add_device_test(kernel-hip-dynamic-shared dynamic-shared.hip)
gpuad_add_device_test(kernel-hip-dynamic-shared-O0 dynamic-shared.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-shared-split shared-split.hip)
gpuad_add_device_test(kernel-hip-shared-split-O0 shared-split.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-split-user-tape split-user-tape.hip)
gpuad_add_device_test(kernel-hip-split-user-tape-O0 split-user-tape.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-unmodified-tapes unmodified-tapes.hip)
gpuad_add_device_test(kernel-hip-unmodified-tapes-O0 unmodified-tapes.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-device-heap device-heap.hip)
gpuad_add_device_test(kernel-hip-device-heap-O0 device-heap.hip FLAGS -O0 -DPOOL)
gpuad_add_device_test(kernel-hip-complex complex.hip)
gpuad_add_device_test(kernel-hip-complex-O0 complex.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-runtime-memory runtime-memory.hip)
gpuad_add_device_test(kernel-hip-runtime-memory-O0 runtime-memory.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-host-launch host-launch.hip)
gpuad_add_device_test(kernel-hip-host-launch-O0 host-launch.hip FLAGS -O0)
gpuad_add_device_test(kernel-hip-host-launch-checkpointed host-launch.hip
                      FLAGS -O2 -DCHECKPOINTED=3)
gpuad_add_device_test(kernel-hip-host-launch-struct host-launch-struct.hip)
