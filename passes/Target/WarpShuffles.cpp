//===- WarpShuffles.cpp - Derivatives of warp shuffles --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A shuffle copies a value from one lane to another, so it is linear in the
/// value.  Forward mode shuffles the tangent the same way (ForwardEmitter).
/// Reverse mode needs the transpose: each lane's adjoint goes back to the
/// lane it was read from, and a lane that several lanes read from gets the
/// sum of their adjoints.
///
/// NVPTX (`llvm.nvvm.shfl.sync.{bfly,down,up,idx}`), transposes:
///   - bfly (xor) is its own inverse: the same shuffle of the adjoint;
///   - down(d) is undone by up(d) within the segment, and up(d) by down(d).
///     A lane whose source was out of range kept its own value, and so keeps
///     its own adjoint too;
///   - idx (any source lane, e.g. a broadcast) is the general case. Every
///     lane of the mask offers its adjoint and its source lane, and each lane
///     sums the adjoints addressed to it: 2 x 32 shuffles.
/// AMDGPU (`llvm.amdgcn.ds.bpermute`, which HIP's __shfl* use) takes the
/// general case over the active lanes of the wavefront: 2 x 64 permutes.
//===----------------------------------------------------------------------===//

#include "Support/Inlining.h"
#include "Target/Targets.h"

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

namespace {

enum class NVPTXShuffle { Bfly, Down, Up, Idx };

/// The kind of an NVPTX shfl.sync call, if it is one.
std::optional<NVPTXShuffle> nvptxShuffleKind(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  StringRef Name = Callee->getName();
  // The intrinsics, and gpuad's 64-bit shuffles (normalizeNVPTXShuffles).
  if (!Name.consume_front("llvm.nvvm.shfl.sync.") &&
      !Name.consume_front("gpuad.nvptx.shfl.sync."))
    return std::nullopt;
  if (Name.starts_with("bfly."))
    return NVPTXShuffle::Bfly;
  if (Name.starts_with("down."))
    return NVPTXShuffle::Down;
  if (Name.starts_with("up."))
    return NVPTXShuffle::Up;
  if (Name.starts_with("idx."))
    return NVPTXShuffle::Idx;
  return std::nullopt;
}

/// shfl.sync.<Kind>.p of a 32- or 64-bit value: {value, in range}.  f32
/// and i32 shuffle as themselves, other 32-bit types through i32, 64-bit
/// ones as two halves.
std::pair<Value *, Value *> nvptxShuffle(IRBuilderBase &B, NVPTXShuffle Kind,
                                         Value *Mask, Value *V, Value *Lane,
                                         Value *C);

std::pair<Value *, Value *> nvptxShuffle64(IRBuilderBase &B, NVPTXShuffle Kind,
                                           Value *Mask, Value *V, Value *Lane,
                                           Value *C) {
  Type *Ty = V->getType();
  Value *Bits = B.CreateBitCast(V, B.getInt64Ty());
  auto [Lo, InRange] =
      nvptxShuffle(B, Kind, Mask, B.CreateTrunc(Bits, B.getInt32Ty()), Lane, C);
  Value *Hi =
      nvptxShuffle(B, Kind, Mask,
                   B.CreateTrunc(B.CreateLShr(Bits, 32), B.getInt32Ty()), Lane,
                   C)
          .first;
  Value *Joined = B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                             B.CreateZExt(Lo, B.getInt64Ty()));
  return {B.CreateBitCast(Joined, Ty), InRange};
}

std::pair<Value *, Value *> nvptxShuffle(IRBuilderBase &B, NVPTXShuffle Kind,
                                         Value *Mask, Value *V, Value *Lane,
                                         Value *C) {
  if (V->getType()->getPrimitiveSizeInBits() == 64)
    return nvptxShuffle64(B, Kind, Mask, V, Lane, C);
  static const Intrinsic::ID F32[] = {
      Intrinsic::nvvm_shfl_sync_bfly_f32p, Intrinsic::nvvm_shfl_sync_down_f32p,
      Intrinsic::nvvm_shfl_sync_up_f32p, Intrinsic::nvvm_shfl_sync_idx_f32p};
  static const Intrinsic::ID I32[] = {
      Intrinsic::nvvm_shfl_sync_bfly_i32p, Intrinsic::nvvm_shfl_sync_down_i32p,
      Intrinsic::nvvm_shfl_sync_up_i32p, Intrinsic::nvvm_shfl_sync_idx_i32p};
  Type *Ty = V->getType();
  bool IsFloat = Ty->isFloatTy();
  Value *Word = IsFloat ? V : B.CreateBitCast(V, B.getInt32Ty());
  Value *R = B.CreateIntrinsic((IsFloat ? F32 : I32)[unsigned(Kind)], {},
                               {Mask, Word, Lane, C});
  Value *Out = B.CreateExtractValue(R, 0);
  return {IsFloat ? Out : B.CreateBitCast(Out, Ty), B.CreateExtractValue(R, 1)};
}

/// The source lane of this lane in shfl.sync.idx(b, c), or the lane itself
/// when the source is out of its segment (PTX's rule).
Value *nvptxIdxSource(IRBuilderBase &B, Value *Lane, Value *Bop, Value *C) {
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), 0x1f);
  Value *Clamp = B.CreateAnd(C, 0x1f);
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  Value *NotSeg = B.CreateNot(SegMask);
  Value *MaxLane = B.CreateOr(MinLane, B.CreateAnd(Clamp, NotSeg));
  Value *J = B.CreateOr(MinLane, B.CreateAnd(B.CreateAnd(Bop, NotSeg), 31));
  return B.CreateSelect(B.CreateICmpULE(J, MaxLane), J, Lane);
}

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

} // namespace

std::optional<unsigned> nvptxShuffledOperand(const CallBase &Call) {
  if (!nvptxShuffleKind(Call))
    return std::nullopt;
  return 1; // (mask, value, lane or delta, c)
}

Value *emitNVPTXShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                                 function_ref<Value *(unsigned)> Operand,
                                 Value *Adjoint) {
  NVPTXShuffle Kind = *nvptxShuffleKind(Call);
  Value *Mask = Operand(0), *Bop = Operand(2), *C = Operand(3);
  Type *Ty = Adjoint->getType();
  Value *Zero = Constant::getNullValue(Ty);
  switch (Kind) {
  case NVPTXShuffle::Bfly:
    return nvptxShuffle(B, Kind, Mask, Adjoint, Bop, C).first;
  case NVPTXShuffle::Down:
  case NVPTXShuffle::Up: {
    // Back the other way (its clamp: the segment's first lane for up, its
    // last for down), then this lane's own adjoint if its read was out of
    // range.
    bool Down = Kind == NVPTXShuffle::Down;
    Value *Segment = B.CreateAnd(C, 0x1f00);
    Value *BackC = Down ? Segment : B.CreateOr(Segment, 0x1f);
    auto [Back, BackValid] =
        nvptxShuffle(B, Down ? NVPTXShuffle::Up : NVPTXShuffle::Down, Mask,
                     Adjoint, Bop, BackC);
    Value *ReadOwn =
        B.CreateNot(nvptxShuffle(B, Kind, Mask, Adjoint, Bop, C).second);
    return addAdjoints(B, B.CreateSelect(BackValid, Back, Zero),
                       B.CreateSelect(ReadOwn, Adjoint, Zero));
  }
  case NVPTXShuffle::Idx: {
    Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
    Value *Source = nvptxIdxSource(B, Lane, Bop, C);
    return sumAddressedAdjoints(
        B, Adjoint, Source, Lane, Mask, 32, [&](Value *V, unsigned K) {
          return nvptxShuffle(B, NVPTXShuffle::Idx, Mask, V, B.getInt32(K),
                              B.getInt32(0x1f))
              .first;
        });
  }
  }
  llvm_unreachable("unknown shuffle");
}

namespace {

/// A target's shuffle as the 64-bit normalization sees it.
struct ShuffleForm {
  function_ref<bool(const CallBase &)> IsShuffle;
  unsigned ValueOperand;
  /// The 64-bit helper standing for two 32-bit shuffles like \p Half.
  function_ref<Function *(Module &, const CallBase &Half)> Helper;
};

/// \p V as a 32-bit shuffle of `trunc(X >> Shift)`: the shuffle and X.
std::pair<CallBase *, Value *> halfShuffle(const ShuffleForm &Form, Value *V,
                                           unsigned Shift) {
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
bool isShuffleWrapper(const Function &F) {
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
bool sameValue(const Value *A, const Value *B, unsigned Depth) {
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

/// ds_bpermute of a 32- or 64-bit value.
Value *bpermute(IRBuilderBase &B, Value *Address, Value *V) {
  Type *Ty = V->getType();
  auto Word = [&](Value *W) {
    return B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {}, {Address, W});
  };
  if (Ty->getPrimitiveSizeInBits() == 64) {
    Value *Bits = B.CreateBitCast(V, B.getInt64Ty());
    Value *Lo = Word(B.CreateTrunc(Bits, B.getInt32Ty()));
    Value *Hi = Word(B.CreateTrunc(B.CreateLShr(Bits, 32), B.getInt32Ty()));
    return B.CreateBitCast(
        B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                   B.CreateZExt(Lo, B.getInt64Ty())),
        Ty);
  }
  Value *R = Word(Ty->isIntegerTy(32) ? V : B.CreateBitCast(V, B.getInt32Ty()));
  return Ty->isIntegerTy(32) ? R : B.CreateBitCast(R, Ty);
}

} // namespace

bool normalizeNVPTXShuffles(Function &F) {
  auto Helper = [](Module &M, const CallBase &Half) {
    StringRef Kind = Half.getCalledFunction()
                         ->getName()
                         .drop_front(strlen("llvm.nvvm.shfl.sync."))
                         .split('.')
                         .first;
    NVPTXShuffle K = StringSwitch<NVPTXShuffle>(Kind)
                         .Case("bfly", NVPTXShuffle::Bfly)
                         .Case("down", NVPTXShuffle::Down)
                         .Case("up", NVPTXShuffle::Up)
                         .Default(NVPTXShuffle::Idx);
    return makeShuffle64Helper(
        M, ("gpuad.nvptx.shfl.sync." + Kind + ".f64").str(), Half, 1,
        [&](IRBuilderBase &B, Function &H) {
          return nvptxShuffle(B, K, H.getArg(0), H.getArg(1), H.getArg(2),
                              H.getArg(3))
              .first;
        });
  };
  return normalizeShuffles(
      F, {[](const CallBase &C) { return nvptxShuffleKind(C).has_value(); }, 1,
          Helper});
}

bool normalizeAMDGPUShuffles(Function &F) {
  auto Helper = [](Module &M, const CallBase &Half) {
    return makeShuffle64Helper(M, "gpuad.amdgcn.ds.bpermute.f64", Half, 1,
                               [](IRBuilderBase &B, Function &H) {
                                 return bpermute(B, H.getArg(0), H.getArg(1));
                               });
  };
  return normalizeShuffles(F, {[](const CallBase &C) {
                                 return amdgpuShuffledOperand(C).has_value();
                               },
                               1, Helper});
}

std::optional<unsigned> amdgpuShuffledOperand(const CallBase &Call) {
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  const Function *Callee = Call.getCalledFunction();
  if ((II && II->getIntrinsicID() == Intrinsic::amdgcn_ds_bpermute) ||
      (Callee && Callee->getName() == "gpuad.amdgcn.ds.bpermute.f64"))
    return 1; // (byte address of the source lane, value)
  return std::nullopt;
}

Value *emitAMDGPUShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                                  function_ref<Value *(unsigned)> Operand,
                                  Value *Adjoint) {
  // The active lanes are the exec mask: a ballot of true.
  Value *Active = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                    {B.getTrue()});
  Value *Lane = B.CreateIntrinsic(
      Intrinsic::amdgcn_mbcnt_hi, {},
      {B.getInt32(~0u), B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                          {B.getInt32(~0u), B.getInt32(0)})});
  Value *Source = B.CreateAnd(B.CreateLShr(Operand(0), 2), 63);
  return sumAddressedAdjoints(
      B, Adjoint, Source, Lane, Active, 64,
      [&](Value *V, unsigned K) { return bpermute(B, B.getInt32(4 * K), V); });
}

// ---- Warp aggregation of adjoints -------------------------------------------

Value *nvptxWholeWarpActive(IRBuilderBase &B) {
  return B.CreateICmpEQ(B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}),
                        B.getInt32(~0u));
}

Value *nvptxWarpSum(IRBuilderBase &B, Value *V) {
  // A butterfly over the whole warp: every lane ends with the sum.
  for (unsigned Offset = 16; Offset > 0; Offset /= 2)
    V = addAdjoints(B, V,
                    nvptxShuffle(B, NVPTXShuffle::Bfly, B.getInt32(~0u), V,
                                 B.getInt32(Offset), B.getInt32(0x1f))
                        .first);
  return V;
}

Value *nvptxWarpAllSame(IRBuilderBase &B, Value *V) {
  Value *First = nvptxShuffle(B, NVPTXShuffle::Idx, B.getInt32(~0u), V,
                              B.getInt32(0), B.getInt32(0x1f))
                     .first;
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_all_sync, {},
                           {B.getInt32(~0u), B.CreateICmpEQ(V, First)});
}

Value *nvptxIsWarpLeader(IRBuilderBase &B) {
  return B.CreateICmpEQ(
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
      B.getInt32(0));
}

static Value *amdgpuLane(IRBuilderBase &B) {
  return B.CreateIntrinsic(
      Intrinsic::amdgcn_mbcnt_hi, {},
      {B.getInt32(~0u), B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                          {B.getInt32(~0u), B.getInt32(0)})});
}

Value *amdgpuWholeWarpActive(IRBuilderBase &B) {
  Value *Exec = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                  {B.getTrue()});
  return B.CreateICmpEQ(Exec, B.getInt64(~uint64_t(0)));
}

Value *amdgpuWarpSum(IRBuilderBase &B, Value *V) {
  Value *Lane = amdgpuLane(B);
  for (unsigned Offset = 32; Offset > 0; Offset /= 2)
    V = addAdjoints(B, V,
                    bpermute(B, B.CreateShl(B.CreateXor(Lane, Offset), 2), V));
  return V;
}

Value *amdgpuWarpAllSame(IRBuilderBase &B, Value *V) {
  Value *First = bpermute(B, B.getInt32(0), V);
  Value *Same = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                  {B.CreateICmpEQ(V, First)});
  return B.CreateICmpEQ(Same, B.getInt64(~uint64_t(0)));
}

Value *amdgpuIsWarpLeader(IRBuilderBase &B) {
  return B.CreateICmpEQ(amdgpuLane(B), B.getInt32(0));
}

Value *nvptxReadLane(IRBuilderBase &B, Value *V, Value *Lane, Value *Mask) {
  return nvptxShuffle(B, NVPTXShuffle::Idx, B.CreateTrunc(Mask, B.getInt32Ty()),
                      V, Lane, B.getInt32(0x1f))
      .first;
}

Value *amdgpuLaneIndex(IRBuilderBase &B) { return amdgpuLane(B); }

Value *amdgpuReadLane(IRBuilderBase &B, Value *V, Value *Lane) {
  return bpermute(B, B.CreateShl(Lane, 2), V);
}

} // namespace gpuad
