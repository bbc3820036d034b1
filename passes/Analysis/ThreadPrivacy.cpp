//===- ThreadPrivacy.cpp - Memory only one GPU thread touches -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ThreadPrivacy.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace gpuad {

namespace {
/// An integer as T * threadIdx.x + P * (blockIdx.x * blockDim.x) + C.
struct Linear {
  int64_t T = 0, P = 0, C = 0;
};
using GridValue = TargetHooks::GridValue;
} // namespace

static std::optional<Linear> scaled(std::optional<Linear> A, int64_t K) {
  if (!A)
    return std::nullopt;
  Linear R;
  if (MulOverflow(A->T, K, R.T) || MulOverflow(A->P, K, R.P) ||
      MulOverflow(A->C, K, R.C))
    return std::nullopt;
  return R;
}

static std::optional<Linear> sum(std::optional<Linear> A,
                                 std::optional<Linear> B) {
  if (!A || !B)
    return std::nullopt;
  Linear R;
  if (AddOverflow(A->T, B->T, R.T) || AddOverflow(A->P, B->P, R.P) ||
      AddOverflow(A->C, B->C, R.C))
    return std::nullopt;
  return R;
}

/// \p V without integer extensions and truncations, the index arithmetic
/// taken as not wrapping (grid ids fit their types).  `ashr (shl X, k), k`
/// is InstCombine's sign extension of X's low bits.
static const Value *stripExtensions(const Value *V) {
  while (true) {
    if (isa<ZExtInst>(V) || isa<SExtInst>(V) || isa<TruncInst>(V)) {
      V = cast<Instruction>(V)->getOperand(0);
      continue;
    }
    const auto *AShr = dyn_cast<BinaryOperator>(V);
    const auto *Shl = AShr && AShr->getOpcode() == Instruction::AShr
                          ? dyn_cast<BinaryOperator>(AShr->getOperand(0))
                          : nullptr;
    if (Shl && Shl->getOpcode() == Instruction::Shl &&
        isa<ConstantInt>(Shl->getOperand(1)) &&
        Shl->getOperand(1) == AShr->getOperand(1)) {
      V = Shl->getOperand(0);
      continue;
    }
    return V;
  }
}

static std::optional<Linear> linear(const Value *V, const TargetHooks &Target,
                                    unsigned Depth = 0) {
  if (Depth > 12)
    return std::nullopt;
  V = stripExtensions(V);
  if (const auto *C = dyn_cast<ConstantInt>(V)) {
    if (C->getBitWidth() > 64)
      return std::nullopt;
    return Linear{0, 0, C->getSExtValue()};
  }
  if (Target.classifyGridValue(*V) == GridValue::ThreadIdX)
    return Linear{1, 0, 0};
  const auto *I = dyn_cast<BinaryOperator>(V);
  if (!I)
    return std::nullopt;
  auto Op = [&](unsigned K) {
    return linear(I->getOperand(K), Target, Depth + 1);
  };
  auto ConstOp = [&](unsigned K) -> std::optional<int64_t> {
    if (const auto *C = dyn_cast<ConstantInt>(I->getOperand(K)))
      if (C->getBitWidth() <= 64)
        return C->getSExtValue();
    return std::nullopt;
  };
  switch (I->getOpcode()) {
  case Instruction::Add:
    return sum(Op(0), Op(1));
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(I)->isDisjoint())
      return std::nullopt;
    return sum(Op(0), Op(1));
  case Instruction::Sub:
    return sum(Op(0), scaled(Op(1), -1));
  case Instruction::Shl:
    if (std::optional<int64_t> K = ConstOp(1); K && *K >= 0 && *K < 62)
      return scaled(Op(0), int64_t(1) << *K);
    return std::nullopt;
  case Instruction::Mul: {
    if (std::optional<int64_t> K = ConstOp(1))
      return scaled(Op(0), *K);
    if (std::optional<int64_t> K = ConstOp(0))
      return scaled(Op(1), *K);
    // blockIdx.x * blockDim.x, either way round.
    GridValue A = Target.classifyGridValue(*stripExtensions(I->getOperand(0)));
    GridValue B = Target.classifyGridValue(*stripExtensions(I->getOperand(1)));
    if ((A == GridValue::BlockIdX && B == GridValue::BlockDimX) ||
        (A == GridValue::BlockDimX && B == GridValue::BlockIdX))
      return Linear{0, 1, 0};
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

std::optional<ThreadPrivacy::Slot> ThreadPrivacy::slotOf(const Value *Ptr,
                                                         uint64_t Size) const {
  std::optional<Linear> Offset = Linear{};
  const Value *Base = Ptr;
  while (true) {
    Base = Base->stripPointerCasts();
    const auto *GEP = dyn_cast<GEPOperator>(Base);
    if (!GEP)
      break;
    unsigned Bits = DL.getIndexTypeSizeInBits(GEP->getType());
    SmallMapVector<Value *, APInt, 4> Variable;
    APInt Constant(Bits, 0);
    if (!GEP->collectOffset(DL, Bits, Variable, Constant))
      return std::nullopt;
    Offset = sum(Offset, Linear{0, 0, Constant.getSExtValue()});
    for (auto &[V, Scale] : Variable)
      Offset = sum(Offset, scaled(linear(V, Target), Scale.getSExtValue()));
    if (!Offset)
      return std::nullopt;
    Base = GEP->getPointerOperand();
  }
  // One slot per thread: the offset is s * gid + c with c inside the slot.
  if (!isa<Argument>(Base) || Offset->T <= 0 || Offset->T != Offset->P ||
      Offset->C < 0 || uint64_t(Offset->C) + Size > uint64_t(Offset->T))
    return std::nullopt;
  return Slot{Base, Offset->T, Offset->C};
}

ThreadPrivacy::ThreadPrivacy(
    ArrayRef<Instruction *> Insts, std::function<int(const Value *)> ClassOf,
    std::function<bool(const Value *, const Value *)> MayOverlap,
    std::function<bool(const Value *)> HasShadow, const TargetHooks &Target,
    const DataLayout &DL)
    : Target(Target), DL(DL), ClassOf(std::move(ClassOf)) {
  // Every access to a class must be a slot of the same base and stride.
  DenseMap<int, const Value *> Example;
  bool OtherDimensions = false;
  auto Access = [&](const Value *Ptr, std::optional<uint64_t> Size) {
    int C = this->ClassOf(Ptr);
    if (C < 0)
      return;
    Example.try_emplace(C, Ptr);
    std::optional<Slot> S = Size ? slotOf(Ptr, *Size) : std::nullopt;
    auto [It, New] = Classes.try_emplace(C, S);
    if (New || !It->second)
      return;
    if (!S || S->Base != It->second->Base || S->Stride != It->second->Stride)
      It->second = std::nullopt;
  };
  auto SizeOf = [&](Type *Ty) -> std::optional<uint64_t> {
    TypeSize TS = DL.getTypeStoreSize(Ty);
    if (TS.isScalable())
      return std::nullopt;
    return TS.getFixedValue();
  };
  for (Instruction *I : Insts) {
    if (Target.classifyGridValue(*I) == GridValue::OtherDimension)
      OtherDimensions = true;
    if (auto *LI = dyn_cast<LoadInst>(I))
      Access(LI->getPointerOperand(), SizeOf(LI->getType()));
    else if (auto *SI = dyn_cast<StoreInst>(I))
      Access(SI->getPointerOperand(), SizeOf(SI->getValueOperand()->getType()));
    else if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      Access(RMW->getPointerOperand(), SizeOf(RMW->getType()));
    else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
      Access(CX->getPointerOperand(),
             SizeOf(CX->getNewValOperand()->getType()));
    else if (auto *Call = dyn_cast<CallBase>(I)) {
      if (isa<DbgInfoIntrinsic>(Call) || Call->isLifetimeStartOrEnd())
        continue;
      // Memory intrinsics and calls: their accesses are not slots.
      for (const Use &A : Call->args())
        if (A->getType()->isPointerTy())
          Access(A.get(), std::nullopt);
    }
  }
  // Slots of one thread index are only disjoint in a one-dimensional launch,
  // and only if no other shadowed memory reaches into the same array.
  for (auto &[C, S] : Classes) {
    if (!S)
      continue;
    if (OtherDimensions) {
      S = std::nullopt;
      continue;
    }
    for (auto &[Other, Ptr] : Example)
      if (Other != C && HasShadow(Ptr) && MayOverlap(Example[C], Ptr)) {
        S = std::nullopt;
        break;
      }
  }
}

bool ThreadPrivacy::isPrivate(const Value *Ptr) const {
  int C = ClassOf(Ptr);
  if (C < 0)
    return false;
  auto It = Classes.find(C);
  return It != Classes.end() && It->second.has_value();
}

} // namespace gpuad
