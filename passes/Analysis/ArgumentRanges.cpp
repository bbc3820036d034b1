//===- ArgumentRanges.cpp - Bytes a function reaches through its pointers -===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ArgumentRanges.h"

#include "Rules/CallTable.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// The least and greatest value (signed) an expression takes while the
/// function runs, as expressions at its entry.
struct Bounds {
  const SCEV *Min;
  const SCEV *Max;
};

class RangeBuilder {
public:
  RangeBuilder(Function &F, ScalarEvolution &SE, const TargetLibraryInfo &TLI,
               const CallTable &Calls, ArgumentRanges &R)
      : F(F), SE(SE), TLI(TLI), Calls(Calls), DL(F.getDataLayout()), R(R) {}

  void run();

private:
  Function &F;
  ScalarEvolution &SE;
  const TargetLibraryInfo &TLI;
  const CallTable &Calls;
  const DataLayout &DL;
  ArgumentRanges &R;

  void fail(const Twine &Why) {
    if (R.Unknown.empty())
      R.Unknown = Why.str();
  }
  std::optional<Bounds> bounds(const SCEV *S);
  void access(Value *Ptr, const SCEV *Size, bool Write, Instruction &I);
  /// The access at address \p P (\p Ptr, an IR value with that address, for
  /// the object it is in); choices of pointers are followed \p Depth deep.
  void accessAt(const llvm::SCEV *P, Value *Ptr, const SCEV *Size, bool Write,
                Instruction &I, unsigned Depth);
  void access(Value *Ptr, uint64_t Size, bool Write, Instruction &I) {
    access(Ptr, SE.getConstant(Type::getInt64Ty(F.getContext()), Size), Write,
           I);
  }
  void visitCall(CallBase &Call);
};

/// "the load at line 12" (the line where debug info has it).
std::string describeAccess(const Instruction &I) {
  std::string S = "the " + std::string(I.getOpcodeName());
  if (const DebugLoc &Loc = I.getDebugLoc(); Loc && Loc.getLine())
    S += " at line " + std::to_string(Loc.getLine());
  return S;
}

/// Whether the dispatcher can compute \p S at the function's entry: built
/// from constants and integer parameters with operations it can emit.
bool isEntryExpression(const SCEV *S) {
  return !SCEVExprContains(S, [](const SCEV *X) {
    if (const auto *U = dyn_cast<SCEVUnknown>(X))
      return !isa<Argument>(U->getValue()) ||
             !U->getValue()->getType()->isIntegerTy();
    if (const auto *D = dyn_cast<SCEVUDivExpr>(X)) {
      const auto *C = dyn_cast<SCEVConstant>(D->getRHS());
      return !C || C->getValue()->isZero();
    }
    return isa<SCEVAddRecExpr, SCEVPtrToIntExpr, SCEVCouldNotCompute>(X);
  });
}

} // namespace

/// Whether \p E's arithmetic cannot wrap, so that it is monotone in its
/// operands (a recurrence: in its iterations).  64-bit offsets are taken not
/// to: no object spans 2^63 bytes; narrower ones must say so (C's signed
/// arithmetic does; an unsigned char index does not).
static bool isWrapFree(const SCEVNAryExpr *E) {
  return E->hasNoSignedWrap() || E->getType()->getScalarSizeInBits() >= 64;
}

std::optional<Bounds> RangeBuilder::bounds(const SCEV *S) {
  if (!SE.containsAddRecurrence(S))
    return Bounds{S, S};
  // Bounds of each operand, for an expression monotone in every one.
  auto OperandBounds = [&](const SCEVNAryExpr *E,
                           SmallVectorImpl<const SCEV *> &Min,
                           SmallVectorImpl<const SCEV *> &Max) {
    for (const SCEV *Op : E->operands()) {
      std::optional<Bounds> B = bounds(Op);
      if (!B)
        return false;
      Min.push_back(B->Min);
      Max.push_back(B->Max);
    }
    return true;
  };
  SmallVector<const SCEV *, 4> Min, Max;
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    // Monotone in its loop: between the first value and the last.
    if (!AR->isAffine() || !isWrapFree(AR))
      return std::nullopt;
    const SCEV *Trips = SE.getSymbolicMaxBackedgeTakenCount(AR->getLoop());
    if (isa<SCEVCouldNotCompute>(Trips))
      return std::nullopt;
    Trips = SE.getTruncateOrZeroExtend(Trips, AR->getType());
    std::optional<Bounds> First = bounds(AR->getStart());
    std::optional<Bounds> Last = bounds(AR->evaluateAtIteration(Trips, SE));
    if (!First || !Last)
      return std::nullopt;
    return Bounds{SE.getSMinExpr(First->Min, Last->Min),
                  SE.getSMaxExpr(First->Max, Last->Max)};
  }
  if (const auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    if (!isWrapFree(Add) || !OperandBounds(Add, Min, Max))
      return std::nullopt;
    return Bounds{SE.getAddExpr(Min), SE.getAddExpr(Max)};
  }
  if (const auto *Mul = dyn_cast<SCEVMulExpr>(S)) {
    // A constant times the rest (scalar evolution puts constants first).
    const auto *C = dyn_cast<SCEVConstant>(Mul->getOperand(0));
    if (!C || Mul->getNumOperands() != 2 || !isWrapFree(Mul))
      return std::nullopt;
    std::optional<Bounds> B = bounds(Mul->getOperand(1));
    if (!B)
      return std::nullopt;
    const SCEV *Lo = SE.getMulExpr(C, B->Min), *Hi = SE.getMulExpr(C, B->Max);
    if (C->getAPInt().isNegative())
      std::swap(Lo, Hi);
    return Bounds{Lo, Hi};
  }
  if (const auto *MM = dyn_cast<SCEVMinMaxExpr>(S)) {
    // Monotone in each operand, in the order it compares by.
    if (MM->getSCEVType() != scSMaxExpr && MM->getSCEVType() != scSMinExpr)
      return std::nullopt;
    if (!OperandBounds(MM, Min, Max))
      return std::nullopt;
    return Bounds{SE.getMinMaxExpr(MM->getSCEVType(), Min),
                  SE.getMinMaxExpr(MM->getSCEVType(), Max)};
  }
  // Sign extension keeps the signed order; zero extension does too of a
  // value never negative.
  const SCEV *Ext = nullptr;
  if (const auto *SExt = dyn_cast<SCEVSignExtendExpr>(S))
    Ext = SExt->getOperand();
  else if (const auto *ZExt = dyn_cast<SCEVZeroExtendExpr>(S);
           ZExt && SE.isKnownNonNegative(ZExt->getOperand()))
    Ext = ZExt->getOperand();
  if (!Ext)
    return std::nullopt;
  std::optional<Bounds> B = bounds(Ext);
  if (!B)
    return std::nullopt;
  return Bounds{SE.getSignExtendExpr(B->Min, S->getType()),
                SE.getSignExtendExpr(B->Max, S->getType())};
}

void RangeBuilder::access(Value *Ptr, const SCEV *Size, bool Write,
                          Instruction &I) {
  accessAt(SE.getSCEV(Ptr), Ptr, Size, Write, I, 0);
}

void RangeBuilder::accessAt(const SCEV *P, Value *Ptr, const SCEV *Size,
                            bool Write, Instruction &I, unsigned Depth) {
  const auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(P));
  // A pointer chosen among others (a PHI or select that is no recurrence:
  // the next input is the state or the output buffer): the access is at the
  // same offset from each of them.
  if (Base && isa<PHINode, SelectInst>(Base->getValue()) && Depth < 4) {
    auto *Choice = cast<Instruction>(Base->getValue());
    const SCEV *Offset = SE.removePointerBase(P);
    SmallVector<Value *, 4> Options;
    if (auto *Phi = dyn_cast<PHINode>(Choice))
      Options.append(Phi->incoming_values().begin(),
                     Phi->incoming_values().end());
    else
      Options = {cast<SelectInst>(Choice)->getTrueValue(),
                 cast<SelectInst>(Choice)->getFalseValue()};
    for (Value *V : Options) {
      if (V == Choice)
        continue; // the pointer kept: no other address
      const SCEV *Option = SE.getSCEV(V);
      if (const auto *B = dyn_cast<SCEVUnknown>(SE.getPointerBase(Option));
          B && B->getValue() == Choice)
        return fail("the address of " + describeAccess(I) +
                    " is a recurrence scalar evolution does not see");
      accessAt(SE.getAddExpr(Option, Offset), V, Size, Write, I, Depth + 1);
    }
    return;
  }
  auto *Param = Base ? dyn_cast<Argument>(Base->getValue()) : nullptr;
  if (!Param || Param->getParent() != &F) {
    // Memory of the function's own, or read-only constants.
    const Value *Obj = getUnderlyingObject(Ptr);
    const auto *GV = dyn_cast<GlobalVariable>(Obj);
    if (isa<AllocaInst>(Obj) || isNoAliasCall(Obj) ||
        (GV && GV->isConstant() && !Write))
      return;
    std::string What = GV ? "global '" + GV->getName().str() + "'"
                       : isa<LoadInst>(Obj) ? "memory through a loaded pointer"
                       : isa<PHINode, SelectInst>(Obj)
                           ? "memory through a chosen pointer"
                           : "memory not through a parameter";
    return fail(describeAccess(I) + " reaches " + What);
  }
  const SCEV *Offset = SE.removePointerBase(P);
  std::optional<Bounds> B = bounds(Offset);
  std::optional<Bounds> Len = bounds(Size);
  if (!B || !Len)
    return fail("the address of " + describeAccess(I) +
                " is not an affine function of loop counters");
  Type *Int64 = Type::getInt64Ty(F.getContext());
  const SCEV *Lo = SE.getTruncateOrSignExtend(B->Min, Int64);
  const SCEV *Hi = SE.getAddExpr(SE.getTruncateOrSignExtend(B->Max, Int64),
                                 SE.getTruncateOrZeroExtend(Len->Max, Int64));
  if (!isEntryExpression(Lo) || !isEntryExpression(Hi))
    return fail("the addresses of " + describeAccess(I) +
                " depend on more than its integer parameters");
  std::optional<ArgumentRange> &Range = R.Params[Param->getArgNo()];
  if (!Range)
    Range = ArgumentRange{Lo, Hi, Write, false};
  else
    Range = ArgumentRange{SE.getSMinExpr(Range->Lo, Lo),
                          SE.getSMaxExpr(Range->Hi, Hi),
                          Range->Written || Write, Range->InLoop};
  Range->InLoop |= SE.containsAddRecurrence(P);
}

void RangeBuilder::visitCall(CallBase &Call) {
  if (auto *MS = dyn_cast<MemSetInst>(&Call))
    return access(MS->getDest(), SE.getSCEV(MS->getLength()), true, Call);
  if (auto *MT = dyn_cast<MemTransferInst>(&Call)) {
    const SCEV *Len = SE.getSCEV(MT->getLength());
    access(MT->getSource(), Len, false, Call);
    return access(MT->getDest(), Len, true, Call);
  }
  if (Call.isLifetimeStartOrEnd())
    return;
  // Pure functions, and those touching only memory no parameter reaches
  // (errno, the allocator's state).
  MemoryEffects ME = Call.getMemoryEffects()
                         .getWithoutLoc(IRMemLocation::InaccessibleMem)
                         .getWithoutLoc(IRMemLocation::ErrnoMem);
  if (ME.doesNotAccessMemory())
    return;
  // Math functions (rows of the rule table) given no pointers: at most
  // errno, whatever attributes the call carries (none at -O0).
  if (Calls.classify(Call).Scalar && none_of(Call.args(), [](const Use &U) {
        return U->getType()->isPtrOrPtrVectorTy();
      }))
    return;
  // Freeing the function's own allocations.
  if (Value *Freed = getFreedOperand(&Call, &TLI);
      Freed && isNoAliasCall(getUnderlyingObject(Freed)))
    return;
  const Function *Callee = Call.getCalledFunction();
  fail("it calls " +
       (Callee ? "'" + Callee->getName() + "'" : Twine("a function pointer")) +
       ", which may reach memory");
}

void RangeBuilder::run() {
  R.Params.assign(F.arg_size(), std::nullopt);
  if (F.isVarArg())
    return fail("it is variadic");
  for (Instruction &I : instructions(F)) {
    if (!R.Unknown.empty())
      return;
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      access(LI->getPointerOperand(),
             DL.getTypeStoreSize(LI->getType()).getKnownMinValue(), false, I);
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      Type *Ty = SI->getValueOperand()->getType();
      if (!Ty->isSingleValueType() || Ty->isPtrOrPtrVectorTy() ||
          DL.getTypeStoreSize(Ty).isScalable())
        return fail("it stores a pointer or an aggregate (" +
                    describeAccess(I) + ")");
      access(SI->getPointerOperand(), DL.getTypeStoreSize(Ty).getFixedValue(),
             true, I);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      access(RMW->getPointerOperand(),
             DL.getTypeStoreSize(RMW->getType()).getFixedValue(), true, I);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      access(CX->getPointerOperand(),
             DL.getTypeStoreSize(CX->getNewValOperand()->getType())
                 .getFixedValue(),
             true, I);
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      visitCall(*Call);
    } else if (I.mayReadOrWriteMemory()) {
      return fail(describeAccess(I) + " reaches memory");
    }
  }
}

ArgumentRanges computeArgumentRanges(Function &F, ScalarEvolution &SE,
                                     const TargetLibraryInfo &TLI,
                                     const CallTable &Calls) {
  ArgumentRanges R;
  RangeBuilder(F, SE, TLI, Calls, R).run();
  if (!R.Unknown.empty())
    R.Params.assign(F.arg_size(), std::nullopt);
  return R;
}

} // namespace gpuad
