//===- AlgorithmCalls.cpp - Thrust algorithm calls run as map kernels -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/AlgorithmCalls.h"

#include "Support/FrontendAnswers.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"

using namespace llvm;

namespace gpuad {

std::optional<AlgorithmCall> AlgorithmCall::parse(StringRef Line) {
  SmallVector<StringRef, 12> F;
  Line.split(F, '\t');
  if (F.size() != 12)
    return std::nullopt;
  AlgorithmCall R;
  R.Callee = F[0].str();
  R.Algorithm = F[1].str();
  R.Kernel = F[3].str();
  R.Status = F[4].str();
  if (F[2] == "transform")
    R.Shape = Form::Transform;
  else if (F[2] == "transform2")
    R.Shape = Form::Transform2;
  else if (F[2] == "for_each")
    R.Shape = Form::ForEach;
  else if (F[2] == "reduce")
    R.Shape = Form::Reduce;
  else if (F[2] == "transform_reduce")
    R.Shape = Form::TransformReduce;
  else
    return std::nullopt;
  if (!R.ok())
    return R;
  SmallVector<StringRef, 2> Inputs;
  F[5].split(Inputs, ',');
  for (StringRef I : Inputs)
    R.Inputs.push_back(I.str());
  R.Params = F[11].str();
  R.Output = F[6] == "-" ? "" : F[6].str();
  R.Operator = F[7] == "-" ? "" : F[7].str();
  if (F[8] != "-") {
    auto [Params, Returns] = F[8].split(':');
    for (char P : Params)
      R.ByReference.push_back(P == 'r');
    R.Returns = Returns.str();
  }
  SmallVector<StringRef, 3> Functor;
  F[9].split(Functor, ',');
  if (Functor.size() != 3 || Functor[0].getAsInteger(10, R.Size) ||
      Functor[1].getAsInteger(10, R.Align))
    return std::nullopt;
  R.How = Functor[2] == "empty"  ? Passing::Empty
          : Functor[2] == "regs" ? Passing::Registers
                                 : Passing::Memory;
  if (F[10] != "-") {
    SmallVector<StringRef, 8> Leaves;
    F[10].split(Leaves, ';');
    for (StringRef L : Leaves) {
      auto [Offset, Code] = L.split(':');
      uint64_t At;
      if (Offset.getAsInteger(10, At))
        return std::nullopt;
      R.Leaves.push_back({At, Code.str()});
    }
  }
  if (R.Inputs.empty() || (R.hasFunctor() && R.Operator.empty()) ||
      R.ByReference.size() != (R.hasFunctor() ? R.Inputs.size() : 0))
    return std::nullopt;
  return R;
}

std::optional<StringMap<AlgorithmCall>> algorithmCalls() {
  std::optional<SmallVector<StringRef, 8>> Lines =
      frontendAnswer("gpuad_algorithm_calls");
  if (!Lines)
    return std::nullopt;
  StringMap<AlgorithmCall> Calls;
  for (StringRef L : *Lines)
    if (std::optional<AlgorithmCall> R = AlgorithmCall::parse(L))
      Calls[R->Callee] = std::move(*R);
  return Calls;
}

Type *algorithmType(StringRef Code, LLVMContext &C) {
  if (Code == "f32")
    return Type::getFloatTy(C);
  if (Code == "f64")
    return Type::getDoubleTy(C);
  if (Code == "ptr")
    return PointerType::getUnqual(C);
  unsigned Bits;
  if (Code.consume_front("i") && !Code.getAsInteger(10, Bits))
    return Type::getIntNTy(C, Bits);
  return nullptr;
}

} // namespace gpuad
