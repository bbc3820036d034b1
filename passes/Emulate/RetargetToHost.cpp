//===- RetargetToHost.cpp - A device module as a host module --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The steps of RetargetToHostPass, in order (see Emulate.h):
///   1. device library functions lose their bodies (the runtime has them);
///      inline PTX is translated (InlineAsm.cpp, PtxAsm.cpp); vprintf,
///      malloc and free go to the runtime's versions;
///   2. target intrinsics are lowered (Intrinsics.cpp);
///   3. `__shared__` variables become offsets into the running block's
///      buffer; device variables move to the default address space;
///      private allocas too;
///   4. memory accesses get checks;
///   5. kernels become plain functions with launchers; everything defined
///      becomes internal; a constructor registers kernels and variables;
///   6. the module takes the host's triple and data layout.
/// Address spaces stay on pointer types: on the host they all mean the one
/// address space, so casts between them are no-ops.
//===----------------------------------------------------------------------===//

#include "Emulate/Emulate.h"
#include "Emulate/Intrinsics.h"

#include "EmuAbi.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

#define DEBUG_TYPE "gpuad-emulate"

using namespace llvm;

STATISTIC(NumLaunchers, "Kernels given a host launcher");

namespace gpuad::emu {

namespace {

class Retarget {
public:
  explicit Retarget(Module &M) : M(M), C(M.getContext()) {}
  bool run();

private:
  void dropLibraryBodies();
  void redirect(StringRef From, StringRef To);
  void layOutShared();
  void moveGlobalsToDefaultSpace();
  void moveAllocas();
  void addChecks();
  void makeLaunchers();
  void registerModule();
  unsigned smVersion() const;
  bool switchTarget();
  void error(const Twine &Msg);

  Module &M;
  LLVMContext &C;
  bool IsAMDGPU = false;
  bool Failed = false;
  uint64_t StaticShared = 0;
  struct Kernel {
    Function *F;
    Function *Launcher;
  };
  SmallVector<Kernel, 8> Kernels;
  SmallVector<GlobalVariable *, 8> Variables;
};

void Retarget::error(const Twine &Msg) {
  C.diagnose(DiagnosticInfoGeneric("gpuad-emulate: " + Msg, DS_Error));
  Failed = true;
}

void Retarget::dropLibraryBodies() {
  removeFromUsedLists(M, [](Constant *Cst) {
    auto *F = dyn_cast<Function>(Cst->stripPointerCasts());
    return F && isDeviceLibraryFunction(F->getName());
  });
  for (Function &F : M)
    if (isDeviceLibraryFunction(F.getName()) && !F.isDeclaration()) {
      F.deleteBody();
      F.setLinkage(GlobalValue::ExternalLinkage);
      F.setComdat(nullptr);
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setDSOLocal(false);
    }
  // What only the dropped bodies used (hostcall buffers, helpers with
  // target inline assembly): gone too, or it would reach the host backend.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasLocalLinkage() && F.use_empty()) {
        F.eraseFromParent();
        Changed = true;
      }
    for (GlobalVariable &GV : make_early_inc_range(M.globals()))
      if (GV.hasLocalLinkage() && GV.use_empty()) {
        GV.eraseFromParent();
        Changed = true;
      }
  }
}

void Retarget::redirect(StringRef From, StringRef To) {
  Function *F = M.getFunction(From);
  if (!F)
    return;
  FunctionCallee New = M.getOrInsertFunction(To, F->getFunctionType());
  F->replaceAllUsesWith(New.getCallee());
  if (F->use_empty())
    F->eraseFromParent();
}

void Retarget::layOutShared() {
  // Static __shared__ variables at offsets; the dynamic buffer (extern, or
  // of size zero) after them all, 16-byte aligned.
  const DataLayout &DL = M.getDataLayout();
  SmallVector<std::pair<GlobalVariable *, uint64_t>, 8> Shared;
  SmallVector<GlobalVariable *, 2> Dynamic;
  uint64_t Offset = 0;
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != 3)
      continue;
    uint64_t Size = DL.getTypeAllocSize(GV.getValueType());
    if (GV.isDeclaration() || Size == 0) {
      Dynamic.push_back(&GV);
      continue;
    }
    Offset = alignTo(Offset, GV.getAlign().valueOrOne().value() < 8
                                 ? 8
                                 : GV.getAlign()->value());
    Shared.push_back({&GV, Offset});
    Offset += Size;
  }
  StaticShared = alignTo(Offset, 16);
  auto Replace = [&](GlobalVariable *GV, uint64_t At) {
    convertUsersOfConstantsToInstructions({GV});
    for (Use &U : make_early_inc_range(GV->uses())) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I) {
        error("the __shared__ variable '" + GV->getName() +
              "' is used in an initializer; it has no address before a "
              "launch");
        continue;
      }
      Instruction *Where = I;
      if (auto *PN = dyn_cast<PHINode>(I))
        Where = PN->getIncomingBlock(U)->getTerminator();
      IRBuilder<> B(Where);
      Value *Base =
          threadField(B, M, GPUAD_EMU_OFFSET_SHARED, PointerType::get(C, 0));
      Value *P = B.CreateConstGEP1_64(B.getInt8Ty(), Base, At);
      U.set(B.CreateAddrSpaceCast(P, GV->getType()));
    }
  };
  for (auto [GV, At] : Shared)
    Replace(GV, At);
  for (GlobalVariable *GV : Dynamic)
    Replace(GV, StaticShared);
  for (auto [GV, At] : Shared)
    if (GV->use_empty())
      GV->eraseFromParent();
  for (GlobalVariable *GV : Dynamic)
    if (GV->use_empty())
      GV->eraseFromParent();
}

void Retarget::moveGlobalsToDefaultSpace() {
  // Device (1) and constant (4) variables: host data, registered by name.
  SmallVector<GlobalVariable *, 8> Move;
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() != 0 && GV.getAddressSpace() != 3 &&
        !GV.getName().starts_with("llvm."))
      Move.push_back(&GV);
  for (GlobalVariable *Old : Move) {
    // Not constant even for __constant__: the host writes it
    // (cudaMemcpyToSymbol).
    auto *New = new GlobalVariable(
        M, Old->getValueType(), /*isConstant=*/false, Old->getLinkage(),
        Old->hasInitializer() ? Old->getInitializer() : nullptr, "", Old,
        Old->getThreadLocalMode(), 0);
    New->takeName(Old);
    New->setAlignment(Old->getAlign());
    New->copyAttributesFrom(Old);
    Old->replaceAllUsesWith(
        ConstantExpr::getAddrSpaceCast(New, Old->getType()));
    Old->eraseFromParent();
  }
  // Every global is device memory the bounds check must accept (string
  // literals included); the runtime finds the named ones by name.  Not the
  // texts of annotations (section llvm.metadata): code generation emits
  // none of them.
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && !GV.getName().starts_with("llvm.") &&
        !GV.getName().starts_with("__gpuad_emu") &&
        GV.getSection() != "llvm.metadata")
      Variables.push_back(&GV);
}

void Retarget::moveAllocas() {
  // AMDGPU's private allocas live in address space 5; the host's stack is 0.
  // Collected first: rewriting one erases its lifetime markers, which may
  // be the instructions an iterator would visit next.
  SmallVector<AllocaInst *, 16> Private;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->getAddressSpace())
        Private.push_back(AI);
  for (AllocaInst *AI : Private) {
    IRBuilder<> B(AI);
    AllocaInst *New =
        B.CreateAlloca(AI->getAllocatedType(), 0, AI->getArraySize());
    New->setAlignment(AI->getAlign());
    New->takeName(AI);
    // Lifetime markers must name an alloca, not a cast of one: dropped
    // (they only let the optimizer reuse the slot).
    for (User *U : make_early_inc_range(AI->users()))
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->isLifetimeStartOrEnd())
        II->eraseFromParent();
    AI->replaceAllUsesWith(B.CreateAddrSpaceCast(New, AI->getType()));
    AI->eraseFromParent();
  }
}

void Retarget::addChecks() {
  const DataLayout &DL = M.getDataLayout();
  FunctionCallee Check = M.getOrInsertFunction(
      "__gpuad_emu_check", Type::getVoidTy(C), PointerType::get(C, 0),
      Type::getInt64Ty(C), Type::getInt32Ty(C));
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      Value *Ptr = nullptr;
      Value *Size = nullptr;
      bool Write = false;
      auto Bytes = [&](Type *T) {
        return ConstantInt::get(Type::getInt64Ty(C), DL.getTypeStoreSize(T));
      };
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        Ptr = LI->getPointerOperand();
        Size = Bytes(LI->getType());
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        Ptr = SI->getPointerOperand();
        Size = Bytes(SI->getValueOperand()->getType());
        Write = true;
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
        Ptr = RMW->getPointerOperand();
        Size = Bytes(RMW->getType());
        Write = true;
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
        Ptr = CX->getPointerOperand();
        Size = Bytes(CX->getNewValOperand()->getType());
        Write = true;
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        IRBuilder<> B(MI);
        Value *Len = B.CreateZExtOrTrunc(MI->getLength(), B.getInt64Ty());
        if (auto *MT = dyn_cast<MemTransferInst>(MI))
          B.CreateCall(Check,
                       {B.CreateAddrSpaceCast(MT->getRawSource(), B.getPtrTy()),
                        Len, B.getInt32(0)});
        Ptr = MI->getRawDest();
        Size = Len;
        Write = true;
      }
      if (!Ptr)
        continue;
      // The thread's own stack, and the emulator's thread state, need no
      // check.
      const Value *Base = getUnderlyingObject(Ptr);
      if (isa<AllocaInst>(Base))
        continue;
      if (const auto *GV = dyn_cast<GlobalVariable>(Base);
          GV && GV->isThreadLocal())
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(Base);
          II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
        continue;
      IRBuilder<> B(&I);
      B.CreateCall(Check, {B.CreateAddrSpaceCast(Ptr, B.getPtrTy()), Size,
                           B.getInt32(Write)});
    }
  }
}

void Retarget::makeLaunchers() {
  // launcher(void **args): kernel(*(T0 *)args[0], *(T1 *)args[1], ...).
  Type *Ptr = PointerType::get(C, 0);
  for (Function &F : M) {
    CallingConv::ID CC = F.getCallingConv();
    if (F.isDeclaration() ||
        (CC != CallingConv::PTX_Kernel && CC != CallingConv::AMDGPU_KERNEL))
      continue;
    F.setCallingConv(CallingConv::C);
    ++NumLaunchers;
    auto *Launcher = Function::Create(
        FunctionType::get(Type::getVoidTy(C), {Ptr}, false),
        GlobalValue::InternalLinkage, F.getName() + ".emu.launch", M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", Launcher));
    SmallVector<Value *, 8> Args;
    for (Argument &A : F.args()) {
      Value *Slot = B.CreateLoad(
          Ptr, B.CreateConstGEP1_64(Ptr, Launcher->getArg(0), A.getArgNo()));
      // A byval aggregate is passed by the address of the caller's copy
      // (the call copies it to the thread's stack).  AMDGPU's byref one (a
      // struct in the kernel arguments) is copied here, to the thread's
      // stack too: the kernel reads it where its accesses are not checked.
      if (A.hasByRefAttr()) {
        Type *Ty = A.getParamByRefType();
        AllocaInst *Copy = B.CreateAlloca(Ty);
        Copy->setAlignment(A.getParamAlign().valueOrOne());
        B.CreateMemCpy(Copy, Copy->getAlign(), Slot, Copy->getAlign(),
                       M.getDataLayout().getTypeAllocSize(Ty));
        Args.push_back(B.CreateAddrSpaceCast(Copy, A.getType()));
      } else if (A.hasByValAttr())
        Args.push_back(B.CreateAddrSpaceCast(Slot, A.getType()));
      else
        Args.push_back(B.CreateLoad(A.getType(), Slot));
    }
    B.CreateCall(&F, Args);
    B.CreateRetVoid();
    Kernels.push_back({&F, Launcher});
  }
}

/// NN of the sm_NN the kernels target ("target-cpu"), 0 if none: the
/// emulated device reports it as its compute capability.
unsigned Retarget::smVersion() const {
  for (const Function &F : M) {
    StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
    unsigned SM;
    if (CPU.consume_front("sm_") &&
        !CPU.take_while(isDigit).getAsInteger(10, SM))
      return SM;
  }
  return 0;
}

void Retarget::registerModule() {
  // Internal everything defined: the host half defines the same names (host
  // stubs of kernels, host shadows of variables, __host__ __device__
  // functions).
  // Out of their comdats too: a template kernel's group has the name of
  // its host stub's, and the linker would keep only one of the two.
  for (Function &F : M)
    if (!F.isDeclaration() && !F.getName().starts_with("llvm.")) {
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setComdat(nullptr);
    }
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && !GV.getName().starts_with("llvm.")) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setComdat(nullptr);
    }

  Type *Ptr = PointerType::get(C, 0), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  auto *KernelTy = StructType::get(C, {Ptr, Ptr});
  auto *VarTy = StructType::get(C, {Ptr, Ptr, I64});
  auto *ModTy = StructType::get(C, {I32, I32, Ptr, I32, Ptr, I64, I32});
  auto Name = [&](StringRef S) -> Constant * {
    return ConstantExpr::getPointerCast(
        cast<GlobalVariable>(
            IRBuilder<>(C).CreateGlobalString(S, "emu.name", 0, &M)),
        Ptr);
  };
  SmallVector<Constant *, 8> KernelRows, VarRows;
  for (auto [F, Launcher] : Kernels)
    KernelRows.push_back(
        ConstantStruct::get(KernelTy, {Name(F->getName()), Launcher}));
  const DataLayout &DL = M.getDataLayout();
  for (GlobalVariable *GV : Variables)
    VarRows.push_back(ConstantStruct::get(
        VarTy,
        {Name(GV->getName()), GV,
         ConstantInt::get(I64, DL.getTypeAllocSize(GV->getValueType()))}));
  auto Table = [&](StructType *Ty, ArrayRef<Constant *> Rows, StringRef N) {
    auto *AT = ArrayType::get(Ty, Rows.size());
    return new GlobalVariable(M, AT, true, GlobalValue::InternalLinkage,
                              ConstantArray::get(AT, Rows), N, nullptr,
                              GlobalValue::NotThreadLocal, 0);
  };
  GlobalVariable *KT = Table(KernelTy, KernelRows, "emu.kernels");
  GlobalVariable *VT = Table(VarTy, VarRows, "emu.variables");
  auto *Mod = new GlobalVariable(
      M, ModTy, true, GlobalValue::InternalLinkage,
      ConstantStruct::get(ModTy, {ConstantInt::get(I32, IsAMDGPU ? 64 : 32),
                                  ConstantInt::get(I32, KernelRows.size()), KT,
                                  ConstantInt::get(I32, VarRows.size()), VT,
                                  ConstantInt::get(I64, StaticShared),
                                  ConstantInt::get(I32, smVersion())}),
      "emu.module", nullptr, GlobalValue::NotThreadLocal, 0);
  auto *Ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                       GlobalValue::InternalLinkage, "gpuad.emu.register", M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", Ctor));
  B.CreateCall(M.getOrInsertFunction("__gpuad_emu_register_module",
                                     Type::getVoidTy(C), Ptr),
               {Mod});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 0);
}

bool Retarget::switchTarget() {
  Triple Host(sys::getDefaultTargetTriple());
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(Host, Err);
  if (!T) {
    error("no host target to retarget to: " + Err);
    return false;
  }
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(
      Host, "generic", "", TargetOptions(), std::nullopt));
  M.setTargetTriple(Host);
  M.setDataLayout(TM->createDataLayout());
  // Device attributes and annotations mean nothing on the host.
  for (Function &F : M) {
    AttributeMask Drop;
    for (const Attribute &A : F.getAttributes().getFnAttrs())
      if (A.isStringAttribute() &&
          (A.getKindAsString() == "target-cpu" ||
           A.getKindAsString() == "target-features" ||
           A.getKindAsString().starts_with("amdgpu-") ||
           A.getKindAsString().starts_with("nvvm.") ||
           A.getKindAsString() == "uniform-work-group-size"))
        Drop.addAttribute(A.getKindAsString());
    F.removeFnAttrs(Drop);
  }
  if (NamedMDNode *N = M.getNamedMetadata("nvvm.annotations"))
    M.eraseNamedMetadata(N);
  return true;
}

bool Retarget::run() {
  Triple T = M.getTargetTriple();
  if (!T.isNVPTX() && !T.isAMDGPU()) {
    error("the module is not NVPTX or AMDGPU device code");
    return false;
  }
  IsAMDGPU = T.isAMDGPU();
  dropLibraryBodies();
  auto Report = [&](const Twine &Msg) { error(Msg); };
  // Inline PTX first: it becomes IR with target intrinsics and traps, which
  // the steps below lower with everything else.
  if (!lowerInlineAssembly(M, IsAMDGPU, Report))
    return false;
  redirect("vprintf", "__gpuad_emu_vprintf");
  redirect("malloc", "__gpuad_emu_malloc");
  redirect("free", "__gpuad_emu_free");
  // __trap() (and gpuad's failed device checks): an error naming the thread,
  // not the host's illegal instruction.
  redirect("llvm.trap", "__gpuad_emu_trap");
  // HIP's assert handler has glibc's name; the host's asserts keep glibc's.
  redirect("__assert_fail", "__gpuad_emu_assert_fail");
  if (!lowerTargetIntrinsics(M, IsAMDGPU, Report))
    return false;
  layOutShared();
  moveGlobalsToDefaultSpace();
  moveAllocas();
  addChecks();
  makeLaunchers();
  registerModule();
  return !Failed && switchTarget();
}

} // namespace

PreservedAnalyses RetargetToHostPass::run(Module &M, ModuleAnalysisManager &) {
  Retarget(M).run();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (Sanitize.Thread)
      F.addFnAttr(Attribute::SanitizeThread);
    if (Sanitize.Address)
      F.addFnAttr(Attribute::SanitizeAddress);
  }
  return PreservedAnalyses::none();
}

} // namespace gpuad::emu
