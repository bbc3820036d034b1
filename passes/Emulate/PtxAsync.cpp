//===- PtxAsync.cpp - Inline PTX: asynchronous copies and mbarriers -------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Rules for the copies that run beside a thread on the GPU and the
/// barriers in shared memory that track them.  The emulator copies at once,
/// when the thread issues the copy: `cp.async` and `cp.async.bulk` are a
/// memcpy (the bytes past cp.async's src-size are zero), so waiting for
/// groups has nothing to wait for, and a bulk copy's `complete_tx` on its
/// mbarrier happens right after it.  An mbarrier (`mbarrier.init/arrive/
/// arrive_drop/expect_tx/complete_tx/test_wait/try_wait`) is the 8-byte
/// word in shared memory the program gives, kept by the runtime
/// (__gpuad_emu_mbarrier): its phase completes when the pending arrivals
/// and the transaction count reach zero, and a wait that finds it
/// incomplete lets the other threads run first.  Tensor copies
/// (`cp.async.bulk.tensor`, which need tensor maps) are not supported.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu::ptx {

namespace {

PtxType u32() { return {PtxType::Unsigned, 32}; }
PtxType b64() { return PtxType::bits(64); }

/// The runtime's mbarrier operations (EmuAbi.h).
enum MBarrierOp {
  Init = 0,
  Arrive = 1,
  ArriveDrop = 2,
  ExpectTx = 3,
  CompleteTx = 4,
  TestWait = 5,
  TestWaitParity = 6
};

Value *mbarrierCall(Emitter &E, MBarrierOp Op, Value *Bar, Value *Arg) {
  IRBuilderBase &B = E.B;
  return E.runtime(
      "__gpuad_emu_mbarrier", B.getInt64Ty(),
      {B.getInt32(Op), Bar, B.CreateZExtOrTrunc(Arg, B.getInt64Ty())});
}

/// The mbarrier an address operand names: shared (the window) when the
/// instruction says so, generic otherwise.
Value *barrierAt(Emitter &E, unsigned I) {
  return E.address(E.op(I), E.sharedSpace());
}

/// `mbarrier.<op>...b64 ...`.
bool mbarrier(Emitter &E) {
  IRBuilderBase &B = E.B;
  if (E.has("inval"))
    return true;
  if (E.has("init")) {
    if (E.size() != 2)
      return E.fail("the form of mbarrier.init");
    mbarrierCall(E, Init, barrierAt(E, 0), E.read(1, u32()));
    return true;
  }
  if (E.has("arrive") || E.has("arrive_drop")) {
    // state, [addr]{, count} (or, with .expect_tx, the transaction count).
    if (E.size() < 2 || E.size() > 3)
      return E.fail("the form of mbarrier.arrive");
    Value *Bar = barrierAt(E, 1);
    Value *Count = E.size() == 3 ? E.read(2, u32()) : B.getInt32(1);
    if (E.has("expect_tx")) {
      mbarrierCall(E, ExpectTx, Bar, Count);
      Count = B.getInt32(1);
    }
    Value *State =
        mbarrierCall(E, E.has("arrive_drop") ? ArriveDrop : Arrive, Bar, Count);
    return E.write(0, State, b64());
  }
  if (E.has("expect_tx") || E.has("complete_tx")) {
    if (E.size() != 2)
      return E.fail("the form of mbarrier.expect_tx");
    mbarrierCall(E, E.has("expect_tx") ? ExpectTx : CompleteTx, barrierAt(E, 0),
                 E.read(1, u32()));
    return true;
  }
  if (E.has("test_wait") || E.has("try_wait")) {
    // waitComplete, [addr], state or phaseParity{, suspendTimeHint}.
    if (E.size() < 3 || E.size() > 4)
      return E.fail("the form of mbarrier.test_wait");
    bool Parity = E.has("parity");
    Value *Arg = Parity ? E.read(2, u32()) : E.read(2, b64());
    Value *Done = mbarrierCall(E, Parity ? TestWaitParity : TestWait,
                               barrierAt(E, 1), Arg);
    return E.write(0, B.CreateICmpNE(Done, B.getInt64(0)), PtxType::pred());
  }
  if (E.has("pending_count")) {
    // The arrivals the phase of a state still waits for (its low bits).
    if (E.size() != 2)
      return E.fail("the form of mbarrier.pending_count");
    return E.write(0, B.CreateAnd(E.read(1, b64()), B.getInt64(0x1fffff)),
                   u32());
  }
  return E.fail("the form of mbarrier");
}

/// The state spaces of a copy's destination and source, in the order the
/// modifiers name them (`cp.async.bulk.shared::cluster.global`).
bool copySpaces(Emitter &E, bool &DstShared, bool &SrcShared) {
  SmallVector<bool, 2> Shared;
  for (const std::string &M : E.S->Mods)
    if (M == "global" || StringRef(M).starts_with("shared"))
      Shared.push_back(M != "global");
  if (Shared.size() != 2)
    return E.fail("a copy without its two state spaces");
  DstShared = Shared[0];
  SrcShared = Shared[1];
  return true;
}

/// `cp.async.bulk.dst.src{.mbarrier::complete_tx::bytes | .bulk_group}
/// [dst], [src], size{, [mbar]}{, policy}`.
bool bulkCopy(Emitter &E) {
  if (E.has("commit_group") || E.has("wait_group") || E.has("prefetch"))
    return true;
  if (E.has("tensor"))
    return E.fail("tensor copies (cp.async.bulk.tensor)");
  bool DstShared = false, SrcShared = false;
  bool ToBarrier = E.has("mbarrier::complete_tx::bytes");
  if (!copySpaces(E, DstShared, SrcShared) || E.size() < 3u + ToBarrier)
    return E.fail("the form of cp.async.bulk");
  Value *Size = E.read(2, u32());
  E.B.CreateMemCpy(E.address(E.op(0), DstShared), Align(16),
                   E.address(E.op(1), SrcShared), Align(16), Size);
  if (ToBarrier)
    mbarrierCall(E, CompleteTx, barrierAt(E, 3), Size);
  return true;
}

/// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src-size |
/// , ignore-src}{, policy}`, its groups, and `cp.async.mbarrier.arrive`.
bool cpAsync(Emitter &E) {
  if (!E.has("async"))
    return E.fail("the form of cp");
  if (E.has("bulk"))
    return bulkCopy(E);
  if (E.has("commit_group") || E.has("wait_group") || E.has("wait_all"))
    return true;
  if (E.has("mbarrier")) {
    // The arrival comes when the copies before it are done (now); without
    // .noinc it first raises the pending count, so it changes nothing.
    if (E.size() != 1)
      return E.fail("the form of cp.async.mbarrier.arrive");
    if (E.has("noinc"))
      mbarrierCall(E, Arrive, barrierAt(E, 0), E.B.getInt32(1));
    return true;
  }
  if (!E.sharedSpace() || !E.has("global") || E.size() < 3)
    return E.fail("the form of cp.async");
  IRBuilderBase &B = E.B;
  unsigned Extra = E.size() - 3 - E.has("L2::cache_hint");
  Value *Size = E.read(2, u32());
  Value *SrcSize = Size;
  if (Extra == 1)
    SrcSize = E.isPredicate(E.op(3))
                  ? B.CreateSelect(E.predicate(3), B.getInt32(0), Size)
                  : E.read(3, u32());
  else if (Extra > 1)
    return E.fail("the form of cp.async");
  Value *Dst = E.address(E.op(0), true), *Src = E.address(E.op(1), false);
  B.CreateMemCpy(Dst, Align(4), Src, Align(4), SrcSize);
  B.CreateMemSet(B.CreateGEP(B.getInt8Ty(), Dst, SrcSize), B.getInt8(0),
                 B.CreateSub(Size, SrcSize), Align(1));
  return true;
}

const RuleRow Rows[] = {
    {"cp", cpAsync,
     "async ca cg shared shared::cta shared::cluster global commit_group "
     "wait_group wait_all read mbarrier arrive noinc bulk bulk_group "
     "mbarrier::complete_tx::bytes prefetch tensor hints"},
    {"mbarrier", mbarrier,
     "init inval arrive arrive_drop expect_tx complete_tx test_wait "
     "try_wait pending_count parity noComplete shared shared::cta "
     "shared::cluster release acquire relaxed cta cluster"},
};

} // namespace

ArrayRef<RuleRow> asyncRules() { return Rows; }

} // namespace gpuad::emu::ptx
