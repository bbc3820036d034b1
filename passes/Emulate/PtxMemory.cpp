//===- PtxMemory.cpp - Inline PTX: memory ---------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Rules for PTX's memory instructions.  All state spaces are host memory,
/// so an address is a host pointer; a shared-space address is a 32-bit
/// offset into the block's shared window (sharedWindow below), which also
/// makes `cvta` between generic and shared addresses a matter of keeping
/// or widening the low 32 bits.  Caching qualifiers (`.nc`, `.cg`,
/// `.L2::...`) change nothing on the host.  The memory model's strengths
/// map to the host's atomics: `.relaxed` and `.volatile` loads and stores
/// are monotonic, `.acquire` loads acquire and `.release` stores release,
/// whole-vector accesses of up to 8 bytes as one integer and of 16 bytes
/// through the runtime (single-copy atomic, as CUB's look-back pairs need);
/// a strong load also lets other threads run first (a spin loop on a flag
/// makes progress under the fiber schedules).  `atom` and `red` are
/// `atomicrmw`/`cmpxchg` with their order; fences become host fences.
/// (Asynchronous copies and mbarriers: PtxAsync.cpp.)
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "EmuAbi.h"
#include "Emulate/Intrinsics.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu::ptx {

Value *sharedWindow(Emitter &E, Value *Offset) {
  IRBuilderBase &B = E.B;
  Value *Base = B.CreatePtrToInt(
      threadField(B, E.M, GPUAD_EMU_OFFSET_SHARED, B.getPtrTy()),
      B.getInt64Ty());
  Value *High = B.CreateAnd(Base, B.getInt64(~uint64_t(0xffffffff)));
  return B.CreateIntToPtr(
      B.CreateOr(High, B.CreateZExt(Offset, B.getInt64Ty())), B.getPtrTy());
}

namespace {

enum class Strength { Weak, Volatile, Relaxed, Acquire, Release };

Strength strength(Emitter &E) {
  if (E.has("acquire"))
    return Strength::Acquire;
  if (E.has("release"))
    return Strength::Release;
  if (E.has("relaxed") || E.has("mmio"))
    return Strength::Relaxed;
  if (E.has("volatile") || E.has("cv"))
    return Strength::Volatile;
  return Strength::Weak;
}

AtomicOrdering ordering(Strength S) {
  return S == Strength::Acquire   ? AtomicOrdering::Acquire
         : S == Strength::Release ? AtomicOrdering::Release
                                  : AtomicOrdering::Monotonic;
}

/// The destination (load) or source (store) registers of a possibly
/// vector access: operand \p I itself, or its elements.
bool elements(Emitter &E, unsigned I, SmallVectorImpl<const Operand *> &Out) {
  unsigned N = E.vectorLength();
  const Operand &O = E.op(I);
  if (N == 1 && O.K != Operand::Vector) {
    Out.push_back(&O);
    return true;
  }
  if (O.K != Operand::Vector || O.Elements.size() != N)
    return E.fail("a vector access without " + Twine(N) + " registers");
  for (const Operand &El : O.Elements)
    Out.push_back(&El);
  return true;
}

/// Checks a load's or store's form (two operands and an optional cache
/// policy, a type) and gathers its registers, operand \p Regs or its
/// elements.
bool accessShape(Emitter &E, unsigned Regs, PtxType T,
                 SmallVectorImpl<const Operand *> &Out) {
  if (E.size() < 2 || E.size() > 3 || !T.valid() || T.K == PtxType::Pred)
    return E.fail("the form of " + E.S->Opcode);
  return elements(E, Regs, Out);
}

/// The whole access as one integer of its size.
Type *wholeType(Emitter &E, unsigned Bytes) { return E.B.getIntNTy(8 * Bytes); }

void check(Emitter &E, Value *P, unsigned Bytes, bool Write) {
  E.runtime("__gpuad_emu_check", E.B.getVoidTy(),
            {P, E.B.getInt64(Bytes), E.B.getInt32(Write)});
}

/// `ld{.sem.scope}{.space}{.cop}{.hints}{.vec}.type d, [a]{, policy}` (also
/// `ldu`).
bool load(Emitter &E) {
  PtxType T = E.type();
  SmallVector<const Operand *, 8> Dst;
  if (!accessShape(E, 0, T, Dst))
    return false;
  IRBuilderBase &B = E.B;
  unsigned N = Dst.size(), Bytes = N * T.Width / 8;
  Value *P = E.address(E.op(1), E.sharedSpace());
  Strength S = strength(E);
  Value *Whole;
  if (S == Strength::Weak || (S == Strength::Volatile && Bytes > 8)) {
    LoadInst *L = B.CreateAlignedLoad(wholeType(E, Bytes), P, Align(Bytes));
    L->setVolatile(S == Strength::Volatile);
    Whole = L;
  } else {
    // Other threads first: a flag polled in a loop can change.
    E.runtime("__gpuad_emu_yield", B.getVoidTy(), {});
    if (Bytes == 16) {
      check(E, P, 16, false);
      Whole = E.runtime("__gpuad_emu_load16", B.getInt128Ty(), {P});
    } else if (Bytes <= 8) {
      LoadInst *L = B.CreateAlignedLoad(wholeType(E, Bytes), P, Align(Bytes));
      L->setAtomic(ordering(S));
      L->setVolatile(S == Strength::Volatile);
      Whole = L;
    } else {
      return E.fail("a " + Twine(Bytes) + "-byte access with a memory order");
    }
  }
  Value *Vec =
      B.CreateBitCast(Whole, FixedVectorType::get(B.getIntNTy(T.Width), N));
  for (unsigned I = 0; I < N; ++I)
    E.write(*Dst[I], B.CreateExtractElement(Vec, I), T);
  return true;
}

/// `st{.sem.scope}{.space}{.cop}{.hints}{.vec}.type [a], b{, policy}`.
bool store(Emitter &E) {
  PtxType T = E.type();
  SmallVector<const Operand *, 8> Src;
  if (!accessShape(E, 1, T, Src))
    return false;
  IRBuilderBase &B = E.B;
  unsigned N = Src.size(), Bytes = N * T.Width / 8;
  Value *Vec = PoisonValue::get(FixedVectorType::get(B.getIntNTy(T.Width), N));
  for (unsigned I = 0; I < N; ++I)
    Vec = B.CreateInsertElement(
        Vec, E.resize(E.bitsOf(E.read(*Src[I], T)), T.Width, false), I);
  Value *Whole = B.CreateBitCast(Vec, wholeType(E, Bytes));
  Value *P = E.address(E.op(0), E.sharedSpace());
  Strength S = strength(E);
  if (S == Strength::Weak || (S == Strength::Volatile && Bytes > 8)) {
    B.CreateAlignedStore(Whole, P, Align(Bytes))
        ->setVolatile(S == Strength::Volatile);
  } else if (Bytes == 16) {
    check(E, P, 16, true);
    E.runtime("__gpuad_emu_store16", B.getVoidTy(), {P, Whole});
  } else if (Bytes <= 8) {
    StoreInst *St = B.CreateAlignedStore(Whole, P, Align(Bytes));
    St->setAtomic(ordering(S));
    St->setVolatile(S == Strength::Volatile);
  } else {
    return E.fail("a " + Twine(Bytes) + "-byte access with a memory order");
  }
  return true;
}

/// The atomicrmw operation of `atom.op.type`, or BAD_BINOP.
AtomicRMWInst::BinOp rmwOp(Emitter &E, PtxType T) {
  using Op = AtomicRMWInst::BinOp;
  bool F = T.isFloat(), S = T.isSigned(), U = T.K == PtxType::Unsigned;
  if (E.has("add"))
    return F ? Op::FAdd : Op::Add;
  if (E.has("inc") && U)
    return Op::UIncWrap;
  if (E.has("dec") && U)
    return Op::UDecWrap;
  if (E.has("min"))
    return F ? Op::FMin : S ? Op::Min : U ? Op::UMin : Op::BAD_BINOP;
  if (E.has("max"))
    return F ? Op::FMax : S ? Op::Max : U ? Op::UMax : Op::BAD_BINOP;
  if (E.has("exch"))
    return Op::Xchg;
  if (E.has("and") && !F)
    return Op::And;
  if (E.has("or") && !F)
    return Op::Or;
  if (E.has("xor") && !F)
    return Op::Xor;
  return Op::BAD_BINOP;
}

/// `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}` and
/// `red{.sem}{.scope}{.space}.op.type [a], b`.
bool atomic(Emitter &E) {
  bool Red = E.S->Opcode == "red";
  PtxType T = E.type();
  bool Cas = E.has("cas");
  unsigned Operands = (Red ? 2 : 3) + Cas;
  if (!T.valid() || (T.Width != 32 && T.Width != 64) || E.vectorLength() != 1 ||
      (T.isFloat() && T.Width == 16))
    return E.fail("atomics of this type");
  if (E.size() < Operands || E.size() > Operands + 1)
    return E.fail("the form of " + E.S->Opcode);
  IRBuilderBase &B = E.B;
  AtomicOrdering Order = E.has("acq_rel")   ? AtomicOrdering::AcquireRelease
                         : E.has("acquire") ? AtomicOrdering::Acquire
                         : E.has("release") ? AtomicOrdering::Release
                                            : AtomicOrdering::Monotonic;
  unsigned At = Red ? 0 : 1;
  Value *P = E.address(E.op(At), E.sharedSpace());
  Value *Old;
  if (Cas) {
    PtxType Bits = PtxType::bits(T.Width);
    AtomicOrdering Failure =
        AtomicCmpXchgInst::getStrongestFailureOrdering(Order);
    Value *Pair =
        B.CreateAtomicCmpXchg(P, E.read(At + 1, Bits), E.read(At + 2, Bits),
                              Align(T.Width / 8), Order, Failure);
    Old = B.CreateExtractValue(Pair, 0);
  } else {
    AtomicRMWInst::BinOp Op = rmwOp(E, T);
    if (Op == AtomicRMWInst::BAD_BINOP)
      return E.fail("this atomic operation on this type");
    // An exchange of floats exchanges their bits.
    PtxType VT = Op == AtomicRMWInst::Xchg ? PtxType::bits(T.Width) : T;
    Old =
        B.CreateAtomicRMW(Op, P, E.read(At + 1, VT), Align(T.Width / 8), Order);
  }
  return Red || E.write(0, Old, T);
}

/// `membar.level` and every `fence`: a full host fence (stronger than
/// any of them).
bool fence(Emitter &E) {
  E.B.CreateFence(AtomicOrdering::SequentiallyConsistent);
  return true;
}

/// Cache management with no effect on the host's data: prefetches,
/// priorities, discards (the data may stay), cache policies (0).
bool cacheHint(Emitter &E) {
  if (E.S->Opcode == "createpolicy")
    return E.size() >= 1 && E.write(0, E.B.getInt64(0), PtxType::bits(64));
  return true;
}

/// `cvta{.to}.space.size d, a`: generic addresses are host addresses;
/// shared ones widen from the shared window.
bool cvta(Emitter &E) {
  PtxType T = E.type();
  if (E.size() != 2 || (T.Width != 32 && T.Width != 64))
    return E.fail("the form of cvta");
  Value *A = E.read(1, T);
  if (E.sharedSpace() && !E.has("to"))
    A = E.B.CreatePtrToInt(sharedWindow(E, E.resize(A, 32, false)),
                           E.B.getIntNTy(T.Width));
  return E.write(0, A, T);
}

/// `isspacep.space p, a`.
bool isspacep(Emitter &E) {
  int Space = E.sharedSpace()   ? 1
              : E.has("local")  ? 2
              : E.has("global") ? 0
              : E.has("const")  ? 3
                                : 4;
  if (E.size() != 2)
    return E.fail("the form of isspacep");
  Value *P = E.B.CreateIntToPtr(E.read(1, PtxType::bits(64)), E.B.getPtrTy());
  Value *In = E.runtime("__gpuad_emu_isspacep", E.B.getInt32Ty(),
                        {E.B.getInt32(Space), P});
  return E.write(0, In, PtxType::pred());
}

const RuleRow Rows[] = {
    {"ld", load,
     "global shared shared::cta shared::cluster local const param weak "
     "relaxed acquire volatile mmio cta cluster gpu sys ca cg cs lu cv nc "
     "unified v2 v4 v8 hints"},
    {"ldu", load, "global v2 v4"},
    {"st", store,
     "global shared shared::cta shared::cluster local param weak relaxed "
     "release volatile mmio cta cluster gpu sys wb cg cs wt v2 v4 v8 hints"},
    {"atom", atomic,
     "global shared shared::cta shared::cluster relaxed acquire release "
     "acq_rel cta cluster gpu sys add inc dec min max exch cas and or xor "
     "hints"},
    {"red", atomic,
     "global shared shared::cta shared::cluster relaxed release cta "
     "cluster gpu sys add inc dec min max and or xor hints"},
    {"membar", fence, "cta gl sys"},
    {"fence", fence,
     "sc acq_rel acquire release cta cluster gpu sys proxy alias async "
     "global shared::cta shared::cluster tensormap::generic mbarrier_init "
     "sync_restrict::shared::cta sync_restrict::shared::cluster"},
    {"prefetch", cacheHint, "global local L1 L2 tensormap hints"},
    {"prefetchu", cacheHint, "L1"},
    {"discard", cacheHint, "global L2"},
    {"applypriority", cacheHint, "global hints"},
    {"createpolicy", cacheHint, "fractional range hints"},
    {"cvta", cvta,
     "to global shared shared::cta shared::cluster local const "
     "param"},
    {"isspacep", isspacep,
     "global shared shared::cta shared::cluster local "
     "const param param::entry"},
};

} // namespace

ArrayRef<RuleRow> memoryRules() { return Rows; }

} // namespace gpuad::emu::ptx
