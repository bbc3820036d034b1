//===- DerivativeKey.cpp - What a generated derivative computes -----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/DerivativeKey.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace gpuad {

StringRef modeName(DiffMode M) {
  switch (M) {
  case DiffMode::Forward:
    return "fwd";
  case DiffMode::ReverseCombined:
    return "rev";
  case DiffMode::ReverseAugmented:
    return "aug";
  case DiffMode::ReverseBackward:
    return "bwd";
  case DiffMode::TapeSize:
    return "tapesize";
  }
  llvm_unreachable("unknown mode");
}

bool isReverse(DiffMode M) { return M != DiffMode::Forward; }

bool isSplit(DiffMode M) {
  return M == DiffMode::ReverseAugmented || M == DiffMode::ReverseBackward ||
         M == DiffMode::TapeSize;
}

StringRef activityName(ArgActivity A) {
  switch (A) {
  case ArgActivity::Const:
    return "const";
  case ArgActivity::Dup:
    return "dup";
  case ArgActivity::DupNoNeed:
    return "dupnoneed";
  case ArgActivity::Active:
    return "out";
  }
  llvm_unreachable("unknown activity");
}

std::string DerivativeKey::suffix() const {
  std::string S = modeName(Mode).str();
  if (Width != 1)
    S += ".w" + std::to_string(Width);
  S += ".";
  for (ArgActivity A : Args)
    S += (A == ArgActivity::Const) ? "c"
                                   : (A == ArgActivity::Active ? "a" : "d");
  if (Ret == ReturnShadow::Shadow)
    S += ".dret";
  if (ReturnPrimal)
    S += ".pret";
  // Split halves that may load arguments again say which ones.
  if (any_of(Overwritten, [](bool B) { return !B; })) {
    S += ".keep";
    for (bool B : Overwritten)
      S += B ? "n" : "y";
  }
  // Specialised on arguments the call site proved disjoint.
  if (any_of(Disjoint, [](bool B) { return B; })) {
    S += ".noalias";
    for (bool B : Disjoint)
      S += B ? "y" : "n";
  }
  if (Alias == AliasVersion::Checked)
    S += ".checked";
  else if (Alias == AliasVersion::Restrict)
    S += ".restrict";
  if (Team)
    S += ".team";
  return S;
}

} // namespace gpuad
