//===- TapeTransport.cpp - The tape between the two split-mode calls ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/TapeTransport.h"

#include "Planner/DiffRequest.h"
#include "Support/Diagnostics.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

namespace {

/// How the user's value holds the tape.
enum class Holding {
  Pointer, ///< the value is a pointer to a heap box
  Value,   ///< the value's bytes are the tape's
  Box,     ///< the value's first bytes are a pointer to a heap box
};

const DataLayout &layout(const DiffRequest &Req) {
  return Req.Call->getModule()->getDataLayout();
}

uint64_t allocSize(const DataLayout &DL, Type *Ty) {
  return DL.getTypeAllocSize(Ty).getFixedValue();
}

/// Extends \p End, the end of the dense prefix so far, by \p Ty placed at
/// \p At; false at the first gap.
bool extendDense(Type *Ty, const DataLayout &DL, uint64_t At, uint64_t &End) {
  if (At != End)
    return false;
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!extendDense(ST->getElementType(I), DL,
                       At + SL->getElementOffset(I).getFixedValue(), End))
        return false;
    return true;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    uint64_t Step = allocSize(DL, AT->getElementType());
    for (uint64_t I = 0; I < AT->getNumElements(); ++I)
      if (!extendDense(AT->getElementType(), DL, At + I * Step, End))
        return false;
    return true;
  }
  End = At + DL.getTypeStoreSize(Ty).getFixedValue();
  return true;
}

/// Bytes of a value laid out as \p Pieces, one after another at their
/// allocation sizes, up to the first padding byte.
uint64_t denseBytes(ArrayRef<Type *> Pieces, const DataLayout &DL) {
  uint64_t At = 0, End = 0;
  for (Type *Ty : Pieces) {
    if (!extendDense(Ty, DL, At, End))
      break;
    At += allocSize(DL, Ty);
  }
  return End;
}

bool containsPointer(Type *Ty) {
  if (Ty->isPointerTy())
    return true;
  return any_of(Ty->subtypes(), containsPointer);
}

/// How a tape of \p Need bytes is held in a user value of \p Held dense
/// bytes (\p IsPointer: the value is a plain pointer); none if it does not
/// fit.
std::optional<Holding> holding(const DiffRequest &Req, uint64_t Need,
                               uint64_t Held, bool IsPointer) {
  if (Req.Tape == TapeTransport::Allocated)
    return Need <= Req.AllocatedBytes ? std::optional(Holding::Value)
                                      : std::nullopt;
  if (IsPointer)
    return Holding::Pointer;
  if (Need <= Held)
    return Holding::Value;
  if (Held >= layout(Req).getPointerSize())
    return Holding::Box;
  return std::nullopt;
}

/// The types the tape operands of __enzyme_reverse hold the user's value
/// in, in order.
SmallVector<Type *, 4> receivedPieces(const DiffRequest &Req) {
  if (Req.TapeByValType)
    return {Req.TapeByValType};
  SmallVector<Type *, 4> Types;
  for (Value *Op : Req.TapeOperands)
    Types.push_back(Op->getType());
  return Types;
}

/// How __enzyme_reverse receives a tape of \p Need bytes.
std::optional<Holding> receivedHolding(const DiffRequest &Req, uint64_t Need) {
  SmallVector<Type *, 4> Pieces = receivedPieces(Req);
  bool IsPointer = Pieces.size() == 1 && Pieces[0]->isPointerTy();
  return holding(Req, Need, denseBytes(Pieces, layout(Req)), IsPointer);
}

std::string typeName(Type *Ty) {
  std::string S;
  raw_string_ostream(S) << *Ty;
  return S;
}

/// A stack buffer of \p Bytes bytes at the caller's entry.
AllocaInst *buffer(IRBuilderBase &B, uint64_t Bytes) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();
  auto *Ty = ArrayType::get(EB.getInt8Ty(), Bytes ? Bytes : 1);
  AllocaInst *A = EB.CreateAlloca(Ty, AS, nullptr, "tape.buffer");
  A->setAlignment(Align(16));
  return A;
}

/// The scalars of \p V, in order.
void leaves(IRBuilderBase &B, Value *V, SmallVectorImpl<Value *> &Out) {
  Type *Ty = V->getType();
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      leaves(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    for (unsigned I = 0; I < AT->getNumElements(); ++I)
      leaves(B, B.CreateExtractValue(V, I), Out);
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Out.push_back(B.CreateExtractElement(V, B.getInt32(I)));
  } else {
    Out.push_back(V);
  }
}

} // namespace

uint64_t tapeBytes(const DiffRequest &Req, Type *TapeTy) {
  return allocSize(layout(Req), TapeTy);
}

Type *declaredTapeType(const DiffRequest &Req, Type *Declared,
                       bool ReturnsMore) {
  const DataLayout &DL = layout(Req);
  auto *ST = dyn_cast<StructType>(Declared);
  Type *First =
      ST && ST->getNumElements() > 0 ? ST->getElementType(0) : nullptr;
  switch (Req.Tape) {
  case TapeTransport::Memory:
    return nullptr;
  case TapeTransport::Allocated:
    if (Declared->isSized() && allocSize(DL, Declared) == Req.AllocatedBytes)
      return Declared;
    if (First && allocSize(DL, First) == Req.AllocatedBytes)
      return First;
    return nullptr;
  case TapeTransport::Heap:
    break;
  }
  Type *Ty = ReturnsMore ? First : Declared;
  if (!Ty || !Ty->isSized() || allocSize(DL, Ty) == 0)
    return nullptr;
  // A pointer holds a box; a pointer inside a larger value is no place for
  // the tape's bytes (the user's tape is not the function's pointers).
  if (containsPointer(Ty) && !Ty->isPointerTy())
    return nullptr;
  return Ty;
}

bool checkTapeFits(const DiffRequest &Req, Type *TapeTy, Type *UserTy,
                   Diagnostics &Diags) {
  uint64_t Need = tapeBytes(Req, TapeTy);
  auto TooSmall = [&] {
    Diags.error(*Req.Call->getFunction(), *Req.Call,
                "the tape of '" + Req.Key.Fn->getName() + "' needs " +
                    Twine(Need) + " bytes, but enzyme_allocated gives " +
                    Twine(Req.AllocatedBytes) +
                    " (__enzyme_augmentsize gives the size)");
    return false;
  };
  if (Req.Tape == TapeTransport::Memory)
    return !Req.HasAllocatedBytes || Need <= Req.AllocatedBytes || TooSmall();
  const DataLayout &DL = layout(Req);
  bool Augmented = Req.Key.Mode == DiffMode::ReverseAugmented;
  std::optional<Holding> How;
  uint64_t Held = 0;
  std::string Where;
  if (Augmented) {
    if (!UserTy)
      return true; // the result's shape is checked with the rest of it
    Held = denseBytes({UserTy}, DL);
    How = holding(Req, Need, Held, UserTy->isPointerTy());
    Where = "__enzyme_augmentfwd declares it as " + typeName(UserTy);
  } else {
    SmallVector<Type *, 4> Pieces = receivedPieces(Req);
    Held = denseBytes(Pieces, DL);
    How = receivedHolding(Req, Need);
    Where = "__enzyme_reverse receives it as " +
            (Pieces.size() == 1 ? typeName(Pieces[0])
                                : Twine(Pieces.size()).str() + " values");
  }
  if (How)
    return true;
  if (Req.Tape == TapeTransport::Allocated)
    return TooSmall();
  Diags.error(*Req.Call->getFunction(), *Req.Call,
              "the tape of '" + Req.Key.Fn->getName() + "' needs " +
                  Twine(Need) + " bytes, or " + Twine(DL.getPointerSize()) +
                  " for a pointer to it, but " + Where + ", which holds " +
                  Twine(Held) + " bytes");
  return false;
}

Value *receiveTape(IRBuilderBase &B, const DiffRequest &Req, Type *TapeTy,
                   TargetHooks &Target) {
  if (Req.Tape == TapeTransport::Memory)
    return B.CreateLoad(TapeTy, Req.TapePointer, "tape");
  const DataLayout &DL = layout(Req);
  uint64_t Need = tapeBytes(Req, TapeTy);
  Holding How = receivedHolding(Req, Need).value_or(Holding::Pointer);
  ArrayRef<Value *> Ops = Req.TapeOperands;
  // The user's value in memory: the C ABI's byval copy, or the pieces it
  // was split into, laid out in order (or one aggregate).
  Value *Held;
  if (How == Holding::Pointer) {
    Held = nullptr;
  } else if (Ops.size() == 1 && Ops[0]->getType()->isPointerTy()) {
    Held = Ops[0];
  } else {
    uint64_t Pieces = 0;
    for (Value *Piece : Ops)
      Pieces += allocSize(DL, Piece->getType());
    AllocaInst *Buf = buffer(B, std::max({Need, Pieces, Req.AllocatedBytes}));
    uint64_t Offset = 0;
    for (Value *Piece : Ops) {
      B.CreateStore(Piece, B.CreateConstGEP1_64(B.getInt8Ty(), Buf, Offset));
      Offset += allocSize(DL, Piece->getType());
    }
    Held = Buf;
  }
  if (How == Holding::Value)
    return B.CreateLoad(TapeTy, Held, "tape");
  Value *Box = How == Holding::Pointer
                   ? Ops.front()
                   : B.CreateLoad(B.getPtrTy(), Held, "tape.box");
  if (TapeTy->isPointerTy() && How == Holding::Pointer)
    return Box; // recursive functions' tapes are boxed already
  Value *Tape = B.CreateLoad(TapeTy, Box, "tape");
  Target.emitFree(B, Box);
  return Tape;
}

SmallVector<Value *, 8> sendTape(IRBuilderBase &B, const DiffRequest &Req,
                                 Value *Tape, Type *UserTy,
                                 TargetHooks &Target) {
  SmallVector<Value *, 8> Out;
  if (Req.Tape == TapeTransport::Memory) {
    B.CreateStore(Tape, Req.TapePointer);
    return Out;
  }
  const DataLayout &DL = layout(Req);
  Type *TapeTy = Tape->getType();
  uint64_t Need = tapeBytes(Req, TapeTy);
  Holding How =
      holding(Req, Need, denseBytes({UserTy}, DL), UserTy->isPointerTy())
          .value_or(Holding::Pointer);
  if (How == Holding::Pointer && TapeTy->isPointerTy()) {
    Out.push_back(Tape); // recursive functions' tapes are boxed already
    return Out;
  }
  Value *Box = nullptr;
  if (How != Holding::Value) {
    Box = Target.emitCheckedAlloc(B, B.getInt64(Need));
    B.CreateStore(Tape, Box);
  }
  if (How == Holding::Pointer) {
    Out.push_back(Box);
    return Out;
  }
  AllocaInst *Buf = buffer(B, std::max(Need, allocSize(DL, UserTy)));
  B.CreateStore(Box ? Box : Tape, Buf);
  leaves(B, B.CreateLoad(UserTy, Buf, "tape.held"), Out);
  return Out;
}

} // namespace gpuad
