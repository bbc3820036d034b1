//===- Diagnostics.cpp - User-facing errors and warnings ------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/Diagnostics.h"

#include "Support/DemangledTypes.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

static void report(const Function &UserFn, const DebugLoc &Loc,
                   const Twine &Msg, DiagnosticSeverity Severity) {
  // DiagnosticInfoUnsupported holds a reference to the Twine; keep the
  // formatted text alive for the duration of the call.
  std::string Text = ("gpuad: " + Msg).str();
  Twine T(Text);
  UserFn.getContext().diagnose(
      DiagnosticInfoUnsupported(UserFn, T, Loc, Severity));
}

bool Diagnostics::seen(const Function &UserFn, const DebugLoc &Loc,
                       const Twine &Msg) {
  std::string Key;
  raw_string_ostream OS(Key);
  OS << UserFn.getName() << ':' << (Loc ? Loc.getLine() : 0) << ':'
     << (Loc ? Loc.getCol() : 0) << ':' << Msg;
  return !Reported.insert(Key).second;
}

/// Whether \p File is a header of CUDA's or ROCm's GPU libraries (Thrust,
/// CUB, libcu++, rocPRIM, hipCUB).
static bool isLibraryHeader(StringRef File) {
  return any_of(ArrayRef<StringRef>{"/cccl/", "/thrust/", "/cub/", "/cuda/std/",
                                    "/rocprim/", "/hipcub/", "/rocthrust/"},
                [&](StringRef Dir) { return File.contains(Dir); });
}

/// The qualified name of \p SP without template arguments or versioned
/// namespaces: `thrust::transform_reduce`.
static std::string subprogramName(const DISubprogram &SP) {
  std::string Name = SP.getName().split('<').first.str();
  for (const DIScope *S = SP.getScope(); S; S = S->getScope())
    if (const auto *NS = dyn_cast<DINamespace>(S)) {
      StringRef N = NS->getName();
      if (!N.empty() && !isVersionNamespace(N))
        Name = (N + "::" + Name).str();
    }
  return Name;
}

std::string libraryAlgorithmError(StringRef Algorithm, StringRef Why) {
  if (!Why.empty())
    return ("cannot differentiate '" + Algorithm + "': " + Why).str();
  return ("cannot differentiate '" + Algorithm +
          "': of the algorithms of Thrust, CUB and rocPRIM called from host "
          "code, gpuad differentiates thrust::transform, for_each, reduce "
          "and transform_reduce on device data (it runs them as kernels of "
          "its own); the others launch the library's own kernels, which it "
          "does not differentiate: write the kernel, or differentiate the "
          "functor in device code")
      .str();
}

std::optional<std::pair<DebugLoc, std::string>>
libraryCallSite(const DebugLoc &Loc) {
  std::string Function;
  for (DILocation *L = Loc.get(); L; L = L->getInlinedAt()) {
    std::string File = (L->getDirectory() + "/" + L->getFilename()).str();
    if (!isLibraryHeader(File))
      return Function.empty() ? std::nullopt
                              : std::optional(std::pair(DebugLoc(L), Function));
    if (const DISubprogram *SP = L->getScope()->getSubprogram())
      Function = subprogramName(*SP);
  }
  return std::nullopt;
}

void Diagnostics::error(const Function &UserFn, const DebugLoc &Loc,
                        const Twine &Msg) {
  ++NumErrors;
  if (HoldBack) {
    if (FirstHeld.empty())
      FirstHeld = (Msg + describeLocation(Loc)).str();
    return;
  }
  if (!seen(UserFn, Loc, Msg))
    report(UserFn, Loc, Msg, DS_Error);
}

void Diagnostics::warning(const Function &UserFn, const DebugLoc &Loc,
                          const Twine &Msg) {
  if (!HoldBack && !seen(UserFn, Loc, Msg))
    report(UserFn, Loc, Msg, DS_Warning);
}

void Diagnostics::error(const Function &UserFn, const Instruction &I,
                        const Twine &Msg) {
  error(UserFn, I.getDebugLoc(), Msg);
}

std::string describe(const Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  if (isa<Instruction>(V))
    V.print(OS);
  else
    V.printAsOperand(OS, /*PrintType=*/true);
  StringRef R = StringRef(S).trim();
  // Drop trailing metadata attachments; they make messages unreadable.
  size_t Bang = R.find(", !");
  if (Bang != StringRef::npos)
    R = R.take_front(Bang);
  return R.str();
}

std::string describeLocation(const DebugLoc &Loc) {
  if (!Loc)
    return "";
  auto *Scope = cast<DIScope>(Loc.getScope());
  return (" at " + Scope->getFilename() + ":" + Twine(Loc.getLine()) + ":" +
          Twine(Loc.getCol()))
      .str();
}

} // namespace gpuad
