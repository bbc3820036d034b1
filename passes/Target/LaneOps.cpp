//===- LaneOps.cpp - What lane batching asks of a GPU target --------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Lane batching runs a thread's N directions on the N lanes of its lane
/// group.  It needs to know which operations tie a function to the thread
/// that runs it (they keep the per-thread vector form), and a few warp
/// operations: the lane index, the active lanes, a meeting of some lanes and
/// a read of another lane's value.
//===----------------------------------------------------------------------===//

#include "Target/Targets.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gpuad {

bool nvptxCommunicates(const CallBase &Call) {
  return calleeHasPrefix(Call, {"llvm.nvvm.shfl.", "llvm.nvvm.vote.",
                                "llvm.nvvm.activemask", "llvm.nvvm.bar.",
                                "llvm.nvvm.barrier", "llvm.nvvm.match.",
                                "llvm.nvvm.redux.", "llvm.nvvm.mbarrier.",
                                "llvm.nvvm.cp.async", "llvm.nvvm.elect."});
}

bool nvptxReadsThreadIndex(const CallBase &Call) {
  return calleeHasPrefix(Call, {"llvm.nvvm.read.ptx.sreg.tid.",
                                "llvm.nvvm.read.ptx.sreg.laneid",
                                "llvm.nvvm.read.ptx.sreg.lanemask",
                                "llvm.nvvm.read.ptx.sreg.warpid"});
}

Value *nvptxActiveLanes(IRBuilderBase &B) {
  return B.CreateZExt(B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}),
                      B.getInt64Ty());
}

void nvptxLaneSync(IRBuilderBase &B, Value *Mask) {
  B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {},
                    {B.CreateTrunc(Mask, B.getInt32Ty())});
}

Value *nvptxAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) {
  return B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                           {B.CreateTrunc(Mask, B.getInt32Ty()), Pred});
}

/// Whether \p P, in address space \p Private or generic (0) with \p
/// IsPrivate telling, is private memory.
static Value *isPrivate(IRBuilderBase &B, Value *P, unsigned Private,
                        Intrinsic::ID IsPrivate) {
  unsigned AS = P->getType()->getPointerAddressSpace();
  if (AS != 0)
    return B.getInt1(AS == Private);
  return B.CreateIntrinsic(IsPrivate, {}, {P});
}

Value *nvptxIsPrivate(IRBuilderBase &B, Value *P) {
  return isPrivate(B, P, 5, Intrinsic::nvvm_isspacep_local);
}

bool amdgpuCommunicates(const CallBase &Call) {
  return calleeHasPrefix(
      Call,
      {"llvm.amdgcn.s.barrier", "llvm.amdgcn.ds.bpermute",
       "llvm.amdgcn.ds.permute", "llvm.amdgcn.ds.swizzle", "llvm.amdgcn.ballot",
       "llvm.amdgcn.icmp", "llvm.amdgcn.fcmp", "llvm.amdgcn.readlane",
       "llvm.amdgcn.readfirstlane", "llvm.amdgcn.writelane",
       "llvm.amdgcn.mov.dpp", "llvm.amdgcn.update.dpp", "llvm.amdgcn.permlane",
       "llvm.amdgcn.wave.barrier", "llvm.amdgcn.wave.reduce", "llvm.amdgcn.wwm",
       "llvm.amdgcn.set.inactive", "llvm.read_register"});
}

bool amdgpuReadsThreadIndex(const CallBase &Call) {
  return calleeHasPrefix(Call,
                         {"llvm.amdgcn.workitem.id.", "llvm.amdgcn.mbcnt.",
                          "__ockl_get_local_id", "__ockl_get_global_id"});
}

Value *amdgpuActiveLanes(IRBuilderBase &B) {
  return B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()},
                           {B.getTrue()});
}

Value *amdgpuAnyLane(IRBuilderBase &B, Value *Pred, Value *Mask) {
  Value *Votes =
      B.CreateIntrinsic(Intrinsic::amdgcn_ballot, {B.getInt64Ty()}, {Pred});
  return B.CreateICmpNE(B.CreateAnd(Votes, Mask), B.getInt64(0));
}

Value *amdgpuIsPrivate(IRBuilderBase &B, Value *P) {
  return isPrivate(B, P, 5, Intrinsic::amdgcn_is_private);
}

void amdgpuLaneSync(IRBuilderBase &B) {
  // A wavefront's lanes run in step; what they need is each other's memory
  // operations in order (HIP's __syncwarp).
  LLVMContext &C = B.getContext();
  SyncScope::ID Wave = C.getOrInsertSyncScopeID("wavefront");
  B.CreateFence(AtomicOrdering::Release, Wave);
  B.CreateIntrinsic(Intrinsic::amdgcn_wave_barrier, {});
  B.CreateFence(AtomicOrdering::Acquire, Wave);
}

} // namespace gpuad
