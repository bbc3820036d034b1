//===- ForwardBufferCalls.cpp - Tangents of buffer routines ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// Forward mode runs a buffer routine's tangent builder once per lane,
/// before the primal call (which may overwrite what the tangent reads:
/// scal's x).  A linear routine's tangent is the call itself on the shadows.
/// A cuBLAS call's scalar tangents are read, and its result's tangent
/// written, in host or device memory as the handle's pointer mode says
/// before the call.
///
//===----------------------------------------------------------------------===//

#include "Forward/ForwardEmitter.h"
#include "Sweep/BufferCalls.h"
#include "Sweep/SweepPlanner.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-forward"

using namespace llvm;

STATISTIC(NumBufferTangents, "Buffer routine calls given a tangent");

namespace gpuad {

namespace {

/// One lane of a call's tangent: primal values at the call, the lane's
/// shadow pointers and tangents.
class ForwardBufferCall final : public BufferCallEmitter {
public:
  ForwardBufferCall(IRBuilderBase &B, CallBase &Call, const CallClass &Class,
                    TargetHooks &Target,
                    function_ref<Value *(unsigned)> LaneShadow, Value *Mode,
                    function_ref<void(const Twine &)> Fail)
      : BufferCallEmitter(B, Call, Class, Target), LaneShadow(LaneShadow),
        Mode(Mode), Fail(Fail) {}

  Value *primal(unsigned I) override { return valueAt(B, I); }
  Value *shadow(unsigned I) override {
    Value *S = LaneShadow(I);
    if (S && cublas() && Routine.Args[I].Kind == ArgKind::Scalar)
      return scalarHelper(B, "read", handle(), Mode, S);
    return S;
  }
  bool active(unsigned I) override { return LaneShadow(I); }
  std::pair<Value *, Value *> atCall(unsigned I) override {
    llvm_unreachable("forward mode reads buffers where they are");
  }
  Value *result() override {
    llvm_unreachable("forward mode builds the tangent before the call");
  }
  Value *resultAdjoint() override {
    llvm_unreachable("forward mode has no adjoints");
  }
  void addAdjoint(unsigned, Value *) override {
    llvm_unreachable("forward mode has no adjoints");
  }
  Value *handle() override { return Call.getArgOperand(0); }
  Value *modeAtCall() override { return Mode; }
  void unsupported(const Twine &What) override {
    Fail("cannot differentiate '" + Call.getCalledFunction()->getName() +
         "' in forward mode: its tangent needs " + What +
         ", which gpuad does not emit for cuBLAS");
  }

  /// cuBLAS: writes the result's tangent \p T where the result pointer's
  /// shadow \p DResult points.
  void writeResultTangent(Value *DResult, Value *T) {
    scalarHelper(B, "write", handle(), Mode, DResult, {T});
  }

  /// The linear routine's tangent: the call with each buffer replaced by
  /// its shadow.  (A linear row reads one buffer: where it has no shadow,
  /// the written shadows -- vectors -- are zero.)
  Value *linearTangent() {
    SmallVector<Value *, 8> Args;
    bool InputActive = false;
    for (auto [K, Arg] : enumerate(Routine.Args)) {
      Value *S = isBuffer(K) ? shadow(K) : nullptr;
      InputActive |= S && Arg.Access == Reads;
      Args.push_back(S ? S : primal(K));
    }
    if (InputActive)
      return call(Routine.Name, Args);
    for (auto [K, Arg] : enumerate(Routine.Args))
      if (isBuffer(K) && (Arg.Access & Writes))
        if (Value *S = shadow(K))
          zero(length(K), S, primal(Arg.Increment));
    return nullptr;
  }

private:
  function_ref<Value *(unsigned)> LaneShadow;
  Value *Mode;
  function_ref<void(const Twine &)> Fail;
};

} // namespace

void ForwardEmitter::emitBufferCall(CallBase &Call, const CallClass &Class) {
  const BufferRoutine &R = *Class.Routine;
  ++NumBufferTangents;
  LLVM_DEBUG(dbgs() << "gpuad-forward: tangent of " << R.Name << " ("
                    << (R.Tangent ? "its builder"
                                  : "linear: the call on the "
                                    "shadows")
                    << ") before " << Call << "\n");
  bool ByPointer = Class.Spelling.Convention == BufferSpelling::Fortran;
  bool Cublas = Class.Spelling.Convention == BufferSpelling::Cublas;
  // Shadows of the arguments: buffers' shadow pointers; scalars' tangents
  // (in shadow memory for Fortran's and cuBLAS's pointers).
  // (A written buffer without one is memory no derivative is read from.)
  SmallVector<Value *, 8> Shadows(R.Args.size());
  for (auto [K, Arg] : enumerate(R.Args)) {
    std::optional<unsigned> I = R.operand(K, Class.Spelling.Convention);
    if (!I)
      continue;
    Value *Op = Call.getArgOperand(*I);
    if (Arg.isBuffer() ||
        ((ByPointer || Cublas) && Arg.Kind == ArgKind::Scalar))
      Shadows[K] = needsShadow(Op) ? shadowPointer(Op, Call) : nullptr;
    else if (Arg.Kind == ArgKind::Scalar)
      Shadows[K] = shadowOf(Op);
  }
  // cuBLAS: the result's shadow, and the handle's pointer mode before
  // anything the tangent calls changes it.
  Value *ResultShadow = nullptr;
  if (Cublas && R.ReturnsScalar &&
      needsShadow(Call.getArgOperand(R.resultOperand())))
    ResultShadow = shadowPointer(Call.getArgOperand(R.resultOperand()), Call);
  IRBuilderBase::InsertPointGuard Guard(B);
  B.SetInsertPoint(&Call);
  Value *Mode = nullptr;
  if (Cublas)
    Mode = BufferCallEmitter::pointerModeAt(B, Call.getArgOperand(0));
  auto Fail = [&](const Twine &Msg) { fail(Call, Msg); };
  SmallVector<Value *, 4> Results;
  for (unsigned Lane = 0; Lane < Batch.width(); ++Lane) {
    auto LaneShadow = [&](unsigned K) -> Value * {
      Value *S = Shadows[K];
      if (!S)
        return nullptr;
      Type *Ty = Call.getArgOperand(*R.operand(K, Class.Spelling.Convention))
                     ->getType();
      if (R.Args[K].Kind == ArgKind::Scalar && ByPointer)
        return B.CreateLoad(Class.Spelling.Element,
                            Batch.extract(B, S, Ty, Lane));
      return Batch.extract(B, S, Ty, Lane);
    };
    ForwardBufferCall Site(B, Call, Class, Ctx.target(), LaneShadow, Mode,
                           Fail);
    Results.push_back(R.Tangent ? R.Tangent(Site) : Site.linearTangent());
    if (ResultShadow)
      Site.writeResultTangent(
          Batch.extract(B, ResultShadow,
                        Call.getArgOperand(R.resultOperand())->getType(), Lane),
          Results.back());
    Site.releaseTemporaries();
  }
  if (!Cublas && R.ReturnsScalar && hasShadow(&Call))
    setShadow(&Call, Batch.pack(B, Call.getType(), Results));
}

} // namespace gpuad
