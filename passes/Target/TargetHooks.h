//===- TargetHooks.h - What gpuad needs to know about a target --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one target interface.  Nothing outside passes/Target/ names an
/// `nvvm.`/`amdgcn.` intrinsic, a device library or an address-space number.
/// A module gets its hooks from makeTargetHooks(), by triple: the host (any
/// CPU), NVPTX (CUDA) or AMDGPU (HIP).
///
/// Today the hooks supply the elementary functions derivative rules need
/// (MathProvider) and the target's inactive intrinsics.  Reverse mode adds
/// barriers, atomics with scopes, shared memory and warp operations here.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TARGET_TARGETHOOKS_H
#define GPUAD_TARGET_TARGETHOOKS_H

#include "Support/Lanes.h"
#include "Target/MathProvider.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Alignment.h"

#include <memory>
#include <optional>
#include <utility>

namespace llvm {
class CallBase;
class Function;
class GlobalVariable;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace gpuad {

class Diagnostics;
struct GpuadOptions;

class TargetHooks : public MathProvider {
public:
  ~TargetHooks() override;

  /// A short name for messages ("host", "nvptx", "amdgpu").
  virtual llvm::StringRef name() const = 0;
  virtual bool isGPU() const = 0;
  /// Target intrinsics that never carry derivatives (thread and block ids,
  /// barriers, fences, dispatch pointers).
  virtual bool isInactiveCall(const llvm::CallBase &Call) const = 0;
  /// The target's own spellings of scalar rule rows (an intrinsic that
  /// computes exp2), as (name, row) pairs: a module's CallTable adds them.
  virtual void forEachRuleSpelling(
      llvm::function_ref<void(llvm::StringRef Name, llvm::StringRef Family)> Fn)
      const {}
  /// The grid coordinates a value reads, for the thread-privacy analysis:
  /// the x dimension's, or any coordinate of another dimension.
  enum class GridValue { None, ThreadIdX, BlockIdX, BlockDimX, OtherDimension };
  virtual GridValue classifyGridValue(const llvm::Value &V) const {
    return GridValue::None;
  }
  /// Heap memory for tapes whose size is known only at run time (malloc on
  /// the host and in CUDA, ockl's device allocator on AMDGPU).  Returns a
  /// generic pointer.
  virtual llvm::Value *emitAlloc(llvm::IRBuilderBase &B, llvm::Value *Bytes);
  virtual void emitFree(llvm::IRBuilderBase &B, llvm::Value *Ptr);
  /// emitAlloc through one helper of the module (`gpuad.heap.alloc`) that,
  /// on a GPU, stops the kernel with a message naming heapLimitAdvice()
  /// when the device heap is exhausted, instead of returning null.
  llvm::Value *emitCheckedAlloc(llvm::IRBuilderBase &B, llvm::Value *Bytes);
  /// How a program gives the device heap more room, for messages; empty on
  /// the host.
  virtual llvm::StringRef heapLimitAdvice() const { return ""; }
  /// Whether a call to the device heap that never runs costs a kernel
  /// nothing (NVPTX: a call to malloc).  On AMDGPU ockl's allocator, once
  /// reachable, raises the kernel's registers (~100 VGPRs) and scratch.
  virtual bool heapCallIsCheap() const { return true; }
  /// Whether printing from device code costs a kernel nothing where it does
  /// not run (CUDA's vprintf is a system call; HIP's printf is ockl's host
  /// call, ~55 VGPRs wherever reachable).
  virtual bool printIsCheap() const { return true; }
  /// Zeroed memory for a shadow whose extent is unknown: address space
  /// reserved on both sides of a middle and committed page by page as the
  /// derivative touches it.  Returns {the block, for emitReleaseReserved;
  /// the middle}, or {null, null} where the target cannot reserve address
  /// space (a GPU; a host without mmap).  Stops the program with a message
  /// when no reservation can be made.
  virtual std::pair<llvm::Value *, llvm::Value *>
  emitReserveAround(llvm::IRBuilderBase &B) {
    return {nullptr, nullptr};
  }
  virtual void emitReleaseReserved(llvm::IRBuilderBase &B, llvm::Value *Block) {
  }
  /// The usable size (i64) of a block emitAlloc or the C library returned.
  virtual llvm::Value *emitUsableSize(llvm::IRBuilderBase &B, llvm::Value *Ptr);

  /// `*Ptr += Delta` for an adjoint in shadow memory.  Memory that other
  /// threads may update (on a GPU; on the host, in an OpenMP team) gets an
  /// atomic add, on a GPU at device scope (block
  /// scope for a block-shared shadow: only its block sees it); an address
  /// the same in every lane (a shared weight; checked at run time) is summed
  /// in the warp first when the whole warp is active, and added by lane 0;
  /// \p ThreadPrivate memory (a local, or an address only this thread
  /// computes) a plain read-add-write.  \p Origin, when given, is the
  /// primal address Ptr shadows: whether it derives from a thread id decides
  /// the warp check (the reverse sweep's own address may come from the
  /// tape, which hides where it came from).  \p Alignment is what the
  /// primal access promised of its address (the shadow is laid out as the
  /// primal); none: the alignment of Delta's type.  A vectorised primal
  /// reads `<2 x double>` at 8-byte aligned offsets, and an access that
  /// claimed its type's 16 bytes there would fault.
  virtual void emitAccumulate(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                              llvm::Value *Delta, llvm::MaybeAlign Alignment,
                              bool ThreadPrivate,
                              const llvm::Value *Origin = nullptr);

  /// Block-shared memory (`__shared__`): a variable every thread of a block
  /// sees.  Its shadow is another such variable.
  virtual bool isBlockShared(const llvm::GlobalVariable &GV) const {
    return false;
  }
  /// A barrier of the whole block (__syncthreads).
  virtual bool isBlockBarrier(const llvm::CallBase &Call) const {
    return false;
  }
  /// Emits a block barrier, with the memory ordering __syncthreads has, at
  /// \p B (\p Like: a barrier of the primal to copy).
  virtual void emitBlockBarrier(llvm::IRBuilderBase &B,
                                const llvm::CallBase &Like);
  /// This thread's index in its block (x fastest) and the block's thread
  /// count, as i32.
  virtual llvm::Value *emitLinearThreadId(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  virtual llvm::Value *emitBlockThreadCount(llvm::IRBuilderBase &B) {
    return nullptr;
  }

  /// The bytes of dynamic shared memory the running launch has (i32).
  virtual llvm::Value *emitDynamicSharedBytes(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  /// This thread's block's index in the grid (x fastest), as i64.
  virtual llvm::Value *emitLinearBlockId(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  /// This thread's index in the whole grid: block index x block threads +
  /// thread index in the block, as i64.
  llvm::Value *emitGlobalThreadId(llvm::IRBuilderBase &B);
  /// Prints \p Message (a line) from device code where the target can
  /// (CUDA's vprintf, HIP's ockl printf); nothing on the host.
  virtual void emitPrint(llvm::IRBuilderBase &B, llvm::StringRef Message) {}
  /// Prints the C string \p Message points to, where the target can.
  virtual void emitPrintString(llvm::IRBuilderBase &B, llvm::Value *Message) {}
  /// Stops the program because of \p Message (printed first where that is
  /// cheap, printIsCheap(); a trap in any case).
  void emitTrap(llvm::IRBuilderBase &B, llvm::StringRef Message);

  // Where tapes live (Tape/TapePlacement.h).
  /// Whether \p F is a kernel (the entry point of a launch).
  virtual bool isKernel(const llvm::Function &F) const { return false; }
  /// Makes \p F (void, external) a kernel, as the frontend marks
  /// `__global__` functions.
  virtual void makeKernel(llvm::Function &F) const {}
  /// The most threads a block of kernel \p F may have, when its launch
  /// bounds say (`__launch_bounds__`, `amdgpu_flat_work_group_size`).
  virtual std::optional<unsigned>
  maxThreadsPerBlock(const llvm::Function &Kernel) const {
    return std::nullopt;
  }
  /// Bytes per thread a tape of compile-time size may take in the thread's
  /// own (stack, local, private) memory.
  virtual uint64_t localTapeBudget() const { return 64 << 10; }
  /// The block-shared memory a kernel may declare statically, and the bytes
  /// of shared slots a thread's tape may take without lowering occupancy
  /// (the multiprocessor's shared memory over its most resident threads).
  virtual uint64_t sharedMemoryLimit() const { return 0; }
  virtual uint64_t sharedTapeBytesPerThread() const { return 0; }
  /// Address spaces of device-global and block-shared variables.
  virtual unsigned globalAddressSpace() const { return 0; }
  virtual unsigned sharedAddressSpace() const { return 0; }

  /// Rewrites target idioms in a clone gpuad is about to differentiate into
  /// forms it differentiates (e.g. a 64-bit shuffle done as two 32-bit ones).
  /// Returns true to have the clone cleaned up (SROA, CSE) and be called
  /// again.
  virtual bool normalize(llvm::Function &F) { return false; }
  /// A warp shuffle (a cross-lane copy, linear in the value it copies): the
  /// index of that operand, or none for any other call.  Forward mode
  /// shuffles the tangent the same way.
  virtual std::optional<unsigned>
  shuffledOperand(const llvm::CallBase &Call) const {
    return std::nullopt;
  }
  /// Reverse mode: the transpose of shuffle \p Call applied to each lane's
  /// adjoint \p Adjoint of its result -- every adjoint sent back to the lane
  /// it was read from, summed there -- which is this lane's contribution to
  /// the adjoint of the shuffled operand.  \p Operand gives Call's operands
  /// at the reverse position.  Every lane that ran the shuffle runs this.
  virtual llvm::Value *
  emitShuffleTranspose(llvm::IRBuilderBase &B, const llvm::CallBase &Call,
                       llvm::function_ref<llvm::Value *(unsigned)> Operand,
                       llvm::Value *Adjoint) {
    return nullptr;
  }

  /// Warp aggregation of adjoints (one atomic per warp for an address the
  /// whole warp adds to): whether every lane of the warp is active here,
  /// the sum of \p V over the (whole) warp, and whether this is its lane 0.
  /// Null where the target has no warps.
  virtual llvm::Value *emitWholeWarpActive(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  virtual llvm::Value *emitWarpSum(llvm::IRBuilderBase &B, llvm::Value *V) {
    return nullptr;
  }
  virtual llvm::Value *emitIsWarpLeader(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  /// Whether \p V (an integer) is the same in every lane of the (whole,
  /// active) warp.
  virtual llvm::Value *emitWarpAllSame(llvm::IRBuilderBase &B, llvm::Value *V) {
    return nullptr;
  }

  // Lane batching (Batch/LaneMapping.h): the N directions of a calling
  // thread's width-N derivative computed by the N lanes of its lane group.
  /// Lanes per warp (wavefront); 0 where the target has no warps.
  virtual unsigned warpSize() const { return 0; }
  /// The 32-bit registers a thread may hold with its multiprocessor fully
  /// occupied (0: no such budget).
  virtual unsigned fullOccupancyRegisters() const { return 0; }
  /// What a function of the target's device libraries is, for lane
  /// batching: math (libdevice, ocml: no effects), the device printf, a
  /// call through the host-call buffer, or the device runtime's heap.
  enum class DeviceCall { None, Math, Print, HostCall, Runtime };
  virtual DeviceCall classifyDeviceCall(const llvm::Function &F) const {
    return DeviceCall::None;
  }
  /// Whether \p Call exchanges data with, or waits for, other threads or
  /// lanes: barriers, shuffles, votes, the active mask.
  virtual bool communicatesAcrossThreads(const llvm::CallBase &Call) const {
    return false;
  }
  /// Whether \p Call reads which thread or lane runs it (thread index, lane
  /// index); the block and grid coordinates are the same in a whole warp.
  virtual bool readsThreadIndex(const llvm::CallBase &Call) const {
    return false;
  }
  /// This lane's index in its warp (i32), and the mask (i64, bit l for lane
  /// l) of the warp's lanes active here.
  virtual llvm::Value *emitLaneIndex(llvm::IRBuilderBase &B) { return nullptr; }
  virtual llvm::Value *emitActiveLanes(llvm::IRBuilderBase &B) {
    return nullptr;
  }
  /// The lanes of \p Mask (i64) meet; each one's memory operations before
  /// are visible to all of them after (CUDA's __syncwarp).
  virtual void emitLaneSync(llvm::IRBuilderBase &B, llvm::Value *Mask) {}
  /// Whether some lane of \p Mask (i64) has \p Pred (i1) true; every lane
  /// of Mask runs this together.
  virtual llvm::Value *emitAnyLane(llvm::IRBuilderBase &B, llvm::Value *Pred,
                                   llvm::Value *Mask) {
    return Pred;
  }
  /// Whether pointer \p P addresses the thread's own private (local,
  /// stack) memory, which no other lane can read.
  virtual llvm::Value *emitIsPrivate(llvm::IRBuilderBase &B, llvm::Value *P) {
    return nullptr;
  }
  /// \p V (an int, float or pointer of at most 64 bits) as lane \p Lane
  /// (i32) holds it.  Every lane of \p Mask (i64) runs this together.
  llvm::Value *emitReadLane(llvm::IRBuilderBase &B, llvm::Value *V,
                            llvm::Value *Lane, llvm::Value *Mask);

  /// The sync scope of device-wide atomics ("" on the host).
  virtual llvm::StringRef deviceScope() const { return ""; }
  /// The sync scope of atomics among the threads of one block.
  virtual llvm::StringRef blockScope() const { return deviceScope(); }

  /// Called once after all derivatives of the module are generated, to
  /// supply library functions the derivative code uses (e.g. libdevice's
  /// `__nv_cos` for the derivative of `__nv_sin`).  Returns false after
  /// reporting an error.
  virtual bool finalize() { return true; }

protected:
  /// emitReadLane of a 32-bit integer or float, or a 64-bit integer or double.
  virtual llvm::Value *emitReadLaneWord(llvm::IRBuilderBase &B, llvm::Value *V,
                                        llvm::Value *Lane, llvm::Value *Mask) {
    return V;
  }

private:
  /// An atomic add of \p V to \p P, summed in the warp first when every
  /// lane is active (emitAccumulate, for warp-uniform addresses).
  void emitWarpAggregatedAdd(llvm::IRBuilderBase &B, llvm::Value *P,
                             llvm::Value *V, llvm::SyncScope::ID Scope);
};

std::unique_ptr<TargetHooks> makeTargetHooks(llvm::Module &M,
                                             const GpuadOptions &Options,
                                             Diagnostics &Diags);

} // namespace gpuad

#endif // GPUAD_TARGET_TARGETHOOKS_H
