//===- TapeHeapFallback.cpp - The device heap when the pool is missing ----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tape pool is a fast path, never a requirement: a program that never
/// mentions gpuad (written for Enzyme, say) provides no pool, and one that
/// does may make it too small.  Then a thread takes the tape memory the pool
/// would have given it from the device heap, which the program sizes as it
/// would for Enzyme's tapes (cudaLimitMallocHeapSize /
/// hipLimitMallocHeapSize).  The first thread of the program that does so
/// prints one line saying why and what is faster; a heap that runs out
/// stops the kernel with a message naming the limit to raise
/// (TargetHooks::emitCheckedAlloc).  Where a reachable heap call is not free
/// (AMDGPU: ockl's allocator raises a kernel's registers even where it never
/// runs), a program that declares the pool -- and so takes the fast path --
/// gets no fallback: its kernels trap without the pool.
//===----------------------------------------------------------------------===//

#include "Tape/TapePlacement.h"

#include "Target/TargetHooks.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// `i32 gpuad.heap.fallback.warned`: set by the first thread that falls
/// back.
static GlobalVariable *warnedFlag(Module &M, const TargetHooks &Target) {
  StringRef Name = "gpuad.heap.fallback.warned";
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  Type *I32 = Type::getInt32Ty(M.getContext());
  return new GlobalVariable(
      M, I32, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantInt::get(I32, 0), Name, nullptr, GlobalValue::NotThreadLocal,
      Target.globalAddressSpace());
}

bool usesHeapFallback(const Module &M, const TargetHooks &Target) {
  return Target.heapCallIsCheap() || !programDeclaresTapePool(M);
}

Function *heapFallbackFunction(Function &User, TargetHooks &Target) {
  Module &M = *User.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Function *F = tapeHelper(User, "gpuad.tape.heap.fallback",
                           FunctionType::get(Ptr, {I64}, false));
  if (!F->empty())
    return F;
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Warn = BasicBlock::Create(C, "warn", F);
  auto *Alloc = BasicBlock::Create(C, "alloc", F);
  IRBuilder<> B(Entry);
  Value *Flag = B.CreateAddrSpaceCast(warnedFlag(M, Target), Ptr);
  Value *Was =
      B.CreateAtomicRMW(AtomicRMWInst::Xchg, Flag, B.getInt32(1), MaybeAlign(4),
                        AtomicOrdering::Monotonic,
                        C.getOrInsertSyncScopeID(Target.deviceScope()));
  B.CreateCondBr(B.CreateIsNull(Was), Warn, Alloc);
  B.SetInsertPoint(Warn);
  Target.emitPrint(B, "gpuad: warning: gradient tapes are taken from the "
                      "device heap, because the program provides no tape "
                      "pool or one too small; gpuad::setTapePool "
                      "(<gpuad/tape_pool.h>) is faster");
  B.CreateBr(Alloc);
  B.SetInsertPoint(Alloc);
  B.CreateRet(Target.emitCheckedAlloc(B, F->getArg(0)));
  return F;
}

void emitPoolShortfall(IRBuilderBase &B, Value *Bytes, Function &User,
                       TargetHooks &Target, StringRef Message) {
  if (usesHeapFallback(*User.getParent(), Target)) {
    B.CreateRet(B.CreateCall(heapFallbackFunction(User, Target), {Bytes}));
    return;
  }
  Target.emitTrap(B, Message);
  B.CreateUnreachable();
}

} // namespace gpuad
