//===- PtxThreads.cpp - Inline PTX: threads, warps and control ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Rules for what PTX threads do together or to themselves: special
/// registers, warp shuffles, votes, matches, reductions and elections,
/// barriers, sleeping, exiting, traps and branches.  Each becomes the NVVM
/// intrinsic the CUDA headers would have used (`shfl.sync.down.b32` is
/// `llvm.nvvm.shfl.sync.down.i32`), so Intrinsics.cpp's lowering of that
/// intrinsic -- a read of the thread's state or a call into the emulator's
/// scheduler -- serves both spellings.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu::ptx {

namespace {

/// Special registers read through their NVVM intrinsic.
struct SpecialRow {
  StringRef Name;
  Intrinsic::ID ID;
};
const SpecialRow Specials[] = {
    {"%tid.x", Intrinsic::nvvm_read_ptx_sreg_tid_x},
    {"%tid.y", Intrinsic::nvvm_read_ptx_sreg_tid_y},
    {"%tid.z", Intrinsic::nvvm_read_ptx_sreg_tid_z},
    {"%ntid.x", Intrinsic::nvvm_read_ptx_sreg_ntid_x},
    {"%ntid.y", Intrinsic::nvvm_read_ptx_sreg_ntid_y},
    {"%ntid.z", Intrinsic::nvvm_read_ptx_sreg_ntid_z},
    {"%ctaid.x", Intrinsic::nvvm_read_ptx_sreg_ctaid_x},
    {"%ctaid.y", Intrinsic::nvvm_read_ptx_sreg_ctaid_y},
    {"%ctaid.z", Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
    {"%nctaid.x", Intrinsic::nvvm_read_ptx_sreg_nctaid_x},
    {"%nctaid.y", Intrinsic::nvvm_read_ptx_sreg_nctaid_y},
    {"%nctaid.z", Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
    {"%laneid", Intrinsic::nvvm_read_ptx_sreg_laneid},
    {"%warpid", Intrinsic::nvvm_read_ptx_sreg_warpid},
    {"%nwarpid", Intrinsic::nvvm_read_ptx_sreg_nwarpid},
    {"%smid", Intrinsic::nvvm_read_ptx_sreg_smid},
    {"%nsmid", Intrinsic::nvvm_read_ptx_sreg_nsmid},
    {"%gridid", Intrinsic::nvvm_read_ptx_sreg_gridid},
    {"%lanemask_eq", Intrinsic::nvvm_read_ptx_sreg_lanemask_eq},
    {"%lanemask_le", Intrinsic::nvvm_read_ptx_sreg_lanemask_le},
    {"%lanemask_lt", Intrinsic::nvvm_read_ptx_sreg_lanemask_lt},
    {"%lanemask_ge", Intrinsic::nvvm_read_ptx_sreg_lanemask_ge},
    {"%lanemask_gt", Intrinsic::nvvm_read_ptx_sreg_lanemask_gt},
    {"%clock", Intrinsic::nvvm_read_ptx_sreg_clock},
    {"%clock64", Intrinsic::nvvm_read_ptx_sreg_clock64},
    {"%globaltimer", Intrinsic::nvvm_read_ptx_sreg_globaltimer},
    {"%globaltimer_lo", Intrinsic::nvvm_read_ptx_sreg_globaltimer_lo},
    {"%dynamic_smem_size", Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size},
    {"%total_smem_size", Intrinsic::nvvm_read_ptx_sreg_total_smem_size},
    {"%aggr_smem_size", Intrinsic::nvvm_read_ptx_sreg_aggr_smem_size},
    {"%cluster_ctarank", Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank},
    {"%cluster_nctarank", Intrinsic::nvvm_read_ptx_sreg_cluster_nctarank},
};

/// The reserved shared memory (`%reserved_smem_offset_*`): a 1 KiB
/// `__shared__` array of the module's own, laid out with the others.
constexpr uint64_t ReservedShared = 1024;

Value *reservedShared(Emitter &E, StringRef Which) {
  const char *Name = "gpuad.emu.reserved_smem";
  GlobalVariable *GV = E.M.getNamedGlobal(Name);
  if (!GV) {
    auto *Ty = ArrayType::get(E.B.getInt8Ty(), ReservedShared);
    GV = new GlobalVariable(E.M, Ty, false, GlobalValue::InternalLinkage,
                            UndefValue::get(Ty), Name, nullptr,
                            GlobalValue::NotThreadLocal, 3);
    GV->setAlignment(Align(16));
  }
  uint64_t Offset = Which == "begin" || Which == "1" ? 0
                    : Which == "2"                   ? ReservedShared / 2
                                                     : ReservedShared;
  Value *Base = E.B.CreatePtrToInt(GV, E.B.getInt64Ty());
  return E.B.CreateTrunc(E.B.CreateAdd(Base, E.B.getInt64(Offset)),
                         E.B.getInt32Ty());
}

} // namespace

Value *specialRegister(Emitter &E, StringRef Name) {
  for (const SpecialRow &R : Specials)
    if (R.Name == Name)
      return E.intrinsic(R.ID, {}, {});
  auto High = [&](Intrinsic::ID ID) {
    return E.B.CreateTrunc(E.B.CreateLShr(E.intrinsic(ID, {}, {}), 32),
                           E.B.getInt32Ty());
  };
  if (Name == "%clock_hi")
    return High(Intrinsic::nvvm_read_ptx_sreg_clock64);
  if (Name == "%globaltimer_hi")
    return High(Intrinsic::nvvm_read_ptx_sreg_globaltimer);
  if (StringRef Which = Name;
      Which.consume_front("%reserved_smem_offset_") &&
      is_contained({"begin", "end", "cap", "1", "2"}, Which))
    return reservedShared(E, Which);
  // Others by their intrinsic's name (%envreg3, %pm0, ...).
  if (Intrinsic::ID ID = Intrinsic::lookupIntrinsicID(
          ("llvm.nvvm.read.ptx.sreg." + Name.drop_front()).str()))
    return E.intrinsic(ID, {}, {});
  E.fail("the special register '" + Name + "'");
  return nullptr;
}

namespace {

PtxType b32() { return PtxType::bits(32); }

/// `shfl{.sync}.mode.b32 d[|p], a, b, c{, membermask}`.
bool shfl(Emitter &E) {
  StringRef Mode = E.oneOf({"up", "down", "bfly", "idx"});
  bool Sync = E.has("sync");
  if (Mode.empty() || E.size() != (Sync ? 5u : 4u) || E.type().Width != 32)
    return E.fail("the form of shfl");
  bool Pred = !E.op(0).Pair.empty();
  Intrinsic::ID ID =
      Mode == "up"     ? (Pred ? Intrinsic::nvvm_shfl_sync_up_i32p
                               : Intrinsic::nvvm_shfl_sync_up_i32)
      : Mode == "down" ? (Pred ? Intrinsic::nvvm_shfl_sync_down_i32p
                               : Intrinsic::nvvm_shfl_sync_down_i32)
      : Mode == "bfly" ? (Pred ? Intrinsic::nvvm_shfl_sync_bfly_i32p
                               : Intrinsic::nvvm_shfl_sync_bfly_i32)
                       : (Pred ? Intrinsic::nvvm_shfl_sync_idx_i32p
                               : Intrinsic::nvvm_shfl_sync_idx_i32);
  // The older form without a mask is the whole warp.
  Value *Mask = Sync ? E.read(4, b32()) : E.B.getInt32(~0u);
  Value *R = E.intrinsic(
      ID, {}, {Mask, E.read(1, b32()), E.read(2, b32()), E.read(3, b32())});
  if (!Pred)
    return E.write(0, R, b32());
  return E.write(0, E.B.CreateExtractValue(R, 0), b32()) &&
         E.writePair(0, E.B.CreateExtractValue(R, 1));
}

/// `vote{.sync}.{all,any,uni}.pred d, {!}a{, membermask}` and
/// `vote{.sync}.ballot.b32 d, {!}a{, membermask}`.
bool vote(Emitter &E) {
  StringRef Mode = E.oneOf({"all", "any", "uni", "ballot"});
  bool Sync = E.has("sync");
  if (Mode.empty() || E.size() != (Sync ? 3u : 2u))
    return E.fail("the form of vote");
  Intrinsic::ID ID = Mode == "all"   ? Intrinsic::nvvm_vote_all_sync
                     : Mode == "any" ? Intrinsic::nvvm_vote_any_sync
                     : Mode == "uni" ? Intrinsic::nvvm_vote_uni_sync
                                     : Intrinsic::nvvm_vote_ballot_sync;
  Value *Mask = Sync ? E.read(2, b32()) : E.B.getInt32(~0u);
  Value *R = E.intrinsic(ID, {}, {Mask, E.predicate(1)});
  return E.write(0, R, Mode == "ballot" ? b32() : PtxType::pred());
}

/// `match.any.sync.b32/b64 d, a, membermask`,
/// `match.all.sync.b32/b64 d[|p], a, membermask`.
bool match(Emitter &E) {
  PtxType T = E.type();
  bool All = E.has("all");
  if (!E.has("sync") || (All == E.has("any")) || E.size() != 3 ||
      (T.Width != 32 && T.Width != 64))
    return E.fail("the form of match");
  bool Wide = T.Width == 64;
  Intrinsic::ID ID = All ? (Wide ? Intrinsic::nvvm_match_all_sync_i64p
                                 : Intrinsic::nvvm_match_all_sync_i32p)
                         : (Wide ? Intrinsic::nvvm_match_any_sync_i64
                                 : Intrinsic::nvvm_match_any_sync_i32);
  Value *R = E.intrinsic(ID, {}, {E.read(2, b32()), E.read(1, T)});
  if (!All)
    return E.write(0, R, b32());
  return E.write(0, E.B.CreateExtractValue(R, 0), b32()) &&
         E.writePair(0, E.B.CreateExtractValue(R, 1));
}

/// `redux.sync.op.type d, a, membermask` (integer operations).
bool redux(Emitter &E) {
  PtxType T = E.type();
  StringRef Op = E.oneOf({"add", "min", "max", "and", "or", "xor"});
  if (!E.has("sync") || Op.empty() || E.size() != 3 || T.Width != 32 ||
      T.isFloat())
    return E.fail("the form of redux");
  bool Signed = T.isSigned();
  Intrinsic::ID ID = Op == "add"   ? Intrinsic::nvvm_redux_sync_add
                     : Op == "min" ? (Signed ? Intrinsic::nvvm_redux_sync_min
                                             : Intrinsic::nvvm_redux_sync_umin)
                     : Op == "max" ? (Signed ? Intrinsic::nvvm_redux_sync_max
                                             : Intrinsic::nvvm_redux_sync_umax)
                     : Op == "and" ? Intrinsic::nvvm_redux_sync_and
                     : Op == "or"  ? Intrinsic::nvvm_redux_sync_or
                                   : Intrinsic::nvvm_redux_sync_xor;
  return E.write(0, E.intrinsic(ID, {}, {E.read(1, b32()), E.read(2, b32())}),
                 b32());
}

/// `elect.sync d|p, membermask`: the lowest lane of the mask that takes
/// part leads.
bool elect(Emitter &E) {
  if (!E.has("sync") || E.size() != 2)
    return E.fail("the form of elect");
  Value *Lanes = E.intrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                             {E.read(1, b32()), E.B.getTrue()});
  Value *Leader =
      E.intrinsic(Intrinsic::cttz, {E.B.getInt32Ty()}, {Lanes, E.B.getFalse()});
  Value *Lane = E.intrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {});
  return E.write(0, Leader, b32()) &&
         E.writePair(0, E.B.CreateICmpEQ(Lane, Leader));
}

bool activemask(Emitter &E) {
  if (E.size() != 1)
    return E.fail("the form of activemask");
  return E.write(0, E.intrinsic(Intrinsic::nvvm_activemask, {}, {}), b32());
}

/// `bar`/`barrier` `.sync`, `.red`, `.warp.sync`, and a cluster of one
/// block's `barrier.cluster.arrive`/`.wait`.
bool barrier(Emitter &E) {
  if (E.has("cluster")) {
    if (E.has("wait"))
      E.intrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
                  {E.B.getInt32(0)});
    else if (!E.has("arrive"))
      return E.fail("the form of barrier.cluster");
    return true; // arriving: the wait that follows is the barrier
  }
  if (E.has("warp")) {
    if (!E.has("sync") || E.size() != 1)
      return E.fail("the form of bar.warp");
    E.intrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {E.read(0, b32())});
    return true;
  }
  if (E.has("arrive"))
    return E.fail("a barrier arrival without a wait (producer-consumer "
                  "barriers)");
  if (E.has("red")) {
    // bar.red.popc.u32 d, a, {!}c; bar.red.{and,or}.pred p, a, {!}c.
    if (E.size() != 3)
      return E.fail("a barrier reduction with a thread count");
    StringRef Op = E.oneOf({"popc", "and", "or"});
    Intrinsic::ID ID =
        Op == "popc"  ? Intrinsic::nvvm_barrier_cta_red_popc_aligned_all
        : Op == "and" ? Intrinsic::nvvm_barrier_cta_red_and_aligned_all
                      : Intrinsic::nvvm_barrier_cta_red_or_aligned_all;
    if (Op.empty())
      return E.fail("the form of bar.red");
    Value *R = E.intrinsic(ID, {}, {E.read(1, b32()), E.predicate(2)});
    return E.write(0, R, Op == "popc" ? b32() : PtxType::pred());
  }
  if (E.size() != 1)
    return E.fail(E.size() == 2 ? "a barrier with a thread count (named "
                                  "barriers for part of a block)"
                                : "the form of bar.sync");
  E.intrinsic(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {},
              {E.read(0, b32())});
  return true;
}

bool nanosleep(Emitter &E) {
  if (E.size() != 1)
    return E.fail("the form of nanosleep");
  E.intrinsic(Intrinsic::nvvm_nanosleep, {}, {E.read(0, b32())});
  return true;
}

bool exitThread(Emitter &E) {
  E.intrinsic(Intrinsic::nvvm_exit, {}, {});
  return true;
}

bool trap(Emitter &E) {
  E.intrinsic(Intrinsic::trap, {}, {});
  return true;
}

/// Instructions with nothing to do on the emulator: grids run one after
/// the other (griddepcontrol), and performance events.
bool nothing(Emitter &) { return true; }

bool bra(Emitter &E) {
  if (E.size() != 1 || E.op(0).K != Operand::Register)
    return E.fail("the form of bra");
  return E.branch(E.op(0).Name);
}

const RuleRow Rows[] = {
    {"shfl", shfl, "sync up down bfly idx"},
    {"vote", vote, "sync all any uni ballot"},
    {"match", match, "sync any all"},
    {"redux", redux, "sync add min max and or xor"},
    {"elect", elect, "sync"},
    {"activemask", activemask, ""},
    {"bar", barrier, "sync cta aligned red popc and or warp arrive"},
    {"barrier", barrier,
     "sync cta aligned red popc and or arrive cluster wait relaxed"},
    {"nanosleep", nanosleep, ""},
    {"exit", exitThread, ""},
    {"trap", trap, ""},
    {"griddepcontrol", nothing, "wait launch_dependents"},
    {"pmevent", nothing, "mask"},
    {"bra", bra, "uni"},
};

} // namespace

ArrayRef<RuleRow> threadRules() { return Rows; }

} // namespace gpuad::emu::ptx
