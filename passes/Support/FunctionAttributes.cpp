//===- FunctionAttributes.cpp - Attributes generated code keeps -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/FunctionAttributes.h"

#include "llvm/IR/Function.h"

using namespace llvm;

namespace gpuad {

void copyFunctionAttributes(const Function &From, Function &To) {
  for (const Attribute &A : From.getAttributes().getFnAttrs()) {
    if (A.isStringAttribute()) {
      To.addFnAttr(A);
      continue;
    }
    switch (A.getKindAsEnum()) {
    case Attribute::NoUnwind:
    case Attribute::Convergent:
    case Attribute::NoRecurse:
    case Attribute::MustProgress:
    case Attribute::UWTable:
    case Attribute::NoSync:
    case Attribute::WillReturn:
      To.addFnAttr(A);
      break;
    default:
      // memory(...), optnone, noinline, ... do not carry over; nor nofree:
      // a derivative frees its tape and the shadows it allocated.
      break;
    }
  }
}

void recopyFunctionAttributes(const Function &From, Function &To) {
  To.setAttributes(AttributeList());
  copyFunctionAttributes(From, To);
}

} // namespace gpuad
