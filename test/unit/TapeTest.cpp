//===- TapeTest.cpp - The tape's cache-or-recompute policy ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
//
// Tape::strategy is the one place that decides how the reverse sweep gets a
// forward value.  These tests pin the decision on small functions in the
// form the reverse emitter gives the tape (loop-simplified, LCSSA, one
// return), and check what the decision costs: frames sized at loop entry
// when the trip count is known there, grown otherwise.
//
//===----------------------------------------------------------------------===//

#include "Tape/Tape.h"
#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Tape/ForwardStructure.h"
#include "Target/TargetHooks.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace gpuad;

namespace {

using Strategy = Tape::Strategy;

/// A parsed function with the structure and tape the reverse emitter would
/// build for it.
struct TapeFixture {
  LLVMContext C;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  Diagnostics Diags;
  std::unique_ptr<TargetHooks> Target;
  std::unique_ptr<CallTable> Calls;
  std::unique_ptr<ForwardStructure> FS;
  std::unique_ptr<Tape> T;

  TapeFixture(StringRef IR, std::function<bool(const LoadInst &)> ReadOnly) {
    SMDiagnostic Err;
    M = parseAssemblyString(IR, Err, C);
    if (!M) {
      Err.print("TapeTest", errs());
      return;
    }
    F = M->getFunction("f");
    Target = makeTargetHooks(*M, GpuadOptions(), Diags);
    Calls = std::make_unique<CallTable>(*M, Target.get());
    FS = std::make_unique<ForwardStructure>(*F);
    T = std::make_unique<Tape>(*F, *FS, *Target, *Calls, std::move(ReadOnly));
  }

  Value *named(StringRef Name) {
    for (Instruction &I : instructions(*F))
      if (I.getName() == Name)
        return &I;
    for (Argument &A : F->args())
      if (A.getName() == Name)
        return &A;
    ADD_FAILURE() << "no value named " << Name.str();
    return nullptr;
  }
  Strategy strategy(StringRef Name) { return T->strategy(named(Name)); }
};

// s = sum_i x[i] * x[i]; the loop is in simplified form with LCSSA.
constexpr const char *SumOfSquares = R"IR(
define double @f(ptr %x, i64 %n, double %a) {
entry:
  %twice = fmul double %a, 2.0
  %c = icmp sgt i64 %n, 0
  br i1 %c, label %pre, label %exit

pre:
  br label %loop

loop:
  %i = phi i64 [ 0, %pre ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %pre ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %m = fmul double %v, %v
  %e = call double @exp(double %m)
  %s.next = fadd double %s, %e
  %i.next = add i64 %i, 1
  %d = icmp slt i64 %i.next, %n
  br i1 %d, label %loop, label %loop.exit

loop.exit:
  %s.lcssa = phi double [ %s.next, %loop ]
  br label %exit

exit:
  %r = phi double [ 0.0, %entry ], [ %s.lcssa, %loop.exit ]
  %out = fmul double %r, %twice
  ret double %out
}
declare double @exp(double)
)IR";

TEST(Tape, ArgumentsAndValuesDominatingTheReturnAreAvailable) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  EXPECT_EQ(T.strategy("x"), Strategy::Available);
  EXPECT_EQ(T.strategy("twice"), Strategy::Available);
  EXPECT_EQ(T.strategy("r"), Strategy::Available);
}

TEST(Tape, CanonicalIVIsTheReverseIndex) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  const Loop *L =
      T.FS->loops().getLoopFor(cast<Instruction>(T.named("v"))->getParent());
  ASSERT_TRUE(L);
  EXPECT_EQ(T.T->strategy(T.FS->iv(L)), Strategy::ReverseIndex);
}

TEST(Tape, AffineHeaderPhiAndCheapArithmeticAreRecomputed) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  // %i = 0 + 1 * iteration: no need to keep it.
  EXPECT_EQ(T.strategy("i"), Strategy::Recompute);
  EXPECT_EQ(T.strategy("p"), Strategy::Recompute);
  EXPECT_EQ(T.strategy("m"), Strategy::Recompute);
}

TEST(Tape, RunningSumCallsAndOverwrittenLoadsAreCached) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  // %s is not affine; exp is not cheap; memory that may change is cached.
  EXPECT_EQ(T.strategy("s"), Strategy::Cache);
  EXPECT_EQ(T.strategy("e"), Strategy::Cache);
  EXPECT_EQ(T.strategy("v"), Strategy::Cache);
  // Outside loops but not on every path to the return: cached in a slot.
  EXPECT_EQ(T.strategy("s.lcssa"), Strategy::Cache);
}

TEST(Tape, LoadsOfMemoryNothingWritesAreRecomputed) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return true; });
  ASSERT_TRUE(T.F);
  EXPECT_EQ(T.strategy("v"), Strategy::Recompute);
}

/// Emits a reverse lookup of \p V inside a fresh block and finalizes, so the
/// tape writes its forward side; returns how many calls each function gets.
static StringMap<unsigned> callsAfterLookup(TapeFixture &T, StringRef V) {
  BasicBlock *Rev = BasicBlock::Create(T.C, "rev", T.F);
  IRBuilder<> B(Rev);
  auto *Context = cast<Instruction>(T.named(V))->getParent();
  if (const Loop *L = T.FS->loops().getLoopFor(Context))
    T.T->enterLoop(L, B.getInt64(0), B);
  T.T->lookup(T.named(V), B, Context);
  B.CreateUnreachable();
  T.T->finalize();
  StringMap<unsigned> Calls;
  for (Instruction &I : instructions(*T.F))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *Fn = Call->getCalledFunction())
        ++Calls[Fn->getName()];
  return Calls;
}

TEST(Tape, KnownTripCountSizesTheFrameArrayOnce) {
  TapeFixture T(SumOfSquares, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  StringMap<unsigned> Calls = callsAfterLookup(T, "e");
  EXPECT_EQ(Calls.lookup("malloc"), 1u);
  EXPECT_EQ(Calls.lookup("gpuad.tape.grow"), 0u);
  // One double per iteration.
  const Loop *L =
      T.FS->loops().getLoopFor(cast<Instruction>(T.named("e"))->getParent());
  EXPECT_EQ(T.T->frameBytes(L), 8u);
  EXPECT_FALSE(verifyFunction(*T.F, &errs()));
}

// A loop whose exit depends on the data: no trip count at entry.
constexpr const char *WhileLoop = R"IR(
define double @f(double %x) {
entry:
  br label %loop

loop:
  %v = phi double [ %x, %entry ], [ %v.next, %loop ]
  %h = fmul double %v, 0.5
  %v.next = call double @sin(double %h)
  %big = fcmp ogt double %v.next, 0.001
  br i1 %big, label %loop, label %exit

exit:
  %r = phi double [ %v.next, %loop ]
  ret double %r
}
declare double @sin(double)
)IR";

TEST(Tape, UnknownTripCountGrowsTheFrameArray) {
  TapeFixture T(WhileLoop, [](const LoadInst &) { return false; });
  ASSERT_TRUE(T.F);
  EXPECT_EQ(T.strategy("v.next"), Strategy::Cache);
  EXPECT_EQ(callsAfterLookup(T, "v.next").lookup("gpuad.tape.grow"), 1u);
  EXPECT_FALSE(verifyFunction(*T.F, &errs()));
}

} // namespace
