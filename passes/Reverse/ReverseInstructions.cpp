//===- ReverseInstructions.cpp - Adjoints of single instructions ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// What each primal instruction does in the reverse sweep.  An active value
/// takes its accumulated adjoint dI and passes it on:
///   - elementwise operations: operand k gets partial_k * dI (the rule
///     table's partials, evaluated on forward values from the tape);
///   - conversions, selects, aggregates, vector operations: the transposed
///     data movement;
///   - loads: dI is added into the shadow memory they read (atomically on a
///     GPU unless the address is the thread's own);
/// and a store takes the adjoint of the location it overwrote (and zeroes
/// it).  Copies and memset are in ReverseMemory.cpp.
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/ThreadPrivacy.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/LastPick.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Rules/ComplexCalls.h"
#include "Rules/DerivativeRules.h"
#include "Rules/MpiCalls.h"
#include "Rules/OpenMPCalls.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/FunctionAttributes.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Tape/Tape.h"
#include "Target/TargetHooks.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

void ReverseEmitter::reverseInstruction(Instruction &I) {
  if (AugCalls.count(&I))
    return reverseDerivativeCall(cast<CallBase>(I));
  // Memory operations act on shadow memory whether or not they have a value.
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return reverseStore(*SI);
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return reverseMemTransfer(*MT);
  if (auto *MS = dyn_cast<MemSetInst>(&I))
    return reverseMemSet(*MS);
  Value *DI = nullptr;
  if (!I.getType()->isVoidTy() && isData(&I) && isActive(&I))
    DI = Adj->take(B, &I);
  if (FusedIntoUser.count(&I))
    return;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return reverseAtomic(*RMW, DI);
  if (auto *Call = dyn_cast<CallBase>(&I))
    return reverseCall(*Call, DI);
  if (!DI)
    return;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return reverseLoad(*LI, DI);
  if (isa<BinaryOperator>(I) || isa<UnaryOperator>(I)) {
    if (const DerivativeRule *R = Ctx.calls().scalarRule(I))
      return reverseElementwise(I, *R, DI);
    return fail(I, "no derivative rule for '" + describe(I) + "'");
  }
  reverseStructural(I, DI);
}

void ReverseEmitter::reverseElementwise(Instruction &I,
                                        const DerivativeRule &Rule, Value *DI) {
  if (Rule.Kind == RuleKind::ZeroDerivative)
    return;
  auto *Call = dyn_cast<CallBase>(&I);
  unsigned NumOps = Call ? Call->arg_size() : I.getNumOperands();
  if (NumOps != Rule.NumOperands)
    return fail(I, "'" + describe(I) + "' does not have the " +
                       Twine(Rule.NumOperands) + " operand(s) of '" +
                       Rule.Family + "' that its derivative rule expects");
  auto Operand = [&](unsigned K) -> Value * {
    return Call ? Call->getArgOperand(K) : I.getOperand(K);
  };
  Type *Ty = I.getType();
  if (Rule.Family == "fdiv" && reverseDivBySqrt(I, DI))
    return;
  // A square (x * x, fma(x, x, c)): the two contributions, DI x + DI x, are
  // one, 2 DI x (doubling is exact).  On a GPU, (DI + DI) x: the doubled
  // adjoint is shared by the squares that receive the same adjoint (the
  // components of |v|^2), one multiplication each.  On a CPU, DI (x + x):
  // the doubling leaves the adjoint's chain, which is what limits loops
  // whose adjoint each iteration computes (a pair potential's quotient);
  // where DI is the same in every iteration (a sum's) it costs one addition
  // per square beside the loop's loads and stores.
  unsigned First = 0;
  if ((Rule.Family == "fmul" || Rule.Family == "fma") &&
      Operand(0) == Operand(1)) {
    Value *X = Operand(0);
    if (!isa<Constant>(X) && isActive(X)) {
      Value *XV = lookup(X);
      addAdjoint(X, Ctx.target().isGPU()
                        ? Batch.scale(B, XV, Batch.add(B, DI, DI, Ty), Ty)
                        : Batch.scale(B, B.CreateFAdd(XV, XV), DI, Ty));
    }
    First = 2;
  }
  for (unsigned K = First; K < NumOps; ++K) {
    Value *Op = Operand(K);
    const Partial &P = Rule.Partials[K];
    if (!P.Fn || isa<Constant>(Op) || !isActive(Op))
      continue;
    // Partials read forward values: operands and result from the tape.
    RuleContext R(
        B, Ty, [&](unsigned J) { return lookup(Operand(J)); },
        [&]() { return lookup(&I); }, Ctx.target());
    Value *Contribution = Batch.scale(B, P.Fn(R), DI, Ty);
    // A conversion's operand has its own type (fpext: float adjoint).
    addAdjoint(Op, Contribution);
  }
}

/// a / sqrt(b) with the square root used only there (a potential's
/// m / |r|, a normalisation): both partials from one division,
/// t = 1 / (sqrt(b) b), d/da = b t (= 1 / sqrt(b)) and d/db = -a t / 2, and
/// nothing passes through the square root (which then has no adjoint).
/// Composed, the two rules also divide once, but through a longer chain of
/// products, a (1/s) (1/s) (1/(2s)), which is what limits such loops on a
/// CPU.  Not on a GPU: there the fused form keeps both sqrt(b) and b live
/// up to the division (the shading kernel's gradient: 2 more registers on
/// sm_90 and gfx90a), and registers matter more than the chain.
bool ReverseEmitter::reverseDivBySqrt(Instruction &I, Value *DI) {
  if (Ctx.target().isGPU())
    return false;
  auto *Sqrt = dyn_cast<CallBase>(I.getOperand(1));
  const DerivativeRule *R = Sqrt ? Ctx.calls().scalarRule(*Sqrt) : nullptr;
  if (!R || R->Family != "sqrt" || !Sqrt->hasOneUse() ||
      Sqrt->arg_size() != 1 || Sqrt->getType() != I.getType())
    return false;
  Type *Ty = I.getType();
  Value *A = I.getOperand(0), *X = Sqrt->getArgOperand(0);
  FusedIntoUser.insert(Sqrt);
  bool NeedA = !isa<Constant>(A) && isActive(A);
  bool NeedX = !isa<Constant>(X) && isActive(X) && isActive(Sqrt);
  Value *SqrtTimesB = B.CreateFMul(lookup(Sqrt), lookup(X));
  auto MinusHalfA = [&] {
    return B.CreateFMul(ConstantFP::get(Ty, -0.5), lookup(A));
  };
  // Only b's adjoint (a constant numerator: masses, charges): the division
  // comes last, -a DI / 2 computed beside the square root.
  if (!NeedA && NeedX && Batch.width() == 1) {
    addAdjoint(X,
               B.CreateFDiv(Batch.scale(B, MinusHalfA(), DI, Ty), SqrtTimesB));
    return true;
  }
  Value *T = B.CreateFDiv(ConstantFP::get(Ty, 1.0), SqrtTimesB);
  if (NeedA)
    addAdjoint(A, Batch.scale(B, B.CreateFMul(lookup(X), T), DI, Ty));
  if (NeedX)
    addAdjoint(X, Batch.scale(B, B.CreateFMul(MinusHalfA(), T), DI, Ty));
  return true;
}

/// Adjoint of \p DI through a value-preserving cast back to the operand's
/// type: fpext/fptrunc reversed, bit casts undone.
static Value *castBack(IRBuilderBase &B, const Lanes &L, CastInst &I,
                       Value *DI) {
  Type *From = I.getType(), *To = I.getSrcTy();
  Instruction::CastOps Op =
      I.getOpcode() == Instruction::FPExt     ? Instruction::FPTrunc
      : I.getOpcode() == Instruction::FPTrunc ? Instruction::FPExt
                                              : Instruction::BitCast;
  if (L.width() == 1 || (L.isSimd(From) && L.isSimd(To)))
    return B.CreateCast(Op, DI, L.shadowType(To));
  return L.map(B, To, {DI}, {From}, [&](ArrayRef<Value *> S, unsigned) {
    return B.CreateCast(Op, S[0], To);
  });
}

Value *ReverseEmitter::reverseCondition(SelectInst &Sel) {
  std::optional<LastPick> Pick;
  if (Ctx.options().LastIterationCache)
    Pick = findLastPick(Sel);
  if (!Pick)
    return lookup(Sel.getCondition());
  Value *PickedNew = B.CreateICmpEQ(lookup(Pick->Counter), lookup(Pick->Last));
  return Pick->NewIsTrue ? PickedNew : B.CreateNot(PickedNew);
}

/// \p Mask over lanes that are parts of floats, \p Ratio lanes each, as a
/// mask over the floats; none where it splits a float.
static std::optional<SmallVector<int, 16>> wholeFloatMask(ArrayRef<int> Mask,
                                                          unsigned Ratio) {
  SmallVector<int, 16> Wide;
  for (unsigned G = 0; G < Mask.size(); G += Ratio) {
    int First = Mask[G];
    if (First >= 0 && First % Ratio)
      return std::nullopt;
    for (unsigned K = 1; K < Ratio; ++K)
      if (Mask[G + K] != (First < 0 ? -1 : First + int(K)))
        return std::nullopt;
    Wide.push_back(First < 0 ? -1 : First / int(Ratio));
  }
  return Wide;
}

void ReverseEmitter::reverseStructural(Instruction &I, Value *DI) {
  Type *Ty = I.getType();
  auto Zero = [&](Type *T) { return Constant::getNullValue(T); };
  if (auto *Cast = dyn_cast<CastInst>(&I)) {
    switch (Cast->getOpcode()) {
    case Instruction::FPExt:
    case Instruction::FPTrunc:
    case Instruction::BitCast:
      return addAdjoint(I.getOperand(0), castBack(B, Batch, *Cast, DI));
    default:
      return fail(I, "no derivative rule for '" + describe(I) + "'");
    }
  }
  if (auto *Sel = dyn_cast<SelectInst>(&I)) {
    Value *Cond = reverseCondition(*Sel);
    Value *Z = Batch.zero(Ty);
    if (Batch.width() == 1 ||
        (Batch.isSimd(Ty) && !Cond->getType()->isVectorTy())) {
      addAdjoint(Sel->getTrueValue(), B.CreateSelect(Cond, DI, Z));
      addAdjoint(Sel->getFalseValue(), B.CreateSelect(Cond, Z, DI));
      return;
    }
    auto PerLane = [&](bool True) {
      return Batch.map(B, Ty, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
        return True ? B.CreateSelect(Cond, S[0], Zero(Ty))
                    : B.CreateSelect(Cond, Zero(Ty), S[0]);
      });
    };
    addAdjoint(Sel->getTrueValue(), PerLane(true));
    addAdjoint(Sel->getFalseValue(), PerLane(false));
    return;
  }
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    Type *AggTy = EV->getAggregateOperand()->getType();
    return addAdjoint(
        EV->getAggregateOperand(),
        Batch.map(B, AggTy, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
          return B.CreateInsertValue(Zero(AggTy), S[0], EV->getIndices());
        }));
  }
  if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    Type *EltTy = IV->getInsertedValueOperand()->getType();
    addAdjoint(
        IV->getInsertedValueOperand(),
        Batch.map(B, EltTy, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
          return B.CreateExtractValue(S[0], IV->getIndices());
        }));
    addAdjoint(IV->getAggregateOperand(),
               Batch.map(B, Ty, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
                 return B.CreateInsertValue(S[0], Zero(EltTy),
                                            IV->getIndices());
               }));
    return;
  }
  if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    Type *VecTy = EE->getVectorOperandType();
    Value *Idx = lookup(EE->getIndexOperand());
    return addAdjoint(
        EE->getVectorOperand(),
        Batch.map(B, VecTy, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
          return B.CreateInsertElement(Zero(VecTy), S[0], Idx);
        }));
  }
  if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    Type *EltTy = IE->getOperand(1)->getType();
    Value *Idx = lookup(IE->getOperand(2));
    addAdjoint(
        IE->getOperand(1),
        Batch.map(B, EltTy, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
          return B.CreateExtractElement(S[0], Idx);
        }));
    addAdjoint(IE->getOperand(0),
               Batch.map(B, Ty, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
                 return B.CreateInsertElement(S[0], Zero(EltTy), Idx);
               }));
    return;
  }
  if (auto *SV = dyn_cast<ShuffleVectorInst>(&I)) {
    // Result element i came from element M[i] of the concatenated operands.
    auto *OpTy = cast<FixedVectorType>(SV->getOperand(0)->getType());
    SmallVector<int, 16> Mask(SV->getShuffleMask());
    // Doubles shuffled as <4 x i32> (SSE's integer shuffles on float data):
    // the adjoint moves, and adds, whole doubles.
    FixedVectorType *View = nullptr;
    for (Value *V :
         {SV->getOperand(0), SV->getOperand(1), static_cast<Value *>(SV)})
      if (!View)
        View = floatView(V);
    Type *ViewOp = nullptr, *ViewRes = nullptr;
    if (View) {
      std::optional<SmallVector<int, 16>> Wide =
          wholeFloatMask(Mask, OpTy->getNumElements() / View->getNumElements());
      if (!Wide)
        return fail(I, "cannot differentiate '" + describe(I) +
                           "': it moves parts of floating-point values "
                           "that carry a derivative");
      Mask = *Wide;
      ViewOp = View;
      ViewRes = FixedVectorType::get(View->getElementType(), Mask.size());
    }
    auto *MoveTy = cast<FixedVectorType>(ViewOp ? ViewOp : OpTy);
    unsigned N = MoveTy->getNumElements();
    for (unsigned Which = 0; Which < 2; ++Which) {
      Value *Sum =
          Batch.map(B, OpTy, {DI}, {Ty}, [&](ArrayRef<Value *> S, unsigned) {
            Value *D = ViewRes ? B.CreateBitCast(S[0], ViewRes) : S[0];
            Value *Acc = Zero(MoveTy);
            for (unsigned K = 0; K < Mask.size(); ++K) {
              int M = Mask[K];
              if (M < 0 || unsigned(M) / N != Which)
                continue;
              Value *Old = B.CreateExtractElement(Acc, B.getInt32(M % N));
              Value *Add = B.CreateExtractElement(D, B.getInt32(K));
              Acc = B.CreateInsertElement(Acc, addAdjoints(B, Old, Add),
                                          B.getInt32(M % N));
            }
            return ViewOp ? B.CreateBitCast(Acc, OpTy) : Acc;
          });
      addAdjoint(SV->getOperand(Which), Sum);
    }
    return;
  }
  if (isa<FreezeInst>(I))
    return addAdjoint(I.getOperand(0), DI);
  fail(I, "no derivative rule for '" + describe(I) + "'");
}

bool ReverseEmitter::concurrent() const {
  return Ctx.target().isGPU() || Key.Team;
}

bool ReverseEmitter::threadPrivate(const Value *P) const {
  // One thread's code owns all memory.
  if (!concurrent())
    return true;
  // Stack memory is the thread's own; so is a slot of the thread's index,
  // and a parameter marked as the thread's own memory (ThreadPrivateAttr).
  int C = classOf(P);
  if (C >= 0 && Act->classes().origins(C) == OriginLocal)
    return true;
  // (P is the derivative's: its parameters are the signature's.)
  if (const auto *A = dyn_cast<Argument>(getUnderlyingObject(P)))
    for (auto [ArgNo, Param] : enumerate(Sig.PrimalParam))
      if (Param == A->getArgNo() &&
          Key.Fn->getArg(ArgNo)->hasAttribute(ThreadPrivateAttr))
        return true;
  return Privacy && Privacy->isPrivate(P);
}

Value *ReverseEmitter::reverseShadow(Value *P, Instruction &At) {
  checkShadowBase(P);
  Value *S = shadowOf(P);
  if (!S)
    S = shadowPointer(P, At);
  return lookup(S);
}

void ReverseEmitter::reverseLoad(LoadInst &I, Value *DI) {
  Value *Ptr = I.getPointerOperand();
  if (!needsShadow(Ptr))
    return;
  Value *SP = reverseShadow(Ptr, I);
  bool Private = threadPrivate(Ptr);
  Type *Ty = I.getType();
  Type *View = floatView(&I);
  forEachLane(SP, [&](Value *LanePtr, unsigned Lane) {
    Value *Delta = Batch.extract(B, DI, Ty, Lane);
    Ctx.target().emitAccumulate(B, LanePtr,
                                View ? B.CreateBitCast(Delta, View) : Delta,
                                I.getAlign(), Private, Ptr);
  });
}

FixedVectorType *ReverseEmitter::floatView(Value *V) const {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  if (!VT || !VT->getElementType()->isIntegerTy() || !TI)
    return nullptr;
  Type *Float = nullptr;
  TypeTree T = TI->tree(orig(V));
  for (const auto &[Path, C] : T.entries())
    if (Path.size() == 1 && C.kind() == ConcreteType::Float) {
      if (Float && Float != C.floatType())
        return nullptr;
      Float = C.floatType();
    }
  unsigned Lane = VT->getScalarSizeInBits(),
           Total = Lane * VT->getNumElements();
  if (!Float || Float->getPrimitiveSizeInBits() <= Lane ||
      Total % Float->getPrimitiveSizeInBits())
    return nullptr;
  return FixedVectorType::get(Float, Total / Float->getPrimitiveSizeInBits());
}

/// \p V with its floating-point leaves zeroed (pointers and integers, which
/// shadow structures keep, stay).  \p FloatBits: a scalar integer \p V
/// carries float bits (an adjoint), so it is zeroed too.
static Value *zeroData(IRBuilderBase &B, Value *V, bool FloatBits) {
  Type *Ty = V->getType();
  if (Ty->isFPOrFPVectorTy() || (FloatBits && Ty->isIntOrIntVectorTy()))
    return Constant::getNullValue(Ty);
  auto Fields = [&](unsigned N) {
    for (unsigned I = 0; I < N; ++I)
      V = B.CreateInsertValue(V, zeroData(B, B.CreateExtractValue(V, I), false),
                              I);
    return V;
  };
  if (auto *ST = dyn_cast<StructType>(Ty))
    return Fields(ST->getNumElements());
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return Fields(AT->getNumElements());
  return V;
}

void ReverseEmitter::reverseStore(StoreInst &I) {
  Value *Ptr = I.getPointerOperand();
  Value *Val = I.getValueOperand();
  if (!needsShadow(Ptr))
    return;
  // Pointers and integers in shadow memory are not adjoints, except an
  // integer written over a float (a constant's bits): before the store the
  // location's adjoint is zero.
  bool Adjoint = isData(Val) && !isInteger(Val);
  // Part of a varied float's bits (a double copied byte by byte) stored
  // into floats that are read back: no adjoint can move through a part of
  // a float, and dropping it would be a silent zero.
  if (Val->getType()->isIntegerTy() &&
      (Adjoint || Act->mayHoldVariedBits(Val)) &&
      Act->isUsefulMemory(Act->classOf(orig(Ptr))) &&
      Val->getType()->getIntegerBitWidth() < floatBitsAround(Ptr))
    return fail(I, "cannot differentiate '" + describe(I) +
                       "': it stores part of a float's bits, and reverse "
                       "mode cannot move an adjoint through part of a float "
                       "(copy whole values, or use memcpy)");
  bool OverFloat = Val->getType()->isIntegerTy() && holdsFloatAt(Ptr, 0);
  if (!Adjoint && !OverFloat)
    return;
  // The store overwrote the location: its adjoint so far belongs to the
  // stored value, and before the store it is zero.
  Value *SP = reverseShadow(Ptr, I);
  Type *Ty = Val->getType();
  SmallVector<Value *, 4> Lanes;
  forEachLane(SP, [&](Value *LanePtr, unsigned) {
    Value *Old = B.CreateAlignedLoad(Ty, LanePtr, I.getAlign());
    B.CreateAlignedStore(zeroData(B, Old, /*FloatBits=*/true), LanePtr,
                         I.getAlign());
    Lanes.push_back(Old);
  });
  if (Adjoint)
    addAdjoint(Val, Batch.pack(B, Ty, Lanes));
}

void ReverseEmitter::reverseAtomic(AtomicRMWInst &I, Value *DI) {
  Value *Ptr = I.getPointerOperand(), *Val = I.getValOperand();
  if (!needsShadow(Ptr))
    return;
  Value *SP = reverseShadow(Ptr, I);
  Type *Ty = Val->getType();
  bool Private = threadPrivate(Ptr);
  switch (I.getOperation()) {
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub: {
    // m' = m + v: v's adjoint is the location's; the old value's adjoint
    // adds to the location's.  That is right for one thread's sequence of
    // adds; with other threads adding to the same location the old value
    // depends on which of them came first, an order nothing records.
    if (DI && !Private)
      return fail(I, "'" + describe(I) +
                         "' returns the old contents of memory other threads "
                         "may add to as well, and that value carries a "
                         "derivative: it depends on the order of the "
                         "threads' additions, which gpuad does not record "
                         "(use the old value only on thread-private memory, "
                         "or compute it with a scan)");
    if (isActive(Val)) {
      SmallVector<Value *, 4> Lanes;
      forEachLane(SP, [&](Value *LanePtr, unsigned) {
        Value *A = B.CreateAlignedLoad(Ty, LanePtr, I.getAlign());
        Lanes.push_back(
            I.getOperation() == AtomicRMWInst::FSub ? B.CreateFNeg(A) : A);
      });
      addAdjoint(Val, Batch.pack(B, Ty, Lanes));
    }
    break;
  }
  case AtomicRMWInst::Xchg: {
    SmallVector<Value *, 4> Lanes;
    forEachLane(SP, [&](Value *LanePtr, unsigned) {
      Lanes.push_back(B.CreateAlignedLoad(Ty, LanePtr, I.getAlign()));
      B.CreateAlignedStore(Constant::getNullValue(Ty), LanePtr, I.getAlign());
    });
    addAdjoint(Val, Batch.pack(B, Ty, Lanes));
    break;
  }
  default:
    return;
  }
  if (DI)
    forEachLane(SP, [&](Value *LanePtr, unsigned Lane) {
      Ctx.target().emitAccumulate(B, LanePtr, Batch.extract(B, DI, Ty, Lane),
                                  I.getAlign(), Private, Ptr);
    });
}

void ReverseEmitter::reverseMultipleOutputs(CallBase &Call,
                                            const DerivativeRule &Rule,
                                            Value *DI) {
  Value *X = Call.getArgOperand(0);
  if (!isActive(X))
    return;
  Type *Ty = X->getType();
  for (const RuleOutput &Out : Rule.Outputs) {
    if (!Out.Family)
      continue;
    const DerivativeRule *F = findFamily(Out.Family);
    Value *Target = Out.Arg < 0 ? nullptr : Call.getArgOperand(Out.Arg);
    // This output's adjoint: from shadow memory (taken, zeroed) or dI.
    Value *DOut = nullptr;
    if (Target) {
      if (!needsShadow(Target))
        continue;
      SmallVector<Value *, 4> Lanes;
      forEachLane(reverseShadow(Target, Call), [&](Value *LanePtr, unsigned) {
        Lanes.push_back(B.CreateLoad(Ty, LanePtr));
        B.CreateStore(Constant::getNullValue(Ty), LanePtr);
      });
      DOut = Batch.pack(B, Ty, Lanes);
    } else if (DI) {
      DOut = Out.Element < 0
                 ? DI
                 : Batch.map(
                       B, Ty, {DI}, {Call.getType()},
                       [&](ArrayRef<Value *> S, unsigned) {
                         return B.CreateExtractValue(S[0], Out.Element);
                       });
    }
    if (!DOut || !F || F->Kind != RuleKind::Elementwise || !F->Partials[0].Fn)
      continue;
    RuleContext R(
        B, Ty, [&](unsigned J) { return lookup(Call.getArgOperand(J)); },
        [&]() -> Value * {
          Value *Res = lookup(&Call);
          return Out.Element >= 0 ? B.CreateExtractValue(Res, Out.Element)
                                  : Res;
        },
        Ctx.target());
    addAdjoint(X, Batch.scale(B, F->Partials[0].Fn(R), DOut, Ty));
  }
}

void ReverseEmitter::reverseComplex(CallBase &Call, const DerivativeRule &Rule,
                                    Value *DI) {
  std::optional<ComplexCall> CC = matchComplex(Call, Rule);
  if (!CC)
    return;
  if (!DI)
    return;
  RuleContext R(
      B, CC->partType(),
      [&](unsigned K) {
        return CC->operandPart(B, lookup(Call.getArgOperand(CC->argumentOf(K))),
                               K);
      },
      [&]() { return lookup(&Call); }, Ctx.target());
  auto Wanted = [&](unsigned Arg) {
    Value *Op = Call.getArgOperand(Arg);
    return !isa<Constant>(Op) && isActive(Op);
  };
  for (auto [Arg, Adjoint] : CC->vjp(B, Batch, DI, Wanted, [&](unsigned Z) {
         return Rule.ComplexPartials[Z](R);
       }))
    addAdjoint(Call.getArgOperand(Arg), Adjoint);
}

void ReverseEmitter::reverseShuffle(CallBase &Call, unsigned Operand,
                                    Value *DI) {
  Value *X = Call.getArgOperand(Operand);
  if (!isActive(X))
    return;
  Type *Ty = X->getType();
  SmallVector<Value *, 4> Lanes;
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane)
    Lanes.push_back(Ctx.target().emitShuffleTranspose(
        B, Call, [&](unsigned K) { return lookup(Call.getArgOperand(K)); },
        Batch.extract(B, DI, Ty, Lane)));
  addAdjoint(X, Batch.pack(B, Ty, Lanes));
}

Value *ReverseEmitter::emitMessageRecord(CallBase &Call, const MpiRoutine &Mpi,
                                         Value *Shadow) {
  SmallVector<Value *, 8> Args(Call.args());
  if (Shadow)
    Args.push_back(Shadow);
  SmallVector<Type *, 8> Types;
  for (Value *V : Args)
    Types.push_back(V->getType());
  IRBuilder<> After(Call.getNextNode());
  return After.CreateCall(
      Derivative.getParent()->getOrInsertFunction(
          Mpi.Record, FunctionType::get(After.getPtrTy(), Types, false)),
      Args, "mpi.record");
}

void ReverseEmitter::emitMessage(CallBase &Call, const MpiRoutine &Mpi) {
  switch (Mpi.K) {
  case MpiRoutine::Communicate:
    // What the adjoint needs of what the call did.
    if (!Mpi.Record.empty())
      MadeHandles[&Call] = emitMessageRecord(Call, Mpi, nullptr);
    return;
  case MpiRoutine::Create: {
    // The handle, for its release in the reverse sweep.
    IRBuilder<> After(Call.getNextNode());
    MadeHandles[&Call] = After.CreateLoad(
        After.getPtrTy(), Call.getArgOperand(Mpi.Handle), "mpi.handle");
    return;
  }
  case MpiRoutine::Release:
    // The adjoints that use it run later.
    return replaceCall(Call, Constant::getNullValue(Call.getType()));
  case MpiRoutine::Post: {
    // The record the completion's adjoint and this post's adjoint share.
    if (Key.Width != 1)
      return fail(Call, "cannot differentiate '" + Mpi.Name + "' at width " +
                            Twine(Key.Width) +
                            ": non-blocking MPI is differentiated one lane "
                            "at a time");
    Value *A = Call.getArgOperand(Mpi.Buffers[0]);
    MadeHandles[&Call] = emitMessageRecord(
        Call, Mpi,
        needsShadow(A) ? shadowPointer(A, Call)
                       : ConstantPointerNull::get(B.getPtrTy()));
    return;
  }
  case MpiRoutine::Complete:
    MadeHandles[&Call] = emitCompletion(Call, Mpi, /*Reverse=*/true);
    return;
  }
}

void ReverseEmitter::reverseMessage(CallBase &Call, const MpiRoutine &Mpi) {
  switch (Mpi.K) {
  case MpiRoutine::Communicate: {
    // The transposed communication, at the routine's place.
    SmallVector<Value *, 1> Record;
    if (!Mpi.Record.empty())
      Record.push_back(lookup(MadeHandles.lookup(&Call)));
    emitMessageDerivative(
        Call, Mpi, Mpi.Adjoint, [&](Value *V) { return lookup(V); },
        [&](Value *V) { return reverseShadow(V, Call); }, Record);
    // (Every lane's adjoint reads it.)
    for (Value *R : Record)
      B.CreateCall(Derivative.getParent()->getOrInsertFunction(
                       "free", B.getVoidTy(), B.getPtrTy()),
                   {R});
    return;
  }
  case MpiRoutine::Create: {
    IRBuilder<> Entry(&Derivative.getEntryBlock(),
                      Derivative.getEntryBlock().getFirstInsertionPt());
    Value *Slot = Entry.CreateAlloca(B.getPtrTy(), nullptr, "mpi.release");
    B.CreateStore(lookup(MadeHandles.lookup(&Call)), Slot);
    Module &M = *Derivative.getParent();
    B.CreateCall(
        M.getOrInsertFunction(Mpi.Adjoint, B.getInt32Ty(), B.getPtrTy()),
        {Slot});
    return;
  }
  case MpiRoutine::Release:
    return;
  case MpiRoutine::Post:
  case MpiRoutine::Complete: {
    // A completion's adjoint posts the transposed operations; a post's
    // completes its own.
    StringRef Fn = Mpi.K == MpiRoutine::Post ? Mpi.Adjoint
                                             : "gpuad_mpi_completion_adjoint";
    B.CreateCall(Derivative.getParent()->getOrInsertFunction(Fn, B.getVoidTy(),
                                                             B.getPtrTy()),
                 {lookup(MadeHandles.lookup(&Call))});
    return;
  }
  }
}

void ReverseEmitter::reverseTeamSync(CallBase &Call) {
  StringRef Mirror = *mirroredTeamSync(Call.getCalledFunction()->getName());
  SmallVector<Value *, 4> Args;
  SmallVector<Type *, 4> Types;
  for (Value *A : Call.args()) {
    Args.push_back(lookup(A));
    Types.push_back(A->getType());
  }
  FunctionCallee F = Derivative.getParent()->getOrInsertFunction(
      Mirror, FunctionType::get(B.getVoidTy(), Types, false));
  B.CreateCall(F, Args)->setDebugLoc(Call.getDebugLoc());
}

void ReverseEmitter::reverseCall(CallBase &Call, Value *DI) {
  CallClass Class = Ctx.calls().classify(Call);
  switch (Class.Effect) {
  case CallEffect::Message:
    return reverseMessage(Call, *Class.Mpi);
  case CallEffect::Barrier:
    // Mirrored: adjoints other threads add to shared shadows before it (the
    // reverse of what followed it) are complete after it.
    if (Ctx.target().isBlockBarrier(Call))
      return Ctx.target().emitBlockBarrier(B, Call);
    return reverseTeamSync(Call);
  case CallEffect::Shuffle:
    if (DI)
      reverseShuffle(Call, Class.ShuffledOperand, DI);
    return;
  case CallEffect::Elementwise: {
    const DerivativeRule &R = *Class.Scalar;
    if (R.Kind == RuleKind::MultipleOutputs)
      return reverseMultipleOutputs(Call, R, DI);
    if (R.Kind == RuleKind::Complex)
      return reverseComplex(Call, R, DI);
    if (DI)
      reverseElementwise(Call, R, DI);
    return;
  }
  case CallEffect::Deallocator:
    return reverseFree(Call);
  case CallEffect::Reallocator:
    return reverseRealloc(Call);
  case CallEffect::Buffer:
    return reverseBufferCall(Call, Class, DI);
  case CallEffect::KernelLaunch:
    return reverseKernelLaunch(Call);
  case CallEffect::RuntimeMemory:
    // Normalization made every runtime copy a tagged intrinsic.
    return fail(Call, "internal error: a GPU runtime copy ('" + describe(Call) +
                          "') was not normalized");
  default:
    // Memory intrinsics, stores and calls of derivatives are reversed by
    // their own visitors; allocations release their shadows elsewhere.
    return;
  }
}

} // namespace gpuad
