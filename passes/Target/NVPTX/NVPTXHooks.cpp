//===- NVPTXHooks.cpp - Target hooks for CUDA (NVPTX) ---------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// CUDA device code gets its math from libdevice (`__nv_*`).  NVPTX cannot
/// select most LLVM math intrinsics (`llvm.cos.f64` does not lower), so the
/// functions rules need are libdevice calls, linked from libdevice.10.bc
/// when the module does not have them.  Everything NVPTX-specific is here:
/// the special registers, barriers, printf, the NVVM math intrinsics' rows,
/// and, below the class, warp shuffles and their transposes, and the lane
/// and warp operations lane batching and warp aggregation ask for.
//===----------------------------------------------------------------------===//

#include "Target/DeviceLibrary.h"
#include "Target/Targets.h"
#include "Target/Warps.h"

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

enum class NVPTXShuffle { Bfly, Down, Up, Idx };

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
  void makeKernel(Function &F) const override {
    F.setCallingConv(CallingConv::PTX_Kernel);
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

  // Shuffles, lanes and warps: below the class.
  bool normalize(Function &F) override;
  std::optional<unsigned> shuffledOperand(const CallBase &Call) const override;
  Value *emitShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                              function_ref<Value *(unsigned)> Operand,
                              Value *Adjoint) override;

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
  bool communicatesAcrossThreads(const CallBase &Call) const override;
  bool readsThreadIndex(const CallBase &Call) const override;
  DeviceCall classifyDeviceCall(const Function &F) const override {
    if (F.getName().starts_with("__nv_"))
      return DeviceCall::Math;
    return F.getName() == "vprintf" ? DeviceCall::Print : DeviceCall::None;
  }
  Value *emitLaneIndex(IRBuilderBase &B) override {
    return B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  }
  Value *emitActiveLanes(IRBuilderBase &B) override;
  Value *emitAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) override;
  Value *emitIsPrivate(IRBuilderBase &B, Value *P) override;
  void emitLaneSync(IRBuilderBase &B, Value *Mask) override;
  Value *emitWholeWarpActive(IRBuilderBase &B) override;
  Value *emitWarpSum(IRBuilderBase &B, Value *V) override;
  Value *emitIsWarpLeader(IRBuilderBase &B) override;
  Value *emitWarpAllSame(IRBuilderBase &B, Value *V) override;
  StringRef deviceScope() const override { return "device"; }
  StringRef blockScope() const override { return "block"; }

protected:
  Value *emitReadLaneWord(IRBuilderBase &B, Value *V, Value *Lane,
                          Value *Mask) override;

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

// ---- Shuffles, lanes, warps -------------------------------------------------
//
// `llvm.nvvm.shfl.sync.{bfly,down,up,idx}` transpose as:
//   - bfly (xor) is its own inverse: the same shuffle of the adjoint;
//   - down(d) is undone by up(d) within the segment, and up(d) by down(d).
//     A lane whose source was out of range kept its own value, and so keeps
//     its own adjoint too;
//   - idx (any source lane, e.g. a broadcast) is the general case. Every
//     lane of the mask offers its adjoint and its source lane, and each lane
//     sums the adjoints addressed to it: 2 x 32 shuffles.

/// The kind of an NVPTX shfl.sync call, if it is one.
std::optional<NVPTXShuffle> nvptxShuffleKind(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  StringRef Name = Callee->getName();
  // The intrinsics, and gpuad's 64-bit shuffles (NVPTXHooks::normalize).
  if (!Name.consume_front("llvm.nvvm.shfl.sync.") &&
      !Name.consume_front("gpuad.nvptx.shfl.sync."))
    return std::nullopt;
  if (Name.starts_with("bfly."))
    return NVPTXShuffle::Bfly;
  if (Name.starts_with("down."))
    return NVPTXShuffle::Down;
  if (Name.starts_with("up."))
    return NVPTXShuffle::Up;
  if (Name.starts_with("idx."))
    return NVPTXShuffle::Idx;
  return std::nullopt;
}

/// shfl.sync.<Kind>.p of a 32- or 64-bit value: {value, in range}.  f32
/// and i32 shuffle as themselves, other 32-bit types through i32, 64-bit
/// ones as two halves.
std::pair<Value *, Value *> nvptxShuffle(IRBuilderBase &B, NVPTXShuffle Kind,
                                         Value *Mask, Value *V, Value *Lane,
                                         Value *C);

std::pair<Value *, Value *> nvptxShuffle64(IRBuilderBase &B, NVPTXShuffle Kind,
                                           Value *Mask, Value *V, Value *Lane,
                                           Value *C) {
  Type *Ty = V->getType();
  Value *Bits = B.CreateBitCast(V, B.getInt64Ty());
  auto [Lo, InRange] =
      nvptxShuffle(B, Kind, Mask, B.CreateTrunc(Bits, B.getInt32Ty()), Lane, C);
  Value *Hi =
      nvptxShuffle(B, Kind, Mask,
                   B.CreateTrunc(B.CreateLShr(Bits, 32), B.getInt32Ty()), Lane,
                   C)
          .first;
  Value *Joined = B.CreateOr(B.CreateShl(B.CreateZExt(Hi, B.getInt64Ty()), 32),
                             B.CreateZExt(Lo, B.getInt64Ty()));
  return {B.CreateBitCast(Joined, Ty), InRange};
}

std::pair<Value *, Value *> nvptxShuffle(IRBuilderBase &B, NVPTXShuffle Kind,
                                         Value *Mask, Value *V, Value *Lane,
                                         Value *C) {
  if (V->getType()->getPrimitiveSizeInBits() == 64)
    return nvptxShuffle64(B, Kind, Mask, V, Lane, C);
  static const Intrinsic::ID F32[] = {
      Intrinsic::nvvm_shfl_sync_bfly_f32p, Intrinsic::nvvm_shfl_sync_down_f32p,
      Intrinsic::nvvm_shfl_sync_up_f32p, Intrinsic::nvvm_shfl_sync_idx_f32p};
  static const Intrinsic::ID I32[] = {
      Intrinsic::nvvm_shfl_sync_bfly_i32p, Intrinsic::nvvm_shfl_sync_down_i32p,
      Intrinsic::nvvm_shfl_sync_up_i32p, Intrinsic::nvvm_shfl_sync_idx_i32p};
  Type *Ty = V->getType();
  bool IsFloat = Ty->isFloatTy();
  Value *Word = IsFloat ? V : B.CreateBitCast(V, B.getInt32Ty());
  Value *R = B.CreateIntrinsic((IsFloat ? F32 : I32)[unsigned(Kind)], {},
                               {Mask, Word, Lane, C});
  Value *Out = B.CreateExtractValue(R, 0);
  return {IsFloat ? Out : B.CreateBitCast(Out, Ty), B.CreateExtractValue(R, 1)};
}

/// The source lane of this lane in shfl.sync.idx(b, c), or the lane itself
/// when the source is out of its segment (PTX's rule).
Value *nvptxIdxSource(IRBuilderBase &B, Value *Lane, Value *Bop, Value *C) {
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), 0x1f);
  Value *Clamp = B.CreateAnd(C, 0x1f);
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  Value *NotSeg = B.CreateNot(SegMask);
  Value *MaxLane = B.CreateOr(MinLane, B.CreateAnd(Clamp, NotSeg));
  Value *J = B.CreateOr(MinLane, B.CreateAnd(B.CreateAnd(Bop, NotSeg), 31));
  return B.CreateSelect(B.CreateICmpULE(J, MaxLane), J, Lane);
}

} // namespace

bool NVPTXHooks::communicatesAcrossThreads(const CallBase &Call) const {
  return isBlockBarrier(Call) || shuffledOperand(Call) ||
         calleeHasPrefix(Call, {"llvm.nvvm.shfl.", "llvm.nvvm.vote.",
                                "llvm.nvvm.activemask", "llvm.nvvm.bar.",
                                "llvm.nvvm.barrier", "llvm.nvvm.match.",
                                "llvm.nvvm.redux.", "llvm.nvvm.mbarrier.",
                                "llvm.nvvm.cp.async", "llvm.nvvm.elect."});
}

bool NVPTXHooks::readsThreadIndex(const CallBase &Call) const {
  return calleeHasPrefix(Call, {"llvm.nvvm.read.ptx.sreg.tid.",
                                "llvm.nvvm.read.ptx.sreg.laneid",
                                "llvm.nvvm.read.ptx.sreg.lanemask",
                                "llvm.nvvm.read.ptx.sreg.warpid"});
}

Value *NVPTXHooks::emitActiveLanes(IRBuilderBase &B) {
  return B.CreateZExt(B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}),
                      B.getInt64Ty());
}

void NVPTXHooks::emitLaneSync(IRBuilderBase &B, Value *Mask) {
  B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {},
                    {B.CreateTrunc(Mask, B.getInt32Ty())});
}

Value *NVPTXHooks::emitAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) {
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                           {B.CreateTrunc(Mask, B.getInt32Ty()), Pred});
}

Value *NVPTXHooks::emitIsPrivate(IRBuilderBase &B, Value *P) {
  return isPrivateSpace(B, P, 5, Intrinsic::nvvm_isspacep_local);
}

std::optional<unsigned>
NVPTXHooks::shuffledOperand(const CallBase &Call) const {
  if (!nvptxShuffleKind(Call))
    return std::nullopt;
  return 1; // (mask, value, lane or delta, c)
}

Value *NVPTXHooks::emitShuffleTranspose(IRBuilderBase &B, const CallBase &Call,
                                        function_ref<Value *(unsigned)> Operand,
                                        Value *Adjoint) {
  NVPTXShuffle Kind = *nvptxShuffleKind(Call);
  Value *Mask = Operand(0), *Bop = Operand(2), *C = Operand(3);
  Type *Ty = Adjoint->getType();
  Value *Zero = Constant::getNullValue(Ty);
  switch (Kind) {
  case NVPTXShuffle::Bfly:
    return nvptxShuffle(B, Kind, Mask, Adjoint, Bop, C).first;
  case NVPTXShuffle::Down:
  case NVPTXShuffle::Up: {
    // Back the other way (its clamp: the segment's first lane for up, its
    // last for down), then this lane's own adjoint if its read was out of
    // range.
    bool Down = Kind == NVPTXShuffle::Down;
    Value *Segment = B.CreateAnd(C, 0x1f00);
    Value *BackC = Down ? Segment : B.CreateOr(Segment, 0x1f);
    auto [Back, BackValid] =
        nvptxShuffle(B, Down ? NVPTXShuffle::Up : NVPTXShuffle::Down, Mask,
                     Adjoint, Bop, BackC);
    Value *ReadOwn =
        B.CreateNot(nvptxShuffle(B, Kind, Mask, Adjoint, Bop, C).second);
    return addAdjoints(B, B.CreateSelect(BackValid, Back, Zero),
                       B.CreateSelect(ReadOwn, Adjoint, Zero));
  }
  case NVPTXShuffle::Idx: {
    Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
    Value *Source = nvptxIdxSource(B, Lane, Bop, C);
    return sumAddressedAdjoints(
        B, Adjoint, Source, Lane, Mask, 32, [&](Value *V, unsigned K) {
          return nvptxShuffle(B, NVPTXShuffle::Idx, Mask, V, B.getInt32(K),
                              B.getInt32(0x1f))
              .first;
        });
  }
  }
  llvm_unreachable("unknown shuffle");
}

bool NVPTXHooks::normalize(Function &F) {
  auto Helper = [](Module &M, const CallBase &Half) {
    StringRef Kind = Half.getCalledFunction()
                         ->getName()
                         .drop_front(strlen("llvm.nvvm.shfl.sync."))
                         .split('.')
                         .first;
    NVPTXShuffle K = StringSwitch<NVPTXShuffle>(Kind)
                         .Case("bfly", NVPTXShuffle::Bfly)
                         .Case("down", NVPTXShuffle::Down)
                         .Case("up", NVPTXShuffle::Up)
                         .Default(NVPTXShuffle::Idx);
    return makeShuffle64Helper(
        M, ("gpuad.nvptx.shfl.sync." + Kind + ".f64").str(), Half, 1,
        [&](IRBuilderBase &B, Function &H) {
          return nvptxShuffle(B, K, H.getArg(0), H.getArg(1), H.getArg(2),
                              H.getArg(3))
              .first;
        });
  };
  return normalizeShuffles(
      F, {[](const CallBase &C) { return nvptxShuffleKind(C).has_value(); }, 1,
          Helper});
}

Value *NVPTXHooks::emitWholeWarpActive(IRBuilderBase &B) {
  return B.CreateICmpEQ(B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}),
                        B.getInt32(~0u));
}

Value *NVPTXHooks::emitWarpSum(IRBuilderBase &B, Value *V) {
  // A butterfly over the whole warp: every lane ends with the sum.
  for (unsigned Offset = 16; Offset > 0; Offset /= 2)
    V = addAdjoints(B, V,
                    nvptxShuffle(B, NVPTXShuffle::Bfly, B.getInt32(~0u), V,
                                 B.getInt32(Offset), B.getInt32(0x1f))
                        .first);
  return V;
}

Value *NVPTXHooks::emitWarpAllSame(IRBuilderBase &B, Value *V) {
  Value *First = nvptxShuffle(B, NVPTXShuffle::Idx, B.getInt32(~0u), V,
                              B.getInt32(0), B.getInt32(0x1f))
                     .first;
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_all_sync, {},
                           {B.getInt32(~0u), B.CreateICmpEQ(V, First)});
}

Value *NVPTXHooks::emitIsWarpLeader(IRBuilderBase &B) {
  return B.CreateICmpEQ(
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}),
      B.getInt32(0));
}

Value *NVPTXHooks::emitReadLaneWord(IRBuilderBase &B, Value *V, Value *Lane,
                                    Value *Mask) {
  return nvptxShuffle(B, NVPTXShuffle::Idx, B.CreateTrunc(Mask, B.getInt32Ty()),
                      V, Lane, B.getInt32(0x1f))
      .first;
}

std::unique_ptr<TargetHooks>
makeNVPTXHooks(Module &M, const GpuadOptions &Options, Diagnostics &Diags) {
  return std::make_unique<NVPTXHooks>(M, Options, Diags);
}

} // namespace gpuad
