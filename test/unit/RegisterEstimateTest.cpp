//===- RegisterEstimateTest.cpp - Registers a function needs --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Planner/LaneMapping.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace gpuad;

namespace {

std::unique_ptr<Module> parse(LLVMContext &C, const char *IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, C);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

// Four doubles loaded before any is used: with the pointer, 4 x 2 + 2 words
// live at once; a chain that uses each value at once needs far fewer.
TEST(RegisterEstimate, CountsValuesLiveTogether) {
  LLVMContext C;
  auto M = parse(C, R"(
    define double @wide(ptr %p) {
      %a = load double, ptr %p
      %q1 = getelementptr double, ptr %p, i64 1
      %b = load double, ptr %q1
      %q2 = getelementptr double, ptr %p, i64 2
      %c = load double, ptr %q2
      %q3 = getelementptr double, ptr %p, i64 3
      %d = load double, ptr %q3
      %ab = fadd double %a, %b
      %cd = fadd double %c, %d
      %r = fadd double %ab, %cd
      ret double %r
    }
    define double @chain(ptr %p) {
      %a = load double, ptr %p
      %b = fmul double %a, %a
      %c = fmul double %b, %b
      %d = fmul double %c, %c
      ret double %d
    }
    define <8 x double> @vector(<8 x double> %v, <8 x double> %w) {
      %s = fadd <8 x double> %v, %w
      ret <8 x double> %s
    }
  )");
  EXPECT_GE(estimateRegisters(*M->getFunction("wide")), 10u);
  EXPECT_LE(estimateRegisters(*M->getFunction("chain")), 6u);
  // Two 8-wide double vectors and the sum: 16 words each.
  EXPECT_GE(estimateRegisters(*M->getFunction("vector")), 32u);
}

// A value defined before a loop and used after it is live through the loop.
TEST(RegisterEstimate, ValuesLiveAcrossLoops) {
  LLVMContext C;
  auto M = parse(C, R"(
    define double @loop(double %x, i32 %n) {
    entry:
      %keep = fmul double %x, %x
      br label %body
    body:
      %i = phi i32 [ 0, %entry ], [ %i1, %body ]
      %acc = phi double [ 0.0, %entry ], [ %acc1, %body ]
      %acc1 = fadd double %acc, %x
      %i1 = add i32 %i, 1
      %c = icmp slt i32 %i1, %n
      br i1 %c, label %body, label %exit
    exit:
      %r = fadd double %acc1, %keep
      ret double %r
    }
  )");
  // keep, x, acc and acc1 (2 words each), i, i1 and n.
  EXPECT_GE(estimateRegisters(*M->getFunction("loop")), 8u);
}

} // namespace
