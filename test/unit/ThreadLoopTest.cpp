//===- ThreadLoopTest.cpp - The per-thread record of a device loop --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
// runtime/ThreadLoop on the host: a loop whose scalar state is its step
// number (and a double derived from it), run forward through the record,
// the record then moved to other memory (the derivative carries it by
// value), and reversed.  Checked: every step is reversed once, last first,
// from its own state; the record never touches a byte past
// gpuad_thread_loop_bytes; known and unknown trip counts alike.
//===----------------------------------------------------------------------===//

#include "ThreadLoop.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

struct State {
  int64_t Step;
  double Value;
};

struct Run {
  void *Record = nullptr;
  std::vector<int64_t> Reversed;
  bool Wrong = false;

  State &state() {
    return *static_cast<State *>(gpuad_thread_loop_scalars(Record));
  }
  static void advance(void *C, int64_t From, int64_t To) {
    Run &R = *static_cast<Run *>(C);
    State &S = R.state();
    R.Wrong |= S.Step != From || S.Value != 0.5 * From || To <= From;
    S = {To, 0.5 * To};
  }
  static void reverseStep(void *C, int64_t Step) {
    Run &R = *static_cast<Run *>(C);
    State &S = R.state();
    R.Wrong |= S.Step != Step || S.Value != 0.5 * Step;
    R.Reversed.push_back(Step);
    S = {-1, -1.0}; // (the state after the step is not kept)
  }
};

constexpr unsigned char Guard = 0xA5;

void reverseLoop(int64_t Steps, bool Known, int32_t Slots) {
  SCOPED_TRACE(testing::Message()
               << Steps << " steps, " << Slots << " slots, known " << Known);
  int64_t Bytes = gpuad_thread_loop_bytes(Slots, sizeof(State));
  ASSERT_EQ(Bytes % 8, 0);
  // Each record with guard bytes after it.
  std::vector<int64_t> First(Bytes / 8 + 8), Moved(Bytes / 8 + 8);
  std::memset(First.data(), Guard, First.size() * 8);
  std::memset(Moved.data(), Guard, Moved.size() * 8);
  Run R;
  R.Record = First.data();
  gpuad_thread_loop_begin(R.Record, Known ? Steps : -1, Slots, sizeof(State));
  for (int64_t I = 0; I < Steps; ++I) {
    R.state() = {I, 0.5 * I};
    gpuad_thread_loop_step(R.Record, I);
  }
  R.state() = {Steps, 0.5 * Steps};
  gpuad_thread_loop_end(R.Record, Steps);
  std::memcpy(Moved.data(), First.data(), Bytes);
  std::memset(First.data(), 0, Bytes);
  R.Record = Moved.data();
  gpuad_thread_loop_reverse(R.Record, Run::advance, Run::reverseStep, &R);
  EXPECT_FALSE(R.Wrong);
  ASSERT_EQ((int64_t)R.Reversed.size(), Steps);
  for (int64_t I = 0; I < Steps; ++I)
    EXPECT_EQ(R.Reversed[I], Steps - 1 - I);
  const auto *Tail = reinterpret_cast<const unsigned char *>(Moved.data());
  for (int64_t B = Bytes; B < (int64_t)Moved.size() * 8; ++B)
    ASSERT_EQ(Tail[B], Guard) << "byte " << B << " past the record";
}

TEST(ThreadLoop, KnownTripCounts) {
  for (int32_t Slots : {1, 2, 3, 5, 16})
    for (int64_t Steps : {0, 1, 2, 7, 64, 333})
      reverseLoop(Steps, /*Known=*/true, Slots);
}

TEST(ThreadLoop, TripCountsKnownAtTheEnd) {
  for (int32_t Slots : {1, 2, 3, 5, 16})
    for (int64_t Steps : {0, 1, 2, 7, 64, 333})
      reverseLoop(Steps, /*Known=*/false, Slots);
}

} // namespace
