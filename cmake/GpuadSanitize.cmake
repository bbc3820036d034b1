# A sanitized build of gpuad's own code: GPUAD_SANITIZE (OFF by default) is
# ON (AddressSanitizer and UndefinedBehaviorSanitizer) or a list of them,
# `address;undefined`.  Targets that link gpuad_sanitize -- the plugin's
# code, gpuad-cc, the emulator runtime and the unit tests -- are compiled
# with -fsanitize=... and UBSan errors abort.
#
# The plugin runs inside Debian's uninstrumented opt and clang, so every
# target uses clang's shared ASan runtime (-shared-libsan), which also holds
# the UBSan handlers; those tools need it preloaded (LD_PRELOAD, set by lit
# from GPUAD_SANITIZER_RUNTIME).  Programs linked against the sanitized emulator
# runtime get the same runtime (GPUAD_EMU_LINK_FLAGS, used by gpuad-cc).

set(GPUAD_SANITIZE OFF CACHE STRING
    "Sanitize gpuad's code: OFF, ON (address;undefined), or a list of address, undefined")

add_library(gpuad_sanitize INTERFACE)
set(GPUAD_SANITIZERS "")
set(GPUAD_SANITIZER_RUNTIME "")
set(GPUAD_EMU_LINK_FLAGS "")
if(NOT GPUAD_SANITIZE)
  return()
endif()

if(GPUAD_SANITIZE MATCHES "^(ON|TRUE|YES|1)$")
  set(GPUAD_SANITIZERS address undefined)
else()
  set(GPUAD_SANITIZERS ${GPUAD_SANITIZE})
endif()
foreach(S IN LISTS GPUAD_SANITIZERS)
  if(NOT S MATCHES "^(address|undefined)$")
    message(FATAL_ERROR "GPUAD_SANITIZE: '${S}' is not address or undefined")
  endif()
endforeach()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "GPUAD_SANITIZE needs clang as the C and C++ compiler "
    "(its runtime is the one preloaded into opt and clang): configure with "
    "-DCMAKE_C_COMPILER=${GPUAD_CLANG} -DCMAKE_CXX_COMPILER=${GPUAD_CLANGXX}")
endif()

list(JOIN GPUAD_SANITIZERS "," joined)
set(flags -fsanitize=${joined} -fno-omit-frame-pointer)
if("undefined" IN_LIST GPUAD_SANITIZERS)
  list(APPEND flags -fno-sanitize-recover=undefined)
endif()
# The runtime: ASan's (it holds UBSan's handlers too), or UBSan's alone.
if("address" IN_LIST GPUAD_SANITIZERS)
  set(runtime libclang_rt.asan-x86_64.so)
else()
  set(runtime libclang_rt.ubsan_standalone-x86_64.so)
endif()
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${runtime}
  OUTPUT_VARIABLE GPUAD_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${GPUAD_SANITIZER_RUNTIME}" OR NOT EXISTS "${GPUAD_SANITIZER_RUNTIME}")
  message(FATAL_ERROR "GPUAD_SANITIZE: no ${runtime} (package libclang-rt-22-dev)")
endif()
cmake_path(GET GPUAD_SANITIZER_RUNTIME PARENT_PATH dir)
set(link_flags -fsanitize=${joined} -shared-libsan -Wl,-rpath,${dir})

target_compile_options(gpuad_sanitize INTERFACE
  $<$<COMPILE_LANGUAGE:C,CXX>:${flags}>)
target_link_options(gpuad_sanitize INTERFACE ${link_flags})
set(GPUAD_EMU_LINK_FLAGS ${link_flags})
message(STATUS "gpuad: sanitized with ${joined}; runtime ${GPUAD_SANITIZER_RUNTIME}")
