//===- CheckpointingTest.cpp - Checkpoint schedules -----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
// The schedules of runtime/Checkpointing on a loop whose state is its step
// number: each callback checks that the state it is given is the one the
// schedule promises.  Checked: every step is reversed once, last first, from
// its own state; no more slots are used than given; the offline schedule
// runs as few steps forward as the binomial optimum (a dynamic program over
// every split, for small loops; Griewank's closed form where the program is
// too slow); the online schedule stays within its slots for any length.
//===----------------------------------------------------------------------===//

#include "Checkpointing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

/// A loop whose state is the step it is at.
struct Loop {
  int64_t State = 0;
  std::vector<int64_t> Slots;
  std::vector<int64_t> Reversed;
  int64_t Advanced = 0;
  int64_t Restores = 0;
  bool Wrong = false;

  explicit Loop(int32_t NumSlots) : Slots(NumSlots, -1) {}

  gpuad_checkpoint_ops ops() {
    gpuad_checkpoint_ops Ops;
    Ops.context = this;
    Ops.advance = [](void *C, int64_t From, int64_t To) {
      Loop &L = *static_cast<Loop *>(C);
      L.Wrong |= L.State != From || To <= From;
      L.Advanced += To - From;
      L.State = To;
    };
    Ops.store = [](void *C, int32_t Slot) {
      Loop &L = *static_cast<Loop *>(C);
      L.Wrong |= Slot < 0 || Slot >= (int32_t)L.Slots.size();
      if (!L.Wrong)
        L.Slots[Slot] = L.State;
    };
    Ops.restore = [](void *C, int32_t Slot) {
      Loop &L = *static_cast<Loop *>(C);
      L.Wrong |=
          Slot < 0 || Slot >= (int32_t)L.Slots.size() || L.Slots[Slot] < 0;
      ++L.Restores;
      if (!L.Wrong)
        L.State = L.Slots[Slot];
    };
    Ops.reverse_step = [](void *C, int64_t Step) {
      Loop &L = *static_cast<Loop *>(C);
      L.Wrong |= L.State != Step;
      L.Reversed.push_back(Step);
      L.State = -1; // (the state after the step is not kept)
    };
    return Ops;
  }

  /// The forward sweep of \p Steps steps, storing where \p CP says; then
  /// the reverse sweep.
  void run(int64_t Steps, int64_t KnownSteps, int32_t NumSlots) {
    std::vector<int64_t> At(NumSlots);
    std::vector<int32_t> In(NumSlots);
    gpuad_checkpoints CP;
    gpuad_checkpoints_begin(&CP, KnownSteps, NumSlots, At.data(), In.data());
    gpuad_checkpoint_ops Ops = ops();
    for (int64_t I = 0; I < Steps; ++I) {
      int32_t Slot = gpuad_checkpoints_slot_for(&CP, I);
      if (Slot >= 0)
        Ops.store(this, Slot);
      Ops.advance(this, I, I + 1);
    }
    Advanced = 0; // (the primal's own pass)
    std::vector<int32_t> Scratch(2 * NumSlots);
    gpuad_checkpoints_reverse(&CP, Steps, &Ops, Scratch.data());
  }

  bool reversedEveryStepLastFirst(int64_t Steps) const {
    if ((int64_t)Reversed.size() != Steps)
      return false;
    for (int64_t I = 0; I < Steps; ++I)
      if (Reversed[I] != Steps - 1 - I)
        return false;
    return true;
  }
};

/// The fewest forward steps that reverse \p L steps with \p C slots (the
/// start's included), over every split: F(1, c) = 0, F(l, 1) = l(l-1)/2,
/// F(l, c) = min over m of m + F(l - m, c - 1) + F(m, c).
std::vector<std::vector<int64_t>> optimum(int64_t MaxL, int32_t MaxC) {
  std::vector<std::vector<int64_t>> F(MaxL + 1,
                                      std::vector<int64_t>(MaxC + 1, 0));
  for (int64_t L = 1; L <= MaxL; ++L)
    for (int32_t C = 1; C <= MaxC; ++C) {
      if (L == 1)
        F[L][C] = 0;
      else if (C == 1)
        F[L][C] = L * (L - 1) / 2;
      else {
        int64_t Best = INT64_MAX;
        for (int64_t M = 1; M < L; ++M)
          Best = std::min(Best, M + F[L - M][C - 1] + F[M][C]);
        F[L][C] = Best;
      }
    }
  return F;
}

TEST(Checkpointing, BinomialReversesEveryStepWithTheFewestForwardSteps) {
  const int64_t MaxL = 90;
  const int32_t MaxC = 6;
  auto F = optimum(MaxL, MaxC);
  for (int64_t L = 1; L <= MaxL; ++L)
    for (int32_t C = 1; C <= MaxC; ++C) {
      // Offline: the forward sweep's spine, then the reversal.
      Loop Run(C);
      Run.run(L, L, C);
      ASSERT_FALSE(Run.Wrong) << "l=" << L << " c=" << C;
      ASSERT_TRUE(Run.reversedEveryStepLastFirst(L)) << "l=" << L << " c=" << C;
      EXPECT_EQ(gpuad_checkpoint_forward_steps(L, C), F[L][C])
          << "l=" << L << " c=" << C;
      // The reverse sweep re-runs the spine's segments: at most what the
      // whole schedule runs, less the first pass to the last spine state.
      EXPECT_LE(Run.Advanced, F[L][C]) << "l=" << L << " c=" << C;
      // A restore per reversed step at most: none into the state just
      // stored.
      EXPECT_LE(Run.Restores, L) << "l=" << L << " c=" << C;
    }
}

TEST(Checkpointing, ClosedFormForLongLoops) {
  // Griewank's count for l steps, c slots, r repetitions:
  // r l - C(c + r, r - 1) (the advances to the splits included).
  auto Choose = [](int64_t N, int64_t K) {
    long double B = 1;
    for (int64_t I = 1; I <= K; ++I)
      B = B * (N - K + I) / I;
    return (int64_t)(B + 0.5);
  };
  for (int64_t L : {100, 1000, 5000, 12345})
    for (int32_t C : {2, 3, 5, 10, 40}) {
      int64_t R = 0;
      while (Choose(C + R, C) < L)
        ++R;
      int64_t Want = R * L - Choose(C + R, R - 1);
      EXPECT_EQ(gpuad_checkpoint_forward_steps(L, C), Want)
          << "l=" << L << " c=" << C;
    }
}

TEST(Checkpointing, OnlineStaysWithinItsSlots) {
  for (int32_t C : {1, 2, 3, 4, 7})
    for (int64_t L : {1, 2, 3, 5, 8, 13, 64, 100, 257, 1000}) {
      Loop Run(C);
      Run.run(L, /*KnownSteps=*/-1, C);
      ASSERT_FALSE(Run.Wrong) << "l=" << L << " c=" << C;
      ASSERT_TRUE(Run.reversedEveryStepLastFirst(L)) << "l=" << L << " c=" << C;
    }
}

TEST(Checkpointing, OnlineCostsAFewTimesTheOffline) {
  // Thinning keeps snapshots evenly spaced: its reverse sweep runs at most
  // a small factor more steps than the binomial one (and no more than the
  // quadratic schedule of one slot).
  for (int64_t L : {1000, 5000})
    for (int32_t C : {8, 16, 32}) {
      Loop Online(C);
      Online.run(L, -1, C);
      ASSERT_FALSE(Online.Wrong);
      int64_t Offline = gpuad_checkpoint_forward_steps(L, C);
      EXPECT_LE(Online.Advanced, 3 * Offline + L) << "l=" << L << " c=" << C;
    }
}

} // namespace
