//===- ReverseHeap.cpp - Shadow heap blocks in reverse mode ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The forward sweep allocates a zeroed shadow for every heap block in
/// differentiated memory (Core/ForwardSweepMemory.cpp).  The reverse sweep
/// adds adjoints into a shadow until it is back where the block was
/// allocated, so a primal `free` cannot free the shadow.  Instead:
///   - a freed pointer that comes (through casts, PHIs and selects) only
///     from allocations in this function: the reverse of the free records
///     the shadow as pending; the reverse of each of those allocations frees
///     the pending shadow if it is its own.  The reverse sweep retraces the
///     forward path, so a free that did not run leaves nothing pending, and
///     one inside a loop is matched with the allocation of its iteration;
///   - any other freed pointer (loaded from memory, passed in): the shadow
///     goes on a list freed when the reverse sweep ends.  In a split-form
///     callee the caller's reverse sweep may still need it, so it is kept
///     (a warning says so).
/// realloc: the forward sweep gives the new block a fresh zeroed shadow and
/// keeps the old one; the reverse of realloc moves the adjoints of the
/// copied bytes back to the old shadow and then counts as the old block's
/// free.
//===----------------------------------------------------------------------===//

#include "Reverse/ReverseEmitter.h"

#include "Analysis/ActivityAnalysis.h"
#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/SweepPlanner.h"
#include "Tape/Tape.h"
#include "Tape/TapePlacement.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// Whether \p V is a call that allocates a heap block.
static bool isAllocation(const CallTable &Calls, const Value *V) {
  std::optional<HeapFn> Heap = Calls.heapCall(V);
  return Heap && (*Heap == HeapFn::Malloc || *Heap == HeapFn::Calloc ||
                  *Heap == HeapFn::AlignedAlloc || *Heap == HeapFn::Realloc ||
                  *Heap == HeapFn::UserAlloc);
}

/// Whether \p Heap releases a block.
static bool isRelease(std::optional<HeapFn> Heap) {
  return Heap && (*Heap == HeapFn::Free || *Heap == HeapFn::Realloc ||
                  *Heap == HeapFn::UserFree);
}

/// The values \p P may come from, through casts, PHIs and selects.
static SmallVector<Value *, 4> pointerSources(Value *P) {
  SmallVector<Value *, 4> Sources, Work = {P};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val()->stripPointerCasts();
    if (!Seen.insert(V).second)
      continue;
    if (auto *PN = dyn_cast<PHINode>(V))
      append_range(Work, PN->incoming_values());
    else if (auto *Sel = dyn_cast<SelectInst>(V))
      Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
    else if (!isa<ConstantPointerNull>(V))
      Sources.push_back(V);
  }
  return Sources;
}

/// The pointer a free or realloc call releases.
static Value *releasedPointer(CallBase &Call) {
  return Call.getArgOperand(releasedArgument(Call));
}

/// `void gpuad.shadow.keep(ptr)`: does nothing.  A user's deallocator that
/// needs more than the pointer cannot free a shadow left on a list at the
/// end of the reverse sweep (the allocation's reverse frees its own).
static FunctionCallee keepShadow(Module &M) {
  LLVMContext &C = M.getContext();
  auto *Ty =
      FunctionType::get(Type::getVoidTy(C), {PointerType::get(C, 0)}, false);
  Function *F = M.getFunction("gpuad.shadow.keep");
  if (!F) {
    F = Function::Create(Ty, GlobalValue::InternalLinkage, "gpuad.shadow.keep",
                         M);
    ReturnInst::Create(C, BasicBlock::Create(C, "entry", F));
  }
  return F;
}

/// The function that frees a shadow of a block from \p Alloc, when no
/// argument besides the pointer is needed.
static FunctionCallee plainDeallocation(Module &M, const CallTable &Calls,
                                        const CallBase &Alloc) {
  Type *Void = Type::getVoidTy(M.getContext());
  Type *Ptr = PointerType::get(M.getContext(), 0);
  if (Calls.heapCall(&Alloc) == HeapFn::UserAlloc) {
    Function *Dealloc = userDeallocator(*Alloc.getCalledFunction());
    return Dealloc && Dealloc->arg_size() == 1 ? FunctionCallee(Dealloc)
                                               : keepShadow(M);
  }
  return M.getOrInsertFunction(
      Calls.releaseOf(*Alloc.getCalledFunction()).Plain, Void, Ptr);
}

ReverseEmitter::ShadowList &ReverseEmitter::newList(FunctionCallee Dealloc) {
  BasicBlock &Entry = Derivative.getEntryBlock();
  IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
  unsigned AS = Derivative.getParent()->getDataLayout().getAllocaAddrSpace();
  auto *PtrTy = PointerType::get(Derivative.getContext(), 0);
  Type *I64 = EB.getInt64Ty();
  // Generic pointers: the list helpers take them (AMDGPU's stack is
  // private memory).
  auto Local = [&](Type *Ty, const Twine &Name) {
    return EB.CreatePointerBitCastOrAddrSpaceCast(
        EB.CreateAlloca(Ty, AS, nullptr, Name), PtrTy);
  };
  auto List = std::make_unique<ShadowList>();
  List->Data = Local(PtrTy, "shadow.list");
  List->Length = Local(I64, "shadow.list.length");
  List->Capacity = Local(I64, "shadow.list.capacity");
  List->Dealloc = Dealloc;
  EB.CreateStore(ConstantPointerNull::get(PtrTy), List->Data);
  EB.CreateStore(EB.getInt64(0), List->Length);
  EB.CreateStore(EB.getInt64(0), List->Capacity);
  Lists.push_back(std::move(List));
  return *Lists.back();
}

void ReverseEmitter::planShadowFrees() {
  // Lists exist before any reverse block is emitted: the reverse of an
  // allocation may be emitted before the reverse of its free.  A free and
  // the allocations it may release share a list; so do, transitively, all
  // frees of those allocations.
  Module &M = *Derivative.getParent();
  EquivalenceClasses<const Value *> Groups;
  for (Instruction *I : Primal) {
    auto *Call = dyn_cast<CallBase>(I);
    std::optional<HeapFn> Heap = Ctx.calls().heapCall(I);
    if (!isRelease(Heap) || !needsShadow(releasedPointer(*Call)))
      continue;
    SmallVector<Value *, 4> Sources = pointerSources(releasedPointer(*Call));
    if (all_of(Sources,
               [&](Value *S) { return isAllocation(Ctx.calls(), S); })) {
      Groups.insert(Call);
      for (Value *S : Sources)
        Groups.unionSets(Call, S);
      continue;
    }
    // The shadow is freed like the primal (sizes dropped).
    HeapRelease Release = Ctx.calls().releaseOf(*Call->getCalledFunction());
    if (*Heap == HeapFn::UserFree && Call->arg_size() != 1) {
      Ctx.diags().warning(*Key.Fn, Call->getDebugLoc(),
                          "the shadow of the block released by '" +
                              describe(*Call) +
                              "' is not freed (a deallocator that takes more "
                              "than the pointer, of a block allocated outside "
                              "the differentiated function)");
      continue;
    }
    StringRef Dealloc = *Heap == HeapFn::Realloc ? "free"
                        : *Heap == HeapFn::UserFree
                            ? Call->getCalledFunction()->getName()
                            : Release.Plain;
    if (!Release.Aligned.empty()) {
      Ctx.diags().warning(*Key.Fn, Call->getDebugLoc(),
                          "the shadow of the block released by '" +
                              describe(*Call) +
                              "' is not freed (aligned delete of a block "
                              "allocated outside the differentiated function)");
      continue;
    }
    if (Split) {
      // The caller's reverse sweep may still add into this shadow: the
      // outermost reverse sweep frees it.
      if (ShadowList *List = deferredList(Dealloc, /*Create=*/true)) {
        FreeList[Call] = List;
        continue;
      }
      Ctx.diags().warning(*Key.Fn, Call->getDebugLoc(),
                          "the shadow of the block released by '" +
                              describe(*Call) +
                              "' is not freed: it may have been allocated "
                              "outside the differentiated function");
      continue;
    }
    // Freed when the reverse sweep ends.
    ShadowList *&List = EndLists[Dealloc.str()];
    if (!List)
      List = &newList(M.getOrInsertFunction(
          Dealloc, Type::getVoidTy(Derivative.getContext()),
          PointerType::get(Derivative.getContext(), 0)));
    FreeList[Call] = List;
  }
  for (auto It = Groups.begin(); It != Groups.end(); ++It) {
    if (!(*It)->isLeader())
      continue;
    ShadowList *List = nullptr;
    for (auto Mem = Groups.member_begin(**It); Mem != Groups.member_end();
         ++Mem) {
      const auto *Call = cast<CallBase>(*Mem);
      if (isAllocation(Ctx.calls(), Call)) {
        if (!List)
          List = &newList(plainDeallocation(M, Ctx.calls(), *Call));
        AllocList[Call] = List;
      }
    }
    for (auto Mem = Groups.member_begin(**It); Mem != Groups.member_end();
         ++Mem) {
      const auto *Call = cast<CallBase>(*Mem);
      if (isRelease(Ctx.calls().heapCall(Call)))
        FreeList[Call] = List;
    }
  }
}

ReverseEmitter::ShadowList *ReverseEmitter::deferredList(StringRef Dealloc,
                                                         bool Create) {
  // Host only: thread-local lists in the module.
  if (Ctx.target().isGPU())
    return nullptr;
  ShadowList *&Known = DeferredLists[Dealloc.str()];
  if (Known)
    return Known;
  Module &M = *Derivative.getParent();
  auto *PtrTy = PointerType::get(Derivative.getContext(), 0);
  Type *I64 = Type::getInt64Ty(Derivative.getContext());
  std::string Prefix = ("gpuad.deferred." + Dealloc).str();
  auto Global = [&](StringRef Suffix, Type *Ty) -> GlobalVariable * {
    std::string Name = Prefix + Suffix.str();
    if (GlobalVariable *G = M.getGlobalVariable(Name, /*AllowInternal=*/true))
      return G;
    if (!Create)
      return nullptr;
    return new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage,
                              Constant::getNullValue(Ty), Name, nullptr,
                              GlobalValue::GeneralDynamicTLSModel);
  };
  GlobalVariable *Data = Global("", PtrTy);
  if (!Data)
    return nullptr;
  auto List = std::make_unique<ShadowList>();
  List->Data = Data;
  List->Length = Global(".length", I64);
  List->Capacity = Global(".capacity", I64);
  List->Dealloc =
      M.getOrInsertFunction(Dealloc, Type::getVoidTy(M.getContext()), PtrTy);
  Lists.push_back(std::move(List));
  return Known = Lists.back().get();
}

void ReverseEmitter::reverseFree(CallBase &Free) {
  if (keepsPrimalBlock(Free))
    deferPrimalFree(Free);
  Value *P = releasedPointer(Free);
  if (!needsShadow(P))
    return;
  deferShadowFree(Free,
                  lookup(shadowOf(P) ? shadowOf(P) : shadowPointer(P, Free)));
}

void ReverseEmitter::deferShadowFree(CallBase &Free, Value *S) {
  ShadowList *List = FreeList.lookup(&Free);
  if (!List)
    return; // a null free, or a shadow kept (see planShadowFrees)
  forEachLane(S,
              [&](Value *LanePtr, unsigned) { appendToList(*List, LanePtr); });
}

void ReverseEmitter::appendToList(ShadowList &List, Value *P) {
  Type *PtrTy = PointerType::get(Derivative.getContext(), 0),
       *I64 = B.getInt64Ty();
  Value *Len = B.CreateLoad(I64, List.Length);
  Value *Data = B.CreateCall(
      TheTape->growFunction(),
      {B.CreateLoad(PtrTy, List.Data), Len, List.Capacity, B.getInt64(8)});
  B.CreateStore(Data, List.Data);
  B.CreateStore(P, B.CreateGEP(PtrTy, Data, Len));
  B.CreateStore(B.CreateAdd(Len, B.getInt64(1)), List.Length);
}

/// `ptr gpuad.shadow.take(ptr data, ptr length, ptr p)`: removes p from the
/// list (data, *length) and returns it, or returns null if it is not there.
static Function *takeFunction(Function &User) {
  Module &M = *User.getParent();
  if (Function *F = M.getFunction("gpuad.shadow.take"))
    return F;
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  auto *F =
      Function::Create(FunctionType::get(Ptr, {Ptr, Ptr, Ptr}, false),
                       GlobalValue::InternalLinkage, "gpuad.shadow.take", M);
  copyFunctionAttributes(User, *F);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Found = BasicBlock::Create(C, "found", F);
  auto *Next = BasicBlock::Create(C, "next", F);
  auto *Missing = BasicBlock::Create(C, "missing", F);
  Value *Data = F->getArg(0), *LenPtr = F->getArg(1), *P = F->getArg(2);
  IRBuilder<> B(Entry);
  Value *Len = B.CreateLoad(I64, LenPtr, "length");
  B.CreateCondBr(B.CreateICmpEQ(Len, B.getInt64(0)), Missing, Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(I64, 2, "k");
  K->addIncoming(B.getInt64(0), Entry);
  Value *At = B.CreateGEP(Ptr, Data, K);
  B.CreateCondBr(B.CreateICmpEQ(B.CreateLoad(Ptr, At), P), Found, Next);
  B.SetInsertPoint(Next);
  Value *K1 = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(K1, Next);
  B.CreateCondBr(B.CreateICmpEQ(K1, Len), Missing, Loop);
  B.SetInsertPoint(Found);
  Value *Last = B.CreateSub(Len, B.getInt64(1));
  B.CreateStore(B.CreateLoad(Ptr, B.CreateGEP(Ptr, Data, Last)), At);
  B.CreateStore(Last, LenPtr);
  B.CreateRet(P);
  B.SetInsertPoint(Missing);
  B.CreateRet(ConstantPointerNull::get(cast<PointerType>(Ptr)));
  return F;
}

/// Frees \p P with the deallocation function matching allocation \p Alloc.
static void deallocate(IRBuilderBase &B, TargetHooks &Target,
                       const CallTable &Calls, CallBase &Alloc, Value *P,
                       function_ref<Value *(Value *)> Lookup) {
  if (Calls.heapCall(&Alloc) == HeapFn::UserAlloc) {
    // The user's deallocator, given what the allocation was given.
    Function &Fn = *Alloc.getCalledFunction();
    Function *Dealloc = userDeallocator(Fn);
    SmallVector<Value *, 4> Args;
    for (int A : userDeallocatorArguments(Fn))
      Args.push_back(A < 0 ? P : Lookup(Alloc.getArgOperand(A)));
    B.CreateCall(Dealloc, Args)->setCallingConv(Dealloc->getCallingConv());
    return;
  }
  HeapRelease Release = Calls.releaseOf(*Alloc.getCalledFunction());
  if (Release.Plain == "free")
    return Target.emitFree(B, P);
  Module &M = *B.GetInsertBlock()->getModule();
  if (Release.Aligned.empty()) {
    B.CreateCall(plainDeallocation(M, Calls, Alloc), {P});
    return;
  }
  Value *Align = Alloc.getArgOperand(1);
  B.CreateCall(M.getOrInsertFunction(Release.Aligned, B.getVoidTy(),
                                     P->getType(), Align->getType()),
               {P, Lookup(Align)});
}

void ReverseEmitter::releaseShadow(Instruction &I) {
  // A realloc releases its shadow itself, between moving adjoints out of it
  // and releasing the old block.
  auto *Call = dyn_cast<CallBase>(&I);
  if (Call && isAllocation(Ctx.calls(), Call) &&
      Ctx.calls().heapCall(Call) != HeapFn::Realloc)
    releaseAllocation(*Call);
}

void ReverseEmitter::releaseAllocation(CallBase &Alloc) {
  ShadowList *List = AllocList.lookup(&Alloc);
  if (!List || !shadowOf(&Alloc))
    return;
  // Free this allocation's shadow if a free left it pending (deallocating
  // null does nothing).
  Type *PtrTy = PointerType::get(Derivative.getContext(), 0);
  forEachLane(lookup(shadowOf(&Alloc)), [&](Value *Mine, unsigned) {
    Value *Taken =
        B.CreateCall(takeFunction(Derivative),
                     {B.CreateLoad(PtrTy, List->Data), List->Length, Mine});
    deallocate(B, Ctx.target(), Ctx.calls(), Alloc, Taken,
               [&](Value *V) { return lookup(V); });
  });
}

void ReverseEmitter::freeListedShadows() {
  // Lists for the end, and whatever a group's allocations did not take.
  // The outermost reverse sweep also frees what split-form callees left.
  if (!Split)
    for (StringRef Dealloc :
         {"free", "_ZdlPv", "_ZdaPv", "cudaFree", "hipFree"})
      deferredList(Dealloc, /*Create=*/false);
  Type *PtrTy = PointerType::get(Derivative.getContext(), 0),
       *I64 = B.getInt64Ty();
  for (const std::unique_ptr<ShadowList> &List : Lists) {
    // Split-form callees leave the module's list alone.
    if (Split && isa<GlobalVariable>(List->Data))
      continue;
    Value *Data = B.CreateLoad(PtrTy, List->Data);
    Value *Len = B.CreateLoad(I64, List->Length);
    BasicBlock *Pre = B.GetInsertBlock();
    BasicBlock *Body = BasicBlock::Create(Derivative.getContext(),
                                          "shadow.list.free", &Derivative);
    BasicBlock *Done = BasicBlock::Create(Derivative.getContext(),
                                          "shadow.list.done", &Derivative);
    B.CreateCondBr(B.CreateICmpEQ(Len, B.getInt64(0)), Done, Body);
    B.SetInsertPoint(Body);
    PHINode *K = B.CreatePHI(I64, 2, "k");
    K->addIncoming(B.getInt64(0), Pre);
    B.CreateCall(List->Dealloc,
                 {B.CreateLoad(PtrTy, B.CreateGEP(PtrTy, Data, K))});
    Value *Next = B.CreateAdd(K, B.getInt64(1));
    K->addIncoming(Next, Body);
    B.CreateCondBr(B.CreateICmpEQ(Next, Len), Done, Body);
    B.SetInsertPoint(Done);
    // The list grew as a tape array does (in the tape pool's arena on GPUs).
    emitTapeFree(B, Data, Derivative, Ctx.target(),
                 Ctx.options().TapePlacement);
    if (isa<GlobalVariable>(List->Data)) {
      B.CreateStore(ConstantPointerNull::get(cast<PointerType>(PtrTy)),
                    List->Data);
      B.CreateStore(B.getInt64(0), List->Length);
      B.CreateStore(B.getInt64(0), List->Capacity);
    }
  }
}

void ReverseEmitter::emitShadowFree(CallBase &, Value *) {
  // Nothing in the forward sweep: see reverseFree.
}

void ReverseEmitter::emitShadowRealloc(CallBase &Call) {
  // A fresh zeroed shadow; the old one stays for the reverse sweep.  realloc
  // copies min(old size, new size) bytes.  The old size is not known, but
  // the old shadow holds at least its usable size, and past the old size the
  // new block's adjoints are zero when the reverse sweep gets back here (the
  // primal cannot read those bytes before writing them): min(usable, new)
  // bytes serve, for the shadows of pointers now and adjoints later.
  Value *Old = shadowPointer(Call.getArgOperand(0), Call);
  Value *Size = Call.getArgOperand(1);
  Value *Copied = B.CreateZExtOrTrunc(Size, B.getInt64Ty());
  forEachLane(Old, [&](Value *OldLane, unsigned) {
    Copied = B.CreateBinaryIntrinsic(Intrinsic::umin, Copied,
                                     Ctx.target().emitUsableSize(B, OldLane));
  });
  bool Pointers = TI->mayHoldPointers(orig(&Call));
  SmallVector<Value *, 4> Lanes;
  forEachLane(Old, [&](Value *OldLane, unsigned) {
    Value *New = Ctx.target().emitCheckedAlloc(B, Size);
    B.CreateMemSet(New, B.getInt8(0), Size, MaybeAlign());
    if (Pointers)
      B.CreateMemCpy(New, MaybeAlign(), OldLane, MaybeAlign(), Copied);
    Lanes.push_back(New);
  });
  setShadow(&Call, Batch.pack(B, Call.getType(), Lanes));
  ReallocCopied[&Call] = Copied;
}

void ReverseEmitter::reverseRealloc(CallBase &Realloc) {
  Value *OldP = releasedPointer(Realloc);
  if (!hasShadow(&Realloc) || !needsShadow(OldP))
    return;
  Value *NewS = lookup(shadowOf(&Realloc));
  Value *OldS =
      lookup(shadowOf(OldP) ? shadowOf(OldP) : shadowPointer(OldP, Realloc));
  ConcreteType T = TI->memoryAt(orig(&Realloc), 0);
  if (T.kind() == ConcreteType::Float) {
    // Heap blocks are aligned for any scalar.
    Align Elt =
        Derivative.getParent()->getDataLayout().getABITypeAlign(T.floatType());
    moveAdjoints(NewS, OldS, lookup(ReallocCopied.lookup(&Realloc)),
                 T.floatType(), Elt, Elt, threadPrivate(OldP));
  } else if (T.kind() != ConcreteType::Integer &&
             T.kind() != ConcreteType::Pointer)
    return fail(Realloc, "cannot tell what '" + describe(Realloc) +
                             "' holds: the adjoints of its bytes cannot be "
                             "moved back");
  // Then as an allocation, and as the free of the old block.
  releaseAllocation(Realloc);
  deferShadowFree(Realloc, OldS);
}

} // namespace gpuad
