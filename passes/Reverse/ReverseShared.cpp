//===- ReverseShared.cpp - Block-shared memory in the reverse sweep -------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A `__shared__` variable's shadow is another `__shared__` variable
/// (DerivativeContext::sharedShadowOf).  The reverse sweep accumulates
/// adjoints into it from every thread of the block, so:
///   - it starts at zero: the threads of the block zero it together (each a
///     strided share of words) at the start of the derivative, followed by a
///     barrier;
///   - every barrier of the forward code is mirrored at the same point of
///     the reverse sweep, so what other threads add before it is complete
///     after it (the reverse of `tile[t] = f(x); sync; ... tile[t+1]` reads
///     the adjoint of tile[t] only once thread t-1 has added to it).
/// Zeroing needs a barrier, and a barrier needs the whole block: a function
/// with shared shadows but no barrier (its own or its callees') is an
/// error.  Derivatives made for calls inside the requested one do not zero:
/// they record their shadows, and the requested derivative zeroes them all
/// at its start (zeroing in the callee could wipe adjoints the caller had
/// already added).
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// The first block barrier among the forward code, or null.
static CallBase *firstBlockBarrier(Function &D, TargetHooks &Target) {
  for (BasicBlock &BB : D)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I);
          Call && Target.isBlockBarrier(*Call))
        return Call;
  return nullptr;
}

/// The shared shadows \p D adds to itself and through the derivatives it
/// calls.
static SetVector<GlobalVariable *>
collectSharedShadows(Function &D, ArrayRef<GlobalVariable *> Own,
                     SweepPlanner &Ctx) {
  SetVector<GlobalVariable *> All(Own.begin(), Own.end());
  for (BasicBlock &BB : D)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction())
          for (GlobalVariable *S : Ctx.sharedShadowsOf(Callee))
            All.insert(S);
  return All;
}

/// A block barrier to copy: the derivative's own, else one the derivatives
/// it calls contain (they run for the whole block too).
static CallBase *blockBarrierFor(Function &D, TargetHooks &Target,
                                 SweepPlanner &Ctx) {
  if (CallBase *Own = firstBlockBarrier(D, Target))
    return Own;
  for (BasicBlock &BB : D)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && !Ctx.sharedShadowsOf(Callee).empty())
          if (CallBase *Inner = firstBlockBarrier(*Callee, Target))
            return Inner;
  return nullptr;
}

void ReverseEmitter::zeroSharedShadows() {
  SetVector<GlobalVariable *> Shadows =
      collectSharedShadows(Derivative, SharedShadows.getArrayRef(), Ctx);
  if (Shadows.empty())
    return;
  TargetHooks &Target = Ctx.target();
  StringRef Var = Shadows.front()->getName();
  Var = Var.take_front(Var.find(".gpuad."));
  Instruction &Start = *Derivative.getEntryBlock().getFirstNonPHIOrDbg();
  // The user's split halves zero them at the start of the augmented half
  // (the entry, before the forward code, goes there): both halves run in
  // the same launch, by the whole block, or shared memory would not hold
  // the primal's values either.
  bool Requested = Ctx.isRequested(Key) || (Split && Ctx.isSplitRequested(Key));
  if (!Requested) {
    // A derivative called from another: the requested one zeroes them.
    Ctx.noteSharedShadows(&Derivative, Shadows.getArrayRef());
    return;
  }
  CallBase *Barrier = blockBarrierFor(Derivative, Target, Ctx);
  if (!Barrier)
    return fail(Start, "__shared__ variable '" + Var +
                           "' carries derivatives, but the function has no "
                           "__syncthreads: its shadow cannot be zeroed for the "
                           "whole block (call the derivative from every thread "
                           "of the block, with a barrier in the function)");
  // Zeroing goes after the entry block's allocas, before the forward code.
  // The allocas are gathered at the top first (adjoint slots come with the
  // store of their initial value): allocas left below the split would not
  // be promoted to registers.
  BasicBlock *Entry = &Derivative.getEntryBlock();
  Instruction *Top = &*Entry->getFirstNonPHIOrDbg();
  for (Instruction &I : make_early_inc_range(*Entry))
    if (auto *AI = dyn_cast<AllocaInst>(&I);
        AI && AI != Top && AI->isStaticAlloca())
      AI->moveBefore(Top->getIterator());
  BasicBlock::iterator At = Entry->getFirstNonPHIOrDbgOrAlloca();
  BasicBlock *Rest = Entry->splitBasicBlock(At, "gpuad.shared.zeroed");
  Entry->getTerminator()->eraseFromParent();
  IRBuilder<> ZB(Entry);
  Value *Tid = Target.emitLinearThreadId(ZB);
  Value *Threads = Target.emitBlockThreadCount(ZB);
  const DataLayout &DL = Derivative.getParent()->getDataLayout();
  for (GlobalVariable *S : Shadows) {
    uint64_t Bytes = DL.getTypeAllocSize(S->getValueType());
    Type *Word = Bytes % 8 == 0   ? ZB.getInt64Ty()
                 : Bytes % 4 == 0 ? ZB.getInt32Ty()
                                  : ZB.getInt8Ty();
    Value *Words = ZB.getInt32(Bytes / DL.getTypeAllocSize(Word));
    if (Ctx.isDynamicSharedShadow(*S)) {
      // Half the launch's dynamic bytes, in 4-byte words.
      Word = ZB.getInt32Ty();
      Words = ZB.CreateLShr(Target.emitDynamicSharedBytes(ZB), 3);
    }
    // for (w = tid; w < Words; w += threads) ((Word *)S)[w] = 0;
    BasicBlock *Pre = ZB.GetInsertBlock();
    BasicBlock *Loop = BasicBlock::Create(Derivative.getContext(), "gpuad.zero",
                                          &Derivative, Rest);
    BasicBlock *Done = BasicBlock::Create(Derivative.getContext(),
                                          "gpuad.zero.done", &Derivative, Rest);
    ZB.CreateCondBr(ZB.CreateICmpULT(Tid, Words), Loop, Done);
    ZB.SetInsertPoint(Loop);
    PHINode *W = ZB.CreatePHI(ZB.getInt32Ty(), 2);
    W->addIncoming(Tid, Pre);
    ZB.CreateStore(Constant::getNullValue(Word),
                   ZB.CreateGEP(Word, S, ZB.CreateZExt(W, ZB.getInt64Ty())));
    Value *Next = ZB.CreateAdd(W, Threads);
    W->addIncoming(Next, Loop);
    ZB.CreateCondBr(ZB.CreateICmpULT(Next, Words), Loop, Done);
    ZB.SetInsertPoint(Done);
  }
  Target.emitBlockBarrier(ZB, *Barrier);
  ZB.CreateBr(Rest);
}

} // namespace gpuad
