//===- ReverseEmitter.h - Reverse-mode (adjoint) derivatives ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Reverse mode.  The generated function first runs a forward sweep over a
/// clone of the primal (Core/ForwardSweep: shadow pointers and shadow
/// allocations; callees run their augmented forward passes), then a reverse
/// sweep: one reverse block per forward block that reaches the return, the
/// instructions in reverse order, each adding its operands' adjoints (the
/// rule table's partials times its own adjoint) or moving adjoints through
/// shadow memory.  Control retraces the forward path: a loop header's
/// reverse counts the iteration down, a block with several predecessors
/// reads which one it was entered from.  The forward values the reverse
/// sweep needs come from the Tape (reused, recomputed or cached).
///
/// Split mode is this combined function cut in two (see SplitForm.h).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_REVERSEEMITTER_H
#define GPUAD_REVERSE_REVERSEEMITTER_H

#include "Analysis/ArgumentWrites.h"
#include "Reverse/Adjoints.h"
#include "Sweep/ForwardSweep.h"
#include "Sweep/LaunchSweep.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/ValueHandle.h"

#include <map>
#include <memory>
#include <vector>

namespace llvm {
class Loop;
}

namespace gpuad {

struct SplitHalves;

struct DerivativeSignature;
class ForwardStructure;
class Tape;
class ThreadPrivacy;

class ReverseEmitter final : public ForwardSweep {
public:
  ReverseEmitter(SweepPlanner &Ctx, const DerivativeKey &Key,
                 llvm::Function &Derivative, const DerivativeSignature &Sig,
                 bool Split);
  ~ReverseEmitter() override;

  /// Emits the derivative; false if errors were reported.
  bool run();

  /// What the split form needs to cut the function in two: the branch that
  /// ends the forward sweep, the first reverse block, and the values the
  /// augmented half returns (the primal's return and its shadow, or null).
  llvm::BranchInst *forwardEnd() const { return ForwardEnd; }
  llvm::BasicBlock *reverseEntry() const { return ReverseEntry; }
  llvm::Value *returnValue() const { return ReturnValue; }
  llvm::Value *returnShadow() const { return ReturnShadowValue; }

private:
  // Forward sweep hooks.
  bool storesShadowOf(const llvm::StoreInst &I) const override;
  void emitMemTransfer(llvm::CallBase &Call) override;
  void emitShadowFree(llvm::CallBase &Call, llvm::Value *Shadow) override;
  void emitShadowRealloc(llvm::CallBase &Call) override;
  void emitDerivativeCall(llvm::CallBase &Call) override;
  void emitMessage(llvm::CallBase &Call, const MpiRoutine &Mpi) override;
  void emitKernelLaunch(KernelLaunch &L) override;

  // The reverse sweep (ReverseEmitter.cpp).
  void buildReverse();
  void reverseBlock(llvm::BasicBlock *FB);
  void leaveBlock(llvm::BasicBlock *FB);
  llvm::BasicBlock *edge(llvm::BasicBlock *FB, llvm::BasicBlock *Pred);
  void finishReturn();
  /// The tape's layout (print<gpuad-tape>) and remarks.
  void reportTape();
  void copyLoopHints();
  void warnAboutTapePlace(const llvm::Instruction *Where);
  /// Whether the reverse sweep may load \p LI again (the tape's question;
  /// memoised).
  bool isReadOnlyLoad(const llvm::LoadInst &LI) const;
  bool loadSeesFinalMemory(const llvm::LoadInst &LI) const;
  /// Split form: whether memory behind \p P is the caller's and unchanged
  /// until the backward half runs (the key's Overwritten bits).
  bool survivesUntilBackward(const llvm::Value *P) const;
  /// For a call this function differentiates in split form: whether the
  /// memory behind its argument \p P may change before the callee's
  /// backward half runs.
  bool overwrittenAfterCall(const llvm::CallBase &Call,
                            const llvm::Value *P) const;
  /// Whether memory behind pointers \p A and \p B may overlap.
  bool mayOverlap(const llvm::Value *A, const llvm::Value *B) const;
  /// Whether a primal instruction that may run after \p From may write
  /// memory behind \p P.
  /// Whether call \p I may write mutable globals it does not name.
  bool writesUnnamedGlobals(const llvm::Instruction &I) const;
  bool mayBeWrittenAfter(const llvm::Instruction &From,
                         const llvm::Value *P) const;
  /// The pointers primal instruction \p I may write through.
  llvm::SmallVector<const llvm::Value *, 4>
  writtenPointers(const llvm::Instruction &I) const;
  /// Whether \p To may run after \p From in the forward code.
  bool runsAfter(const llvm::Instruction &From,
                 const llvm::Instruction &To) const;
  mutable llvm::DenseMap<const llvm::BasicBlock *,
                         llvm::SmallPtrSet<const llvm::BasicBlock *, 16>>
      Reachable;

  // Adjoints of instructions (ReverseInstructions.cpp).
  void reverseInstruction(llvm::Instruction &I);
  void reverseElementwise(llvm::Instruction &I, const DerivativeRule &Rule,
                          llvm::Value *DI);
  void reverseMultipleOutputs(llvm::CallBase &Call, const DerivativeRule &Rule,
                              llvm::Value *DI);
  /// Complex rows: the transposed Jacobians of the real parts.
  void reverseComplex(llvm::CallBase &Call, const DerivativeRule &Rule,
                      llvm::Value *DI);
  void reverseStructural(llvm::Instruction &I, llvm::Value *DI);
  /// a / sqrt(b) as one rule, where the square root is used only there.
  bool reverseDivBySqrt(llvm::Instruction &I, llvm::Value *DI);
  /// Whether \p Sel picked its true operand, in the current reverse
  /// iteration (from the loop's last pick where the select has one).
  llvm::Value *reverseCondition(llvm::SelectInst &Sel);
  void reverseLoad(llvm::LoadInst &I, llvm::Value *DI);
  /// The width in bits of the float that \p Ptr points into, as far as the
  /// type analysis knows (0 if it does not).
  unsigned floatBitsAround(llvm::Value *Ptr) const;
  /// For \p V of integer vector type whose float data is wider than its
  /// lanes (SSE code shuffling doubles as <4 x i32>), the float vector type
  /// of the same bits its adjoints are added in; null otherwise.
  llvm::FixedVectorType *floatView(llvm::Value *V) const;
  void reverseStore(llvm::StoreInst &I);
  void reverseMemTransfer(llvm::MemTransferInst &I);
  void reverseMemSet(llvm::MemSetInst &I);
  void reverseAtomic(llvm::AtomicRMWInst &I, llvm::Value *DI);
  /// The transpose of a warp shuffle of operand \p Operand.
  void reverseShuffle(llvm::CallBase &Call, unsigned Operand, llvm::Value *DI);
  /// A buffer routine's adjoint (ReverseBufferCalls.cpp).
  void reverseBufferCall(llvm::CallBase &Call, const CallClass &Class,
                         llvm::Value *DI);
  friend class ReverseBufferCall;
  void reverseCall(llvm::CallBase &Call, llvm::Value *DI);
  /// A kernel launch's adjoint (ReverseLaunches.cpp).
  void reverseKernelLaunch(llvm::CallBase &Call);
  /// Whether the primal \p Free releases device memory an adjoint kernel
  /// may still read: this function launches kernels.
  bool keepsPrimalBlock(const llvm::CallBase &Free) const;
  /// Moves the primal \p Free to the end of the reverse sweep.
  void deferPrimalFree(llvm::CallBase &Free);
  /// Erases the primal frees deferPrimalFree moved.
  void dropDeferredPrimalFrees();

  /// Zeroes the block-shared shadows at the start, for the whole block
  /// (ReverseShared.cpp).
  void zeroSharedShadows();
  void reverseDerivativeCall(llvm::CallBase &AugCall);
  /// An OpenMP barrier or critical section's entry or exit, mirrored.
  void reverseTeamSync(llvm::CallBase &Call);
  /// An MPI routine (Rules/MpiCalls.h): the transposed communication, or
  /// the release of a handle the forward sweep made.
  void reverseMessage(llvm::CallBase &Call, const MpiRoutine &Mpi);
  /// Right after \p Call: the record its adjoint needs (MpiRoutine::Record,
  /// of its operands and \p Shadow where given).
  llvm::Value *emitMessageRecord(llvm::CallBase &Call, const MpiRoutine &Mpi,
                                 llvm::Value *Shadow);

  // Shadow heap blocks (ReverseHeap.cpp).
  void planShadowFrees();
  void reverseFree(llvm::CallBase &Free);
  void reverseRealloc(llvm::CallBase &Realloc);
  /// At the reverse of \p I: if it allocates, frees its shadow if pending.
  void releaseShadow(llvm::Instruction &I);
  void releaseAllocation(llvm::CallBase &Alloc);
  /// Records the shadow freed by \p Free (shadow \p S) for release.
  void deferShadowFree(llvm::CallBase &Free, llvm::Value *S);
  /// At the end of the reverse sweep: frees the shadows on the lists.
  void freeListedShadows();
  /// The shadows and alignments of a copy being reversed.
  struct RecordCopy {
    llvm::Value *DstS, *SrcS; // SrcS null: the source has no shadow
    llvm::Align DstAlign, SrcAlign;
    bool SrcPrivate;
    llvm::Value *Src;
  };
  /// src' += dst', dst' = 0 for one \p Elt in each lane, at the address
  /// \p At gives from that lane's shadow pointer.
  void moveAdjoint(const RecordCopy &Copy, llvm::Type *Elt,
                   llvm::Align DstAlign, llvm::Align SrcAlign,
                   llvm::function_ref<llvm::Value *(llvm::Value *)> At);
  /// Stops the program where the copy \p I of \p Len bytes goes beyond the
  /// \p Known bytes whose types are known.
  void stopBeyond(llvm::MemTransferInst &I, llvm::Value *Len, uint64_t Known);
  /// for (k = 0; k < \p Count; ++k) \p Body(k), a loop at the builder.
  void emitCountedLoop(llvm::Value *Count, const llvm::Twine &Name,
                       llvm::function_ref<void(llvm::Value *)> Body);
  /// src'[k] += dst'[k], dst'[k] = 0 for the \p Bytes bytes of \p Elt
  /// values behind shadow pointers \p DstS and \p SrcS (null: dropped),
  /// whose primal addresses are aligned to \p DstAlign and \p SrcAlign.
  void moveAdjoints(llvm::Value *DstS, llvm::Value *SrcS, llvm::Value *Bytes,
                    llvm::Type *Elt, llvm::Align DstAlign, llvm::Align SrcAlign,
                    bool SrcPrivate);

  /// Moves the adjoints of the float \p Fields of the record at byte \p At
  /// (a multiple of \p AtMultipleOf, or 0 if \p At is 0) that lie whole
  /// within the \p Avail bytes the copy covers from there.
  void moveRecordAdjoints(const RecordCopy &Copy,
                          llvm::ArrayRef<std::pair<int, llvm::Type *>> Fields,
                          llvm::Value *At, uint64_t AtMultipleOf,
                          llvm::Value *Avail);
  /// The same for each record of an array of \p Stride-byte records that a
  /// copy of \p Len bytes covers.
  void
  moveRecordArrayAdjoints(const RecordCopy &Copy,
                          llvm::ArrayRef<std::pair<int, llvm::Type *>> Fields,
                          uint64_t Stride, llvm::Value *Len);

  /// A forward value at the current reverse position.
  llvm::Value *lookup(llvm::Value *V);
  /// Shadow pointer of forward pointer \p P at the current reverse position.
  llvm::Value *reverseShadow(llvm::Value *P, llvm::Instruction &At);
  /// Whether other threads run this code at the same time (a GPU's; an
  /// OpenMP team's).
  bool concurrent() const;
  /// Whether shadow memory behind \p P is this thread's alone.
  bool threadPrivate(const llvm::Value *P) const;
  /// d(V) += Delta, for V a forward value (adjoints of constants vanish).
  void addAdjoint(llvm::Value *V, llvm::Value *Delta);

  const DerivativeSignature &Sig;
  bool Split;
  std::unique_ptr<ForwardStructure> FS;
  std::unique_ptr<Tape> TheTape;
  std::unique_ptr<Adjoints> Adj;
  std::unique_ptr<ThreadPrivacy> Privacy; // GPU targets only
  mutable llvm::DenseMap<const llvm::LoadInst *, bool> ReadOnlyLoads;
  /// Parameters that are restrict (noalias) in the primal.
  llvm::SmallPtrSet<const llvm::Value *, 4> Restrict;
  /// Forward block -> its reverse block.
  llvm::DenseMap<const llvm::BasicBlock *, llvm::BasicBlock *> Rev;
  /// The forward block whose reverse is being emitted.
  llvm::BasicBlock *Context = nullptr;
  llvm::BasicBlock *ReverseEntry = nullptr;
  llvm::BasicBlock *Exit = nullptr;
  llvm::BranchInst *ForwardEnd = nullptr;
  llvm::Value *ReturnValue = nullptr;
  llvm::Value *ReturnShadowValue = nullptr;
  /// Primal instructions (as cloned), in the order of the sweep.
  llvm::SetVector<llvm::Instruction *> Primal;
  /// Calls to augmented halves the forward sweep made: the reverse sweep
  /// calls the matching backward half there.
  struct AugCall {
    llvm::Function *Backward;
    llvm::Value *Tape;   // the callee's tape (a forward value)
    llvm::Value *Result; // the primal result (seeded if active), or null
    /// The operands through which the replaced call could write primal
    /// memory.
    llvm::SmallVector<unsigned, 4> WrittenOperands;
    /// The mutable globals the replaced call may write (ArgumentWrites).
    GlobalWrites Globals;
    /// A parallel region's (TeamForks.h): the fork's source location; the
    /// augmented half's arguments, which the fork passes in a record; the
    /// pointers through which the region could write primal memory.  Tape
    /// is the team record.
    llvm::Value *TeamLoc = nullptr;
    llvm::SmallVector<llvm::WeakTrackingVH, 8> TeamArgs;
    llvm::SmallVector<llvm::WeakTrackingVH, 4> TeamWritten;
  };
  llvm::DenseMap<const llvm::Instruction *, AugCall> AugCalls;
  /// MPI handles the forward sweep made (a datatype, a communicator), as
  /// read after their creation; released in the reverse sweep.
  llvm::DenseMap<const llvm::Instruction *, llvm::Value *> MadeHandles;
  /// A parallel region's halves, each run by a team (Sweep/TeamForks.h).
  void emitTeamAugmented(llvm::CallBase &Call, const SplitHalves &H,
                         llvm::ArrayRef<llvm::Value *> Args);
  void reverseTeamCall(const AugCall &AC);
  /// Instructions whose adjoint a user's rule took over (the square root
  /// of reverseDivBySqrt): their own reverse is skipped.
  llvm::SmallPtrSet<const llvm::Instruction *, 4> FusedIntoUser;
  /// Shadows of blocks the primal frees wait on lists (see ReverseHeap.cpp):
  /// a list per group of frees and the allocations they release, and a list
  /// per deallocation function for the end of the reverse sweep.
  struct ShadowList {
    /// Where the array, its length and capacity live (locals, or globals
    /// for the list split-form callees leave to the outermost reverse sweep).
    llvm::Value *Data, *Length, *Capacity;
    llvm::FunctionCallee Dealloc;
  };
  ShadowList &newList(llvm::FunctionCallee Dealloc);
  /// Appends \p P to \p List at the builder.
  void appendToList(ShadowList &List, llvm::Value *P);
  /// The module's list of shadows split-form callees could not free, for
  /// deallocation function \p Dealloc (a thread-local list the outermost
  /// reverse sweep frees at its end), or null on targets without one.
  ShadowList *deferredList(llvm::StringRef Dealloc, bool Create);
  std::map<std::string, ShadowList *> DeferredLists;
  std::vector<std::unique_ptr<ShadowList>> Lists;
  llvm::DenseMap<const llvm::Value *, ShadowList *> FreeList, AllocList;
  std::map<std::string, ShadowList *> EndLists;
  /// Per kernel launch: the device copies of the allocations its pointer
  /// arguments point into, taken before it (forward values).
  llvm::DenseMap<const llvm::CallBase *, llvm::SmallVector<DeviceCopy, 4>>
      LaunchCopies;
  /// Primal frees of device memory moved to the end of the reverse sweep.
  llvm::SmallVector<llvm::CallBase *, 4> DeferredPrimalFrees;
  /// Per realloc: how many bytes it copied, as far as adjoints go.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> ReallocCopied;
};

} // namespace gpuad

#endif // GPUAD_REVERSE_REVERSEEMITTER_H
