//===- ForwardSweep.h - The forward walk every mode shares ------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The small shared core of the emitters.  A forward sweep clones the
/// normalised primal into the function being generated and walks it in
/// reverse post order, giving values their shadows as it goes:
///   - pointers into shadowed memory get shadow pointers (GEPs, casts, PHIs,
///     selects, aggregates and loads replayed on shadows; allocas and heap
///     blocks get zeroed shadow twins; constants get read-only zero twins);
///   - shadow structures receive the shadows of the pointers stored in them.
/// What else happens is the mode's: forward mode adds tangents of data and
/// writes them to shadow memory (ForwardEmitter); reverse mode's forward
/// sweep caches what its reverse sweep needs and calls augmented forward
/// passes of callees (ReverseEmitter).  Each mode overrides the hooks below;
/// the walk itself is written once.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SWEEP_FORWARDSWEEP_H
#define GPUAD_SWEEP_FORWARDSWEEP_H

#include "Rules/CallTable.h"
#include "Rules/ComplexCalls.h"
#include "Rules/KernelLaunch.h"
#include "Support/DerivativeKey.h"
#include "Support/FunctionAttributes.h"
#include "Support/Lanes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstVisitor.h"

#include <memory>
#include <optional>

namespace gpuad {

class ActivityAnalysis;
class GpuRuntimeApi;
class SweepPlanner;
struct DerivativeRule;
struct MpiRoutine;
struct DerivativeSignature;
class TypeInfo;

/// One parameter of the primal as the generated function receives it.
struct SweepArg {
  llvm::Argument *Primal = nullptr;
  /// Its shadow parameter, if it has one.
  llvm::Argument *Shadow = nullptr;
  ArgActivity Activity = ArgActivity::Const;
};

class ForwardSweep : public llvm::InstVisitor<ForwardSweep> {
public:
  ForwardSweep(SweepPlanner &Ctx, const DerivativeKey &Key,
               llvm::Function &Generated);
  virtual ~ForwardSweep();

  // Instruction visitors (InstVisitor dispatch).
  void visitInstruction(llvm::Instruction &I);
  void visitBinaryOperator(llvm::BinaryOperator &I);
  void visitUnaryOperator(llvm::UnaryOperator &I);
  void visitCastInst(llvm::CastInst &I);
  void visitSelectInst(llvm::SelectInst &I);
  void visitPHINode(llvm::PHINode &) {}
  void visitExtractValueInst(llvm::ExtractValueInst &I);
  void visitInsertValueInst(llvm::InsertValueInst &I);
  void visitExtractElementInst(llvm::ExtractElementInst &I);
  void visitInsertElementInst(llvm::InsertElementInst &I);
  void visitShuffleVectorInst(llvm::ShuffleVectorInst &I);
  void visitFreezeInst(llvm::FreezeInst &I);
  void visitGetElementPtrInst(llvm::GetElementPtrInst &I);
  void visitAllocaInst(llvm::AllocaInst &I);
  void visitLoadInst(llvm::LoadInst &I);
  void visitStoreInst(llvm::StoreInst &I);
  void visitAtomicRMWInst(llvm::AtomicRMWInst &I);
  void visitAtomicCmpXchgInst(llvm::AtomicCmpXchgInst &I);
  void visitCallBase(llvm::CallBase &I);
  void visitCmpInst(llvm::CmpInst &) {}
  void visitBranchInst(llvm::BranchInst &) {}
  void visitSwitchInst(llvm::SwitchInst &) {}
  void visitReturnInst(llvm::ReturnInst &) {}
  void visitUnreachableInst(llvm::UnreachableInst &) {}
  void visitLandingPadInst(llvm::LandingPadInst &) {}
  void visitResumeInst(llvm::ResumeInst &) {}
  void visitFenceInst(llvm::FenceInst &) {}

protected:
  // ---- The mode's hooks. ----------------------------------------------------
  /// Whether \p V (already known by its original) gets a shadow value.
  /// Default: pointers (and aggregates of pointers) into shadowed memory.
  virtual bool wantsShadow(const llvm::Value *V) const;
  /// Arithmetic and other data instructions that carry a derivative
  /// (`wantsShadow(&I)` holds).
  virtual void emitData(llvm::Instruction &I) {}
  /// A call the rule table covers, that carries a derivative.
  virtual void emitRuleCall(llvm::CallBase &Call, const DerivativeRule &Rule) {}
  /// A call of a buffer routine (BLAS) that carries a derivative: forward
  /// mode emits its tangent; reverse mode has nothing to do here.
  virtual void emitBufferCall(llvm::CallBase &Call, const CallClass &Class) {}
  /// A call to a defined function that needs a derivative.
  virtual void emitDerivativeCall(llvm::CallBase &Call) = 0;
  /// An MPI routine that moves data (Rules/MpiCalls.h): forward mode emits
  /// its tangent; reverse mode has nothing to do here.
  virtual void emitMessage(llvm::CallBase &Call, const MpiRoutine &Mpi) {}
  /// Whether store \p I to shadowed memory also stores its value's shadow.
  virtual bool storesShadowOf(const llvm::StoreInst &I) const;
  /// memcpy/memmove into shadowed memory; memset of shadowed memory.
  virtual void emitMemTransfer(llvm::CallBase &Call);
  virtual void emitMemSet(llvm::CallBase &Call) {}
  /// An atomic read-modify-write on shadowed memory.
  virtual void emitAtomicRMW(llvm::AtomicRMWInst &I) {}
  /// A warp shuffle of operand \p Operand (TargetHooks::shuffledOperand).
  virtual void emitShuffle(llvm::CallBase &Call, unsigned Operand) {}
  /// free/delete of shadowed memory.
  virtual void emitShadowFree(llvm::CallBase &Call, llvm::Value *Shadow);
  /// realloc of shadowed memory (default: realloc the shadow too).
  virtual void emitShadowRealloc(llvm::CallBase &Call);
  /// A normalised kernel launch (Normalize/KernelLaunches.h); each mode
  /// decides, also where no derivative flows through it.
  virtual void emitKernelLaunch(KernelLaunch &L) {}
  /// Called after each instruction has been handled.
  virtual void afterVisit(llvm::Instruction &I) {}

  // ---- The sweep. -----------------------------------------------------------
  /// The generated function's parameters as the sweep takes them, by \p Sig.
  llvm::SmallVector<SweepArg, 8>
  sweepArguments(const DerivativeSignature &Sig) const;
  /// Clones \p Primal into the generated function (arguments mapped as
  /// \p Args says), runs the analyses, and walks it.  False after errors.
  bool sweep(llvm::Function &Primal, llvm::ArrayRef<SweepArg> Args,
             ReturnShadow Ret);
  /// Deletes instructions replaced during the sweep.  Call once, last.
  void finishSweep();
  /// Frees the scratch shadows of enzyme_const arguments (ScratchShadows.cpp)
  /// at \p At; \p Lookup gives a forward value where At is.
  void
  freeScratchShadows(llvm::IRBuilderBase &At,
                     llvm::function_ref<llvm::Value *(llvm::Value *)> Lookup);
  /// Runs the verifier on the generated function; an invalid one is an
  /// internal error reported against the primal.
  bool verifyGenerated(llvm::StringRef ModeName);

  // ---- Shadows and analysis queries (through orig()). -----------------------
  bool hasShadow(const llvm::Value *V) const { return wantsShadow(orig(V)); }
  bool isData(const llvm::Value *V) const;
  bool isActive(const llvm::Value *V) const;
  bool needsShadow(const llvm::Value *V) const;
  bool isVaried(const llvm::Value *V) const;
  int classOf(const llvm::Value *V) const;
  bool isInteger(const llvm::Value *V) const;
  /// The memory \p Ptr points to is known to hold a float at \p Offset.
  bool holdsFloatAt(const llvm::Value *Ptr, int Offset) const;
  /// The shadow of \p V; null means none (zero for data).
  llvm::Value *shadowOf(llvm::Value *V) const;
  llvm::Value *shadowOrZero(llvm::Value *V) const;
  /// The shadow pointer of \p Ptr where the derivative reads or writes
  /// memory through it (checkShadowBase first).
  llvm::Value *accessedShadow(llvm::Value *Ptr, llvm::Instruction &At);
  /// Host code: where \p Ptr is based on a pointer loaded from memory, stops
  /// the program if that pointer's shadow is null and the pointer is not
  /// (the program set the memory outside derivative code, so its shadow
  /// does not follow; a global's shadow gpuad made, say).  Once per loaded
  /// pointer, placed where its shadow is loaded; only pointers the
  /// derivative dereferences are checked.
  void checkShadowBase(llvm::Value *Ptr);
  /// checkShadowBase's check of one loaded pointer \p Base.
  void checkLoadedShadow(llvm::LoadInst &Base);
  /// Host code: before the call \p Dispatch through a function pointer
  /// loaded from memory with a shadow, stops the program if the pointer's
  /// shadow is neither null nor the primal (a shadow gpuad would silently
  /// not call).
  void checkFunctionShadow(llvm::CallBase &Dispatch);
  /// A copy into a device variable: of no data that carries derivatives,
  /// and in reverse mode not after a launch.
  void checkSymbolCopy(llvm::CallBase &Copy);
  /// The shadow pointer of \p V, reporting at \p At if it has none.
  llvm::Value *shadowPointer(llvm::Value *V, llvm::Instruction &At);
  /// The shadow of any value: tangent for data, shadow pointer for pointers
  /// that have one, the primal itself otherwise.
  llvm::Value *shadowOperand(llvm::Value *V, llvm::Instruction &At);
  void setShadow(llvm::Value *V, llvm::Value *Shadow);
  /// The value the analyses know \p V as (calls replaced by derivative
  /// calls are known by the original call).
  const llvm::Value *orig(const llvm::Value *V) const;
  /// Replaces the primal call \p Old by \p Primal (the primal result of a
  /// derivative call); \p Old is deleted when the sweep finishes.
  void replaceCall(llvm::CallBase &Old, llvm::Value *Primal);

  bool callNeedsDerivative(llvm::CallBase &Call) const;
  /// At B, once per lane: runtime function \p Fn (an MPI routine's tangent
  /// or adjoint) with \p Call's operands (\p Operand maps each), then each
  /// buffer's shadow (\p Shadow, or null where the buffer has none), then
  /// \p Extra.
  void emitMessageDerivative(
      llvm::CallBase &Call, const MpiRoutine &Mpi, llvm::StringRef Fn,
      llvm::function_ref<llvm::Value *(llvm::Value *)> Operand,
      llvm::function_ref<llvm::Value *(llvm::Value *)> Shadow,
      llvm::ArrayRef<llvm::Value *> Extra = {});
  /// Around a completion of non-blocking MPI requests (MpiRoutine::Complete):
  /// runtime/Mpi.h's completion, begun before \p Call and ended after it;
  /// returns what the end returns (reverse mode: the completed records).
  llvm::Value *emitCompletion(llvm::CallBase &Call, const MpiRoutine &Mpi,
                              bool Reverse);
  /// Whether a derivative flows through launch \p L: an argument has a
  /// shadow or is active.
  bool launchNeedsDerivative(const KernelLaunch &L) const;
  /// The launch of \p L's derivative kernel \p D with \p Args (the
  /// kernel's, then the derivatives), its configuration's operands mapped
  /// by \p Map, at \p At; stops the program where it cannot launch.
  llvm::CallInst *
  emitDerivativeLaunch(llvm::IRBuilderBase &At, const KernelLaunch &L,
                       LaunchDerivative D, const LaunchOperands &Args,
                       llvm::function_ref<llvm::Value *(llvm::Value *)> Map);
  /// A zeroed device copy-sized block standing in for the missing shadow of
  /// device pointer \p P (the allocation it points into, at the same
  /// offset), on \p Stream; the block to free goes to \p Blocks.
  llvm::Value *
  scratchDeviceShadow(llvm::IRBuilderBase &At, GpuRuntimeApi &Runtime,
                      llvm::Value *P, llvm::Value *Stream,
                      llvm::SmallVectorImpl<llvm::Value *> &Blocks);

  // ---- Helpers. -------------------------------------------------------------
  /// Applies \p I to the shadows of its operands \p DataOps (other operands
  /// keep their primal values), lane by lane when needed.
  llvm::Value *replay(llvm::Instruction &I, llvm::ArrayRef<unsigned> DataOps);
  /// Applies \p Emit to each lane's shadow pointer of \p ShadowPtr.
  void forEachLane(llvm::Value *ShadowPtr,
                   llvm::function_ref<void(llvm::Value *, unsigned)> Emit);
  /// A call like \p Call (same callee and attributes) with \p Replace
  /// arguments, as a plain call at the builder.
  llvm::CallInst *
  cloneCall(llvm::CallBase &Call,
            llvm::ArrayRef<std::pair<unsigned, llvm::Value *>> Replace);
  /// The key of the derivative of \p Call's callee in \p Mode, from the
  /// activity of the call's operands and result (the primal result is
  /// always returned).
  DerivativeKey calleeKey(llvm::CallBase &Call, DiffMode Mode) const;
  /// The arguments of a call to the derivative with signature \p S that
  /// replaces \p Call: its primal arguments and their shadows.
  llvm::SmallVector<llvm::Value *, 16> calleeArgs(llvm::CallBase &Call,
                                                  const DerivativeSignature &S);
  /// Replaces \p Call by a call (or, for an invoke, an invoke with the same
  /// unwind destination) of \p Callee; the builder is left where its results
  /// can be unpacked.  Call-site attributes that stay true are kept.
  llvm::CallBase *emitReplacementCall(llvm::CallBase &Call,
                                      llvm::Function *Callee,
                                      llvm::ArrayRef<llvm::Value *> Args);
  static llvm::AttributeList
  derivativeCallAttributes(const llvm::CallBase &Call);
  void fail(llvm::Instruction &I, const llvm::Twine &Msg);
  /// The complex operands and results of \p Call, a call of complex row
  /// \p Rule; none, after an error if an operand carries a derivative,
  /// where the row cannot read their shape (AMDGPU's `[2 x i32]` float
  /// _Complex): the result would silently carry none.
  std::optional<ComplexCall> matchComplex(llvm::CallBase &Call,
                                          const DerivativeRule &Rule);
  bool failed() const { return Failed; }
  /// Whether \p I is one of the primal's instructions (not sweep output).
  bool isPrimal(const llvm::Instruction *I) const { return PrimalSet.count(I); }

  SweepPlanner &Ctx;
  const DerivativeKey &Key;
  /// The function being generated.
  llvm::Function &Derivative;
  /// How the derivative's N directions travel in one value (width N).
  Lanes Batch;
  /// The block-shared shadows this derivative uses (the reverse sweep
  /// zeroes them before it accumulates).
  llvm::SetVector<llvm::GlobalVariable *> SharedShadows;
  std::unique_ptr<TypeInfo> TI;
  std::unique_ptr<ActivityAnalysis> Act;
  llvm::IRBuilder<> B;

private:
  void emit(llvm::Instruction &I);
  /// Zeroed scratch shadows for enzyme_const pointer arguments whose memory
  /// carries derivatives (ScratchShadows.cpp); an error where they cannot
  /// be sized.
  void giveScratchShadows(llvm::ArrayRef<SweepArg> Args);
  /// A scratch shadow of unknown extent for \p Primal: address space the
  /// target reserves; false where it cannot.
  bool reserveScratchShadow(llvm::IRBuilderBase &EB, llvm::Value *Primal);
  void createPhiShadows();
  void finishPhiShadows();
  void emitHeapCall(llvm::CallBase &Call, HeapFn Fn);
  /// Moves the insertion point onto \p Call's normal edge if it is an
  /// invoke (shadow code follows the primal's success).
  void followNormalEdge(llvm::CallBase &Call);
  /// The same library call on the shadows (CallEffect::Structure).
  void emitStructureCall(llvm::CallBase &Call);

  /// Whether memory class \p Class may be read after a store: by a load that
  /// matters, or by any call to code gpuad cannot see through.
  bool mayReadBack(int Class) const;
  /// \p Shadow (an aggregate's shadow, one lane, stored through \p Ptr)
  /// with the integer fields at and below \p Path taken from \p Primal,
  /// except where the memory holds floats (those are a float's bits).
  llvm::Value *withPrimalIntegers(llvm::Value *Shadow, llvm::Value *Primal,
                                  const llvm::Value *Ptr,
                                  llvm::SmallVector<unsigned, 4> Path);
  /// Shadow of a constant pointer (null, a global, a constant expression).
  llvm::Value *constantShadow(llvm::Constant *C, llvm::Instruction &At);

  llvm::SmallPtrSet<const llvm::Instruction *, 32> PrimalSet;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Shadows;
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 8> PhiShadows;
  llvm::DenseMap<const llvm::Value *, const llvm::Value *> Aliases;
  llvm::SmallVector<llvm::Instruction *, 8> Removed;
  /// Loaded pointers whose shadows checkShadowBase checked.
  llvm::SmallPtrSet<const llvm::LoadInst *, 16> CheckedBases;
  /// The scratch shadows' allocations (one per lane and argument): calloc's
  /// blocks, or address space the target reserved.
  struct ScratchBlock {
    llvm::Value *Block;
    bool Reserved;
  };
  llvm::SmallVector<ScratchBlock, 2> ScratchBlocks;
  /// Shadows of inactive globals, zeroed at the generated function's entry.
  llvm::SmallPtrSet<llvm::GlobalVariable *, 2> ZeroedInactiveShadows;
  bool Failed = false;
};

} // namespace gpuad

#endif // GPUAD_SWEEP_FORWARDSWEEP_H
