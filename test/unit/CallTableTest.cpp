//===- CallTableTest.cpp - What the call table says a call is ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// The call table answers from rows: every generated spelling of a buffer
/// routine is found, a function of the same name but another type is not,
/// and what one module adds (a function registered "like" a row, a target's
/// spellings) is that module's alone.
///
//===----------------------------------------------------------------------===//

#include "Rules/CallTable.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Target/TargetHooks.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace gpuad;

namespace {

std::unique_ptr<Module> parse(LLVMContext &C, StringRef IR) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Err, C);
  if (!M)
    Err.print("CallTableTest", errs());
  return M;
}

/// The class of each call in @f, in order.
std::vector<CallClass> classesIn(Module &M, const CallTable &T) {
  std::vector<CallClass> Out;
  for (Instruction &I : instructions(*M.getFunction("f")))
    if (auto *Call = dyn_cast<CallBase>(&I))
      Out.push_back(T.classify(*Call));
  return Out;
}

TEST(CallTable, BufferRoutineSpellings) {
  LLVMContext C;
  auto M = parse(C, R"IR(
declare double @cblas_ddot(i32, ptr, i32, ptr, i32)
declare float @cblas_sdot(i32, ptr, i32, ptr, i32)
declare double @ddot_(ptr, ptr, ptr, ptr, ptr)
declare void @saxpy_(ptr, ptr, ptr, ptr, ptr, ptr)
declare void @cblas_dscal(i32, double, ptr, i32)
declare void @dcopy_(ptr, ptr, ptr, ptr, ptr)
define void @f(ptr %x, i32 %n, ptr %p) {
  %a = call double @cblas_ddot(i32 %n, ptr %x, i32 1, ptr %x, i32 1)
  %b = call float @cblas_sdot(i32 %n, ptr %x, i32 1, ptr %x, i32 1)
  %c = call double @ddot_(ptr %p, ptr %x, ptr %p, ptr %x, ptr %p)
  call void @saxpy_(ptr %p, ptr %p, ptr %x, ptr %p, ptr %x, ptr %p)
  call void @cblas_dscal(i32 %n, double 2.0, ptr %x, i32 1)
  call void @dcopy_(ptr %p, ptr %x, ptr %p, ptr %x, ptr %p)
  ret void
}
)IR");
  ASSERT_TRUE(M);
  CallTable T(*M, nullptr);
  std::vector<CallClass> Classes = classesIn(*M, T);
  const char *Routines[] = {"dot", "dot", "dot", "axpy", "scal", "copy"};
  const bool Double[] = {true, false, true, false, true, true};
  const bool Fortran[] = {false, false, true, true, false, true};
  const char *Callees[] = {"cblas_ddot", "cblas_sdot",  "ddot_",
                           "saxpy_",     "cblas_dscal", "dcopy_"};
  ASSERT_EQ(Classes.size(), 6u);
  for (unsigned I = 0; I < Classes.size(); ++I) {
    EXPECT_EQ(Classes[I].Effect, CallEffect::Buffer) << I;
    ASSERT_NE(Classes[I].Routine, nullptr) << I;
    EXPECT_STREQ(Classes[I].Routine->Name, Routines[I]) << I;
    EXPECT_EQ(Classes[I].Spelling.Element->isDoubleTy(), Double[I]) << I;
    EXPECT_EQ(Classes[I].Spelling.Convention == BufferSpelling::Fortran,
              Fortran[I])
        << I;
    // The spelling a builder's call of the same routine would use.
    EXPECT_EQ(CallTable::spellingOf(*Classes[I].Routine, Classes[I].Spelling),
              Callees[I]);
  }
}

TEST(CallTable, SameNameOtherTypeIsNotTheRoutine) {
  LLVMContext C;
  // A program's own ddot_ returning an int, and a cblas_ddot taking a
  // double where the length goes: neither is BLAS.
  auto M = parse(C, R"IR(
declare i32 @ddot_(ptr, ptr, ptr, ptr, ptr)
declare double @cblas_ddot(double, ptr, i32, ptr, i32)
define void @f(ptr %x, ptr %p) {
  %a = call i32 @ddot_(ptr %p, ptr %x, ptr %p, ptr %x, ptr %p)
  %b = call double @cblas_ddot(double 1.0, ptr %x, i32 1, ptr %x, i32 1)
  ret void
}
)IR");
  ASSERT_TRUE(M);
  CallTable T(*M, nullptr);
  for (const CallClass &Class : classesIn(*M, T)) {
    EXPECT_EQ(Class.Effect, CallEffect::Unknown);
    EXPECT_EQ(Class.Routine, nullptr);
  }
}

TEST(CallTable, MatrixRoutinesAndTheirOperands) {
  LLVMContext C;
  // CBLAS passes the layout first; Fortran has none, and may end in the
  // hidden lengths of its character flags (gfortran's convention) -- one
  // per flag, no more.
  auto M = parse(C, R"IR(
declare void @cblas_dgemv(i32, i32, i32, i32, double, ptr, i32, ptr, i32, double, ptr, i32)
declare void @sgemm_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64)
declare void @dger_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @dgemv_(ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64)
define void @f(ptr %a, ptr %p, i32 %n) {
  call void @cblas_dgemv(i32 102, i32 111, i32 %n, i32 %n, double 1.0, ptr %a, i32 %n, ptr %a, i32 1, double 0.0, ptr %a, i32 1)
  call void @sgemm_(ptr %p, ptr %p, ptr %p, ptr %p, ptr %p, ptr %p, ptr %a, ptr %p, ptr %a, ptr %p, ptr %p, ptr %a, ptr %p, i64 1, i64 1)
  call void @dger_(ptr %p, ptr %p, ptr %p, ptr %a, ptr %p, ptr %a, ptr %p, ptr %a, ptr %p)
  call void @dgemv_(ptr %p, ptr %p, ptr %p, ptr %p, ptr %a, ptr %p, ptr %a, ptr %p, ptr %p, ptr %a, ptr %p, i64 1, i64 1)
  ret void
}
)IR");
  ASSERT_TRUE(M);
  CallTable T(*M, nullptr);
  std::vector<CallClass> Classes = classesIn(*M, T);
  ASSERT_EQ(Classes.size(), 4u);
  const char *Routines[] = {"gemv", "gemm", "ger"};
  for (unsigned I = 0; I < 3; ++I) {
    EXPECT_EQ(Classes[I].Effect, CallEffect::Buffer) << I;
    ASSERT_NE(Classes[I].Routine, nullptr) << I;
    EXPECT_STREQ(Classes[I].Routine->Name, Routines[I]) << I;
  }
  // dgemv_ has one flag: two hidden lengths are not its spelling.
  EXPECT_EQ(Classes[3].Effect, CallEffect::Unknown);

  // Argument numbers are CBLAS's; a Fortran call's operands lack the
  // layout.  gemm's A is argument 7 (operand 6 of sgemm_), its leading
  // dimension names argument 8.
  const BufferRoutine &Gemm = *Classes[1].Routine;
  EXPECT_FALSE(Gemm.operand(0, BufferSpelling::Fortran));
  EXPECT_EQ(Gemm.operand(7, BufferSpelling::Fortran), 6u);
  EXPECT_EQ(Gemm.operand(7, BufferSpelling::C), 7u);
  EXPECT_EQ(Gemm.Args[7].Kind, ArgKind::Matrix);
  EXPECT_EQ(Gemm.Args[7].Increment, 8);
  EXPECT_EQ(Gemm.Args[Gemm.Args[7].Transpose].Kind, ArgKind::Transpose);
  const BufferRoutine &Gemv = *Classes[0].Routine;
  EXPECT_EQ(Gemv.Args[10].Kind, ArgKind::Vector);
  EXPECT_EQ(Gemv.Args[10].Access, ReadsWrites);
}

TEST(CallTable, RowsOfEachKind) {
  LLVMContext C;
  auto M = parse(C, R"IR(
declare double @sin(double)
declare ptr @malloc(i64)
declare void @_ZdaPvm(ptr, i64)
declare i32 @printf(ptr, ...)
declare void @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)
declare double @unknown(double)
define double @g(double %x) {
  ret double %x
}
define void @f(double %x, ptr %p) {
  %a = call double @sin(double %x)
  %b = call ptr @malloc(i64 8)
  call void @_ZdaPvm(ptr %b, i64 8)
  %c = call i32 (ptr, ...) @printf(ptr %p)
  call void @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %p)
  %d = call double @unknown(double %x)
  %e = call double @g(double %x)
  %f = call double %p(double %x)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  ret void
}
)IR");
  ASSERT_TRUE(M);
  CallTable T(*M, nullptr);
  std::vector<CallClass> Classes = classesIn(*M, T);
  const CallEffect Expected[] = {
      CallEffect::Elementwise, CallEffect::Allocator, CallEffect::Deallocator,
      CallEffect::Inactive,    CallEffect::Structure, CallEffect::Unknown,
      CallEffect::Defined,     CallEffect::Indirect,  CallEffect::MemorySet};
  ASSERT_EQ(Classes.size(), std::size(Expected));
  for (unsigned I = 0; I < Classes.size(); ++I)
    EXPECT_EQ(Classes[I].Effect, Expected[I]) << I;
  EXPECT_EQ(Classes[0].Scalar, findFamily("sin"));
  // delete[] with a size releases like delete[].
  EXPECT_EQ(T.releaseOf(*M->getFunction("_ZdaPvm")).Plain, "_ZdaPv");
}

TEST(CallTable, AliasesStayInTheirModule) {
  LLVMContext C;
  const char *IR = R"IR(
declare double @mylog(double)
define void @f(double %x) {
  %a = call double @mylog(double %x)
  ret void
}
)IR";
  auto A = parse(C, IR);
  auto B = parse(C, IR);
  ASSERT_TRUE(A && B);
  CallTable TA(*A, nullptr), TB(*B, nullptr);
  ASSERT_TRUE(TA.addAlias("mylog", "log"));
  EXPECT_FALSE(TA.addAlias("mylog2", "no-such-row"));
  EXPECT_EQ(classesIn(*A, TA)[0].Effect, CallEffect::Elementwise);
  EXPECT_EQ(classesIn(*A, TA)[0].Scalar, findFamily("log"));
  // The other module's table never heard of it.
  EXPECT_EQ(classesIn(*B, TB)[0].Effect, CallEffect::Unknown);
  // Nor does a table made later for the same module.
  EXPECT_EQ(classesIn(*A, CallTable(*A, nullptr))[0].Effect,
            CallEffect::Unknown);
}

TEST(CallTable, TargetSpellingsComeWithTheTarget) {
  LLVMContext C;
  auto M = parse(C, R"IR(
target triple = "nvptx64-nvidia-cuda"
declare float @llvm.nvvm.ex2.approx.f(float)
define void @f(float %x) {
  %a = call float @llvm.nvvm.ex2.approx.f(float %x)
  ret void
}
)IR");
  ASSERT_TRUE(M);
  Diagnostics Diags;
  std::unique_ptr<TargetHooks> Target =
      makeTargetHooks(*M, GpuadOptions(), Diags);
  CallTable WithTarget(*M, Target.get()), Without(*M, nullptr);
  EXPECT_EQ(classesIn(*M, WithTarget)[0].Scalar, findFamily("exp2"));
  EXPECT_EQ(classesIn(*M, Without)[0].Scalar, nullptr);
}

} // namespace
