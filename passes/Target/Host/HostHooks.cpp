//===- HostHooks.cpp - Target hooks for CPUs ------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// On a CPU every elementary function a rule needs is an LLVM intrinsic; the
/// backend lowers it to libm (or inline code), for vectors too.  Messages go
/// to stderr; on Linux, shadows of unknown extent are reserved address space
/// (mmap with MAP_NORESERVE: pages are made, zeroed, when first touched).
//===----------------------------------------------------------------------===//

#include "Target/Targets.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace gpuad {

StringRef libraryBaseName(MathFn Fn) {
  switch (Fn) {
  case MathFn::Sin:
    return "sin";
  case MathFn::Cos:
    return "cos";
  case MathFn::Exp:
    return "exp";
  case MathFn::Log:
    return "log";
  case MathFn::Pow:
    return "pow";
  case MathFn::Powi:
    return "powi";
  case MathFn::Sinh:
    return "sinh";
  case MathFn::Cosh:
    return "cosh";
  case MathFn::Atan2:
    return "atan2";
  }
  llvm_unreachable("unknown MathFn");
}

namespace {

/// The reservation's header page holds {total bytes, bytes either side}.
constexpr uint64_t HeaderBytes = 4096;
/// Bytes reserved either side of the middle, tried in turn (an address-space
/// limit, `ulimit -v` or valgrind, refuses the first).
constexpr uint64_t FirstHalf = uint64_t(1) << 40, LeastHalf = uint64_t(1) << 28;

class HostHooks final : public TargetHooks {
public:
  explicit HostHooks(Module &M)
      : M(M), Linux(M.getTargetTriple().isOSLinux()) {}

  StringRef name() const override { return "host"; }
  bool isGPU() const override { return false; }
  bool isInactiveCall(const CallBase &) const override { return false; }

  Value *emit(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) override {
    switch (Fn) {
    case MathFn::Sin:
      return B.CreateUnaryIntrinsic(Intrinsic::sin, Args[0]);
    case MathFn::Cos:
      return B.CreateUnaryIntrinsic(Intrinsic::cos, Args[0]);
    case MathFn::Exp:
      return B.CreateUnaryIntrinsic(Intrinsic::exp, Args[0]);
    case MathFn::Log:
      return B.CreateUnaryIntrinsic(Intrinsic::log, Args[0]);
    case MathFn::Sinh:
      return B.CreateUnaryIntrinsic(Intrinsic::sinh, Args[0]);
    case MathFn::Cosh:
      return B.CreateUnaryIntrinsic(Intrinsic::cosh, Args[0]);
    case MathFn::Pow:
      return B.CreateBinaryIntrinsic(Intrinsic::pow, Args[0], Args[1]);
    case MathFn::Atan2:
      return B.CreateBinaryIntrinsic(Intrinsic::atan2, Args[0], Args[1]);
    case MathFn::Powi:
      return B.CreateIntrinsic(Intrinsic::powi,
                               {Args[0]->getType(), Args[1]->getType()},
                               {Args[0], Args[1]});
    }
    llvm_unreachable("unknown MathFn");
  }

  void emitPrint(IRBuilderBase &B, StringRef Message) override {
    emitPrintString(B, B.CreateGlobalString(Message, "gpuad.msg"));
  }

  void emitPrintString(IRBuilderBase &B, Value *Message) override {
    // dprintf(2, ...): stderr without naming the C library's FILE object.
    FunctionCallee Print = M.getOrInsertFunction(
        "dprintf", FunctionType::get(B.getInt32Ty(),
                                     {B.getInt32Ty(), B.getPtrTy()}, true));
    B.CreateCall(Print, {B.getInt32(2), B.CreateGlobalString("%s\n"), Message});
  }

  std::pair<Value *, Value *> emitReserveAround(IRBuilderBase &B) override {
    if (!Linux)
      return {nullptr, nullptr};
    Value *Block = B.CreateCall(reserveFunction(), {}, "reserved");
    Value *Half = B.CreateLoad(B.getInt64Ty(),
                               B.CreateConstGEP1_64(B.getInt8Ty(), Block, 8));
    Value *Middle = B.CreateGEP(B.getInt8Ty(), Block,
                                B.CreateAdd(Half, B.getInt64(HeaderBytes)),
                                "reserved.middle");
    return {Block, Middle};
  }

  void emitReleaseReserved(IRBuilderBase &B, Value *Block) override {
    FunctionCallee Unmap = M.getOrInsertFunction(
        "munmap", FunctionType::get(B.getInt32Ty(),
                                    {B.getPtrTy(), B.getInt64Ty()}, false));
    B.CreateCall(Unmap, {Block, B.CreateLoad(B.getInt64Ty(), Block)});
  }

private:
  Module &M;
  bool Linux;

  /// `gpuad.reserve()`: mmap of 2*Half + a header page, Half from FirstHalf
  /// down to LeastHalf; the header records the sizes.
  Function *reserveFunction() {
    StringRef Name = "gpuad.reserve";
    if (Function *F = M.getFunction(Name))
      return F;
    LLVMContext &C = M.getContext();
    Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C),
         *I32 = Type::getInt32Ty(C);
    Function *F = Function::Create(FunctionType::get(Ptr, false),
                                   GlobalValue::InternalLinkage, Name, M);
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::NoInline);
    FunctionCallee Map = M.getOrInsertFunction(
        "mmap", FunctionType::get(Ptr, {Ptr, I64, I32, I32, I32, I64}, false));
    auto *Entry = BasicBlock::Create(C, "entry", F);
    auto *Try = BasicBlock::Create(C, "try", F);
    auto *Smaller = BasicBlock::Create(C, "smaller", F);
    auto *Fail = BasicBlock::Create(C, "fail", F);
    auto *Done = BasicBlock::Create(C, "done", F);
    IRBuilder<> B(Entry);
    B.CreateBr(Try);
    B.SetInsertPoint(Try);
    PHINode *Half = B.CreatePHI(I64, 2, "half");
    Value *Total = B.CreateAdd(B.CreateShl(Half, 1), B.getInt64(HeaderBytes));
    // PROT_READ | PROT_WRITE; MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE.
    Value *P =
        B.CreateCall(Map, {ConstantPointerNull::get(cast<PointerType>(Ptr)),
                           Total, B.getInt32(0x3), B.getInt32(0x4022),
                           B.getInt32(-1), B.getInt64(0)});
    Value *Failed = B.CreateICmpEQ(B.CreatePtrToInt(P, I64), B.getInt64(-1));
    B.CreateCondBr(Failed, Smaller, Done);
    B.SetInsertPoint(Smaller);
    Value *Next = B.CreateLShr(Half, 2);
    B.CreateCondBr(B.CreateICmpULT(Next, B.getInt64(LeastHalf)), Fail, Try);
    Half->addIncoming(B.getInt64(FirstHalf), Entry);
    Half->addIncoming(Next, Smaller);
    B.SetInsertPoint(Fail);
    emitTrap(B, "gpuad: cannot reserve address space for the scratch shadow "
                "of an enzyme_const argument (mmap failed); pass the "
                "argument with enzyme_dup and a zeroed shadow");
    B.CreateUnreachable();
    B.SetInsertPoint(Done);
    B.CreateStore(Total, P);
    B.CreateStore(Half, B.CreateConstGEP1_64(B.getInt8Ty(), P, 8));
    B.CreateRet(P);
    return F;
  }
};

} // namespace

std::unique_ptr<TargetHooks> makeHostHooks(Module &M) {
  return std::make_unique<HostHooks>(M);
}

} // namespace gpuad
