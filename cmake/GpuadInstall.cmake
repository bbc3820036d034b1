# Installation and the Debian package.
#
#   cmake --install build --prefix P      P/bin/gpuad-cc
#                                         P/lib/gpuad/GPUAD.so, GPUADFrontend.so,
#                                         libgpuad_emu.a
#                                         P/include/gpuad/*.h, P/include/enzyme/
#                                         P/lib/cmake/gpuad/ (the CMake package)
#                                         P/share/doc/gpuad/ (the user docs)
#   cpack -G DEB (in build/)              gpuad_<version>_amd64.deb, for /usr
#
# gpuad-cc finds the plugin, the emulator runtime and the headers relative
# to itself, so the tree works wherever it is installed.  The CMake package
# is cmake/package/ (gpuadConfig.cmake.in documents what it gives).

include(CMakePackageConfigHelpers)

set(GPUAD_INSTALL_LIBDIR lib/gpuad)
set(GPUAD_INSTALL_CMAKEDIR lib/cmake/gpuad)

install(TARGETS gpuad-cc RUNTIME DESTINATION bin)
install(TARGETS GPUAD GPUADFrontend LIBRARY DESTINATION ${GPUAD_INSTALL_LIBDIR})
install(TARGETS gpuad_emu ARCHIVE DESTINATION ${GPUAD_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION include)

configure_file(${PROJECT_SOURCE_DIR}/cmake/package/gpuadConfig.cmake.in
               ${PROJECT_BINARY_DIR}/package/gpuadConfig.cmake @ONLY)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/package/gpuadConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/gpuadConfig.cmake
              ${PROJECT_BINARY_DIR}/package/gpuadConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/package/gpuadDeviceTestArgs.cmake
        DESTINATION ${GPUAD_INSTALL_CMAKEDIR})
install(PROGRAMS ${PROJECT_SOURCE_DIR}/cmake/package/gpuad-launch
                 ${PROJECT_SOURCE_DIR}/cmake/package/gpuad-run-on-gpu
        DESTINATION ${GPUAD_INSTALL_CMAKEDIR})

install(FILES ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/docs/user-guide.md
              ${PROJECT_SOURCE_DIR}/docs/abi.md
              ${PROJECT_SOURCE_DIR}/docs/cxx-api.md
              ${PROJECT_SOURCE_DIR}/docs/emulator.md
        DESTINATION share/doc/gpuad)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
        DESTINATION share/doc/gpuad/examples)

# The Debian package: the same tree under /usr.  The plugin loads into
# Debian's clang 22 (and links its libLLVM); --emulate runs its opt.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpuad)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "gpuad developers <gpuad@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Automatic differentiation of host code and CUDA/HIP kernels in clang")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Without the build's debug information (the plugin is ~90 MB with it).
set(CPACK_STRIP_FILES TRUE)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-22, libclang-cpp22, llvm-22, libllvm22, libc6, libstdc++6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.21)")
set(CPACK_DEBIAN_FILE_NAME "gpuad_${PROJECT_VERSION}_amd64.deb")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)
