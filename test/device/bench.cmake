# The benchmark suite's programs (kernels/cuda/bench, HIP twins in
# kernels/hip/bench), run at their small check size: each compares its
# primal with a host copy and its gradient with central differences and,
# by the dot product, with forward mode.  Their --time mode (realistic
# sizes) runs only on a lent GPU (tools/gpu-suite.sh).  None provides a
# tape pool: tapes that need one come from the device heap.
set(bench ../../kernels/cuda/bench)
set(hip_bench ../../kernels/hip/bench)
foreach(program xs_lookup rs_lookup lbm_d3q19 hex_element)
  string(REPLACE "_" "-" name ${program})
  gpuad_add_device_test(bench-${name} ${bench}/${program}.cu)
  gpuad_add_device_test(bench-hip-${name} ${hip_bench}/${program}.hip)
  # -O0 keeps the derivatives' calls: split halves with their tapes on the
  # heap.  rs_lookup's Faddeeva series is slow unoptimised: one schedule.
  set(schedules)
  if(program STREQUAL "rs_lookup")
    set(schedules SCHEDULES ordered)
  endif()
  gpuad_add_device_test(bench-${name}-O0 ${bench}/${program}.cu FLAGS -O0
                        ${schedules})
  gpuad_add_device_test(bench-hip-${name}-O0 ${hip_bench}/${program}.hip
                        FLAGS -O0 ${schedules})
endforeach()
# rs_lookup with std::complex<double> instead of its struct (__muldc3,
# __divdc3, cexp, cabs through gpuad's complex rows).
gpuad_add_device_test(bench-rs-lookup-std-complex ${bench}/rs_lookup.cu
                      FLAGS -O2 -DRS_STD_COMPLEX)
gpuad_add_device_test(bench-hip-rs-lookup-std-complex ${hip_bench}/rs_lookup.hip
                      FLAGS -O2 -DRS_STD_COMPLEX)
# Lane batching: a forward Jacobian and reverse rows at widths 4..32 with
# the default mapping (auto: lanes), against width-1 requests.
gpuad_add_device_test(bench-lane-jacobian ${bench}/lane_jacobian.cu
                      SCHEDULES ordered)
gpuad_add_device_test(bench-hip-lane-jacobian ${hip_bench}/lane_jacobian.hip
                      SCHEDULES ordered)
# A whole driver's gradient (cudaMalloc, copies, a time loop of launches,
# the loss finished on the host): the example's solver at a check size, and
# the example itself, which fits its coefficient field (one schedule: 25
# gradients of 80 steps).
gpuad_add_device_test(bench-diffusion-reaction ${bench}/diffusion_reaction.cu)
gpuad_add_device_test(bench-hip-diffusion-reaction
                      ${hip_bench}/diffusion_reaction.hip)
gpuad_add_device_test(example-diffusion-reaction
                      ../../examples/diffusion_reaction.cu SCHEDULES ordered)
