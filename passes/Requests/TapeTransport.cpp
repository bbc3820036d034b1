//===- TapeTransport.cpp - The tape between the two split-mode calls ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/TapeTransport.h"

#include "Requests/DiffRequest.h"
#include "Support/Diagnostics.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

static const DataLayout &layout(const DiffRequest &Req) {
  return Req.Call->getModule()->getDataLayout();
}

uint64_t tapeBytes(const DiffRequest &Req, Type *TapeTy) {
  return layout(Req).getTypeAllocSize(TapeTy);
}

Type *declaredTapeType(const DiffRequest &Req, Type *Declared) {
  const DataLayout &DL = layout(Req);
  auto Bytes = [&](Type *T) { return DL.getTypeAllocSize(T).getFixedValue(); };
  if (Declared->isSized() && Bytes(Declared) == Req.AllocatedBytes)
    return Declared;
  if (auto *ST = dyn_cast<StructType>(Declared))
    if (ST->getNumElements() > 0 &&
        Bytes(ST->getElementType(0)) == Req.AllocatedBytes)
      return ST->getElementType(0);
  return nullptr;
}

bool checkTapeFits(const DiffRequest &Req, Type *TapeTy, Diagnostics &Diags) {
  if (Req.Tape != TapeTransport::Allocated)
    return true;
  uint64_t Need = tapeBytes(Req, TapeTy);
  if (Need <= Req.AllocatedBytes)
    return true;
  Diags.error(*Req.Call->getFunction(), *Req.Call,
              "the tape of '" + Req.Key.Fn->getName() + "' needs " +
                  Twine(Need) + " bytes, but enzyme_allocated gives " +
                  Twine(Req.AllocatedBytes) +
                  " (__enzyme_augmentsize gives the size)");
  return false;
}

/// A stack buffer of \p Bytes bytes at the caller's entry.
static AllocaInst *buffer(IRBuilderBase &B, uint64_t Bytes) {
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> EB(&F.getEntryBlock(), F.getEntryBlock().getFirstInsertionPt());
  unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();
  auto *Ty = ArrayType::get(EB.getInt8Ty(), Bytes ? Bytes : 1);
  AllocaInst *A = EB.CreateAlloca(Ty, AS, nullptr, "tape.buffer");
  A->setAlignment(Align(16));
  return A;
}

Value *receiveTape(IRBuilderBase &B, const DiffRequest &Req, Type *TapeTy,
                   TargetHooks &Target) {
  switch (Req.Tape) {
  case TapeTransport::Memory:
    return B.CreateLoad(TapeTy, Req.TapePointer, "tape");
  case TapeTransport::Heap: {
    Value *Box = Req.TapeOperands.front();
    if (TapeTy->isPointerTy())
      return Box; // recursive functions' tapes are boxed already
    Value *Tape = B.CreateLoad(TapeTy, Box, "tape");
    Target.emitFree(B, Box);
    return Tape;
  }
  case TapeTransport::Allocated:
    break;
  }
  // By value: through a pointer (the C ABI's byval copy), or in the pieces
  // the C ABI split it into, laid out in order (or one aggregate).
  ArrayRef<Value *> Ops = Req.TapeOperands;
  if (Ops.size() == 1 && Ops[0]->getType()->isPointerTy())
    return B.CreateLoad(TapeTy, Ops[0], "tape");
  const DataLayout &DL = layout(Req);
  AllocaInst *Buf = buffer(B, std::max<uint64_t>(Req.AllocatedBytes,
                                                 DL.getTypeAllocSize(TapeTy)));
  uint64_t Offset = 0;
  for (Value *Piece : Ops) {
    B.CreateStore(Piece, B.CreateConstGEP1_64(B.getInt8Ty(), Buf, Offset));
    Offset += DL.getTypeAllocSize(Piece->getType());
  }
  return B.CreateLoad(TapeTy, Buf, "tape");
}

/// The scalars of \p V, in order.
static void leaves(IRBuilderBase &B, Value *V, SmallVectorImpl<Value *> &Out) {
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

SmallVector<Value *, 8> sendTape(IRBuilderBase &B, const DiffRequest &Req,
                                 Value *Tape, Type *Declared,
                                 TargetHooks &Target) {
  SmallVector<Value *, 8> Out;
  Type *TapeTy = Tape->getType();
  switch (Req.Tape) {
  case TapeTransport::Memory:
    B.CreateStore(Tape, Req.TapePointer);
    return Out;
  case TapeTransport::Heap: {
    if (TapeTy->isPointerTy()) {
      Out.push_back(Tape);
      return Out;
    }
    Value *Box = Target.emitAlloc(B, B.getInt64(tapeBytes(Req, TapeTy)));
    B.CreateStore(Tape, Box);
    Out.push_back(Box);
    return Out;
  }
  case TapeTransport::Allocated: {
    Type *BlobTy = declaredTapeType(Req, Declared);
    AllocaInst *Buf = buffer(B, Req.AllocatedBytes);
    B.CreateStore(Tape, Buf);
    leaves(B, B.CreateLoad(BlobTy, Buf, "tape.bytes"), Out);
    return Out;
  }
  }
  return Out;
}

} // namespace gpuad
