//===- CheckpointedLoopTest.cpp - A checkpointed loop's run record --------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
// runtime/CheckpointedLoop on a loop the test runs itself, as generated code
// would: a memory region (an array every step rewrites) and a scalar (the
// step count).  Checked: each reversed step sees exactly the state the loop
// had before it (region and scalar), steps are reversed last first; the
// budget decides the snapshots (the final state counted); the region holds
// the loop's final state again after the reverse sweep; the statistics.
//===----------------------------------------------------------------------===//

#include "CheckpointedLoop.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

constexpr int Cells = 64;

/// The loop: step t adds t + 1 to every cell, and counts in the scalar.
struct LoopRun {
  std::vector<double> Region = std::vector<double>(Cells, 0.0);
  gpuad_checkpointed_loop *Record = nullptr;
  std::vector<int64_t> Reversed;
  bool Wrong = false;

  int64_t &count() {
    return *static_cast<int64_t *>(gpuad_loop_scalars(Record));
  }
  void step(int64_t T) {
    for (double &X : Region)
      X += double(T + 1);
    ++count();
  }
  /// The region's value before step T: 1 + 2 + ... + T.
  static double before(int64_t T) { return double(T * (T + 1) / 2); }

  void forward(int64_t Steps, int64_t Known, int32_t Snapshots,
               int64_t Budget) {
    Record = gpuad_loop_begin(Known, Snapshots, Budget, sizeof(int64_t), 1);
    gpuad_loop_region(Record, 0, Region.data(), Cells * sizeof(double));
    count() = 0;
    for (int64_t T = 0; T < Steps; ++T) {
      gpuad_loop_step(Record, T);
      step(T);
    }
    gpuad_loop_end(Record, Steps);
  }

  void reverse() {
    gpuad_loop_reverse(
        Record,
        [](void *C, int64_t From, int64_t To) {
          LoopRun &R = *static_cast<LoopRun *>(C);
          R.Wrong |= R.count() != From;
          for (int64_t T = From; T < To; ++T)
            R.step(T);
        },
        [](void *C, int64_t T) {
          LoopRun &R = *static_cast<LoopRun *>(C);
          R.Wrong |= R.count() != T || R.Region[0] != before(T) ||
                     R.Region[Cells - 1] != before(T);
          R.Reversed.push_back(T);
          R.step(T); // the taped re-run overwrites the state
        },
        this);
  }
};

void expectReversedInOrder(const LoopRun &R, int64_t Steps) {
  ASSERT_EQ(R.Reversed.size(), size_t(Steps));
  for (int64_t K = 0; K < Steps; ++K)
    EXPECT_EQ(R.Reversed[K], Steps - 1 - K);
}

TEST(CheckpointedLoop, KnownTripCountWithFewSnapshots) {
  LoopRun R;
  R.forward(100, 100, 4, 0);
  R.reverse();
  EXPECT_FALSE(R.Wrong);
  expectReversedInOrder(R, 100);
  // The region is the loop's final state again.
  EXPECT_EQ(R.Region[7], LoopRun::before(100));
  gpuad_loop_stats S = gpuad_last_loop_stats();
  EXPECT_LE(S.snapshots, 4);
  EXPECT_EQ(S.steps, 100);
  EXPECT_EQ(S.state_bytes, int64_t(sizeof(int64_t) + Cells * sizeof(double)));
  EXPECT_GT(S.recomputed_steps, 100);
}

TEST(CheckpointedLoop, OnlineSchedule) {
  LoopRun R;
  R.forward(77, -1, 5, 0);
  R.reverse();
  EXPECT_FALSE(R.Wrong);
  expectReversedInOrder(R, 77);
  EXPECT_EQ(R.Region[0], LoopRun::before(77));
  EXPECT_LE(gpuad_last_loop_stats().snapshots, 5);
}

TEST(CheckpointedLoop, BudgetDecidesSnapshots) {
  // Room for 7 states; one is the final state's: 6 snapshots.
  int64_t State = sizeof(int64_t) + Cells * sizeof(double);
  LoopRun R;
  R.forward(50, 50, 0, 7 * State + 1);
  R.reverse();
  EXPECT_FALSE(R.Wrong);
  expectReversedInOrder(R, 50);
  EXPECT_EQ(gpuad_last_loop_stats().snapshots, 6);

  // A budget below one state still reverses (one snapshot, every step
  // recomputed from the start).
  LoopRun Tight;
  Tight.forward(20, 20, 0, 1);
  Tight.reverse();
  EXPECT_FALSE(Tight.Wrong);
  expectReversedInOrder(Tight, 20);
  gpuad_loop_stats S = gpuad_last_loop_stats();
  EXPECT_EQ(S.snapshots, 1);
  EXPECT_EQ(S.recomputed_steps, 20 * 21 / 2);
}

TEST(CheckpointedLoop, NoSteps) {
  LoopRun R;
  R.Record = gpuad_loop_begin(-1, 3, 0, sizeof(int64_t), 1);
  gpuad_loop_region(R.Record, 0, R.Region.data(), Cells * sizeof(double));
  gpuad_loop_end(R.Record, 0);
  R.reverse();
  EXPECT_TRUE(R.Reversed.empty());
}

} // namespace
