//===- Warps.cpp - Warp operations both GPU targets share -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A shuffle copies a value from one lane to another, so it is linear in the
/// value.  Forward mode shuffles the tangent the same way (ForwardEmitter).
/// Reverse mode needs the transpose: each lane's adjoint goes back to the
/// lane it was read from, and a lane that several lanes read from gets the
/// sum of their adjoints.  The targets' own shuffles and their transposes
/// are in NVPTX/ and AMDGPU/; what they share is here.
//===----------------------------------------------------------------------===//

#include "Target/Warps.h"
#include "Support/Inlining.h"
#include "Support/Lanes.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace gpuad {

/// The adjoint addressed to this lane, given each lane's adjoint \p Adjoint
/// and source lane \p Source: sum over lanes k of the participating set
/// \p Lanes (a bit mask of \p Width bits) with Source[k] == this lane.
/// \p Read(V, k) reads lane k's V.
Value *sumAddressedAdjoints(IRBuilderBase &B, Value *Adjoint, Value *Source,
                            Value *ThisLane, Value *Lanes, unsigned Width,
                            function_ref<Value *(Value *, unsigned)> Read) {
  Type *Ty = Adjoint->getType();
  Value *Zero = Constant::getNullValue(Ty);
  Value *Sum = nullptr;
  for (unsigned K = 0; K < Width; ++K) {
    Value *Their = Read(Adjoint, K);
    Value *TheirSource = Read(Source, K);
    Value *InSet =
        B.CreateICmpNE(B.CreateAnd(B.CreateLShr(Lanes, K),
                                   ConstantInt::get(Lanes->getType(), 1)),
                       ConstantInt::get(Lanes->getType(), 0));
    Value *ToMe = B.CreateAnd(InSet, B.CreateICmpEQ(TheirSource, ThisLane));
    Value *Term = B.CreateSelect(ToMe, Their, Zero);
    Sum = Sum ? addAdjoints(B, Sum, Term) : Term;
  }
  return Sum;
}

/// \p V as a 32-bit shuffle of `trunc(X >> Shift)`: the shuffle and X.
static std::pair<CallBase *, Value *> halfShuffle(const ShuffleForm &Form,
                                                  Value *V, unsigned Shift) {
  auto *Call = dyn_cast<CallBase>(V);
  if (!Call || !Form.IsShuffle(*Call) || !Call->getType()->isIntegerTy(32) ||
      !Call->hasOneUse())
    return {nullptr, nullptr};
  auto *Trunc = dyn_cast<TruncInst>(Call->getArgOperand(Form.ValueOperand));
  if (!Trunc || !Trunc->getSrcTy()->isIntegerTy(64))
    return {nullptr, nullptr};
  Value *X = Trunc->getOperand(0);
  if (Shift) {
    auto *Shr = dyn_cast<BinaryOperator>(X);
    auto *Amount = Shr ? dyn_cast<ConstantInt>(Shr->getOperand(1)) : nullptr;
    if (!Shr ||
        (Shr->getOpcode() != Instruction::LShr &&
         Shr->getOpcode() != Instruction::AShr) ||
        !Amount || Amount->getZExtValue() != Shift)
      return {nullptr, nullptr};
    X = Shr->getOperand(0);
  }
  return {Call, X};
}

/// A helper `double Name(<Half's operands, value a double>)` whose body
/// \p Body builds from its arguments; inlined after differentiation.
Function *
makeShuffle64Helper(Module &M, StringRef Name, const CallBase &Half,
                    unsigned ValueOperand,
                    function_ref<Value *(IRBuilderBase &, Function &)> Body) {
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 4> Params;
  for (const Use &A : Half.args())
    Params.push_back(A.getOperandNo() == ValueOperand ? Type::getDoubleTy(C)
                                                      : A->getType());
  auto *F =
      Function::Create(FunctionType::get(Type::getDoubleTy(C), Params, false),
                       GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::Convergent);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  B.CreateRet(Body(B, *F));
  return F;
}

/// Whether \p F is one of the shuffle functions of CUDA's and HIP's
/// headers (__shfl_sync, __shfl_xor_sync, ..., __shfl, __shfl_xor, ... for
/// int, float, long long, double), which -O0 leaves as calls.
static bool isShuffleWrapper(const Function &F) {
  if (F.isDeclaration() || !F.getName().starts_with("_Z"))
    return false;
  std::string Plain = demangle(F.getName());
  StringRef Name = StringRef(Plain).split('(').first;
  return Name == "__shfl_sync" || Name == "__shfl_up_sync" ||
         Name == "__shfl_down_sync" || Name == "__shfl_xor_sync" ||
         Name == "__shfl" || Name == "__shfl_up" || Name == "__shfl_down" ||
         Name == "__shfl_xor";
}

/// Whether \p A and \p B compute the same value: the same, or the same
/// side-effect-free instruction of operands that are (to \p Depth levels;
/// -O0 code inlined late repeats the lane arithmetic of each half).
static bool sameValue(const Value *A, const Value *B, unsigned Depth) {
  if (A == B)
    return true;
  const auto *IA = dyn_cast<Instruction>(A), *IB = dyn_cast<Instruction>(B);
  if (!IA || !IB || !Depth || !IA->isSameOperationAs(IB))
    return false;
  // Pure, or HIP's lane id (a plain call at -O0).
  const auto *Call = dyn_cast<CallBase>(IA);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  bool LaneId = Callee && Callee == cast<CallBase>(IB)->getCalledFunction() &&
                demangle(Callee->getName()) == "__lane_id()";
  if (!LaneId && (IA->mayHaveSideEffects() || IA->mayReadFromMemory()))
    return false;
  for (unsigned K = 0; K < IA->getNumOperands(); ++K)
    if (!sameValue(IA->getOperand(K), IB->getOperand(K), Depth - 1))
      return false;
  return true;
}

/// The 64-bit normalization, for either target.
bool normalizeShuffles(Function &F, const ShuffleForm &Form) {
  // At -O0 the headers' shuffle functions are calls: inline them (the
  // caller then cleans up and asks again) so their 32-bit halves show.
  if (inlineCallsTo(F, isShuffleWrapper))
    return true;

  // The headers shuffle a double (or long long) as two 32-bit halves,
  // joined by `(ext hi << 32) | zext lo`; the halves' derivatives are not
  // halves of anything, so gpuad sees one 64-bit shuffle instead.
  SmallVector<Instruction *, 4> Joins;
  for (Instruction &I : instructions(F))
    if (I.getOpcode() == Instruction::Or && I.getType()->isIntegerTy(64))
      Joins.push_back(&I);
  for (Instruction *Join : Joins) {
    Value *HiPart = nullptr, *LoPart = nullptr;
    for (unsigned K = 0; K < 2; ++K) {
      Value *Op = Join->getOperand(K);
      auto *Shl = dyn_cast<BinaryOperator>(Op);
      auto *Amount = Shl ? dyn_cast<ConstantInt>(Shl->getOperand(1)) : nullptr;
      if (Shl && Shl->getOpcode() == Instruction::Shl && Amount &&
          Amount->getZExtValue() == 32)
        HiPart = Shl->getOperand(0);
      else
        LoPart = Op;
    }
    // The high half may be sign-extended (shifted out); the low one not.
    auto *HiExt = dyn_cast_or_null<CastInst>(HiPart);
    auto *LoExt = dyn_cast_or_null<ZExtInst>(LoPart);
    if (!HiExt || !LoExt || (!isa<ZExtInst>(HiExt) && !isa<SExtInst>(HiExt)))
      continue;
    auto [Hi, HiX] = halfShuffle(Form, HiExt->getOperand(0), 32);
    auto [Lo, LoX] = halfShuffle(Form, LoExt->getOperand(0), 0);
    if (!Hi || !Lo || HiX != LoX ||
        Hi->getCalledFunction() != Lo->getCalledFunction())
      continue;
    bool SameArgs = true;
    for (unsigned K = 0; K < Lo->arg_size(); ++K)
      SameArgs &= K == Form.ValueOperand ||
                  sameValue(Hi->getArgOperand(K), Lo->getArgOperand(K), 8);
    if (!SameArgs)
      continue;
    // The helper goes where the later half is, when all its operands exist.
    IRBuilder<> B(Lo->comesBefore(Hi) ? Hi : Lo);
    SmallVector<Value *, 4> Args(Lo->args());
    Args[Form.ValueOperand] = B.CreateBitCast(LoX, B.getDoubleTy());
    Value *Shuffled = B.CreateCall(Form.Helper(*F.getParent(), *Lo), Args);
    B.SetInsertPoint(Join);
    Join->replaceAllUsesWith(B.CreateBitCast(Shuffled, Join->getType()));
  }
  return false;
}

// ---- Warp aggregation of adjoints -------------------------------------------

/// Whether \p P, in address space \p Private or generic (0) with \p
/// IsPrivate telling, is private memory.
Value *isPrivateSpace(IRBuilderBase &B, Value *P, unsigned Private,
                      Intrinsic::ID IsPrivate) {
  unsigned AS = P->getType()->getPointerAddressSpace();
  if (AS != 0)
    return B.getInt1(AS == Private);
  return B.CreateIntrinsic(IsPrivate, {}, {P});
}

} // namespace gpuad
