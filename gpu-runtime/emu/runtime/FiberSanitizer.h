//===- FiberSanitizer.h - Telling AddressSanitizer about fiber stacks -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Fibers run on stacks AddressSanitizer did not allocate.  When the
/// runtime (or the program's device code) is built with it, every switch is
/// announced before it happens (the stack about to run: its bottom and
/// size) and confirmed after it (on the new stack), so that ASan's checks,
/// its fake stacks (stack-use-after-return) and the unpoisoning done by
/// longjmp and noreturn calls apply to the stack that really runs.  A stack
/// is unpoisoned before it is reused: a fiber that finished left its last
/// frames' redzones behind.  Without ASan all of this compiles to nothing.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMU_FIBER_SANITIZER_H
#define GPUAD_EMU_FIBER_SANITIZER_H

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUAD_EMU_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPUAD_EMU_ASAN 1
#endif

#ifdef GPUAD_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace gpuad::emu {

/// Before switching to the stack [Bottom, Bottom+Size): \p FakeStack keeps
/// the leaving context's fake stack until it runs again; null when the
/// leaving fiber never runs again.
inline void beforeStackSwitch(void **FakeStack, const void *Bottom,
                              size_t Size) {
#ifdef GPUAD_EMU_ASAN
  __sanitizer_start_switch_fiber(FakeStack, Bottom, Size);
#endif
}

/// On the new stack, with the fake stack saved when it was left (null the
/// first time); the stack left is reported in \p OldBottom and \p OldSize.
inline void afterStackSwitch(void *FakeStack, const void **OldBottom,
                             size_t *OldSize) {
#ifdef GPUAD_EMU_ASAN
  __sanitizer_finish_switch_fiber(FakeStack, OldBottom, OldSize);
#endif
}

/// Clears what earlier fibers left in the shadow of a stack about to be
/// reused.
inline void unpoisonStack(const void *Bottom, size_t Size) {
#ifdef GPUAD_EMU_ASAN
  ASAN_UNPOISON_MEMORY_REGION(Bottom, Size);
#endif
}

} // namespace gpuad::emu

#endif // GPUAD_EMU_FIBER_SANITIZER_H
