//===- MBarrier.cpp - PTX mbarrier objects
//---------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The mbarriers inline PTX uses (cuda::barrier, cuda::memcpy_async on
/// sm_80 and later): the 8-byte object in shared memory holds the current
/// phase's pending arrivals, the arrivals each phase expects, the
/// transaction count (bytes of copies still to complete) and the phase
/// bit.  A phase completes when its pending arrivals and its transaction
/// count reach zero; the next one then expects the same arrivals.  The
/// state an arrival returns is the word before it, whose phase bit a
/// test_wait compares.  Updates are under a lock; a wait that finds the
/// phase incomplete lets the other threads run first.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstring>
#include <mutex>

namespace gpuad::emu {
namespace {

constexpr int Bits = 21;
constexpr int64_t Max = (int64_t(1) << (Bits - 1)) - 1;

struct Word {
  int64_t Pending, Expected, Tx;
  uint64_t Phase;

  static Word decode(uint64_t W) {
    auto Field = [&](int At) { return int64_t(W >> At & ((1u << Bits) - 1)); };
    int64_t Tx = Field(2 * Bits);
    if (Tx >> (Bits - 1)) // signed: complete_tx may come before expect_tx
      Tx -= int64_t(1) << Bits;
    return {Field(0), Field(Bits), Tx, W >> 63};
  }
  uint64_t encode() const {
    uint64_t Mask = (uint64_t(1) << Bits) - 1;
    return (uint64_t(Pending) & Mask) | (uint64_t(Expected) & Mask) << Bits |
           (uint64_t(Tx) & Mask) << (2 * Bits) | Phase << 63;
  }
};

std::mutex &lockFor(const void *P) {
  static std::mutex Locks[16];
  return Locks[(reinterpret_cast<uintptr_t>(P) >> 3) % 16];
}

} // namespace
} // namespace gpuad::emu

using namespace gpuad::emu;

extern "C" uint64_t __gpuad_emu_mbarrier(int32_t Op, void *Bar, int64_t Arg) {
  __gpuad_emu_check(Bar, 8, Op <= 4);
  std::unique_lock<std::mutex> Lock(lockFor(Bar));
  uint64_t Raw;
  memcpy(&Raw, Bar, sizeof Raw);
  Word W = Word::decode(Raw);
  auto Store = [&] {
    if (W.Pending == 0 && W.Tx == 0) { // the phase completes
      W.Phase ^= 1;
      W.Pending = W.Expected;
    }
    uint64_t New = W.encode();
    memcpy(Bar, &New, sizeof New);
  };
  switch (Op) {
  case 0: // init
    if (Arg < 1 || Arg > Max)
      fatal("mbarrier.init with an arrival count out of range");
    W = {Arg, Arg, 0, 0};
    Store();
    return 0;
  case 1: // arrive
  case 2: // arrive_drop: also one fewer arrival in the phases to come
    if (Arg < 1 || Arg > W.Pending)
      fatal("mbarrier arrival beyond the count the phase expects (was the "
            "mbarrier initialised?)");
    W.Pending -= Arg;
    if (Op == 2)
      W.Expected -= Arg;
    Store();
    return Raw;
  case 3: // expect_tx
  case 4: // complete_tx
    W.Tx += Op == 3 ? Arg : -Arg;
    if (W.Tx > Max || W.Tx < -Max)
      fatal("mbarrier transaction count out of range");
    Store();
    return 0;
  default: { // test_wait (a state) or test_wait.parity (a phase's parity)
    uint64_t Waited = Op == 5 ? uint64_t(Arg) >> 63 : uint64_t(Arg) & 1;
    if (W.Phase != Waited)
      return 1;
    Lock.unlock();
    __gpuad_emu_yield();
    Lock.lock();
    memcpy(&Raw, Bar, sizeof Raw);
    return Word::decode(Raw).Phase != Waited;
  }
  }
}
