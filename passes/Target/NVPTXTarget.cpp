//===- NVPTXTarget.cpp - Target hooks for CUDA (NVPTX) --------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// CUDA device code gets its math from libdevice (`__nv_*`).  NVPTX cannot
/// select most LLVM math intrinsics (`llvm.cos.f64` does not lower), so the
/// functions rules need are libdevice calls, linked from libdevice.10.bc
/// when the module does not have them.
//===----------------------------------------------------------------------===//

#include "Target/DeviceLibrary.h"
#include "Target/Targets.h"

#include "Support/Options.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace gpuad {

namespace {

std::string findLibDevice(const GpuadOptions &Options) {
  SmallVector<std::string, 6> Candidates = {Options.LibDevice};
  for (const char *Env : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Root = sys::Process::GetEnv(Env))
      Candidates.push_back(*Root + "/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back(
      "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc");
  std::string Found = firstExisting(Candidates);
  return Found.empty() ? Candidates.back() : Found;
}

/// NVVM intrinsics that compute a function of the rule table (what the fast
/// CUDA intrinsics and libdevice's bodies lower to).
const std::pair<StringRef, StringRef> NVVMMathAliases[] = {
    // Overloaded in LLVM 22 (base names); the others are fixed names.
    {"llvm.nvvm.ex2.approx", "exp2"},
    {"llvm.nvvm.ex2.approx.ftz", "exp2"},
    {"llvm.nvvm.lg2.approx.f", "log2"},
    {"llvm.nvvm.lg2.approx.ftz.f", "log2"},
    {"llvm.nvvm.lg2.approx.d", "log2"},
    {"llvm.nvvm.sin.approx.f", "sin"},
    {"llvm.nvvm.sin.approx.ftz.f", "sin"},
    {"llvm.nvvm.cos.approx.f", "cos"},
    {"llvm.nvvm.cos.approx.ftz.f", "cos"},
    {"llvm.nvvm.sqrt.f", "sqrt"},
    {"llvm.nvvm.sqrt.approx.f", "sqrt"},
    {"llvm.nvvm.sqrt.approx.ftz.f", "sqrt"},
    {"llvm.nvvm.rsqrt.approx.f", "rsqrt"},
    {"llvm.nvvm.rsqrt.approx.ftz.f", "rsqrt"},
    {"llvm.nvvm.rsqrt.approx.d", "rsqrt"},
    {"llvm.nvvm.rsqrt.approx.ftz.d", "rsqrt"},
    {"llvm.nvvm.rcp.approx.ftz.f", "rcp"},
    {"llvm.nvvm.rcp.approx.ftz.d", "rcp"},
    {"llvm.nvvm.fmin.f", "fmin"},
    {"llvm.nvvm.fmin.ftz.f", "fmin"},
    {"llvm.nvvm.fmin.d", "fmin"},
    {"llvm.nvvm.fmax.f", "fmax"},
    {"llvm.nvvm.fmax.ftz.f", "fmax"},
    {"llvm.nvvm.fmax.d", "fmax"},
    {"llvm.nvvm.fabs", "fabs"},
    {"llvm.nvvm.saturate.f", "saturate"},
    {"llvm.nvvm.saturate.ftz.f", "saturate"},
    {"llvm.nvvm.saturate.d", "saturate"},
    {"llvm.nvvm.fabs.ftz", "fabs"},
    {"llvm.nvvm.fma.rn.d", "fma"},
    {"llvm.nvvm.fma.rn.f", "fma"},
    {"llvm.nvvm.fma.rn.ftz.f", "fma"},
    {"llvm.nvvm.div.approx.f", "fdiv"},
    {"llvm.nvvm.div.approx.ftz.f", "fdiv"},
    {"llvm.nvvm.div.full", "fdiv"},
    {"llvm.nvvm.div.full.ftz", "fdiv"},
};

/// Rounding-mode variants: every combination is the same function.
void forEachRoundingVariant(function_ref<void(StringRef, StringRef)> Fn) {
  for (const char *M : {"rn", "rz", "rm", "rp"})
    for (auto [Op, Family] :
         {std::pair<const char *, const char *>{"sqrt", "sqrt"},
          {"rcp", "rcp"},
          {"div", "fdiv"},
          {"mul", "fmul"},
          {"add", "fadd"}})
      for (const char *Ty : {".d", ".f", ".ftz.f"})
        Fn(std::string("llvm.nvvm.") + Op + "." + M + Ty, Family);
}

class NVPTXHooks final : public TargetHooks {
public:
  NVPTXHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags)
      : Diags(Diags),
        Lib(M, {findLibDevice(Options)},
            "set -mllvm -gpuad-libdevice=<path to libdevice.10.bc> or "
            "CUDA_PATH") {}

  StringRef name() const override { return "nvptx"; }
  bool isGPU() const override { return true; }

  void forEachRuleSpelling(
      function_ref<void(StringRef, StringRef)> Fn) const override {
    for (auto [Name, Family] : NVVMMathAliases)
      Fn(Name, Family);
    forEachRoundingVariant(Fn);
  }

  bool isInactiveCall(const CallBase &Call) const override {
    return calleeHasPrefix(
        Call, {"llvm.nvvm.read.ptx.sreg.", "llvm.nvvm.barrier",
               "llvm.nvvm.bar.", "llvm.nvvm.membar", "llvm.nvvm.fence",
               "llvm.nvvm.vote.", "llvm.nvvm.activemask", "__nvvm_reflect"});
  }

  bool isBlockShared(const GlobalVariable &GV) const override {
    return GV.getAddressSpace() == 3;
  }
  bool isBlockBarrier(const CallBase &Call) const override {
    return calleeHasPrefix(
               Call, {"llvm.nvvm.barrier0", "llvm.nvvm.barrier.sync",
                      "llvm.nvvm.barrier.cta.sync", "llvm.nvvm.bar.sync"}) &&
           !calleeHasPrefix(
               Call, {"llvm.nvvm.barrier0.", "llvm.nvvm.barrier.cta.red"});
  }
  Value *emitLinearThreadId(IRBuilderBase &B) override {
    auto Sreg = [&](Intrinsic::ID ID) { return B.CreateIntrinsic(ID, {}); };
    Value *X = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_x);
    Value *Y = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_y);
    Value *Z = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_z);
    Value *NX = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x);
    Value *NY = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_y);
    return B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
  }
  Value *emitBlockThreadCount(IRBuilderBase &B) override {
    auto Sreg = [&](Intrinsic::ID ID) { return B.CreateIntrinsic(ID, {}); };
    return B.CreateMul(Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                       B.CreateMul(Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_y),
                                   Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_z)));
  }

  /// PTX's %dynamic_smem_size.
  Value *emitDynamicSharedBytes(IRBuilderBase &B) override {
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size,
                             {});
  }
  Value *emitLinearBlockId(IRBuilderBase &B) override {
    auto Sreg = [&](Intrinsic::ID ID) {
      return B.CreateZExt(B.CreateIntrinsic(ID, {}), B.getInt64Ty());
    };
    return B.CreateAdd(
        Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
        B.CreateMul(
            Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x),
            B.CreateAdd(
                Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_y),
                B.CreateMul(Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_y),
                            Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_z)))));
  }
  StringRef heapLimitAdvice() const override {
    return "raise it with cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) "
           "before the launch";
  }

  /// vprintf (CUDA's device printf) of the message.
  void emitPrint(IRBuilderBase &B, StringRef Message) override {
    Module &M = *B.GetInsertBlock()->getModule();
    LLVMContext &C = M.getContext();
    FunctionCallee Printf = M.getOrInsertFunction(
        "vprintf",
        FunctionType::get(B.getInt32Ty(),
                          {PointerType::get(C, 0), PointerType::get(C, 0)},
                          false));
    Value *Text = B.CreateGlobalString((Message + "\n").str(), "gpuad.msg");
    B.CreateCall(Printf, {B.CreateAddrSpaceCast(Text, PointerType::get(C, 0)),
                          ConstantPointerNull::get(PointerType::get(C, 0))});
  }

  bool isKernel(const Function &F) const override {
    return F.getCallingConv() == CallingConv::PTX_Kernel;
  }
  /// "nvvm.maxntid" (clang's __launch_bounds__): up to three dimensions.
  std::optional<unsigned>
  maxThreadsPerBlock(const Function &Kernel) const override {
    Attribute A = Kernel.getFnAttribute("nvvm.maxntid");
    if (!A.isStringAttribute())
      return std::nullopt;
    unsigned Product = 1;
    SmallVector<StringRef, 3> Dims;
    A.getValueAsString().split(Dims, ',');
    for (StringRef D : Dims) {
      unsigned N;
      if (D.trim().getAsInteger(10, N) || !N)
        return std::nullopt;
      Product *= N;
    }
    return Product;
  }
  /// Local memory is reserved for every resident thread at launch: 16 KiB a
  /// thread is already gigabytes on a large GPU.
  uint64_t localTapeBudget() const override { return 16 << 10; }
  /// 48 KiB of static shared memory per block.  A multiprocessor has 64 KiB
  /// (sm_75) to 228 KiB (sm_90) for 1024 to 2048 threads: 64 B a thread
  /// keeps full occupancy on all of them.
  uint64_t sharedMemoryLimit() const override { return 48 << 10; }
  uint64_t sharedTapeBytesPerThread() const override { return 64; }
  unsigned globalAddressSpace() const override { return 1; }
  unsigned sharedAddressSpace() const override { return 3; }

  bool normalize(Function &F) override { return normalizeNVPTXShuffles(F); }
  std::optional<unsigned> shuffledOperand(const CallBase &Call) const override {
    return nvptxShuffledOperand(Call);
  }
  Value *emitShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                              function_ref<Value *(unsigned)> Operand,
                              Value *Adjoint) override {
    return emitNVPTXShuffleTranspose(B, Call, Operand, Adjoint);
  }

  GridValue classifyGridValue(const Value &V) const override {
    const auto *Call = dyn_cast<CallBase>(&V);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee)
      return GridValue::None;
    return StringSwitch<GridValue>(Callee->getName())
        .Case("llvm.nvvm.read.ptx.sreg.tid.x", GridValue::ThreadIdX)
        .Case("llvm.nvvm.read.ptx.sreg.ctaid.x", GridValue::BlockIdX)
        .Case("llvm.nvvm.read.ptx.sreg.ntid.x", GridValue::BlockDimX)
        .Cases({"llvm.nvvm.read.ptx.sreg.tid.y",
                "llvm.nvvm.read.ptx.sreg.tid.z",
                "llvm.nvvm.read.ptx.sreg.ctaid.y",
                "llvm.nvvm.read.ptx.sreg.ctaid.z",
                "llvm.nvvm.read.ptx.sreg.ntid.y",
                "llvm.nvvm.read.ptx.sreg.ntid.z"},
               GridValue::OtherDimension)
        .Default(GridValue::None);
  }

  Value *emit(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) override {
    return emitScalarized(
        B, Args, [&](ArrayRef<Value *> S) { return emitScalar(B, Fn, S); });
  }

  bool finalize() override { return Lib.finalize(Diags); }
  // Device malloc/free are the defaults; atomics at GPU scope.
  unsigned warpSize() const override { return 32; }
  /// 64K registers for 2048 resident threads (sm_70 to sm_90).
  unsigned fullOccupancyRegisters() const override { return 32; }
  bool communicatesAcrossThreads(const CallBase &Call) const override {
    return nvptxCommunicates(Call) || isBlockBarrier(Call) ||
           shuffledOperand(Call).has_value();
  }
  bool readsThreadIndex(const CallBase &Call) const override {
    return nvptxReadsThreadIndex(Call);
  }
  DeviceCall classifyDeviceCall(const Function &F) const override {
    if (F.getName().starts_with("__nv_"))
      return DeviceCall::Math;
    return F.getName() == "vprintf" ? DeviceCall::Print : DeviceCall::None;
  }
  Value *emitLaneIndex(IRBuilderBase &B) override {
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  }
  Value *emitActiveLanes(IRBuilderBase &B) override {
    return nvptxActiveLanes(B);
  }
  Value *emitAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) override {
    return nvptxAnyLane(B, Pred, Mask);
  }
  Value *emitIsPrivate(IRBuilderBase &B, Value *P) override {
    return nvptxIsPrivate(B, P);
  }
  void emitLaneSync(IRBuilderBase &B, Value *Mask) override {
    nvptxLaneSync(B, Mask);
  }
  Value *emitWholeWarpActive(IRBuilderBase &B) override {
    return nvptxWholeWarpActive(B);
  }
  Value *emitWarpSum(IRBuilderBase &B, Value *V) override {
    return nvptxWarpSum(B, V);
  }
  Value *emitIsWarpLeader(IRBuilderBase &B) override {
    return nvptxIsWarpLeader(B);
  }
  Value *emitWarpAllSame(IRBuilderBase &B, Value *V) override {
    return nvptxWarpAllSame(B, V);
  }
  StringRef deviceScope() const override { return "device"; }
  StringRef blockScope() const override { return "block"; }

protected:
  Value *emitReadLaneWord(IRBuilderBase &B, Value *V, Value *Lane,
                          Value *Mask) override {
    return nvptxReadLane(B, V, Lane, Mask);
  }

private:
  Value *emitScalar(IRBuilderBase &B, MathFn Fn, ArrayRef<Value *> Args) {
    Type *Ty = Args[0]->getType();
    // libdevice has float and double entry points; compute halves in float.
    if (Ty->isHalfTy() || Ty->isBFloatTy()) {
      SmallVector<Value *, 2> Wide;
      for (Value *A : Args)
        Wide.push_back(A->getType() == Ty ? B.CreateFPExt(A, B.getFloatTy())
                                          : A);
      return B.CreateFPTrunc(emitScalar(B, Fn, Wide), Ty);
    }
    std::string Name = ("__nv_" + libraryBaseName(Fn)).str();
    if (Ty->isFloatTy())
      Name += "f";
    return callLibraryMath(
        B, Fn, Args, Name,
        [&](StringRef N, FunctionType *FT) { return Lib.get(N, FT); });
  }

  Diagnostics &Diags;
  DeviceLibrary Lib;
};

} // namespace

std::unique_ptr<TargetHooks>
makeNVPTXHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags) {
  return std::make_unique<NVPTXHooks>(M, Options, Diags);
}

} // namespace gpuad
