//===- TapePlacement.cpp - Where a thread's tape lives --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Tape/TapePlacement.h"

#include "Support/FunctionAttributes.h"
#include "Sweep/ForwardSweep.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// Marks the alloca of a local tape region: for the shared step, or for
/// SplitForm.
static constexpr const char *RegionMD = "gpuad.tape.region";
static constexpr const char *CarriedMD = "gpuad.tape.carried";

bool isCarriedTapeRegion(const AllocaInst &AI) {
  return AI.getMetadata(CarriedMD);
}

StringRef placeName(TapePlace P) {
  switch (P) {
  case TapePlace::Local:
    return "thread-local memory";
  case TapePlace::Shared:
    return "shared-memory slots";
  case TapePlace::Pool:
    return "the global tape pool";
  case TapePlace::Heap:
    return "the heap";
  case TapePlace::Carried:
    return "the split tape, by value";
  }
  return "";
}

TapePlace chooseTapePlace(uint64_t Bytes, const TargetHooks &Target,
                          TapePlacementChoice Choice) {
  switch (Choice) {
  case TapePlacementChoice::Local:
  case TapePlacementChoice::Shared: // local first; the module step moves it
    return TapePlace::Local;
  case TapePlacementChoice::Pool:
    return Target.isGPU() ? TapePlace::Pool : TapePlace::Local;
  case TapePlacementChoice::Heap:
    return TapePlace::Heap;
  case TapePlacementChoice::Auto:
    break;
  }
  if (Bytes <= Target.localTapeBudget())
    return TapePlace::Local;
  return Target.isGPU() ? TapePlace::Pool : TapePlace::Heap;
}

/// A variable of the pool's, created (internal, zero) when the program does
/// not declare it.
static GlobalVariable *poolVariable(Module &M, StringRef Name, Type *Ty,
                                    const TargetHooks &Target) {
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  return new GlobalVariable(
      M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(Ty), Name, nullptr, GlobalValue::NotThreadLocal,
      Target.globalAddressSpace());
}

GlobalVariable *tapePool(Module &M, const TargetHooks &Target) {
  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  return poolVariable(M, TapePoolSymbol,
                      StructType::get(C, {PointerType::get(C, 0), I64, I64}),
                      Target);
}

GlobalVariable *tapePoolNeed(Module &M, const TargetHooks &Target) {
  return poolVariable(M, TapePoolNeedSymbol, Type::getInt64Ty(M.getContext()),
                      Target);
}

bool programDeclaresTapePool(const Module &M) {
  const GlobalVariable *GV = M.getNamedGlobal(TapePoolSymbol);
  return GV && !GV->hasLocalLinkage();
}

Function *tapeHelper(Function &User, StringRef Name, FunctionType *FT) {
  Module &M = *User.getParent();
  if (Function *F = M.getFunction(Name))
    return F;
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage, Name, M);
  copyFunctionAttributes(User, *F);
  return F;
}

PoolView emitPoolView(IRBuilderBase &B, Value *Offset, Value *Bytes,
                      const TargetHooks &Target) {
  Module &M = *B.GetInsertBlock()->getModule();
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  Value *PoolPtr = B.CreateAddrSpaceCast(tapePool(M, Target), Ptr);
  Value *Base = B.CreateLoad(Ptr, PoolPtr, "pool.base");
  Value *Stride = B.CreateLoad(
      I64, B.CreateConstGEP1_64(B.getInt8Ty(), PoolPtr, 8), "pool.stride");
  Value *Fits =
      B.CreateAnd(B.CreateIsNotNull(Base),
                  B.CreateICmpUGE(Stride, B.CreateAdd(Offset, Bytes)), "fits");
  return {Base, Stride, Fits};
}

Function *poolRegionFunction(Function &User, TargetHooks &Target) {
  LLVMContext &C = User.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Function *F = tapeHelper(User, "gpuad.tape.pool.region",
                           FunctionType::get(Ptr, {I64, I64}, false));
  if (!F->empty())
    return F;
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Heap = BasicBlock::Create(C, "no.pool", F);
  auto *Good = BasicBlock::Create(C, "region", F);
  IRBuilder<> B(Entry);
  Value *Offset = F->getArg(0), *Bytes = F->getArg(1);
  PoolView Pool = emitPoolView(B, Offset, Bytes, Target);
  B.CreateCondBr(Pool.Fits, Good, Heap);
  B.SetInsertPoint(Heap);
  emitPoolShortfall(B, Bytes, User, Target,
                    "gpuad: this gradient kernel keeps its tape in the "
                    "tape pool, which the host did not provide or made too "
                    "small: call gpuad::setTapePool (<gpuad/tape_pool.h>) "
                    "with gpuad::tapePoolBytesPerThread() bytes per thread");
  B.SetInsertPoint(Good);
  Value *At = B.CreateAdd(
      B.CreateMul(Target.emitGlobalThreadId(B), Pool.Stride), Offset);
  B.CreateRet(B.CreateGEP(B.getInt8Ty(), Pool.Base, At, "region"));
  return F;
}

Function *poolReleaseFunction(Function &User, TargetHooks &Target) {
  LLVMContext &C = User.getContext();
  Type *Ptr = PointerType::get(C, 0), *I64 = Type::getInt64Ty(C);
  Function *F =
      tapeHelper(User, "gpuad.tape.pool.release",
                 FunctionType::get(Type::getVoidTy(C), {Ptr, I64, I64}, false));
  if (!F->empty())
    return F;
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Heap = BasicBlock::Create(C, "from.heap", F);
  auto *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  // The pool does not change during a launch: the region came from the
  // heap exactly when it does not fit now.
  PoolView Pool = emitPoolView(B, F->getArg(1), F->getArg(2), Target);
  B.CreateCondBr(Pool.Fits, Done, Heap);
  B.SetInsertPoint(Heap);
  Target.emitFree(B, F->getArg(0));
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

uint64_t reservePool(Module &M, uint64_t Bytes, const TargetHooks &Target) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  GlobalVariable *Need = tapePoolNeed(M, Target);
  // A thread's part starts with the arena's header (TapeArena.cpp).
  uint64_t Offset = PoolHeaderBytes;
  if (auto *CI = dyn_cast_or_null<ConstantInt>(
          Need->hasInitializer() ? Need->getInitializer() : nullptr))
    Offset = std::max(Offset, alignTo(CI->getZExtValue(), 16));
  Need->setInitializer(ConstantInt::get(I64, Offset + alignTo(Bytes, 16)));
  return Offset;
}

Value *emitTapeRegion(Function &F, TapePlace Place, uint64_t Bytes,
                      TargetHooks &Target, TapePlacementChoice Choice) {
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*At))
    ++At;
  IRBuilder<> B(&Entry, At);
  switch (Place) {
  case TapePlace::Local:
  case TapePlace::Shared:
  case TapePlace::Carried: {
    unsigned AS = M.getDataLayout().getAllocaAddrSpace();
    auto *AI = new AllocaInst(
        ArrayType::get(B.getInt64Ty(), divideCeil(Bytes, 8)), AS, nullptr,
        Align(16), "tape.region", Entry.getFirstInsertionPt());
    AI->setMetadata(Place == TapePlace::Carried ? CarriedMD : RegionMD,
                    MDNode::get(C, ConstantAsMetadata::get(B.getInt64(Bytes))));
    return AS ? B.CreateAddrSpaceCast(AI, Ptr, "tape.region.flat")
              : static_cast<Value *>(AI);
  }
  case TapePlace::Pool: {
    Value *Offset = B.getInt64(reservePool(M, Bytes, Target));
    Value *Size = B.getInt64(alignTo(Bytes, 16));
    Value *Region = B.CreateCall(poolRegionFunction(F, Target), {Offset, Size},
                                 "tape.region");
    if (usesHeapFallback(M, Target))
      for (Instruction &I : instructions(F))
        if (isa<ReturnInst>(I))
          IRBuilder<>(&I).CreateCall(poolReleaseFunction(F, Target),
                                     {Region, Offset, Size});
    return Region;
  }
  case TapePlace::Heap: {
    Value *Region = emitTapeAlloc(B, B.getInt64(Bytes), F, Target, Choice);
    for (Instruction &I : instructions(F))
      if (isa<ReturnInst>(I)) {
        IRBuilder<> RB(&I);
        emitTapeFree(RB, Region, F, Target, Choice);
      }
    return Region;
  }
  }
  return nullptr;
}

/// The most threads a block may have wherever \p F runs: every kernel that
/// reaches it has launch bounds (none if F may be called from elsewhere).
static std::optional<unsigned>
blockBound(const Function &F, const TargetHooks &Target,
           SmallPtrSetImpl<const Function *> &Seen) {
  if (Target.isKernel(F))
    return Target.maxThreadsPerBlock(F);
  if (!F.hasLocalLinkage() || F.use_empty() || !Seen.insert(&F).second)
    return std::nullopt;
  unsigned Most = 0;
  for (const User *U : F.users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledFunction() != &F)
      return std::nullopt;
    std::optional<unsigned> N = blockBound(*Call->getFunction(), Target, Seen);
    if (!N)
      return std::nullopt;
    Most = std::max(Most, *N);
  }
  return Most;
}

/// Adds the shared variables \p C refers to (through constant
/// expressions too) to \p Out.
static void collectShared(const Constant *C, const TargetHooks &Target,
                          SmallPtrSetImpl<const GlobalVariable *> &Out) {
  if (const auto *GV = dyn_cast<GlobalVariable>(C)) {
    if (GV->getAddressSpace() == Target.sharedAddressSpace())
      Out.insert(GV);
    return;
  }
  if (isa<ConstantExpr>(C) || isa<ConstantAggregate>(C))
    for (const Use &Op : C->operands())
      collectShared(cast<Constant>(Op.get()), Target, Out);
}

/// Bytes of shared memory a block of \p F uses: the variables of the
/// functions F reaches (of the whole module unless F is a kernel).  None if
/// one is dynamic (`extern __shared__`: its size is the launch's).
static std::optional<uint64_t> staticSharedBytes(const Function &F,
                                                 const TargetHooks &Target) {
  const Module &M = *F.getParent();
  SmallPtrSet<const GlobalVariable *, 8> Used;
  if (Target.isKernel(F)) {
    SmallPtrSet<const Function *, 16> Seen;
    SmallVector<const Function *, 16> Work = {&F};
    while (!Work.empty()) {
      const Function *G = Work.pop_back_val();
      if (!G || G->isDeclaration() || !Seen.insert(G).second)
        continue;
      for (const Instruction &I : instructions(*G)) {
        if (const auto *Call = dyn_cast<CallBase>(&I))
          Work.push_back(Call->getCalledFunction());
        for (const Use &Op : I.operands())
          if (const auto *C = dyn_cast<Constant>(Op.get()))
            collectShared(C, Target, Used);
      }
    }
  } else {
    for (const GlobalVariable &GV : M.globals())
      collectShared(&GV, Target, Used);
  }
  uint64_t Bytes = 0;
  for (const GlobalVariable *GV : Used) {
    uint64_t Size = M.getDataLayout().getTypeAllocSize(GV->getValueType());
    if (Size == 0 && GV->isDeclaration())
      return std::nullopt;
    Bytes += alignTo(Size, GV->getAlign().valueOrOne());
  }
  return Bytes;
}

/// Bytes between two threads' slots: \p Bytes rounded to 8, plus 8 if that
/// is a multiple of 16, so that consecutive threads' 8-byte accesses fall
/// in different banks.
static uint64_t slotStride(uint64_t Bytes) {
  uint64_t S = alignTo(Bytes, 8);
  return S % 16 ? S : S + 8;
}

/// Moves \p AI, a local region of \p Bytes, to shared slots of \p Threads.
static void moveToShared(AllocaInst &AI, uint64_t Bytes, unsigned Threads,
                         TargetHooks &Target) {
  Function &F = *AI.getFunction();
  Module &M = *F.getParent();
  uint64_t Stride = slotStride(Bytes);
  auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()), Stride * Threads);
  auto *GV = new GlobalVariable(
      M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
      PoisonValue::get(Ty), F.getName() + ".gpuad.tape", nullptr,
      GlobalValue::NotThreadLocal, Target.sharedAddressSpace());
  GV->setAlignment(Align(16));
  // The inliner's lifetime markers hold for allocas only.
  for (User *U : make_early_inc_range(AI.users()))
    if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      II->eraseFromParent();
  IRBuilder<> B(&AI);
  Value *Slot =
      B.CreateMul(B.CreateZExt(Target.emitLinearThreadId(B), B.getInt64Ty()),
                  B.getInt64(Stride));
  Value *Mine = B.CreateGEP(B.getInt8Ty(), GV, Slot, "tape.slots");
  Value *Flat =
      B.CreateAddrSpaceCast(Mine, PointerType::get(M.getContext(), 0));
  for (User *U : make_early_inc_range(AI.users()))
    if (auto *Cast = dyn_cast<AddrSpaceCastInst>(U);
        Cast && Cast->getType() == Flat->getType()) {
      Cast->replaceAllUsesWith(Flat);
      Cast->eraseFromParent();
    }
  AI.replaceAllUsesWith(Flat); // the alloca was already a generic pointer
  AI.eraseFromParent();
}

void placeTapesInSharedMemory(Module &M, TargetHooks &Target,
                              TapePlacementChoice Choice) {
  if (!Target.isGPU() || Choice == TapePlacementChoice::Local)
    return;
  SmallVector<AllocaInst *, 4> Regions;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (Instruction &I : F.getEntryBlock())
        if (auto *AI = dyn_cast<AllocaInst>(&I);
            AI && AI->getMetadata(RegionMD))
          Regions.push_back(AI);
  for (AllocaInst *AI : Regions) {
    Function &F = *AI->getFunction();
    uint64_t Bytes =
        mdconst::extract<ConstantInt>(AI->getMetadata(RegionMD)->getOperand(0))
            ->getZExtValue();
    SmallPtrSet<const Function *, 8> Seen;
    std::optional<unsigned> Threads = blockBound(F, Target, Seen);
    std::optional<uint64_t> Used = staticSharedBytes(F, Target);
    uint64_t Slots = Threads ? slotStride(Bytes) * *Threads : 0;
    std::string Why;
    if (!Threads)
      Why = "a kernel that reaches it has no launch bounds";
    else if (!Used)
      Why = "the kernel uses dynamic shared memory";
    else if (Choice != TapePlacementChoice::Shared &&
             slotStride(Bytes) > Target.sharedTapeBytesPerThread())
      Why = (Twine(slotStride(Bytes)) + " B slots exceed the " +
             Twine(Target.sharedTapeBytesPerThread()) +
             " B a thread may take in shared memory without lowering "
             "occupancy")
                .str();
    else if (*Used + Slots > Target.sharedMemoryLimit())
      Why = (Twine(Slots) + " B of slots beside " + Twine(*Used) +
             " B of shared variables exceed " +
             Twine(Target.sharedMemoryLimit()) + " B")
                .str();
    OptimizationRemarkEmitter ORE(&F);
    // At the first source position of the function's own file.
    const Instruction *Where = AI;
    const DISubprogram *SP = F.getSubprogram();
    for (const Instruction &I : instructions(F))
      if (const DebugLoc &DL = I.getDebugLoc();
          SP && DL && DL.getLine() && DL->getFile() == SP->getFile()) {
        Where = &I;
        break;
      }
    if (!Why.empty()) {
      ORE.emit([&] {
        return OptimizationRemarkAnalysis("gpuad", "TapeLocal", Where)
               << "tape region of '"
               << ore::NV("Function", demangle(F.getName())) << "', "
               << ore::NV("Bytes", Bytes)
               << " B per thread, stays in thread-local memory: " << Why;
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark("gpuad", "TapeShared", Where)
             << "tape region of '" << ore::NV("Function", demangle(F.getName()))
             << "', " << ore::NV("Bytes", Bytes)
             << " B per thread, in shared-memory slots ("
             << ore::NV("Threads", *Threads) << " threads x "
             << ore::NV("Stride", slotStride(Bytes)) << " B)";
    });
    moveToShared(*AI, Bytes, *Threads, Target);
  }
}

} // namespace gpuad
