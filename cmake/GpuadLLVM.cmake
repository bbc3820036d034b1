# Finds LLVM 22 and describes how gpuad targets compile against it.
#
# Debian's LLVMConfigVersion.cmake rejects a bare "22", so we ask for the
# package without a version and check the major version ourselves.

find_package(LLVM CONFIG REQUIRED
  HINTS ${GPUAD_LLVM_DIR} /usr/lib/llvm-22/lib/cmake/llvm)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "gpuad needs LLVM 22, found ${LLVM_PACKAGE_VERSION} "
                      "in ${LLVM_DIR}; set GPUAD_LLVM_DIR")
endif()
message(STATUS "gpuad: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

set(GPUAD_LLVM_BIN ${LLVM_TOOLS_BINARY_DIR})
find_program(GPUAD_CLANG clang-${LLVM_VERSION_MAJOR} clang
  HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(GPUAD_CLANGXX clang++ HINTS ${LLVM_TOOLS_BINARY_DIR}
  NO_DEFAULT_PATH REQUIRED)
find_program(GPUAD_OPT opt HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(GPUAD_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
find_program(GPUAD_LIT lit HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)

# Flags every target that includes LLVM headers uses.  The definitions come
# from LLVM itself; the RTTI/EH settings must match how LLVM was built.
add_library(gpuad_llvm_flags INTERFACE)
target_include_directories(gpuad_llvm_flags SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
separate_arguments(GPUAD_LLVM_DEFS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_options(gpuad_llvm_flags INTERFACE ${GPUAD_LLVM_DEFS})
if(NOT LLVM_ENABLE_RTTI)
  target_compile_options(gpuad_llvm_flags INTERFACE -fno-rtti)
endif()
if(NOT LLVM_ENABLE_EH)
  target_compile_options(gpuad_llvm_flags INTERFACE -fno-exceptions)
endif()
target_compile_options(gpuad_llvm_flags INTERFACE -Wall -Wextra
  -Wno-unused-parameter -fvisibility-inlines-hidden)
