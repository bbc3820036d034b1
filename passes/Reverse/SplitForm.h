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
/// PHI of locals) travel as which local and offset.  The tape travels by
/// value (a struct SROA takes apart once the halves are inlined), or boxed
/// on the heap for recursive functions, whose tape would otherwise contain
/// itself.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_SPLITFORM_H
#define GPUAD_REVERSE_SPLITFORM_H

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
  SplitForm(llvm::Function &Combined, llvm::BranchInst &ForwardEnd,
            llvm::Value *Primal, llvm::Value *Shadow);

  /// A variable-size stack allocation the reverse sweep addresses, which
  /// the backward half cannot recreate (null if none).
  const llvm::AllocaInst *dynamicStack() const { return DynamicStack; }
  /// A value holding pointers into the function's stack that the backward
  /// half would need but cannot rebuild (cached in a loop's frames, or an
  /// aggregate not built from its parts here), or null.
  const llvm::Instruction *lostStackPointer() const { return LostStackPointer; }
  /// A call given the address of stack memory that holds a pointer into the
  /// stack (a pointer passed by reference, a lambda capturing a local
  /// array), or null.
  const llvm::Instruction *stackPointerHandedToCallee() const;
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

  llvm::Function &C;
  llvm::BranchInst &ForwardEnd;
  llvm::Value *Primal, *Shadow;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> ForwardBlocks;
  /// Forward values the reverse sweep uses: the tape's fields.
  llvm::SetVector<llvm::Instruction *> Fields;
  /// Stack memory the reverse sweep addresses (and casts of it to generic
  /// pointers).
  llvm::SetVector<llvm::AllocaInst *> Stack;
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
