//===- BatchCalls.cpp - Enzyme's __enzyme_batch ---------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/BatchCalls.h"

#include "Requests/Markers.h"
#include "Requests/RequestParser.h"
#include "Requests/ResultPacking.h"
#include "Support/Diagnostics.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

namespace {

/// How one parameter gets its lanes' values.
enum class LaneSource { Scalar, Vector, Buffer };

class BatchLowering {
public:
  BatchLowering(CallBase &Call, Diagnostics &Diags)
      : Call(Call), Caller(*Call.getFunction()), Diags(Diags) {}

  bool run();

private:
  bool parseFunction();
  bool parseWidth();
  bool parseArguments();
  bool emit();

  Value *arg(unsigned Idx) const { return Call.getArgOperand(Idx); }
  std::string paramName(unsigned P) const {
    return "argument " + std::to_string(P + 1) + " of '" + Fn->getName().str() +
           "'";
  }
  bool fail(const Twine &Msg) {
    Diags.error(Caller, Call, "__enzyme_batch: " + Msg);
    return false;
  }
  bool isWidthMarker(unsigned Idx) const {
    return matchMarker(arg(Idx)).Name == "enzyme_width";
  }

  CallBase &Call;
  Function &Caller;
  Diagnostics &Diags;
  Function *Fn = nullptr;
  Value *ReturnSlot = nullptr;
  Type *ResultType = nullptr;
  unsigned FirstArg = 0;
  unsigned Width = 1;
  /// Per lane, the arguments of its call.
  SmallVector<SmallVector<Value *, 8>, 8> LaneArgs;
};

bool BatchLowering::parseFunction() {
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    ReturnSlot = arg(0);
    ResultType = Call.getParamStructRetType(0);
    FirstArg = 1;
  } else {
    ResultType = Call.getType();
  }
  if (Call.arg_size() <= FirstArg)
    return fail("no function to evaluate");
  Fn = resolveFunction(arg(FirstArg));
  if (!Fn)
    return fail("cannot tell which function to evaluate from '" +
                describe(*arg(FirstArg)) + "'; pass the function itself");
  if (Fn->isVarArg())
    return fail("cannot batch variadic function '" + Fn->getName() + "'");
  return true;
}

/// `enzyme_width, W` may stand anywhere after the function.
bool BatchLowering::parseWidth() {
  bool Seen = false;
  for (unsigned I = FirstArg + 1; I < Call.arg_size(); ++I) {
    if (!isWidthMarker(I))
      continue;
    if (Seen)
      return fail("enzyme_width is given twice");
    Seen = true;
    auto *W =
        I + 1 < Call.arg_size() ? dyn_cast<ConstantInt>(arg(I + 1)) : nullptr;
    if (!W || W->isZero() || W->getZExtValue() > 64)
      return fail("enzyme_width needs a compile-time constant between 1 "
                  "and 64");
    Width = W->getZExtValue();
    ++I;
  }
  return true;
}

bool BatchLowering::parseArguments() {
  IRBuilder<> B(&Call);
  LaneArgs.assign(Width, {});
  unsigned Idx = FirstArg + 1;
  auto SkipWidth = [&] {
    while (Idx + 1 < Call.arg_size() && isWidthMarker(Idx))
      Idx += 2;
  };
  for (unsigned P = 0; P < Fn->arg_size(); ++P) {
    Type *ParamTy = Fn->getArg(P)->getType();
    SkipWidth();
    LaneSource Source = Width > 1 ? LaneSource::Vector : LaneSource::Scalar;
    if (Idx < Call.arg_size()) {
      MarkerMatch M = matchMarker(arg(Idx));
      if (M.isMarker()) {
        if (M.Name == "enzyme_scalar")
          Source = LaneSource::Scalar;
        else if (M.Name == "enzyme_vector")
          Source = LaneSource::Vector;
        else if (M.Name == "enzyme_buffer")
          Source = LaneSource::Buffer;
        else
          return fail("marker '" + M.Name +
                      "' is not one of __enzyme_batch's (enzyme_scalar, "
                      "enzyme_vector, enzyme_buffer, enzyme_width)");
        ++Idx;
      }
    }
    unsigned Needed = Source == LaneSource::Vector   ? Width
                      : Source == LaneSource::Buffer ? 2
                                                     : 1;
    if (Idx + Needed > Call.arg_size())
      return fail("too few arguments: " + paramName(P) + " needs " +
                  Twine(Needed) + " value(s)" +
                  (Source == LaneSource::Vector ? " (one per lane)" : ""));
    for (unsigned K = 0; K < Needed; ++K)
      if (matchMarker(arg(Idx + K)).isMarker())
        return fail("expected a value for " + paramName(P) +
                    ", found a marker");
    if (Source == LaneSource::Buffer) {
      Value *Stride = arg(Idx), *Base = arg(Idx + 1);
      if (!Stride->getType()->isIntegerTy() || !ParamTy->isPointerTy() ||
          !canCoerce(Base->getType(), ParamTy))
        return fail("enzyme_buffer takes an integer byte stride and a "
                    "pointer, for a pointer parameter (" +
                    paramName(P) + ")");
      Base = coerceArgument(B, Base, ParamTy);
      Stride = B.CreateSExtOrTrunc(Stride, B.getInt64Ty());
      for (unsigned Lane = 0; Lane < Width; ++Lane)
        LaneArgs[Lane].push_back(
            B.CreateGEP(B.getInt8Ty(), Base,
                        B.CreateMul(Stride, B.getInt64(Lane)), "batch.lane"));
    } else {
      for (unsigned K = 0; K < Needed; ++K)
        if (!canCoerce(arg(Idx + K)->getType(), ParamTy)) {
          std::string Have, Want;
          raw_string_ostream(Have) << *arg(Idx + K)->getType();
          raw_string_ostream(Want) << *ParamTy;
          return fail(paramName(P) + " has type " + Have + ", expected " +
                      Want);
        }
      for (unsigned Lane = 0; Lane < Width; ++Lane)
        LaneArgs[Lane].push_back(coerceArgument(
            B, arg(Idx + (Source == LaneSource::Vector ? Lane : 0)), ParamTy));
    }
    Idx += Needed;
  }
  SkipWidth();
  if (Idx < Call.arg_size())
    return fail("too many arguments: '" + Fn->getName() + "' takes " +
                Twine(Fn->arg_size()) + " parameter(s); extra value '" +
                describe(*arg(Idx)) + "'");
  return true;
}

bool BatchLowering::emit() {
  IRBuilder<> B(&Call);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  SmallVector<Value *, 16> Leaves;
  for (unsigned Lane = 0; Lane < Width; ++Lane) {
    CallInst *New = B.CreateCall(Fn, LaneArgs[Lane]);
    New->setCallingConv(Fn->getCallingConv());
    New->setAttributes(Fn->getAttributes());
    if (!New->getType()->isVoidTy())
      flattenValue(B, New, Leaves);
  }
  bool Reads = !Fn->getReturnType()->isVoidTy() && !ResultType->isVoidTy() &&
               resultIsRead(Call, ReturnSlot);
  Value *Result = nullptr;
  if (Reads) {
    if (!shapesMatch(ResultType, Leaves, Fn->getParent()->getDataLayout()))
      return fail("the call declares its result as " + typeName(ResultType) +
                  ", but '" + Fn->getName() + "' at width " + Twine(Width) +
                  " returns " + Twine(Width) + " value(s) of type " +
                  typeName(Fn->getReturnType()) +
                  " (declare a struct, array or vector of them)");
    ArrayRef<Value *> Rest = Leaves;
    Result = buildValue(B, ResultType, Rest);
    if (ReturnSlot)
      B.CreateStore(Result, ReturnSlot);
  }
  if (!Call.use_empty())
    Call.replaceAllUsesWith(
        Result && !ReturnSlot ? Result : PoisonValue::get(Call.getType()));
  return true;
}

bool BatchLowering::run() {
  if (!parseFunction() || !parseWidth() || !parseArguments())
    return false;
  if (isa<InvokeInst>(Call))
    return fail("an invoke of __enzyme_batch is not supported; call it");
  return emit();
}

} // namespace

bool lowerBatchCall(CallBase &Call, Diagnostics &Diags) {
  if (!BatchLowering(Call, Diags).run())
    return false;
  Call.eraseFromParent();
  return true;
}

} // namespace gpuad
