//===- SplitForm.h - Cutting a reverse derivative in two --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Split mode is combined mode cut in two.  The reverse emitter builds one
/// function whose forward sweep ends in a branch into its reverse sweep
/// (with the seed of the return a parameter); the cut makes
///   - the augmented half: the forward sweep, ending in a return of the tape
///     (and the primal result and its shadow);
///   - the backward half: the reverse sweep, starting from the tape.
/// The tape is every forward value the reverse sweep uses, after the
/// function's locals are promoted to SSA values (accumulators, tape slots,
/// loop counters): so the Tape's decisions hold in both halves unchanged.
/// Stack memory the reverse sweep addresses (shadow stack slots, which only
/// accumulate adjoints there) is allocated afresh, zeroed, in the backward
/// half; a fixed tape region (TapePlacement.h) afresh too, filled from its
/// copy in the tape.  No address of the augmented half's frame, or of its
/// caller's (the caller's backward half allocates its stack again too),
/// reaches the backward half: addresses built from stack memory, arguments
/// and constants (GEPs, casts, selects, a width-N shadow's [N x ptr]) are
/// built again there, and other pointers that may point into the stack (a
/// PHI of locals) travel as which local and offset.  Where pointers into
/// the stack reach the backward half as they are (cached per loop
/// iteration, in an aggregate, or loaded by a callee from memory it was
/// handed), the memory they point to is a heap block instead, from the
/// augmented half's entry to the backward half's end.  The tape travels by
/// value (a struct SROA takes apart once the halves are inlined), or boxed
/// on the heap for recursive functions, whose tape would otherwise contain
/// itself.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_SPLITFORM_H
#define GPUAD_REVERSE_SPLITFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AllocaInst;
class BasicBlock;
class BranchInst;
class Function;
class Instruction;
class StructType;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

struct DerivativeSignature;
class TargetHooks;

class SplitForm {
public:
  /// \p Combined is the emitted function; \p ForwardEnd its branch from the
  /// forward into the reverse sweep; \p Primal and \p Shadow the values the
  /// augmented half returns (or null).
  /// \p EscapedOnHeap: stack memory whose address a callee receives lives
  /// on the heap too (the callee's tape may keep pointers into it, which
  /// must stay valid in its backward half; the host, where a heap block
  /// per such local is cheap).
  SplitForm(llvm::Function &Combined, llvm::BranchInst &ForwardEnd,
            llvm::Value *Primal, llvm::Value *Shadow, bool EscapedOnHeap);

  /// A variable-size stack allocation the reverse sweep addresses, which
  /// the backward half cannot recreate (null if none).
  const llvm::AllocaInst *dynamicStack() const { return DynamicStack; }
  /// A value holding pointers into the function's stack that the backward
  /// half would need (cached in a loop's frames, an aggregate not built from
  /// its parts here, memory handed to a callee) where the memory pointed to
  /// cannot move to the heap (a variable-length array, AMDGPU's private
  /// memory), or null.
  const llvm::Instruction *lostStackPointer() const { return LostStackPointer; }
  /// The tape's contents by value.
  llvm::StructType *tapeType() const { return TapeTy; }
  /// Writes the bodies of the two halves (declared with signatures \p AugSig
  /// and \p BwdSig); \p Boxed: the tape is a heap block, not a value.
  void emitAugmented(llvm::Function &Aug, const DerivativeSignature &AugSig,
                     bool Boxed, TargetHooks &Target);
  void emitBackward(llvm::Function &Bwd, const DerivativeSignature &BwdSig,
                    bool Boxed, TargetHooks &Target);

private:
  /// Records \p I, a forward value the reverse sweep uses: stack memory to
  /// allocate again, a field (rebased if it points into one allocation), or
  /// a value that may point into the stack, built again from its operands.
  void addCrossing(llvm::Instruction &I);
  /// Keeps \p Allocas on the heap, from the augmented half's entry to the
  /// backward half's end, because a pointer into them crosses as it is
  /// (\p Why: for the error where one cannot move).
  void keepOnHeap(llvm::ArrayRef<llvm::AllocaInst *> Allocas,
                  const llvm::Instruction &Why);
  /// Stack memory that holds a pointer into the stack, handed to a callee:
  /// the callee may keep the pointer it loads there on its own tape.  Both
  /// are kept on the heap.
  void findStackPointersHandedToCallees();
  /// Whether the forward sweep gives a callee \p AI's address.
  bool isHandedToCallee(const llvm::AllocaInst &AI) const;

  llvm::Function &C;
  llvm::BranchInst &ForwardEnd;
  /// The host: stack memory moves to the heap where it must outlive the
  /// augmented half (a variable-length array too).
  bool HostHeap;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> InLoop;
  llvm::Value *Primal, *Shadow;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> ForwardBlocks;
  /// Forward values the reverse sweep uses: the tape's fields.
  llvm::SetVector<llvm::Instruction *> Fields;
  /// Stack memory the reverse sweep addresses (and casts of it to generic
  /// pointers).
  llvm::SetVector<llvm::AllocaInst *> Stack;
  /// Stack memory that pointers reach the backward half as they are: heap
  /// blocks instead, allocated by the augmented half and freed by the
  /// backward half.
  llvm::SetVector<llvm::AllocaInst *> OnHeap;
  /// Fields that point into the stack alone: they travel as which of these
  /// allocations they point into and their offset from it, and the backward
  /// half adds that to its own copy.
  llvm::DenseMap<llvm::Instruction *, llvm::SmallVector<llvm::AllocaInst *, 2>>
      Rebased;
  /// Addresses built again in the backward half from its own stack memory,
  /// arguments and the tape's fields (GEPs, casts, selects, a width-N
  /// shadow's [N x ptr] and its lanes); operands first.
  llvm::SetVector<llvm::Instruction *> Rebuilt;
  const llvm::Instruction *LostStackPointer = nullptr;
  llvm::StructType *TapeTy = nullptr;
  const llvm::AllocaInst *DynamicStack = nullptr;
};

} // namespace gpuad

#endif // GPUAD_REVERSE_SPLITFORM_H
