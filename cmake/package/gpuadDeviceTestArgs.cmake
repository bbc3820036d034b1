# The arguments of gpuad_add_device_test(<name> <source>... [FLAGS <flag>...]
# [ARGS <arg>...] [SCHEDULES <schedule>...]), with their defaults, for both
# of its definitions: the build tree's (cmake/GpuadTesting.cmake: lit tests)
# and the installed package's (gpuadConfig.cmake: CTest tests).  Sets, in the
# caller's scope:
#   gpuad_test_sources    the sources, as given
#   gpuad_test_flags      FLAGS, with -O2 first unless an -O level is given
#   gpuad_test_args       ARGS
#   gpuad_test_schedules  SCHEDULES, or ordered shuffled concurrent
#   gpuad_test_toolkit    hip if a source is a .hip file, else cuda
function(gpuad_device_test_arguments name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "FLAGS;ARGS;SCHEDULES")
  if(NOT ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gpuad_add_device_test(${name}): no sources")
  endif()
  set(flags ${ARG_FLAGS})
  if(NOT flags MATCHES "(^|;)-O")
    list(PREPEND flags -O2)
  endif()
  set(schedules ${ARG_SCHEDULES})
  if(NOT schedules)
    set(schedules ordered shuffled concurrent)
  endif()
  set(toolkit cuda)
  foreach(src IN LISTS ARG_UNPARSED_ARGUMENTS)
    if(src MATCHES "\\.hip$")
      set(toolkit hip)
    endif()
  endforeach()
  set(gpuad_test_sources ${ARG_UNPARSED_ARGUMENTS} PARENT_SCOPE)
  set(gpuad_test_flags ${flags} PARENT_SCOPE)
  set(gpuad_test_args ${ARG_ARGS} PARENT_SCOPE)
  set(gpuad_test_schedules ${schedules} PARENT_SCOPE)
  set(gpuad_test_toolkit ${toolkit} PARENT_SCOPE)
endfunction()
