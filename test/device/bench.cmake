# The benchmark suite's programs (kernels/cuda/bench, HIP twins in
# kernels/hip/bench), run at their small check size: each compares its
# primal with a host copy and its gradient with central differences and,
# by the dot product, with forward mode.  Their --time mode (realistic
# sizes) runs only on a lent GPU (tools/gpu-suite.sh).
set(bench ../../kernels/cuda/bench)
set(hip_bench ../../kernels/hip/bench)
gpuad_add_device_test(bench-xs-lookup ${bench}/xs_lookup.cu)
gpuad_add_device_test(bench-hip-xs-lookup ${hip_bench}/xs_lookup.hip)
gpuad_add_device_test(bench-hex-element ${bench}/hex_element.cu)
gpuad_add_device_test(bench-hex-element-O0 ${bench}/hex_element.cu FLAGS -O0)
gpuad_add_device_test(bench-hip-hex-element ${hip_bench}/hex_element.hip)
gpuad_add_device_test(bench-hip-hex-element-O0 ${hip_bench}/hex_element.hip
                      FLAGS -O0)
