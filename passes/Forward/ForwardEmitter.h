//===- ForwardEmitter.h - Forward-mode (tangent) derivatives ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Builds the forward-mode derivative of a function: the normalised primal is
/// cloned into the derivative, then every instruction that carries a
/// derivative gets its tangent computation right after it (in reverse post
/// order, so operands come first):
///   - arithmetic and math calls: sum of rule partials times operand tangents;
///   - casts, selects, aggregates, vector ops: the same operation on tangents;
///   - PHIs: a tangent PHI, filled when all blocks are done;
///   - memory: loads and stores through shadow pointers, shadow allocas and
///     heap blocks, memcpy/memset on shadows, atomics on shadows;
///   - calls to defined functions: a call to their own forward derivative,
///     which returns the primal result and its tangent.
/// Width N keeps N tangents in one value (see Lanes).  Anything without a
/// rule is a diagnostic naming the instruction.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_FORWARD_FORWARDEMITTER_H
#define GPUAD_FORWARD_FORWARDEMITTER_H

#include "Batch/Lanes.h"
#include "Core/DerivativeKey.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstVisitor.h"

#include <memory>

namespace gpuad {

class ActivityAnalysis;
class DerivativeContext;
struct DerivativeSignature;
struct DerivativeRule;
class TypeInfo;

class ForwardEmitter : public llvm::InstVisitor<ForwardEmitter> {
public:
  ForwardEmitter(DerivativeContext &Ctx, const DerivativeKey &Key,
                 llvm::Function &Derivative, const DerivativeSignature &Sig);
  ~ForwardEmitter();

  /// Emits the derivative; false if errors were reported.
  bool run();

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

private:
  void emit(llvm::Instruction &I);
  // Set-up and finishing.
  bool cloneBody();
  void createPhiShadows();
  void finishPhiShadows();
  void rewriteReturns();

  // Shadows of values.
  /// Whether \p V gets a shadow: active data, or a pointer (or aggregate of
  /// pointers) into shadowed memory.
  bool hasShadow(const llvm::Value *V) const;
  /// Analysis queries, through orig().
  bool isData(const llvm::Value *V) const;
  bool needsShadow(const llvm::Value *V) const;
  bool isVaried(const llvm::Value *V) const;
  int classOf(const llvm::Value *V) const;
  bool isInteger(const llvm::Value *V) const;
  /// The tangent of data value \p V; null means zero.
  llvm::Value *tangent(llvm::Value *V) const;
  /// tangent(), with zero materialised.
  llvm::Value *tangentOrZero(llvm::Value *V) const;
  /// The shadow pointer of \p V, reporting at \p At if it has none.
  llvm::Value *shadowPointer(llvm::Value *V, llvm::Instruction &At);
  /// The shadow of any value: tangent for data, shadow pointer otherwise.
  llvm::Value *shadowOperand(llvm::Value *V, llvm::Instruction &At);
  void setShadow(llvm::Value *V, llvm::Value *Shadow);

  // Helpers.
  /// Applies \p I to the shadows of its operands \p DataOps (other operands
  /// keep their primal values), lane by lane when needed.
  llvm::Value *replay(llvm::Instruction &I, llvm::ArrayRef<unsigned> DataOps);
  void emitElementwise(llvm::Instruction &I, const DerivativeRule &Rule);
  void emitConversion(llvm::CastInst &I);
  /// sincos and friends: each output's tangent, returned or stored to the
  /// shadow of the pointer it is written through.
  void emitMultipleOutputs(llvm::CallBase &Call, const DerivativeRule &Rule);
  void emitMemTransfer(llvm::CallBase &Call);
  void emitMemSet(llvm::CallBase &Call);
  void emitHeapCall(llvm::CallBase &Call);
  void emitDerivativeCall(llvm::CallBase &Call);
  bool callNeedsDerivative(llvm::CallBase &Call) const;
  /// Whether memory class \p Class may be read after a store: by a load that
  /// matters, or by any call to code gpuad cannot see through.
  bool mayReadBack(int Class) const;
  /// \p Shadow (an aggregate's shadow, one lane) with the integer fields at
  /// and below \p Path taken from \p Primal.
  llvm::Value *withPrimalIntegers(llvm::Value *Shadow, llvm::Value *Primal,
                                  llvm::SmallVector<unsigned, 4> Path);
  /// Shadow of a constant pointer (null, a global, a constant expression).
  llvm::Value *constantShadow(llvm::Constant *C, llvm::Instruction &At);
  /// Applies \p Emit to each lane's shadow pointer of \p Ptr.
  void forEachLane(llvm::IRBuilder<> &B, llvm::Value *ShadowPtr,
                   llvm::function_ref<void(llvm::Value *, unsigned)> Emit);
  void fail(llvm::Instruction &I, const llvm::Twine &Msg);
  /// The value the analyses know \p V as (calls replaced by derivative
  /// calls are known by the original call).
  const llvm::Value *orig(const llvm::Value *V) const;
  /// Replaces primal call \p Old by \p New's primal result \p Primal.
  void replaceCall(llvm::CallBase &Old, llvm::Value *Primal);

  DerivativeContext &Ctx;
  const DerivativeKey &Key;
  llvm::Function &D;
  const DerivativeSignature &Sig;
  Lanes L;
  std::unique_ptr<TypeInfo> TI;
  std::unique_ptr<ActivityAnalysis> Act;
  llvm::DenseMap<llvm::Value *, llvm::Value *> Shadows;
  llvm::SmallVector<std::pair<llvm::PHINode *, llvm::PHINode *>, 8> PhiShadows;
  llvm::DenseMap<const llvm::Value *, const llvm::Value *> Aliases;
  llvm::SmallVector<llvm::Instruction *, 8> Removed;
  llvm::IRBuilder<> B;
  bool Failed = false;
};

} // namespace gpuad

#endif // GPUAD_FORWARD_FORWARDEMITTER_H
