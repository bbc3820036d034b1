//===- ReverseBufferCalls.cpp - Adjoints of buffer routines ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Reverse mode runs a buffer routine's adjoint builder once per lane.
/// Primal values come back through the tape as they were at the call: a
/// Fortran argument is read in the forward sweep, right before the call.  A
/// buffer the adjoint reads is the primal buffer where nothing writes it
/// after the call (nor the call itself), else a copy the forward sweep
/// saves before the call (BLAS copy into a heap block, increment 1), freed
/// once the adjoint has read it.  A cuBLAS call's copies are device blocks
/// on its handle's stream; the handle's pointer mode, read before the call,
/// says where its scalars, their adjoints and its result's adjoint live.
///
//===----------------------------------------------------------------------===//

#include "Analysis/ArgumentWrites.h"
#include "Analysis/TypeInfo.h"
#include "Normalize/Preprocess.h"
#include "Reverse/ReverseEmitter.h"
#include "Rules/CallTable.h"
#include "Support/DerivativeSignature.h"
#include "Support/Diagnostics.h"
#include "Support/Options.h"
#include "Sweep/BufferCalls.h"
#include "Sweep/SweepPlanner.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-tape"

using namespace llvm;

STATISTIC(NumSavedBuffers, "Buffers a BLAS adjoint reads, saved at the call");

namespace gpuad {

/// What every lane's adjoint reads of one call as it was when the call ran,
/// made once for all lanes: Fortran's by-pointer values, read in the forward
/// sweep before the call, and the buffers saved there.
struct CallValues {
  explicit CallValues(CallBase &Call) : Forward(&Call) {}
  /// Inserts before the primal call, in the forward sweep.
  IRBuilder<> Forward;
  /// Argument -> its value at the call, in the forward sweep.
  DenseMap<unsigned, Value *> ForwardValues;
  /// Argument -> that value, and the buffer saved for it, in the reverse
  /// sweep.
  DenseMap<unsigned, Value *> Primals, Saved;
  /// cuBLAS: the handle's pointer mode before the call, and the result it
  /// wrote, in the forward sweep.
  Value *Mode = nullptr, *Result = nullptr;
  /// Arguments whose remark (copied or read in place) was emitted.
  SmallDenseSet<unsigned, 4> Remarked;
};

/// One lane of a call's adjoint.
class ReverseBufferCall final : public BufferCallEmitter {
public:
  ReverseBufferCall(ReverseEmitter &E, CallBase &Call, const CallClass &Class,
                    CallValues &At, unsigned Lane, Value *DI,
                    function_ref<void(const Twine &)> Fail)
      : BufferCallEmitter(E.B, Call, Class, E.Ctx.target()), E(E), At(At),
        Lane(Lane), DI(DI), Fail(Fail) {}

  Value *handle() override { return E.lookup(Call.getArgOperand(0)); }

  Value *modeAtCall() override {
    if (!At.Mode)
      At.Mode = pointerModeAt(At.Forward, Call.getArgOperand(0));
    return At.Mode;
  }

  void unsupported(const Twine &What) override {
    Fail("cannot differentiate '" + Call.getCalledFunction()->getName() +
         "' in reverse mode: its adjoint needs " + What +
         ", which gpuad does not emit for cuBLAS");
  }

  Value *primal(unsigned I) override {
    auto [It, New] = At.Primals.try_emplace(I, nullptr);
    if (New)
      It->second = E.lookup(forwardValue(I));
    return It->second;
  }

  Value *shadow(unsigned I) override {
    Value *Op = operand(I);
    if (!isBuffer(I) || !E.needsShadow(Op))
      return nullptr;
    Value *S = E.reverseShadow(Op, Call);
    return E.Batch.extract(B, S, Op->getType(), Lane);
  }

  bool active(unsigned I) override {
    Value *Op = operand(I);
    if (!Op)
      return false;
    if (isBuffer(I) || scalarByPointer(I))
      return E.needsShadow(Op);
    return !isa<Constant>(Op) && E.isActive(Op);
  }

  /// -Rpass=gpuad: whether the adjoint reads buffer argument \p I in place
  /// or from a copy made before the call, and why.
  void remarkAtCall(unsigned I, bool Copied) {
    if (!At.Remarked.insert(I).second)
      return;
    OptimizationRemarkEmitter ORE(E.Key.Fn);
    ORE.emit([&] {
      OptimizationRemark R("gpuad", "BufferAtCall", Call.getDebugLoc(),
                           Call.getParent());
      R << "call of '"
        << ore::NV("Routine", Call.getCalledFunction()->getName())
        << "': the adjoint reads argument "
        << ore::NV("Argument", *Routine.operand(I, Spelling.Convention) + 1)
        << (Routine.Args[I].Kind == ArgKind::Matrix   ? " (a matrix) "
            : Routine.Args[I].Kind == ArgKind::Pivots ? " (row interchanges) "
                                                      : " (a vector) ");
      if (!Copied)
        R << "where it is: nothing writes it later";
      else
        R << "from a copy made before the call: "
          << (writtenByCall(I) ? "the call overwrites it"
                               : "code after the call may overwrite it");
      return R;
    });
  }

  std::pair<Value *, Value *> atCall(unsigned I) override {
    const CallArgument &Arg = Routine.Args[I];
    Value *Op = operand(I);
    bool Copied = writtenByCall(I) || E.overwrittenAfterCall(Call, Op);
    remarkAtCall(I, Copied);
    if (Arg.Kind == ArgKind::Pivots)
      return {Copied ? savedIntegers(I) : E.lookup(Op), nullptr};
    if (!Copied) {
      LLVM_DEBUG(dbgs() << "gpuad-tape: " << Routine.Name << " argument " << I
                        << " read where it is: nothing writes it later\n");
      return {E.lookup(Op), primal(Arg.Increment)};
    }
    auto [It, New] = At.Saved.try_emplace(I, nullptr);
    if (New) {
      // Saved in the forward sweep, before the call.
      ++NumSavedBuffers;
      LLVM_DEBUG(dbgs() << "gpuad-tape: " << Routine.Name << " argument " << I
                        << " saved before the call: "
                        << (writtenByCall(I) ? "the call" : "later code")
                        << " may write it\n");
      // A vector is copied to consecutive elements; a matrix from its first
      // element to its last, keeping its leading dimension.
      IRBuilderBase &Forward = At.Forward;
      Value *Count =
          span(Forward, I, [&](unsigned K) { return forwardValue(K); });
      const DataLayout &DL = Call.getModule()->getDataLayout();
      Value *Bytes =
          Forward.CreateMul(Forward.CreateZExt(Count, Forward.getInt64Ty()),
                            Forward.getInt64(DL.getTypeAllocSize(Element)));
      Value *Handle = cublas() ? Call.getArgOperand(0) : nullptr;
      Value *Copy = allocate(Forward, Bytes, Handle);
      Value *One = ConstantInt::get(IntTy, 1);
      bool IsVector = Arg.Kind == ArgKind::Vector;
      emitCall(
          Forward, "copy",
          {Count, Op, IsVector ? forwardValue(Arg.Increment) : One, Copy, One},
          Handle);
      It->second = E.lookup(Copy);
    }
    return {It->second, Arg.Kind == ArgKind::Vector ? ConstantInt::get(IntTy, 1)
                                                    : primal(Arg.Increment)};
  }

  Value *result() override {
    if (!cublas())
      return E.lookup(&Call);
    if (!At.Result) {
      // What the call wrote through its result pointer, read after it.
      IRBuilder<> After(Call.getNextNode());
      At.Result =
          scalarHelper(After, "read", Call.getArgOperand(0), modeAtCall(),
                       Call.getArgOperand(Routine.resultOperand()));
    }
    return E.lookup(At.Result);
  }

  Value *resultAdjoint() override {
    if (!cublas())
      return DI ? E.Batch.extract(B, DI, Call.getType(), Lane) : nullptr;
    // The adjoint of what the call wrote through its result pointer, taken
    // from that memory's shadow (the value there before the call is lost).
    Value *Op = Call.getArgOperand(Routine.resultOperand());
    if (!E.needsShadow(Op))
      return nullptr;
    if (!ResultAdjoint) {
      Value *S = E.reverseShadow(Op, Call);
      ResultAdjoint = scalarHelper(B, "take", handle(), E.lookup(modeAtCall()),
                                   E.Batch.extract(B, S, Op->getType(), Lane));
    }
    return ResultAdjoint;
  }

  void addAdjoint(unsigned I, Value *Delta) override {
    if (!active(I))
      return;
    Value *Op = operand(I);
    if (cublas()) {
      Value *S = E.reverseShadow(Op, Call);
      scalarHelper(B, "add", handle(), E.lookup(modeAtCall()),
                   E.Batch.extract(B, S, Op->getType(), Lane), {Delta});
      return;
    }
    if (byPointer()) {
      Value *S = E.reverseShadow(Op, Call);
      E.Ctx.target().emitAccumulate(
          B, E.Batch.extract(B, S, Op->getType(), Lane), Delta, MaybeAlign(),
          E.threadPrivate(Op), Op);
      return;
    }
    ScalarAdjoints[I].push_back(Delta);
  }

  /// Whether the call itself may write buffer \p I: it is written, or
  /// another written buffer may overlap it (axpy(n, a, x, 1, x, 1)) where
  /// the routine allows it.
  bool writtenByCall(unsigned I) {
    for (auto [K, Arg] : enumerate(Routine.Args))
      if (isBuffer(K) && (Arg.Access & Writes) &&
          (K == I || (Routine.outputsMayOverlap() &&
                      E.mayOverlap(operand(I), operand(K)))))
        return true;
    return false;
  }

  /// Scalar arguments' adjoints, this lane's.
  DenseMap<unsigned, SmallVector<Value *, 2>> ScalarAdjoints;

private:
  /// Integer buffer \p I (row interchanges) as a copy saved before the call.
  Value *savedIntegers(unsigned I) {
    auto [It, New] = At.Saved.try_emplace(I, nullptr);
    if (New) {
      ++NumSavedBuffers;
      IRBuilderBase &Forward = At.Forward;
      Value *Count = forwardValue(Routine.Args[I].Length);
      Value *Zero = ConstantInt::get(Count->getType(), 0);
      Count =
          Forward.CreateSelect(Forward.CreateICmpSGT(Count, Zero), Count, Zero);
      Value *Bytes =
          Forward.CreateMul(Forward.CreateZExt(Count, Forward.getInt64Ty()),
                            Forward.getInt64(IntTy->getBitWidth() / 8));
      Value *Copy = E.Ctx.target().emitAlloc(Forward, Bytes);
      Forward.CreateMemCpy(Copy, MaybeAlign(), operand(I), MaybeAlign(), Bytes);
      It->second = E.lookup(Copy);
    }
    return It->second;
  }

  /// Argument \p I as the call got it, in the forward sweep.
  Value *forwardValue(unsigned I) {
    auto [It, New] = At.ForwardValues.try_emplace(I, nullptr);
    if (New)
      It->second = valueAt(At.Forward, I);
    return It->second;
  }

  ReverseEmitter &E;
  CallValues &At;
  unsigned Lane;
  Value *DI;
  function_ref<void(const Twine &)> Fail;
  Value *ResultAdjoint = nullptr;
};

void ReverseEmitter::reverseBufferCall(CallBase &Call, const CallClass &Class,
                                       Value *DI) {
  const BufferRoutine &R = *Class.Routine;
  // Per scalar argument, each lane's adjoint.
  DenseMap<unsigned, SmallVector<Value *, 4>> Scalars;
  if (Class.Spelling.Convention == BufferSpelling::Cublas &&
      (isa<InvokeInst>(Call) || (R.ReturnsScalar && !Call.getNextNode())))
    return fail(Call, "cannot differentiate '" +
                          Call.getCalledFunction()->getName() +
                          "' called by an invoke");
  CallValues At(Call);
  auto Fail = [&](const Twine &Msg) { fail(Call, Msg); };
  for (unsigned Lane = 0; Lane < Key.Width; ++Lane) {
    ReverseBufferCall Site(*this, Call, Class, At, Lane, DI, Fail);
    R.Adjoint(Site);
    // cuBLAS: the result's memory was overwritten by the call: its
    // adjoint is taken (zeroed) even where the rule had no use for it.
    if (R.ReturnsScalar && Class.Spelling.Convention == BufferSpelling::Cublas)
      Site.resultAdjoint();
    Site.releaseTemporaries();
    for (auto &[Arg, Deltas] : Site.ScalarAdjoints) {
      Value *Sum = nullptr;
      for (Value *D : Deltas)
        Sum = Sum ? B.CreateFAdd(Sum, D) : D;
      Scalars[Arg].resize(Key.Width, nullptr);
      Scalars[Arg][Lane] = Sum;
    }
  }
  // The saved copies go once every lane has read them.
  ReverseBufferCall Last(*this, Call, Class, At, 0, DI, Fail);
  for (auto &Entry : At.Saved)
    Last.release(B, Entry.second, Last.deviceHandle());
  for (auto &[Arg, PerLane] : Scalars) {
    for (Value *&V : PerLane)
      if (!V)
        V = ConstantFP::get(Class.Spelling.Element, 0.0);
    Value *Op = Call.getArgOperand(*R.operand(Arg, Class.Spelling.Convention));
    addAdjoint(Op, Batch.pack(B, Op->getType(), PerLane));
  }
}

} // namespace gpuad
