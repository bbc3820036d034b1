//===- ReverseMemory.cpp - Adjoints of memcpy, memmove and memset ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A copy's reverse adds the destination's adjoints to the source's and
/// zeroes them; a memset's zeroes the destination's.  Adjoints are moved as
/// the floats they belong to, so a copy must be typed: an array of one float
/// type is moved element by element, records (and arrays of records) field
/// by field, as CopyLayout describes them.
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ArgumentWrites.h"
#include "Analysis/CopyLayout.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Normalize/RuntimeMemory.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/EntryPoints.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

unsigned ReverseEmitter::floatBitsAround(Value *Ptr) const {
  ConcreteType Here = TI->memoryAt(orig(Ptr), 0);
  if (Here.kind() == ConcreteType::Float)
    return Here.floatType()->getPrimitiveSizeInBits();
  // At an offset not known: the object, if it holds one float type only.
  const Value *Object = getUnderlyingObject(orig(Ptr));
  CopiedFloats F = copiedFloats(TI->tree(Object));
  if (F.Throughout && !F.OtherData)
    return F.Throughout->getPrimitiveSizeInBits();
  return 0;
}

/// Whether \p Ptr points into a constant global that holds no float.
static bool isConstantWithoutFloats(const Value *Ptr) {
  const auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Ptr));
  return GV && GV->isConstant() && !carriesFloat(GV->getValueType());
}

void ReverseEmitter::reverseMemTransfer(MemTransferInst &I) {
  Value *Dst = I.getRawDest(), *Src = I.getRawSource();
  if (!needsShadow(Dst))
    return;
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  CopyLayout Layout = copyLayout(orig(Dst), orig(Src), *TI, DL);
  const CopiedFloats &F = Layout.Floats;
  auto *ConstLen = dyn_cast<ConstantInt>(I.getLength());
  if (ConstLen && ConstLen->getZExtValue() < 2)
    return; // no float is one byte (an empty object's copy)
  if (F.Unknown)
    return fail(I, "cannot tell what '" + describe(I) +
                       "' copies; the adjoints of untyped bytes cannot be "
                       "added (copy typed values, or use a loop)");
  // An array followed by other data (an array member, seen by a caller of
  // std::copy): the copy must stay within the array.
  uint64_t ArrayBytes = F.ThroughoutBefore;
  bool WithinArray =
      F.Throughout && F.OtherData && ArrayBytes > 0 &&
      all_of(F.AtOffsets, [&](auto &P) {
        return P.first >= int(ArrayBytes) || P.second == F.Throughout;
      });
  if (F.Throughout && F.OtherData &&
      (!WithinArray || (ConstLen && ConstLen->getZExtValue() > ArrayBytes)))
    return fail(I, "cannot differentiate '" + describe(I) +
                       "': it copies floats mixed with other data at "
                       "offsets the types do not tell");
  // Bytes the copy reaches that may or may not be a float.  (A constant
  // without floats brings no derivative in: a string literal copied into a
  // buffer that is a union with other data.)
  uint64_t Reach = WithinArray ? ArrayBytes
                   : ConstLen  ? ConstLen->getZExtValue()
                               : UINT64_MAX;
  if (F.FirstMixed && *F.FirstMixed < Reach && !isConstantWithoutFloats(Src))
    return fail(I, "cannot differentiate '" + describe(I) +
                       "': bytes it copies are a float in some uses and "
                       "other data in others");
  if (!F.Throughout && F.AtOffsets.empty())
    return; // integers and pointers: no adjoints
  Value *DstS = reverseShadow(Dst, I);
  Value *SrcS = needsShadow(Src) ? reverseShadow(Src, I) : nullptr;
  Align DstAlign = I.getDestAlign().valueOrOne(),
        SrcAlign = I.getSourceAlign().valueOrOne();
  Value *Len = B.CreateZExtOrTrunc(lookup(I.getLength()), B.getInt64Ty());
  // A runtime copy's shadows may be device memory: the adjoints move
  // between host copies of them, written back when they are done.
  SmallVector<std::pair<Value *, Value *>, 4> Staged;
  scope_exit WriteBack([&] {
    for (auto [Shadow, Host] : Staged) {
      tagLike(*B.CreateMemCpy(Shadow, DstAlign, Host, DstAlign, Len), I);
      Ctx.target().emitFree(B, Host);
    }
  });
  if (runtimeOf(I)) {
    auto Stage = [&](Value *Shadow) {
      Type *PtrTy = I.getRawDest()->getType();
      SmallVector<Value *, 4> Hosts;
      forEachLane(Shadow, [&](Value *LaneShadow, unsigned) {
        Value *Host = Ctx.target().emitAlloc(B, Len);
        tagLike(*B.CreateMemCpy(Host, DstAlign, LaneShadow, DstAlign, Len), I);
        Staged.push_back({LaneShadow, Host});
        Hosts.push_back(Host);
      });
      return Batch.pack(B, PtrTy, Hosts);
    };
    DstS = Stage(DstS);
    if (SrcS)
      SrcS = Stage(SrcS);
    DstAlign = SrcAlign = Align(1);
  }
  if (WithinArray && !ConstLen)
    stopBeyond(I, Len, ArrayBytes);
  if (F.Throughout)
    return moveAdjoints(DstS, SrcS, Len, F.Throughout, DstAlign, SrcAlign,
                        threadPrivate(Src));
  RecordCopy Copy{DstS, SrcS, DstAlign, SrcAlign, threadPrivate(Src), Src};
  if (Layout.Stride)
    return moveRecordArrayAdjoints(Copy, F.AtOffsets, Layout.Stride, Len);
  // One record: the copy must stay within the bytes whose types are known,
  // unless what it copies is a constant without floats (a string literal
  // into a string's buffer): no derivative comes in, and the floats the
  // bytes overwrite are known, or are read back only as those bytes.
  if (isConstantWithoutFloats(Src))
    return moveRecordAdjoints(Copy, F.AtOffsets, B.getInt64(0), 0, Len);
  if (ConstLen && ConstLen->getZExtValue() > Layout.Reach)
    return fail(I, "cannot differentiate '" + describe(I) + "': it copies " +
                       std::to_string(ConstLen->getZExtValue()) +
                       " bytes of records whose types are known for " +
                       std::to_string(Layout.Reach) +
                       " bytes only (copy the fields, or use a loop)");
  if (!ConstLen) // a length known only at run time
    stopBeyond(I, Len, Layout.Reach);
  moveRecordAdjoints(Copy, F.AtOffsets, B.getInt64(0), 0, Len);
}

void ReverseEmitter::stopBeyond(MemTransferInst &I, Value *Len,
                                uint64_t Known) {
  BasicBlock *Stop =
      BasicBlock::Create(Derivative.getContext(), "adj.copy.stop", &Derivative);
  BasicBlock *Go =
      BasicBlock::Create(Derivative.getContext(), "adj.copy", &Derivative);
  B.CreateCondBr(B.CreateICmpUGT(Len, B.getInt64(Known)), Stop, Go);
  B.SetInsertPoint(Stop);
  Ctx.target().emitTrap(B, "gpuad: the copy '" + describe(I) +
                               "' reached bytes of unknown type; its "
                               "derivative would be wrong");
  B.CreateUnreachable();
  B.SetInsertPoint(Go);
}

void ReverseEmitter::moveAdjoint(const RecordCopy &Copy, Type *Elt,
                                 Align DstAlign, Align SrcAlign,
                                 function_ref<Value *(Value *)> At) {
  Type *PtrTy = PointerType::get(Derivative.getContext(), 0);
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
    Value *DstK = At(Batch.extract(B, Copy.DstS, PtrTy, Lane));
    Value *D0 = B.CreateAlignedLoad(Elt, DstK, DstAlign);
    B.CreateAlignedStore(Constant::getNullValue(Elt), DstK, DstAlign);
    if (Copy.SrcS)
      Ctx.target().emitAccumulate(B,
                                  At(Batch.extract(B, Copy.SrcS, PtrTy, Lane)),
                                  D0, SrcAlign, Copy.SrcPrivate, Copy.Src);
  }
}

void ReverseEmitter::emitCountedLoop(Value *Count, const Twine &Name,
                                     function_ref<void(Value *)> Body) {
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop =
      BasicBlock::Create(Derivative.getContext(), Name, &Derivative);
  BasicBlock *After =
      BasicBlock::Create(Derivative.getContext(), Name + ".done", &Derivative);
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt64(0)), After, Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(B.getInt64Ty(), 2, "k");
  K->addIncoming(B.getInt64(0), Pre);
  Body(K);
  Value *Next = B.CreateAdd(K, B.getInt64(1));
  // The latch: the body may have branched (warp-aggregated adds).
  K->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpEQ(Next, Count), After, Loop);
  B.SetInsertPoint(After);
}

void ReverseEmitter::moveRecordAdjoints(const RecordCopy &Copy,
                                        ArrayRef<std::pair<int, Type *>> Fields,
                                        Value *At, uint64_t AtMultipleOf,
                                        Value *Avail) {
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  for (auto [Offset, Elt] : Fields) {
    uint64_t End = Offset + DL.getTypeStoreSize(Elt);
    // The field is moved where the copy covers it whole.
    Value *Covered = B.CreateICmpULE(B.getInt64(End), Avail);
    BasicBlock *After = nullptr;
    if (auto *C = dyn_cast<ConstantInt>(Covered)) {
      if (C->isZero())
        continue;
    } else {
      BasicBlock *Move =
          BasicBlock::Create(Derivative.getContext(), "adj.field", &Derivative);
      After = BasicBlock::Create(Derivative.getContext(), "adj.field.done",
                                 &Derivative);
      B.CreateCondBr(Covered, Move, After);
      B.SetInsertPoint(Move);
    }
    Value *ByteOffset = B.CreateAdd(At, B.getInt64(Offset));
    auto FieldAlign = [&](Align Base) {
      return commonAlignment(
          AtMultipleOf ? commonAlignment(Base, AtMultipleOf) : Base, Offset);
    };
    moveAdjoint(Copy, Elt, FieldAlign(Copy.DstAlign), FieldAlign(Copy.SrcAlign),
                [&](Value *Base) {
                  return B.CreateGEP(B.getInt8Ty(), Base, ByteOffset);
                });
    if (After) {
      B.CreateBr(After);
      B.SetInsertPoint(After);
    }
  }
}

void ReverseEmitter::moveRecordArrayAdjoints(
    const RecordCopy &Copy, ArrayRef<std::pair<int, Type *>> Fields,
    uint64_t Stride, Value *Len) {
  // Whole records in a loop, then the fields of a partial last one.
  Value *Count = B.CreateUDiv(Len, B.getInt64(Stride));
  emitCountedLoop(Count, "adj.records", [&](Value *K) {
    moveRecordAdjoints(Copy, Fields, B.CreateMul(K, B.getInt64(Stride)), Stride,
                       B.getInt64(Stride));
  });
  Value *Whole = B.CreateMul(Count, B.getInt64(Stride));
  Value *Tail = B.CreateSub(Len, Whole);
  if (auto *C = dyn_cast<ConstantInt>(Tail); C && C->isZero())
    return;
  moveRecordAdjoints(Copy, Fields, Whole, Stride, Tail);
}

void ReverseEmitter::moveAdjoints(Value *DstS, Value *SrcS, Value *Bytes,
                                  Type *Elt, Align DstAlign, Align SrcAlign,
                                  bool SrcPrivate) {
  uint64_t Size = Derivative.getParent()->getDataLayout().getTypeAllocSize(Elt);
  // Element k of an array that starts at the copy's address.
  RecordCopy Copy{DstS, SrcS, DstAlign, SrcAlign, SrcPrivate, nullptr};
  Value *Count = B.CreateUDiv(B.CreateZExtOrTrunc(Bytes, B.getInt64Ty()),
                              B.getInt64(Size));
  emitCountedLoop(Count, "adj.move", [&](Value *K) {
    moveAdjoint(Copy, Elt, commonAlignment(DstAlign, Size),
                commonAlignment(SrcAlign, Size),
                [&](Value *Base) { return B.CreateGEP(Elt, Base, K); });
  });
}

void ReverseEmitter::reverseMemSet(MemSetInst &I) {
  // The memory was overwritten with constants: its adjoint before is zero.
  // Fields the type analysis knows hold pointers are skipped: their shadows
  // are shadow pointers, no adjoints, and the object they belong to may live
  // on (a std::vector's fields cleared by its constructor, then set).
  Value *Dst = I.getRawDest();
  if (!needsShadow(Dst))
    return;
  Value *DstS = reverseShadow(Dst, I);
  auto *ConstLen = dyn_cast<ConstantInt>(I.getLength());
  SmallVector<uint64_t, 4> Pointers;
  TypeTree Tree = TI->tree(orig(Dst));
  if (ConstLen)
    for (const auto &[Path, C] : Tree.entries())
      if (Path.size() == 1 && Path[0] >= 0 && C.kind() == ConcreteType::Pointer)
        Pointers.push_back(Path[0]);
  if (Pointers.empty()) {
    Value *Len = lookup(I.getLength());
    forEachLane(DstS, [&](Value *LanePtr, unsigned) {
      tagLike(*B.CreateMemSet(LanePtr, B.getInt8(0), Len, I.getDestAlign()), I);
    });
    return;
  }
  llvm::sort(Pointers);
  uint64_t PtrBytes = Derivative.getParent()->getDataLayout().getPointerSize();
  Align DstAlign = I.getDestAlign().valueOrOne();
  forEachLane(DstS, [&](Value *LanePtr, unsigned) {
    auto Zero = [&](uint64_t From, uint64_t To) {
      if (To > From)
        tagLike(*B.CreateMemSet(
                    B.CreateConstGEP1_64(B.getInt8Ty(), LanePtr, From),
                    B.getInt8(0), To - From, commonAlignment(DstAlign, From)),
                I);
    };
    uint64_t At = 0, Len = ConstLen->getZExtValue();
    for (uint64_t P : Pointers) {
      Zero(At, std::min(P, Len));
      At = std::max(At, P + PtrBytes);
    }
    Zero(At, Len);
  });
}

} // namespace gpuad
