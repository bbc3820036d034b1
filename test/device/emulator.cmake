# The emulator's own programs (the error and schedule tests are lit tests
# in emulator/).
gpuad_add_device_test(emulator-runtime-api emulator/Inputs/runtime-api.cu)
gpuad_add_device_test(emulator-wave64 emulator/Inputs/wave64.hip)
gpuad_add_device_test(emulator-wave64-O0 emulator/Inputs/wave64.hip FLAGS -O0
                      SCHEDULES ordered)
# The demo's CUDA program: host and device derivatives of a shading kernel.
gpuad_add_device_test(demo-shading ../../kernels/cuda/shading.cu)
