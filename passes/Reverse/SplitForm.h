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
/// half, and pointers computed from it alone are recomputed there; a fixed
/// tape region (TapePlacement.h) afresh too, filled from its
/// copy in the tape.  The tape travels by value (a struct SROA takes apart once
/// the halves are inlined), or boxed on the heap for recursive functions, whose
/// tape would otherwise contain itself.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_SPLITFORM_H
#define GPUAD_REVERSE_SPLITFORM_H

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class AddrSpaceCastInst;
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
  /// The tape's contents by value.
  llvm::StructType *tapeType() const { return TapeTy; }
  /// Writes the bodies of the two halves (declared with signatures \p AugSig
  /// and \p BwdSig); \p Boxed: the tape is a heap block, not a value.
  void emitAugmented(llvm::Function &Aug, const DerivativeSignature &AugSig,
                     bool Boxed, TargetHooks &Target);
  void emitBackward(llvm::Function &Bwd, const DerivativeSignature &BwdSig,
                    bool Boxed, TargetHooks &Target);

private:
  llvm::Function &C;
  llvm::BranchInst &ForwardEnd;
  llvm::Value *Primal, *Shadow;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> ForwardBlocks;
  /// Forward values the reverse sweep uses: the tape's fields.
  llvm::SetVector<llvm::Instruction *> Fields;
  /// Stack memory the reverse sweep addresses, and the values it uses that
  /// are computed from stack memory alone (generic-pointer casts, GEPs, a
  /// width-N shadow's [N x ptr]), operands first.
  llvm::SetVector<llvm::AllocaInst *> Stack;
  llvm::SetVector<llvm::Instruction *> StackDerived;
  llvm::StructType *TapeTy = nullptr;
  const llvm::AllocaInst *DynamicStack = nullptr;
};

} // namespace gpuad

#endif // GPUAD_REVERSE_SPLITFORM_H
