//===- FiberSanitizer.h - Telling AddressSanitizer about fiber stacks -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Fibers run on stacks AddressSanitizer did not allocate.  When the
/// program runs under it (the runtime or the device code built with
/// -fsanitize=address), every switch is announced before it happens (the
/// stack about to run: its bottom and size) and confirmed after it (on the
/// new stack), so that ASan's checks, its fake stacks
/// (stack-use-after-return) and the unpoisoning done by longjmp and
/// noreturn calls apply to the stack that really runs.  A stack is
/// unpoisoned before it is reused: a fiber that finished left its last
/// frames' redzones behind.  An instrumented function's locals may live in
/// ASan's fake stack; they are the thread's own memory too.  The runtime
/// finds ASan's interface through weak references, so an uninstrumented
/// runtime serves an instrumented program too; without ASan these calls do
/// nothing.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMU_FIBER_SANITIZER_H
#define GPUAD_EMU_FIBER_SANITIZER_H

#include <cstddef>

extern "C" {
__attribute__((weak)) void __sanitizer_start_switch_fiber(void **FakeStackSave,
                                                          const void *Bottom,
                                                          size_t Size);
__attribute__((weak)) void
__sanitizer_finish_switch_fiber(void *FakeStackSave, const void **OldBottom,
                                size_t *OldSize);
__attribute__((weak)) void
__asan_unpoison_memory_region(const volatile void *Addr, size_t Size);
__attribute__((weak)) void *__asan_get_current_fake_stack();
__attribute__((weak)) void *__asan_addr_is_in_fake_stack(void *FakeStack,
                                                         void *Addr, void **Beg,
                                                         void **End);
}

namespace gpuad::emu {

/// Before switching to the stack [Bottom, Bottom+Size): \p FakeStack keeps
/// the leaving context's fake stack until it runs again; null when the
/// leaving fiber never runs again.
inline void beforeStackSwitch(void **FakeStack, const void *Bottom,
                              size_t Size) {
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(FakeStack, Bottom, Size);
}

/// On the new stack, with the fake stack saved when it was left (null the
/// first time); the stack left is reported in \p OldBottom and \p OldSize.
inline void afterStackSwitch(void *FakeStack, const void **OldBottom,
                             size_t *OldSize) {
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(FakeStack, OldBottom, OldSize);
}

/// Clears what earlier fibers left in the shadow of a stack about to be
/// reused.
inline void unpoisonStack(const void *Bottom, size_t Size) {
  if (__asan_unpoison_memory_region)
    __asan_unpoison_memory_region(Bottom, Size);
}

/// Whether \p P is in a frame of the running thread's (or fiber's) fake
/// stack: under ASan's stack-use-after-return detection, an instrumented
/// function's locals live there instead of on the stack.
inline bool onFakeStack(const void *P) {
  if (!__asan_get_current_fake_stack || !__asan_addr_is_in_fake_stack)
    return false;
  void *Fake = __asan_get_current_fake_stack();
  return Fake && __asan_addr_is_in_fake_stack(Fake, const_cast<void *>(P),
                                              nullptr, nullptr);
}

} // namespace gpuad::emu

#endif // GPUAD_EMU_FIBER_SANITIZER_H
