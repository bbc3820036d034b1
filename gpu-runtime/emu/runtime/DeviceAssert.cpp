//===- DeviceAssert.cpp - assert() in device code -------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A failed assert in a kernel, or a trap, stops the program, as a device-side
/// assert does on the GPU (there it surfaces at the next synchronizing call),
/// with the kernel, block and thread.  CUDA calls __assertfail, HIP
/// __assert_fail (renamed in device code, so that host asserts keep
/// glibc's); the emulator keeps both as calls.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstddef>

using namespace gpuad::emu;

static void assertionFailed(const char *Expr, const char *File, unsigned Line,
                            const char *Function) {
  fatal(std::string(File) + ":" + std::to_string(Line) + ": " + Function +
        ": assertion `" + Expr + "' failed");
}

extern "C" {

void __assertfail(const char *Message, const char *File, unsigned Line,
                  const char *Function, size_t) {
  assertionFailed(Message, File, Line, Function);
}

void __gpuad_emu_assert_fail(const char *Expr, const char *File, unsigned Line,
                             const char *Function) {
  assertionFailed(Expr, File, Line, Function);
}

/// __trap() / llvm.trap: on the GPU the kernel stops with an error the host
/// sees at its next synchronizing call.
[[noreturn]] void __gpuad_emu_trap() { fatal("trap (__trap())"); }

} // extern "C"
