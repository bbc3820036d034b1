//===- TapeArena.cpp - Growing tapes in the tape pool ---------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Tape arrays whose size is known only at run time live, on a GPU, in an
/// arena in the thread's part of the tape pool instead of device malloc.
/// The part begins with a header: the pool generation it was set up for and
/// the arena's top.  The arena starts where the module's fixed tapes end
/// (`__gpuad_tape_pool_need`).  A block is
///   [size | freed flag] [data, size rounded to 16] [size | unused]
/// so that freeing the top block can also pop the freed blocks below it
/// (frame arrays that grew leave their old copies freed below the new one).
/// A part whose header names another generation (a new setTapePool, or
/// memory never used) starts empty.  Without a pool, or past the end of the
/// thread's part, blocks come from the device heap where usesHeapFallback()
/// (TapeHeapFallback.cpp; a block outside the part is freed there), or the
/// kernel traps.
//===----------------------------------------------------------------------===//

#include "Tape/TapePlacement.h"

#include "Sweep/ForwardSweep.h"
#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

bool usesTapeArena(const TargetHooks &Target, TapePlacementChoice Choice) {
  return Target.isGPU() && Choice != TapePlacementChoice::Heap;
}

namespace {

/// What the arena functions share: the pool's fields, this thread's part,
/// and whether the part has room for an arena at all, at the builder's
/// position.
struct ArenaAccess {
  IRBuilderBase &B;
  Value *Part, *Stride, *Start, *Generation, *HasArena;

  ArenaAccess(IRBuilderBase &B, Function &User, TargetHooks &Target) : B(B) {
    Module &M = *User.getParent();
    Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
    Value *Need = B.CreateAddrSpaceCast(tapePoolNeed(M, Target), Ptr);
    Start = B.CreateBinaryIntrinsic(Intrinsic::umax,
                                    B.CreateLoad(I64, Need, "arena.start"),
                                    B.getInt64(PoolHeaderBytes));
    // Room for the header and one block's bookkeeping.
    PoolView Pool = emitPoolView(B, Start, B.getInt64(32), Target);
    HasArena = Pool.Fits;
    Stride = Pool.Stride;
    Part =
        B.CreateGEP(B.getInt8Ty(), Pool.Base,
                    B.CreateMul(Target.emitGlobalThreadId(B), Stride), "part");
    Value *Fields = B.CreateAddrSpaceCast(tapePool(M, Target), Ptr);
    Generation = B.CreateLoad(
        I64, B.CreateConstGEP1_64(B.getInt8Ty(), Fields, 16), "generation");
  }

  Value *at(Value *Offset) { return B.CreateGEP(B.getInt8Ty(), Part, Offset); }
  Value *load(Value *Offset) {
    return B.CreateLoad(B.getInt64Ty(), at(Offset));
  }
  void store(Value *V, Value *Offset) { B.CreateStore(V, at(Offset)); }
  Value *rounded(Value *Bytes) {
    return B.CreateAnd(B.CreateAdd(Bytes, B.getInt64(15)), B.getInt64(~15ull));
  }
};

/// `ptr gpuad.tape.arena.alloc(i64 bytes)`.
Function *allocFunction(Function &User, TargetHooks &Target) {
  LLVMContext &C = User.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Function *F = tapeHelper(User, "gpuad.tape.arena.alloc",
                           FunctionType::get(Ptr, {I64}, false));
  if (!F->empty())
    return F;
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Arena = BasicBlock::Create(C, "arena", F);
  auto *Fresh = BasicBlock::Create(C, "fresh", F);
  auto *Ready = BasicBlock::Create(C, "ready", F);
  auto *Heap = BasicBlock::Create(C, "heap", F);
  auto *Fits = BasicBlock::Create(C, "fits", F);
  IRBuilder<> B(Entry);
  ArenaAccess A(B, User, Target);
  Value *Bytes = F->getArg(0);
  Value *Zero = B.getInt64(0), *Eight = B.getInt64(8);
  B.CreateCondBr(A.HasArena, Arena, Heap);
  B.SetInsertPoint(Arena);
  B.CreateCondBr(B.CreateICmpEQ(A.load(Zero), A.Generation), Ready, Fresh);
  B.SetInsertPoint(Fresh); // a part this pool has not used yet
  A.store(A.Generation, Zero);
  A.store(A.Start, Eight);
  B.CreateBr(Ready);
  B.SetInsertPoint(Ready);
  Value *Data = A.rounded(Bytes);
  Value *Top = A.load(Eight);
  Value *End = B.CreateAdd(Top, B.CreateAdd(Data, B.getInt64(32)));
  B.CreateCondBr(B.CreateICmpUGT(End, A.Stride), Heap, Fits);
  // No pool, or a full arena: the device heap.
  B.SetInsertPoint(Heap);
  emitPoolShortfall(B, Bytes, User, Target,
                    "gpuad: the tape pool is missing, or too small for "
                    "this thread's growing tapes (loops without a "
                    "compile-time bound need more than "
                    "gpuad::tapePoolBytesPerThread() bytes per thread)");
  B.SetInsertPoint(Fits);
  A.store(Bytes, Top);
  A.store(Zero, B.CreateAdd(Top, Eight));
  A.store(Bytes, B.CreateSub(End, B.getInt64(16)));
  A.store(End, Eight);
  B.CreateRet(A.at(B.CreateAdd(Top, B.getInt64(16))));
  return F;
}

/// `void gpuad.tape.arena.free(ptr data)`.
Function *freeFunction(Function &User, TargetHooks &Target) {
  LLVMContext &C = User.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Function *F = tapeHelper(User, "gpuad.tape.arena.free",
                           FunctionType::get(Type::getVoidTy(C), {Ptr}, false));
  if (!F->empty())
    return F;
  auto *Null = BasicBlock::Create(C, "null", F);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Mark = BasicBlock::Create(C, "mark", F);
  auto *Loop = BasicBlock::Create(C, "pop", F);
  auto *Check = BasicBlock::Create(C, "below", F);
  auto *Pop = BasicBlock::Create(C, "freed", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Null); // free(null), as a frame array that never grew
  B.CreateCondBr(B.CreateIsNull(F->getArg(0)), Done, Entry);
  B.SetInsertPoint(Entry);
  ArenaAccess A(B, User, Target);
  Value *Eight = B.getInt64(8);
  Value *Offset = B.CreateSub(B.CreatePtrToInt(F->getArg(0), B.getInt64Ty()),
                              B.CreatePtrToInt(A.Part, B.getInt64Ty()));
  if (usesHeapFallback(*User.getParent(), Target)) {
    // A block outside this thread's part came from the device heap.
    auto *Mine = BasicBlock::Create(C, "in.part", F, Mark);
    auto *Heap = BasicBlock::Create(C, "heap", F, Mark);
    B.CreateCondBr(A.HasArena, Mine, Heap);
    B.SetInsertPoint(Mine);
    B.CreateCondBr(B.CreateICmpULT(Offset, A.Stride), Mark, Heap);
    B.SetInsertPoint(Heap);
    Target.emitFree(B, F->getArg(0));
    B.CreateBr(Done);
  } else {
    B.CreateBr(Mark);
  }
  // Mark the block freed.
  B.SetInsertPoint(Mark);
  A.store(B.getInt64(1), B.CreateSub(Offset, Eight));
  B.CreateBr(Loop);
  // Pop freed blocks off the top.
  B.SetInsertPoint(Loop);
  Value *Top = A.load(Eight);
  B.CreateCondBr(B.CreateICmpUGT(Top, A.Start), Check, Done);
  B.SetInsertPoint(Check);
  Value *Size = A.load(B.CreateSub(Top, B.getInt64(16)));
  Value *Below = B.CreateSub(Top, B.CreateAdd(A.rounded(Size), B.getInt64(32)));
  Value *Freed = A.load(B.CreateAdd(Below, Eight));
  B.CreateCondBr(B.CreateIsNotNull(Freed), Pop, Done);
  B.SetInsertPoint(Pop);
  A.store(Below, Eight);
  B.CreateBr(Loop);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

} // namespace

Value *emitTapeAlloc(IRBuilderBase &B, Value *Bytes, Function &User,
                     TargetHooks &Target, TapePlacementChoice Choice) {
  if (!usesTapeArena(Target, Choice))
    return Target.emitCheckedAlloc(B, Bytes);
  // Nothing fixed, but every thread's part needs the arena's header.
  reservePool(*User.getParent(), 0, Target);
  return B.CreateCall(allocFunction(User, Target), {Bytes}, "tape");
}

void emitTapeFree(IRBuilderBase &B, Value *Ptr, Function &User,
                  TargetHooks &Target, TapePlacementChoice Choice) {
  if (!usesTapeArena(Target, Choice))
    return Target.emitFree(B, Ptr);
  B.CreateCall(freeFunction(User, Target), {Ptr});
}

} // namespace gpuad
