//===- AMDGPUHooks.cpp - Target hooks for HIP (AMDGPU) --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// HIP device code gets its math from ROCm's ocml (`__ocml_*_f16/_f32/_f64`).
/// Functions rules need are linked from ocml.bc when missing; ocml reads
/// `__oclc_*` control constants that clang links per compile options, so any
/// that are undefined afterwards are linked from the matching oclc_*.bc with
/// clang's defaults (no finite-only, no unsafe math, no denormal flushing,
/// correctly rounded sqrt, the wavefront size and ISA of the target).
/// Everything AMDGPU-specific is here: work-item ids and the dispatch
/// packet, barriers, ockl's heap and printf, and, below the class,
/// ds_bpermute shuffles and their transposes, and the lane and wavefront
/// operations lane batching and warp aggregation ask for.
//===----------------------------------------------------------------------===//

#include "Target/DeviceLibrary.h"
#include "Target/Targets.h"
#include "Target/Warps.h"

#include "Support/Diagnostics.h"
#include "Support/Inlining.h"
#include "Support/Options.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace gpuad {

namespace {

std::string findRocmDeviceLibs(const GpuadOptions &Options) {
  SmallVector<std::string, 6> Candidates = {Options.RocmDeviceLibs};
  if (std::optional<std::string> Root = sys::Process::GetEnv("ROCM_PATH"))
    Candidates.push_back(*Root + "/amdgcn/bitcode");
  Candidates.push_back("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
  Candidates.push_back("/opt/rocm/amdgcn/bitcode");
  for (const std::string &Dir : Candidates)
    if (!Dir.empty() && !firstExisting({Dir + "/ocml.bc"}).empty())
      return Dir;
  return Candidates.back();
}

/// The target CPU and features of the module's functions.
std::pair<std::string, std::string> targetOf(const Module &M) {
  for (const Function &F : M)
    if (F.hasFnAttribute("target-cpu"))
      return {F.getFnAttribute("target-cpu").getValueAsString().str(),
              F.hasFnAttribute("target-features")
                  ? F.getFnAttribute("target-features").getValueAsString().str()
                  : ""};
  return {"", ""};
}

/// AMDGPU intrinsics that compute a function of the rule table (what HIP's
/// fast intrinsics and ocml's native functions lower to).
const std::pair<StringRef, StringRef> AMDGCNMathAliases[] = {
    {"llvm.amdgcn.exp2", "exp2"}, {"llvm.amdgcn.log", "log2"},
    {"llvm.amdgcn.sqrt", "sqrt"}, {"llvm.amdgcn.rsq", "rsqrt"},
    {"llvm.amdgcn.rcp", "rcp"},
};

/// At -O0 HIP's threadIdx.x, blockIdx.x and blockDim.x are calls of its
/// __HIP_Coordinates accessors (which call __HIP_ThreadIdx's and the like):
/// inlined, the thread-privacy analysis sees the ids as at -O2.
bool isGridAccessor(StringRef Name) {
  return Name.starts_with("__HIP_Coordinates<") ||
         Name.starts_with("__HIP_ThreadIdx::") ||
         Name.starts_with("__HIP_BlockIdx::") ||
         Name.starts_with("__HIP_BlockDim::") ||
         Name.starts_with("__HIP_GridDim::");
}

bool inlineGridAccessors(Function &F) {
  return inlineCallsTo(F, [](const Function &Callee) {
    return isGridAccessor(demangle(Callee.getName()));
  });
}

class AMDGPUHooks final : public TargetHooks {
public:
  AMDGPUHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags)
      : M(M), Diags(Diags), Dir(findRocmDeviceLibs(Options)),
        Lib(M, {Dir + "/ocml.bc", Dir + "/ockl.bc"},
            "set -mllvm -gpuad-rocm-device-libs=<directory of ocml.bc> or "
            "ROCM_PATH") {}

  void forEachRuleSpelling(
      function_ref<void(StringRef, StringRef)> Fn) const override {
    for (auto [Name, Family] : AMDGCNMathAliases)
      Fn(Name, Family);
  }

  /// The work-group size in dimension \p Dim: code object v5's hidden
  /// arguments (i16 at 12, 14, 16).
  Value *groupSize(IRBuilderBase &B, unsigned Dim) {
    Value *Args = B.CreateIntrinsic(Intrinsic::amdgcn_implicitarg_ptr, {});
    Value *Slot = B.CreateConstGEP1_64(B.getInt8Ty(), Args, 12 + 2 * Dim);
    return B.CreateZExt(B.CreateLoad(B.getInt16Ty(), Slot), B.getInt32Ty());
  }

  StringRef name() const override { return "amdgpu"; }
  bool isGPU() const override { return true; }

  bool isInactiveCall(const CallBase &Call) const override {
    return calleeHasPrefix(
        Call, {"llvm.amdgcn.workitem.id.", "llvm.amdgcn.workgroup.id.",
               "llvm.amdgcn.s.barrier", "llvm.amdgcn.implicitarg.ptr",
               "llvm.amdgcn.dispatch.ptr", "llvm.amdgcn.wave.barrier",
               "llvm.amdgcn.ballot", "llvm.amdgcn.icmp", "llvm.amdgcn.fcmp",
               "llvm.amdgcn.mbcnt."});
  }

  bool isBlockShared(const GlobalVariable &GV) const override {
    return GV.getAddressSpace() == 3;
  }
  bool isBlockBarrier(const CallBase &Call) const override {
    // The intrinsic, or HIP's __syncthreads() still a call (at -O0).
    const Function *Callee = Call.getCalledFunction();
    return calleeHasPrefix(Call, {"llvm.amdgcn.s.barrier"}) ||
           (Callee && Callee->getName() == "_Z13__syncthreadsv");
  }
  void emitBlockBarrier(IRBuilderBase &B, const CallBase &Like) override {
    // __syncthreads: work-group fences around s_barrier (HIP's expansion).
    SyncScope::ID WG = B.getContext().getOrInsertSyncScopeID("workgroup");
    B.CreateFence(AtomicOrdering::Release, WG);
    B.Insert(Like.clone());
    B.CreateFence(AtomicOrdering::Acquire, WG);
  }
  Value *emitLinearThreadId(IRBuilderBase &B) override {
    Value *X = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {});
    Value *Y = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, {});
    Value *Z = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, {});
    Value *NX = groupSize(B, 0), *NY = groupSize(B, 1);
    return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
  }
  Value *emitBlockThreadCount(IRBuilderBase &B) override {
    return B.CreateMul(groupSize(B, 0),
                       B.CreateMul(groupSize(B, 1), groupSize(B, 2)));
  }

  /// Code object v5's hidden_dynamic_lds_size (i32 at 120), which HIP's
  /// runtime fills from ROCm 6.0 on.
  Value *emitDynamicSharedBytes(IRBuilderBase &B) override {
    Value *Args = B.CreateIntrinsic(Intrinsic::amdgcn_implicitarg_ptr, {});
    return B.CreateLoad(B.getInt32Ty(),
                        B.CreateConstGEP1_64(B.getInt8Ty(), Args, 120),
                        "dynamic.lds");
  }
  /// Block counts are code object v5's hidden arguments (i32 at 0, 4, 8).
  Value *emitLinearBlockId(IRBuilderBase &B) override {
    Value *Args = B.CreateIntrinsic(Intrinsic::amdgcn_implicitarg_ptr, {});
    auto Count = [&](unsigned Dim) {
      Value *Slot = B.CreateConstGEP1_64(B.getInt8Ty(), Args, 4 * Dim);
      return B.CreateZExt(B.CreateLoad(B.getInt32Ty(), Slot), B.getInt64Ty());
    };
    auto Id = [&](Intrinsic::ID ID) {
      return B.CreateZExt(B.CreateIntrinsic(ID, {}), B.getInt64Ty());
    };
    return B.CreateAdd(
        Id(Intrinsic::amdgcn_workgroup_id_x),
        B.CreateMul(
            Count(0),
            B.CreateAdd(
                Id(Intrinsic::amdgcn_workgroup_id_y),
                B.CreateMul(Count(1), Id(Intrinsic::amdgcn_workgroup_id_z)))));
  }

  bool isKernel(const Function &F) const override {
    return F.getCallingConv() == CallingConv::AMDGPU_KERNEL;
  }
  /// As clang makes a HIP kernel without launch bounds.
  void makeKernel(Function &F) const override {
    F.setCallingConv(CallingConv::AMDGPU_KERNEL);
    F.setVisibility(GlobalValue::ProtectedVisibility);
    F.addFnAttr("amdgpu-flat-work-group-size", "1,1024");
    F.addFnAttr("uniform-work-group-size", "true");
  }
  /// "amdgpu-flat-work-group-size"="min,max" (clang gives every HIP kernel
  /// one; 1024 without launch bounds).
  std::optional<unsigned>
  maxThreadsPerBlock(const Function &Kernel) const override {
    Attribute A = Kernel.getFnAttribute("amdgpu-flat-work-group-size");
    unsigned Max;
    if (!A.isStringAttribute() ||
        A.getValueAsString().split(',').second.trim().getAsInteger(10, Max) ||
        !Max)
      return std::nullopt;
    return Max;
  }
  /// Scratch is reserved per resident lane, like CUDA's local memory.
  uint64_t localTapeBudget() const override { return 16 << 10; }
  /// 64 KiB of LDS per work-group, and per compute unit for up to 2048
  /// lanes (32 waves of 64): 32 B a lane keeps full occupancy.
  uint64_t sharedMemoryLimit() const override { return 64 << 10; }
  uint64_t sharedTapeBytesPerThread() const override { return 32; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }

  bool normalize(Function &F) override {
    return inlineGridAccessors(F) || normalizeShuffles64(F);
  }
  // Shuffles, lanes and waves: below the class.
  std::optional<unsigned> shuffledOperand(const CallBase &Call) const override;
  Value *emitShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                              function_ref<Value *(unsigned)> Operand,
                              Value *Adjoint) override;

  GridValue classifyGridValue(const Value &V) const override {
    // ockl's queries with dimension 0 (before inlining), the intrinsics, and
    // the work-group size as a 16-bit load from the implicit arguments (code
    // object v5) or the dispatch packet (offset 4).
    if (const auto *Call = dyn_cast<CallBase>(&V)) {
      const Function *Callee = Call->getCalledFunction();
      if (!Callee)
        return GridValue::None;
      StringRef Name = Callee->getName();
      if (Name == "llvm.amdgcn.workitem.id.x")
        return GridValue::ThreadIdX;
      if (Name == "llvm.amdgcn.workgroup.id.x")
        return GridValue::BlockIdX;
      if (Name.starts_with("llvm.amdgcn.workitem.id.") ||
          Name.starts_with("llvm.amdgcn.workgroup.id."))
        return GridValue::OtherDimension;
      bool Query = Name == "__ockl_get_local_id" ||
                   Name == "__ockl_get_group_id" ||
                   Name == "__ockl_get_local_size";
      auto *Dim = Call->arg_size() == 1
                      ? dyn_cast<ConstantInt>(Call->getArgOperand(0))
                      : nullptr;
      if (Query && (!Dim || !Dim->isZero()))
        return GridValue::OtherDimension;
      if (!Dim || !Dim->isZero())
        return GridValue::None;
      return StringSwitch<GridValue>(Name)
          .Case("__ockl_get_local_id", GridValue::ThreadIdX)
          .Case("__ockl_get_group_id", GridValue::BlockIdX)
          .Case("__ockl_get_local_size", GridValue::BlockDimX)
          .Default(GridValue::None);
    }
    const auto *Load = dyn_cast<LoadInst>(&V);
    if (!Load || !Load->getType()->isIntegerTy(16))
      return GridValue::None;
    const auto *GEP = dyn_cast<GEPOperator>(Load->getPointerOperand());
    const auto *Base =
        GEP ? dyn_cast<CallBase>(GEP->getPointerOperand()) : nullptr;
    const Function *Callee = Base ? Base->getCalledFunction() : nullptr;
    if (!Callee || GEP->getNumIndices() != 1 ||
        !GEP->getSourceElementType()->isIntegerTy(16))
      return GridValue::None;
    // The index: a constant, or ockl's choice between the group size (12)
    // and the size of a last, partial group (18).  HIP launches whole
    // groups, so both are blockDim.x.
    SmallVector<const Value *, 2> Indices = {GEP->getOperand(1)};
    if (const auto *Sel = dyn_cast<SelectInst>(GEP->getOperand(1)))
      Indices = {Sel->getTrueValue(), Sel->getFalseValue()};
    bool Implicit = Callee->getName() == "llvm.amdgcn.implicitarg.ptr";
    bool Dispatch = Callee->getName() == "llvm.amdgcn.dispatch.ptr";
    for (const Value *Index : Indices) {
      const auto *C = dyn_cast<ConstantInt>(Index);
      uint64_t Offset = C ? 2 * C->getZExtValue() : ~0ull;
      if (!(Implicit && (Offset == 12 || Offset == 18)) &&
          !(Dispatch && Offset == 4))
        return GridValue::None;
    }
    return GridValue::BlockDimX;
  }

  Value *emit(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) override {
    return emitScalarized(
        B, Args, [&](ArrayRef<Value *> S) { return emitScalar(B, Fn, S); });
  }

  unsigned warpSize() const override { return 64; }
  /// 512 VGPRs per SIMD lane for 8 resident wavefronts (gfx90a).
  unsigned fullOccupancyRegisters() const override { return 64; }
  bool communicatesAcrossThreads(const CallBase &Call) const override;
  bool readsThreadIndex(const CallBase &Call) const override;
  DeviceCall classifyDeviceCall(const Function &F) const override {
    StringRef Name = F.getName();
    if (Name.starts_with("__ocml_"))
      return DeviceCall::Math;
    if (Name.starts_with("__ockl_printf") ||
        Name.starts_with("__ockl_hostcall"))
      return DeviceCall::HostCall;
    return Name.starts_with("__ockl_dm_") ? DeviceCall::Runtime
                                          : DeviceCall::None;
  }
  Value *emitLaneIndex(IRBuilderBase &B) override;
  Value *emitActiveLanes(IRBuilderBase &B) override;
  Value *emitAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) override;
  Value *emitIsPrivate(IRBuilderBase &B, Value *P) override;
  void emitLaneSync(IRBuilderBase &B, Value *Mask) override;
  Value *emitWholeWarpActive(IRBuilderBase &B) override;
  Value *emitWarpSum(IRBuilderBase &B, Value *V) override;
  Value *emitIsWarpLeader(IRBuilderBase &B) override;
  Value *emitWarpAllSame(IRBuilderBase &B, Value *V) override;
  StringRef deviceScope() const override { return "agent"; }
  StringRef blockScope() const override { return "workgroup"; }

  /// ockl's device allocator (global memory), as a generic pointer.
  Value *emitAlloc(IRBuilderBase &B, Value *Bytes) override {
    LLVMContext &C = B.getContext();
    Function *Alloc =
        Lib.get("__ockl_dm_alloc", FunctionType::get(PointerType::get(C, 1),
                                                     {B.getInt64Ty()}, false));
    Value *P = B.CreateCall(Alloc, {Bytes}, "tape");
    return B.CreateAddrSpaceCast(P, PointerType::get(C, 0));
  }

  StringRef heapLimitAdvice() const override {
    return "raise it with hipDeviceSetLimit(hipLimitMallocHeapSize, bytes) "
           "before the launch";
  }
  bool heapCallIsCheap() const override { return false; }
  bool printIsCheap() const override { return false; }

  /// HIP's device printf (ockl's hostcall printf) of the message.
  void emitPrint(IRBuilderBase &B, StringRef Message) override {
    LLVMContext &C = B.getContext();
    Type *I64 = B.getInt64Ty(), *Ptr = PointerType::get(C, 0);
    Function *Begin =
        Lib.get("__ockl_printf_begin", FunctionType::get(I64, {I64}, false));
    Function *Append =
        Lib.get("__ockl_printf_append_string_n",
                FunctionType::get(I64, {I64, Ptr, I64, B.getInt32Ty()}, false));
    std::string Line = (Message + "\n").str();
    Value *Text = B.CreateGlobalString(Line, "gpuad.msg", /*constant*/ 4);
    Value *Desc = B.CreateCall(Begin, {B.getInt64(0)});
    B.CreateCall(Append, {Desc, B.CreateAddrSpaceCast(Text, Ptr),
                          B.getInt64(Line.size() + 1), B.getInt32(1)});
  }

  void emitFree(IRBuilderBase &B, Value *Ptr) override {
    LLVMContext &C = B.getContext();
    Function *Dealloc =
        Lib.get("__ockl_dm_dealloc",
                FunctionType::get(Type::getVoidTy(C), {B.getInt64Ty()}, false));
    B.CreateCall(Dealloc, {B.CreatePtrToInt(Ptr, B.getInt64Ty())});
  }

  bool finalize() override {
    if (!Lib.finalize(Diags))
      return false;
    return linkControlConstants();
  }

protected:
  Value *emitReadLaneWord(IRBuilderBase &B, Value *V, Value *Lane,
                          Value *Mask) override;

private:
  /// 64-bit values shuffled as two 32-bit bpermutes become one.
  bool normalizeShuffles64(Function &F);
  Value *emitScalar(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) {
    Type *Ty = Args[0]->getType();
    StringRef Suffix = Ty->isHalfTy()    ? "_f16"
                       : Ty->isFloatTy() ? "_f32"
                                         : "_f64";
    StringRef Base = Fn == MathFn::Powi ? "pown" : libraryBaseName(Fn);
    return callLibraryMath(
        B, Fn, Args, ("__ocml_" + Base + Suffix).str(),
        [&](StringRef N, FunctionType *FT) { return Lib.get(N, FT); });
  }

  /// The oclc file that defines control constant \p Name.
  std::string controlFile(StringRef Name) const {
    auto [CPU, Features] = targetOf(M);
    bool Wave32 = StringRef(Features).contains("+wavefrontsize32");
    std::string File =
        StringSwitch<std::string>(Name)
            .Case("__oclc_finite_only_opt", "oclc_finite_only_off.bc")
            .Case("__oclc_unsafe_math_opt", "oclc_unsafe_math_off.bc")
            .Case("__oclc_daz_opt", "oclc_daz_opt_off.bc")
            .Case("__oclc_correctly_rounded_sqrt32",
                  "oclc_correctly_rounded_sqrt_on.bc")
            .Case("__oclc_wavefrontsize64", Wave32
                                                ? "oclc_wavefrontsize64_off.bc"
                                                : "oclc_wavefrontsize64_on.bc")
            .Case("__oclc_ISA_version",
                  "oclc_isa_version_" +
                      StringRef(CPU).drop_front(3).split(':').first.str() +
                      ".bc")
            .Case("__oclc_ABI_version", "oclc_abi_version_500.bc")
            .Default("");
    return File.empty() ? "" : Dir + "/" + File;
  }

  bool linkControlConstants() {
    for (const std::string &Name : Lib.undefinedGlobals()) {
      if (!StringRef(Name).starts_with("__oclc_"))
        continue;
      std::string File = controlFile(Name);
      if (firstExisting({File}).empty()) {
        Diags.error(*M.begin(), DebugLoc(),
                    "ocml needs '" + Name +
                        "', but no control library for it "
                        "was found in " +
                        Dir);
        return false;
      }
      if (!Lib.linkNeeded(File, Diags))
        return false;
    }
    return true;
  }

  Module &M;
  Diagnostics &Diags;
  std::string Dir;
  DeviceLibrary Lib;
};

// ---- Shuffles, lanes, waves -------------------------------------------------
//
// `llvm.amdgcn.ds.bpermute`, which HIP's __shfl* use, transposes by the
// general case over the active lanes of the wavefront: 2 x 64 permutes.

/// ds_bpermute of a 32- or 64-bit value.
Value *bpermute(IRBuilderBase &B, Value *Address, Value *V) {
  Type *Ty = V->getType();
  auto Word = [&](Value *W) {
    return B.CreateIntrinsic(Intrinsic::amdgcn_ds_bpermute, {}, {Address, W});
  };
  if (Ty->getPrimitiveSizeInBits() == 64) {
    Value *Bits = B.CreateBitCast(V, B.getInt64Ty());
    Value *Lo = Word(B.CreateTrunc(Bits, B.getInt32Ty()));
    Value *Hi = Word(B.CreateTrunc(B.CreateLShr(Bits, 32), B.getInt32Ty()));
    return B.CreateBitCast(
        B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                   B.CreateZExt(Lo, B.getInt64Ty())),
        Ty);
  }
  Value *R = Word(Ty->isIntegerTy(32) ? V : B.CreateBitCast(V, B.getInt32Ty()));
  return Ty->isIntegerTy(32) ? R : B.CreateBitCast(R, Ty);
}

Value *laneIndex(IRBuilderBase &B) {
  return B.CreateIntrinsic(
      Intrinsic::amdgcn_mbcnt_hi, {},
      {B.getInt32(~0u), B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                          {B.getInt32(~0u), B.getInt32(0)})});
}

} // namespace

bool AMDGPUHooks::communicatesAcrossThreads(const CallBase &Call) const {
  return isBlockBarrier(Call) || shuffledOperand(Call) ||
         calleeHasPrefix(Call,
                         {"llvm.amdgcn.s.barrier", "llvm.amdgcn.ds.bpermute",
                          "llvm.amdgcn.ds.permute", "llvm.amdgcn.ds.swizzle",
                          "llvm.amdgcn.ballot", "llvm.amdgcn.icmp",
                          "llvm.amdgcn.fcmp", "llvm.amdgcn.readlane",
                          "llvm.amdgcn.readfirstlane", "llvm.amdgcn.writelane",
                          "llvm.amdgcn.mov.dpp", "llvm.amdgcn.update.dpp",
                          "llvm.amdgcn.permlane", "llvm.amdgcn.wave.barrier",
                          "llvm.amdgcn.wave.reduce", "llvm.amdgcn.wwm",
                          "llvm.amdgcn.set.inactive", "llvm.read_register"});
}

bool AMDGPUHooks::readsThreadIndex(const CallBase &Call) const {
  return calleeHasPrefix(Call,
                         {"llvm.amdgcn.workitem.id.", "llvm.amdgcn.mbcnt.",
                          "__ockl_get_local_id", "__ockl_get_global_id"});
}

Value *AMDGPUHooks::emitActiveLanes(IRBuilderBase &B) {
  return B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                           {B.getTrue()});
}

Value *AMDGPUHooks::emitAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) {
  Value *Votes =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()}, {Pred});
  return B.CreateICmpNE(B.CreateAnd(Votes, Mask), B.getInt64(0));
}

Value *AMDGPUHooks::emitIsPrivate(IRBuilderBase &B, Value *P) {
  return isPrivateSpace(B, P, 5, Intrinsic::amdgcn_is_private);
}

void AMDGPUHooks::emitLaneSync(IRBuilderBase &B, Value *) {
  // A wavefront's lanes run in step; what they need is each other's memory
  // operations in order (HIP's __syncwarp).
  LLVMContext &C = B.getContext();
  SyncScope::ID Wave = C.getOrInsertSyncScopeID("wavefront");
  B.CreateFence(AtomicOrdering::Release, Wave);
  B.CreateIntrinsic(Intrinsic::amdgcn_wave_barrier, {});
  B.CreateFence(AtomicOrdering::Acquire, Wave);
}

std::optional<unsigned>
AMDGPUHooks::shuffledOperand(const CallBase &Call) const {
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  const Function *Callee = Call.getCalledFunction();
  if ((II && II->getIntrinsicID() == Intrinsic::amdgcn_ds_bpermute) ||
      (Callee && Callee->getName() == "gpuad.amdgcn.ds.bpermute.f64"))
    return 1; // (byte address of the source lane, value)
  return std::nullopt;
}

Value *
AMDGPUHooks::emitShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                                  function_ref<Value *(unsigned)> Operand,
                                  Value *Adjoint) {
  // The active lanes are the exec mask: a ballot of true.
  Value *Active = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                    {B.getTrue()});
  Value *Lane = B.CreateIntrinsic(
      Intrinsic::amdgcn_mbcnt_hi, {},
      {B.getInt32(~0u), B.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                          {B.getInt32(~0u), B.getInt32(0)})});
  Value *Source = B.CreateAnd(B.CreateLShr(Operand(0), 2), 63);
  return sumAddressedAdjoints(
      B, Adjoint, Source, Lane, Active, 64,
      [&](Value *V, unsigned K) { return bpermute(B, B.getInt32(4 * K), V); });
}

Value *AMDGPUHooks::emitWholeWarpActive(IRBuilderBase &B) {
  Value *Exec = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                  {B.getTrue()});
  return B.CreateICmpEQ(Exec, B.getInt64(~uint64_t(0)));
}

Value *AMDGPUHooks::emitWarpSum(IRBuilderBase &B, Value *V) {
  Value *Lane = laneIndex(B);
  for (unsigned Offset = 32; Offset > 0; Offset /= 2)
    V = addAdjoints(B, V,
                    bpermute(B, B.CreateShl(B.CreateXor(Lane, Offset), 2), V));
  return V;
}

Value *AMDGPUHooks::emitWarpAllSame(IRBuilderBase &B, Value *V) {
  Value *First = bpermute(B, B.getInt32(0), V);
  Value *Same = B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                                  {B.CreateICmpEQ(V, First)});
  return B.CreateICmpEQ(Same, B.getInt64(~uint64_t(0)));
}

Value *AMDGPUHooks::emitIsWarpLeader(IRBuilderBase &B) {
  return B.CreateICmpEQ(laneIndex(B), B.getInt32(0));
}

Value *AMDGPUHooks::emitLaneIndex(IRBuilderBase &B) { return laneIndex(B); }

Value *AMDGPUHooks::emitReadLaneWord(IRBuilderBase &B, Value *V, Value *Lane,
                                     Value *) {
  return bpermute(B, B.CreateShl(Lane, 2), V);
}

bool AMDGPUHooks::normalizeShuffles64(Function &F) {
  auto Helper = [](Module &M, const CallBase &Half) {
    return makeShuffle64Helper(M, "gpuad.amdgcn.ds.bpermute.f64", Half, 1,
                               [](IRBuilderBase &B, Function &H) {
                                 return bpermute(B, H.getArg(0), H.getArg(1));
                               });
  };
  return normalizeShuffles(
      F, {[this](const CallBase &C) { return shuffledOperand(C).has_value(); },
          1, Helper});
}

std::unique_ptr<TargetHooks>
makeAMDGPUHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags) {
  return std::make_unique<AMDGPUHooks>(M, Options, Diags);
}

} // namespace gpuad
