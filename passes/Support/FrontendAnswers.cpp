//===- FrontendAnswers.cpp - What the frontend plugin found ---------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/FrontendAnswers.h"

#include "llvm/Support/DynamicLibrary.h"

using namespace llvm;

namespace gpuad {

std::optional<SmallVector<StringRef, 8>> frontendAnswer(const char *Symbol) {
  using Query = const char *();
  auto *Ask = reinterpret_cast<Query *>(
      sys::DynamicLibrary::SearchForAddressOfSymbol(Symbol));
  const char *Text = Ask ? Ask() : nullptr;
  if (!Text)
    return std::nullopt;
  SmallVector<StringRef, 8> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  return Lines;
}

} // namespace gpuad
