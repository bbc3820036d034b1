//===- Intrinsics.cpp - Target intrinsics in emulated device code ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Emulate/Intrinsics.h"

#include "EmuAbi.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace gpuad::emu {

namespace {

class Lowering {
public:
  Lowering(Module &M, function_ref<void(const Twine &)> Error)
      : M(M), C(M.getContext()), DL(M.getDataLayout()), Error(Error) {}

  /// The replacement of \p Call (emitted before it), or null if \p Call
  /// simply goes away; sets Handled.
  Value *nvptx(CallInst &Call, StringRef Name, IRBuilderBase &B);
  Value *amdgpu(CallInst &Call, StringRef Name, IRBuilderBase &B);
  bool Handled = true;

private:
  Value *field(IRBuilderBase &B, uint64_t Offset, Type *Ty);
  Value *idOf(IRBuilderBase &B, StringRef Dim, uint64_t Base);
  Value *runtime(IRBuilderBase &B, StringRef Fn, Type *Ret,
                 ArrayRef<Value *> Args);
  Value *math(CallInst &Call, StringRef Name, IRBuilderBase &B);
  Value *specialRegister(CallInst &Call, StringRef Name, IRBuilderBase &B);
  Value *matchOrReduce(CallInst &Call, StringRef Name, IRBuilderBase &B);
  Value *shuffle(CallInst &Call, int Mode, bool WithPred, IRBuilderBase &B);
  Value *vote(CallInst &Call, int Op, IRBuilderBase &B);

  Module &M;
  LLVMContext &C;
  const DataLayout &DL;
  function_ref<void(const Twine &)> Error;
  uint32_t NextSite = 1;

public:
  uint32_t site() { return NextSite++; }
};

Value *Lowering::field(IRBuilderBase &B, uint64_t Offset, Type *Ty) {
  return threadField(B, M, Offset, Ty);
}

Value *Lowering::idOf(IRBuilderBase &B, StringRef Dim, uint64_t Base) {
  unsigned K = Dim == "x" ? 0 : Dim == "y" ? 1 : 2;
  return field(B, Base + 4 * K, B.getInt32Ty());
}

Value *Lowering::runtime(IRBuilderBase &B, StringRef Fn, Type *Ret,
                         ArrayRef<Value *> Args) {
  SmallVector<Type *, 4> Types;
  for (Value *A : Args)
    Types.push_back(A->getType());
  FunctionCallee F =
      M.getOrInsertFunction(Fn, FunctionType::get(Ret, Types, false));
  // Barriers and warp operations stay where they are: the host optimizer
  // must not merge the copies in two branches (lanes there meet apart).
  cast<Function>(F.getCallee())->addFnAttr(Attribute::Convergent);
  CallInst *Call = B.CreateCall(F, Args);
  Call->addFnAttr(Attribute::Convergent);
  return Call;
}

/// Arithmetic and conversion forms: the host's (approximations exact).
Value *Lowering::math(CallInst &Call, StringRef Name, IRBuilderBase &B) {
  auto Arg = [&](unsigned K) { return Call.getArgOperand(K); };
  Type *Ty = Call.getType();
  auto Unary = [&](Intrinsic::ID ID) {
    return B.CreateUnaryIntrinsic(ID, Arg(0));
  };
  // Forms are spelled with rounding and flush-to-zero suffixes (.rn, .ftz,
  // .approx, .f, .d, .f32): match on the operation.
  StringRef Op = Name.drop_front(strlen("llvm.nvvm."));
  if (Op.starts_with("fabs"))
    return Unary(Intrinsic::fabs);
  if (Op.starts_with("fmin"))
    return B.CreateBinaryIntrinsic(Intrinsic::minnum, Arg(0), Arg(1));
  if (Op.starts_with("fmax"))
    return B.CreateBinaryIntrinsic(Intrinsic::maxnum, Arg(0), Arg(1));
  if (Op.starts_with("sqrt"))
    return Unary(Intrinsic::sqrt);
  if (Op.starts_with("rsqrt"))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0), Unary(Intrinsic::sqrt));
  if (Op.starts_with("rcp"))
    return B.CreateFDiv(ConstantFP::get(Ty, 1.0), Arg(0));
  if (Op.starts_with("div"))
    return B.CreateFDiv(Arg(0), Arg(1));
  if (Op.starts_with("mul.r"))
    return B.CreateFMul(Arg(0), Arg(1));
  if (Op.starts_with("add.r"))
    return B.CreateFAdd(Arg(0), Arg(1));
  if (Op.starts_with("fma"))
    return B.CreateIntrinsic(Intrinsic::fma, {Ty}, {Arg(0), Arg(1), Arg(2)});
  if (Op.starts_with("ex2"))
    return Unary(Intrinsic::exp2);
  if (Op.starts_with("lg2"))
    return Unary(Intrinsic::log2);
  if (Op.starts_with("sin"))
    return Unary(Intrinsic::sin);
  if (Op.starts_with("cos"))
    return Unary(Intrinsic::cos);
  if (Op.starts_with("floor"))
    return Unary(Intrinsic::floor);
  if (Op.starts_with("ceil"))
    return Unary(Intrinsic::ceil);
  if (Op.starts_with("trunc"))
    return Unary(Intrinsic::trunc);
  if (Op.starts_with("round"))
    return Unary(Intrinsic::round);
  if (Op.starts_with("saturate"))
    return B.CreateBinaryIntrinsic(
        Intrinsic::minnum,
        B.CreateBinaryIntrinsic(Intrinsic::maxnum, Arg(0),
                                ConstantFP::get(Ty, 0.0)),
        ConstantFP::get(Ty, 1.0));
  if (Op.starts_with("clz"))
    return B.CreateTrunc(
        B.CreateBinaryIntrinsic(Intrinsic::ctlz, Arg(0), B.getFalse()), Ty);
  if (Op.starts_with("popc"))
    return B.CreateZExtOrTrunc(Unary(Intrinsic::ctpop), Ty);
  if (Op.starts_with("brev"))
    return Unary(Intrinsic::bitreverse);
  // Float to integer conversions: f2i, f2ui, d2i, d2ui, f2ll, ... .rn/.rz/
  // .rm/.rp.
  if (Op.size() > 3 && (Op.starts_with("f2") || Op.starts_with("d2")) &&
      Ty->isIntegerTy()) {
    Intrinsic::ID Round = Op.contains(".rz")   ? Intrinsic::trunc
                          : Op.contains(".rm") ? Intrinsic::floor
                          : Op.contains(".rp") ? Intrinsic::ceil
                                               : Intrinsic::rint;
    Value *R = Unary(Round);
    return Op.contains("u") ? B.CreateFPToUI(R, Ty) : B.CreateFPToSI(R, Ty);
  }
  if (Op.starts_with("ldg") || Op.starts_with("ldu"))
    return B.CreateLoad(Ty, Arg(0));
  Handled = false;
  return nullptr;
}

Value *Lowering::shuffle(CallInst &Call, int Mode, bool WithPred,
                         IRBuilderBase &B) {
  Value *Mask = Call.getArgOperand(0), *V = Call.getArgOperand(1);
  Value *Lane = Call.getArgOperand(2), *Cv = Call.getArgOperand(3);
  Type *Ty = V->getType();
  Value *Bits = Ty->isFloatTy() ? B.CreateBitCast(V, B.getInt32Ty()) : V;
  Value *R = runtime(B, "__gpuad_emu_shfl", B.getInt32Ty(),
                     {B.getInt32(Mode), Mask, Bits, Lane, Cv});
  if (Ty->isFloatTy())
    R = B.CreateBitCast(R, Ty);
  if (!WithPred)
    return R;
  Value *In = runtime(B, "__gpuad_emu_shfl_in_range", B.getInt32Ty(),
                      {B.getInt32(Mode), Lane, Cv});
  Value *Agg = PoisonValue::get(Call.getType());
  Agg = B.CreateInsertValue(Agg, R, 0);
  return B.CreateInsertValue(Agg, B.CreateICmpNE(In, B.getInt32(0)), 1);
}

Value *Lowering::vote(CallInst &Call, int Op, IRBuilderBase &B) {
  Value *R = runtime(B, "__gpuad_emu_vote", B.getInt32Ty(),
                     {B.getInt32(Op), Call.getArgOperand(0),
                      B.CreateZExt(Call.getArgOperand(1), B.getInt32Ty())});
  return Call.getType()->isIntegerTy(1) ? B.CreateICmpNE(R, B.getInt32(0)) : R;
}

/// PTX special registers (`llvm.nvvm.read.ptx.sreg.<Name>`).  The
/// emulated device has one multiprocessor of 64 warp slots; clusters are
/// one block; clocks count host nanoseconds.
Value *Lowering::specialRegister(CallInst &Call, StringRef Name,
                                 IRBuilderBase &B) {
  auto [Kind, Dim] = Name.split('.');
  Type *Ty = Call.getType();
  if (Kind == "tid")
    return idOf(B, Dim, GPUAD_EMU_OFFSET_TID);
  if (Kind == "ntid")
    return idOf(B, Dim, GPUAD_EMU_OFFSET_NTID);
  if (Kind == "ctaid" || Kind == "clusterid")
    return idOf(B, Dim, GPUAD_EMU_OFFSET_CTAID);
  if (Kind == "nctaid" || Kind == "nclusterid")
    return idOf(B, Dim, GPUAD_EMU_OFFSET_NCTAID);
  if (Kind == "warpsize")
    return B.getInt32(32);
  if (Kind == "laneid")
    return runtime(B, "__gpuad_emu_laneid", B.getInt32Ty(), {});
  if (Kind == "warpid") {
    // The warp's index in its block: the linear thread id / 32.
    Value *X = idOf(B, "x", GPUAD_EMU_OFFSET_TID),
          *Y = idOf(B, "y", GPUAD_EMU_OFFSET_TID),
          *Z = idOf(B, "z", GPUAD_EMU_OFFSET_TID);
    Value *NX = idOf(B, "x", GPUAD_EMU_OFFSET_NTID),
          *NY = idOf(B, "y", GPUAD_EMU_OFFSET_NTID);
    Value *Linear =
        B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
    return B.CreateLShr(Linear, 5);
  }
  if (Kind == "lanemask") {
    // Lanes below/above this one: eq 1<<l, lt (1<<l)-1, le (2<<l)-1, and
    // gt/ge their complements.
    Value *Lane = runtime(B, "__gpuad_emu_laneid", B.getInt32Ty(), {});
    Value *Eq = B.CreateShl(B.getInt32(1), Lane);
    Value *Lt = B.CreateSub(Eq, B.getInt32(1));
    Value *Le = B.CreateOr(Lt, Eq);
    return Dim == "eq"   ? Eq
           : Dim == "lt" ? Lt
           : Dim == "le" ? Le
           : Dim == "gt" ? B.CreateNot(Le)
                         : B.CreateNot(Lt);
  }
  if (Kind == "clock" || Kind == "clock64" || Kind == "globaltimer")
    return B.CreateTrunc(runtime(B, "__gpuad_emu_clock64", B.getInt64Ty(), {}),
                         Ty);
  if (Kind == "dynamic_smem_size")
    return runtime(B, "__gpuad_emu_dynamic_shared_bytes", B.getInt32Ty(), {});
  if (Kind == "total_smem_size" || Kind == "aggr_smem_size")
    return runtime(B, "__gpuad_emu_shared_bytes", B.getInt32Ty(), {});
  if (Kind == "nwarpid")
    return B.getInt32(64);
  if (Kind == "nsmid" || Kind == "cluster_nctarank" || Kind == "cluster_nctaid")
    return ConstantInt::get(Ty, 1);
  if (Kind == "smid" || Kind == "gridid" || Kind == "cluster_ctarank" ||
      Kind == "cluster_ctaid" || Kind.starts_with("envreg") ||
      Kind.starts_with("pm"))
    return ConstantInt::get(Ty, 0);
  Handled = false;
  return nullptr;
}

/// `__match_any_sync`, `__match_all_sync` and `__reduce_*_sync`.
Value *Lowering::matchOrReduce(CallInst &Call, StringRef Name,
                               IRBuilderBase &B) {
  if (Name.consume_front("llvm.nvvm.redux.sync.")) {
    int Op = StringSwitch<int>(Name)
                 .Case("add", 0)
                 .Case("min", 1)
                 .Case("max", 2)
                 .Case("umin", 3)
                 .Case("umax", 4)
                 .Case("and", 5)
                 .Case("or", 6)
                 .Case("xor", 7)
                 .Default(-1);
    if (Op < 0) {
      Handled = false;
      return nullptr;
    }
    return runtime(
        B, "__gpuad_emu_redux", B.getInt32Ty(),
        {B.getInt32(Op), Call.getArgOperand(1), Call.getArgOperand(0)});
  }
  bool All = Name.contains(".all.");
  Value *Value64 = B.CreateZExt(Call.getArgOperand(1), B.getInt64Ty());
  Value *R = runtime(B, "__gpuad_emu_match", B.getInt32Ty(),
                     {B.getInt32(All), Call.getArgOperand(0), Value64});
  if (!All)
    return R;
  Value *Agg = PoisonValue::get(Call.getType());
  Agg = B.CreateInsertValue(Agg, R, 0);
  return B.CreateInsertValue(Agg, B.CreateICmpNE(R, B.getInt32(0)), 1);
}

Value *Lowering::nvptx(CallInst &Call, StringRef Name, IRBuilderBase &B) {
  Handled = true;
  StringRef Sreg = "llvm.nvvm.read.ptx.sreg.";
  if (Name.consume_front(Sreg))
    return specialRegister(Call, Name, B);
  if (Name == "llvm.nvvm.barrier0" ||
      Name.starts_with("llvm.nvvm.barrier.sync") ||
      Name.starts_with("llvm.nvvm.barrier.cta.sync") ||
      Name.starts_with("llvm.nvvm.bar.sync")) {
    runtime(B, "__gpuad_emu_syncthreads", B.getVoidTy(), {B.getInt32(site())});
    return nullptr;
  }
  // __syncthreads_and / _or / _count.
  int Reduce = Name.contains(".and") ? 0 : Name.contains(".or") ? 1 : 2;
  if (Name.starts_with("llvm.nvvm.barrier.cta.red.") ||
      Name.starts_with("llvm.nvvm.barrier0.")) {
    Value *Pred = Call.getArgOperand(Call.arg_size() - 1);
    Value *R = runtime(B, "__gpuad_emu_syncthreads_reduce", B.getInt32Ty(),
                       {B.getInt32(site()), B.getInt32(Reduce),
                        B.CreateZExt(Pred, B.getInt32Ty())});
    return Call.getType()->isIntegerTy(1)
               ? B.CreateICmpNE(R, B.getInt32(0))
               : B.CreateZExtOrTrunc(R, Call.getType());
  }
  if (Name == "llvm.nvvm.bar.warp.sync") {
    // __syncwarp: the lanes of the mask meet.
    runtime(B, "__gpuad_emu_vote", B.getInt32Ty(),
            {B.getInt32(3), Call.getArgOperand(0), B.getInt32(1)});
    return nullptr;
  }
  if (Name.starts_with("llvm.nvvm.shfl.sync.")) {
    StringRef Rest = Name.drop_front(strlen("llvm.nvvm.shfl.sync."));
    int Mode = Rest.starts_with("idx")    ? 0
               : Rest.starts_with("up")   ? 1
               : Rest.starts_with("down") ? 2
                                          : 3;
    return shuffle(Call, Mode, Rest.ends_with("p"), B); // .f32p, .i32p
  }
  if (Name.starts_with("llvm.nvvm.vote.")) {
    StringRef Rest = Name.drop_front(strlen("llvm.nvvm.vote."));
    int Op = Rest.starts_with("all")   ? 0
             : Rest.starts_with("any") ? 1
             : Rest.starts_with("uni") ? 2
                                       : 3;
    return vote(Call, Op, B);
  }
  if (Name == "llvm.nvvm.activemask")
    return runtime(B, "__gpuad_emu_activemask", B.getInt32Ty(), {});
  if (Name.starts_with("llvm.nvvm.match.") ||
      Name.starts_with("llvm.nvvm.redux.sync."))
    return matchOrReduce(Call, Name, B);
  if (Name.consume_front("llvm.nvvm.isspacep.")) {
    int Space = Name.starts_with("shared") ? 1
                : Name == "local"          ? 2
                : Name == "const"          ? 3
                                           : 0;
    Value *P = B.CreateAddrSpaceCast(Call.getArgOperand(0), B.getPtrTy());
    return B.CreateICmpNE(runtime(B, "__gpuad_emu_isspacep", B.getInt32Ty(),
                                  {B.getInt32(Space), P}),
                          B.getInt32(0));
  }
  if (Name == "llvm.nvvm.nanosleep") {
    // Sleeping lets the other threads run (a polling loop makes progress).
    runtime(B, "__gpuad_emu_yield", B.getVoidTy(), {});
    return nullptr;
  }
  if (Name == "llvm.nvvm.exit") {
    runtime(B, "__gpuad_emu_exit", B.getVoidTy(), {});
    return nullptr;
  }
  if (Name.starts_with("llvm.nvvm.membar") ||
      Name.starts_with("llvm.nvvm.fence")) {
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    return nullptr;
  }
  return math(Call, Name, B);
}

Value *Lowering::amdgpu(CallInst &Call, StringRef Name, IRBuilderBase &B) {
  Handled = true;
  if (Name.consume_front("llvm.amdgcn.workitem.id."))
    return idOf(B, Name, GPUAD_EMU_OFFSET_TID);
  if (Name.consume_front("llvm.amdgcn.workgroup.id."))
    return idOf(B, Name, GPUAD_EMU_OFFSET_CTAID);
  Type *Const = PointerType::get(C, 4);
  if (Name == "llvm.amdgcn.implicitarg.ptr")
    return B.CreateAddrSpaceCast(
        field(B, GPUAD_EMU_OFFSET_IMPLICIT_ARGS, PointerType::get(C, 0)),
        Const);
  if (Name == "llvm.amdgcn.dispatch.ptr")
    return B.CreateAddrSpaceCast(
        field(B, GPUAD_EMU_OFFSET_DISPATCH, PointerType::get(C, 0)), Const);
  if (Name == "llvm.amdgcn.s.barrier") {
    runtime(B, "__gpuad_emu_syncthreads", B.getVoidTy(), {B.getInt32(site())});
    return nullptr;
  }
  if (Name == "llvm.amdgcn.wave.barrier") {
    // The lanes run in step on the hardware: here the active ones meet.
    runtime(B, "__gpuad_emu_vote64", B.getInt64Ty(),
            {B.getInt32(3), B.getInt32(1)});
    return nullptr;
  }
  if (Name == "llvm.amdgcn.is.private" || Name == "llvm.amdgcn.is.shared") {
    Value *P = B.CreateAddrSpaceCast(Call.getArgOperand(0), B.getPtrTy());
    int Space = Name.ends_with("private") ? 2 : 1;
    return B.CreateICmpNE(runtime(B, "__gpuad_emu_isspacep", B.getInt32Ty(),
                                  {B.getInt32(Space), P}),
                          B.getInt32(0));
  }
  if (Name == "llvm.amdgcn.s.waitcnt" ||
      Name.starts_with("llvm.amdgcn.sched.") || Name == "llvm.amdgcn.s.sleep")
    return nullptr;
  if (Name.starts_with("llvm.read_register")) {
    // The exec mask: the lanes active here (HIP's __activemask).
    auto *MD = cast<MetadataAsValue>(Call.getArgOperand(0))->getMetadata();
    StringRef Reg =
        cast<MDString>(cast<MDNode>(MD)->getOperand(0))->getString();
    if (Reg != "exec" && Reg != "exec_lo" && Reg != "exec_hi") {
      Handled = false;
      return nullptr;
    }
    Value *Exec = runtime(B, "__gpuad_emu_vote64", B.getInt64Ty(),
                          {B.getInt32(3), B.getInt32(1)});
    if (Reg == "exec_hi")
      Exec = B.CreateLShr(Exec, 32);
    return B.CreateTrunc(Exec, Call.getType());
  }
  if (Name == "llvm.amdgcn.ds.bpermute")
    return runtime(B, "__gpuad_emu_bpermute", B.getInt32Ty(),
                   {Call.getArgOperand(0), Call.getArgOperand(1)});
  if (Name.starts_with("llvm.amdgcn.ballot")) {
    Value *R = runtime(
        B, "__gpuad_emu_vote64", B.getInt64Ty(),
        {B.getInt32(3), B.CreateZExt(Call.getArgOperand(0), B.getInt32Ty())});
    return B.CreateZExtOrTrunc(R, Call.getType());
  }
  if (Name.starts_with("llvm.amdgcn.icmp") ||
      Name.starts_with("llvm.amdgcn.fcmp")) {
    // The older ballot: the lanes where `a <pred> b` holds.
    auto *Pred = dyn_cast<ConstantInt>(Call.getArgOperand(2));
    bool WantsInt = Name.starts_with("llvm.amdgcn.icmp");
    if (!Pred || CmpInst::isIntPredicate(
                     CmpInst::Predicate(Pred->getZExtValue())) != WantsInt) {
      Handled = false;
      return nullptr;
    }
    Value *Holds = B.CreateCmp(CmpInst::Predicate(Pred->getZExtValue()),
                               Call.getArgOperand(0), Call.getArgOperand(1));
    Value *R = runtime(B, "__gpuad_emu_vote64", B.getInt64Ty(),
                       {B.getInt32(3), B.CreateZExt(Holds, B.getInt32Ty())});
    return B.CreateZExtOrTrunc(R, Call.getType());
  }
  if (Name.starts_with("llvm.amdgcn.readfirstlane") ||
      Name.starts_with("llvm.amdgcn.readlane")) {
    Value *V = Call.getArgOperand(0);
    Type *Ty = V->getType();
    unsigned Bits = DL.getTypeSizeInBits(Ty);
    if (!(Ty->isIntegerTy() || Ty->isFloatingPointTy() || Ty->isPointerTy()) ||
        (Bits != 32 && Bits != 64)) {
      Handled = false;
      return nullptr;
    }
    // The first lane that has not exited (or the named lane).
    Value *Lane =
        Call.arg_size() > 1
            ? Call.getArgOperand(1)
            : B.CreateTrunc(B.CreateBinaryIntrinsic(
                                Intrinsic::cttz,
                                runtime(B, "__gpuad_emu_vote64", B.getInt64Ty(),
                                        {B.getInt32(3), B.getInt32(1)}),
                                B.getTrue()),
                            B.getInt32Ty());
    Value *Address = B.CreateShl(Lane, 2);
    auto Read = [&](Value *Word) {
      return runtime(B, "__gpuad_emu_bpermute", B.getInt32Ty(),
                     {Address, Word});
    };
    Type *IntTy = B.getIntNTy(Bits);
    Value *AsInt = Ty->isPointerTy() ? B.CreatePtrToInt(V, IntTy)
                                     : B.CreateBitCast(V, IntTy);
    Value *R;
    if (Bits == 32) {
      R = Read(AsInt);
    } else {
      Value *Lo =
          B.CreateZExt(Read(B.CreateTrunc(AsInt, B.getInt32Ty())), IntTy);
      Value *Hi = B.CreateZExt(
          Read(B.CreateTrunc(B.CreateLShr(AsInt, 32), B.getInt32Ty())), IntTy);
      R = B.CreateOr(Lo, B.CreateShl(Hi, 32));
    }
    return Ty->isPointerTy() ? B.CreateIntToPtr(R, Ty) : B.CreateBitCast(R, Ty);
  }
  if (Name == "llvm.amdgcn.mbcnt.lo" || Name == "llvm.amdgcn.mbcnt.hi") {
    // Acc + the set bits of Mask below this lane (in its 32-lane half).
    Value *Lane = runtime(B, "__gpuad_emu_laneid", B.getInt32Ty(), {});
    if (Name.ends_with("hi"))
      Lane = B.CreateSelect(B.CreateICmpUGT(Lane, B.getInt32(32)),
                            B.CreateSub(Lane, B.getInt32(32)), B.getInt32(0));
    Value *Below = B.CreateSelect(
        B.CreateICmpUGE(Lane, B.getInt32(32)), B.getInt32(~0u),
        B.CreateSub(B.CreateShl(B.getInt32(1), Lane), B.getInt32(1)));
    Value *Count = B.CreateUnaryIntrinsic(
        Intrinsic::ctpop, B.CreateAnd(Call.getArgOperand(0), Below));
    return B.CreateAdd(Call.getArgOperand(1), Count);
  }
  if (Name == "llvm.amdgcn.s.memtime" || Name == "llvm.amdgcn.s.memrealtime")
    return runtime(B, "__gpuad_emu_clock64", B.getInt64Ty(), {});
  if (Name.starts_with("llvm.amdgcn.fmed3")) {
    Value *A = Call.getArgOperand(0), *Bv = Call.getArgOperand(1),
          *Cv = Call.getArgOperand(2);
    Value *Lo = B.CreateBinaryIntrinsic(Intrinsic::minnum, A, Bv);
    Value *Hi = B.CreateBinaryIntrinsic(Intrinsic::maxnum, A, Bv);
    return B.CreateBinaryIntrinsic(
        Intrinsic::maxnum, Lo,
        B.CreateBinaryIntrinsic(Intrinsic::minnum, Hi, Cv));
  }
  if (Name.starts_with("llvm.amdgcn.rcp"))
    return B.CreateFDiv(ConstantFP::get(Call.getType(), 1.0),
                        Call.getArgOperand(0));
  if (Name.starts_with("llvm.amdgcn.rsq"))
    return B.CreateFDiv(
        ConstantFP::get(Call.getType(), 1.0),
        B.CreateUnaryIntrinsic(Intrinsic::sqrt, Call.getArgOperand(0)));
  if (Name.starts_with("llvm.amdgcn.sqrt"))
    return B.CreateUnaryIntrinsic(Intrinsic::sqrt, Call.getArgOperand(0));
  if (Name.starts_with("llvm.amdgcn.exp2"))
    return B.CreateUnaryIntrinsic(Intrinsic::exp2, Call.getArgOperand(0));
  if (Name.starts_with("llvm.amdgcn.log"))
    return B.CreateUnaryIntrinsic(Intrinsic::log2, Call.getArgOperand(0));
  if (Name.starts_with("llvm.amdgcn.sin"))
    return B.CreateUnaryIntrinsic(
        Intrinsic::sin,
        B.CreateFMul(Call.getArgOperand(0),
                     ConstantFP::get(Call.getType(), 2 * llvm::numbers::pi)));
  if (Name.starts_with("llvm.amdgcn.cos"))
    return B.CreateUnaryIntrinsic(
        Intrinsic::cos,
        B.CreateFMul(Call.getArgOperand(0),
                     ConstantFP::get(Call.getType(), 2 * llvm::numbers::pi)));
  if (Name.starts_with("llvm.amdgcn.fract"))
    return B.CreateFSub(
        Call.getArgOperand(0),
        B.CreateUnaryIntrinsic(Intrinsic::floor, Call.getArgOperand(0)));
  if (Name.starts_with("llvm.amdgcn.ldexp"))
    return B.CreateIntrinsic(Intrinsic::ldexp,
                             {Call.getType(), Call.getArgOperand(1)->getType()},
                             {Call.getArgOperand(0), Call.getArgOperand(1)});
  Handled = false;
  return nullptr;
}

} // namespace

bool lowerTargetIntrinsics(Module &M, bool IsAMDGPU,
                           function_ref<void(const Twine &)> Error) {
  Lowering Lower(M, Error);
  StringRef Prefix = IsAMDGPU ? "llvm.amdgcn." : "llvm.nvvm.";
  bool Ok = true;
  SmallVector<CallInst *, 64> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction();
            Callee && (Callee->getName().starts_with(Prefix) ||
                       (IsAMDGPU &&
                        Callee->getIntrinsicID() == Intrinsic::read_register)))
          Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    StringRef Name = Call->getCalledFunction()->getName();
    IRBuilder<> B(Call);
    Value *R =
        IsAMDGPU ? Lower.amdgpu(*Call, Name, B) : Lower.nvptx(*Call, Name, B);
    if (!Lower.Handled) {
      Error("the emulator does not know the intrinsic '" + Name + "' (in '" +
            Call->getFunction()->getName() + "')");
      Ok = false;
      continue;
    }
    if (!Call->getType()->isVoidTy())
      Call->replaceAllUsesWith(R ? R : PoisonValue::get(Call->getType()));
    Call->eraseFromParent();
  }
  // Scopes of atomics and fences are the host's (one address space).
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        RMW->setSyncScopeID(SyncScope::System);
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        CX->setSyncScopeID(SyncScope::System);
      else if (auto *Fence = dyn_cast<FenceInst>(&I))
        Fence->setSyncScopeID(SyncScope::System);
      else if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic())
        LI->setSyncScopeID(SyncScope::System);
      else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic())
        SI->setSyncScopeID(SyncScope::System);
    }
  // Declarations of intrinsics no longer called.
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.getName().starts_with(Prefix) && F.use_empty())
      F.eraseFromParent();
  return Ok;
}

Value *threadField(IRBuilderBase &B, Module &M, uint64_t Offset, Type *Ty) {
  GlobalVariable *TLS = M.getNamedGlobal("__gpuad_emu_thread");
  // In address space 0 explicitly: AMDGPU's layout puts new globals in 1.
  if (!TLS)
    TLS = new GlobalVariable(
        M, ArrayType::get(B.getInt8Ty(), GPUAD_EMU_THREAD_SIZE),
        /*isConstant=*/false, GlobalValue::ExternalLinkage, nullptr,
        "__gpuad_emu_thread", nullptr, GlobalValue::GeneralDynamicTLSModel, 0);
  Value *Addr = B.CreateThreadLocalAddress(TLS);
  return B.CreateLoad(Ty, B.CreateConstGEP1_64(B.getInt8Ty(), Addr, Offset));
}

} // namespace gpuad::emu
