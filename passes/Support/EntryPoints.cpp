//===- EntryPoints.cpp - The __enzyme_* functions of the call ABI ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/EntryPoints.h"

#include "Support/LocalSlots.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

/// The function's own name in \p Name: a C++ function's base name without
/// its scope, template arguments and parameters (`run<&__enzyme_autodiff>`
/// is not an entry point; `__enzyme_autodiff<double>` is).
static std::string ownName(StringRef Name) {
  std::string Mangled = Name.str(); // the demangler keeps pointing into it
  ItaniumPartialDemangler D;
  if (!Name.starts_with("_Z") || D.partialDemangle(Mangled.c_str()) ||
      !D.isFunction())
    return Mangled;
  size_t Size = 0;
  char *Base = D.getFunctionBaseName(nullptr, &Size);
  std::string Own = Base ? Base : Mangled;
  std::free(Base);
  return Own;
}

std::optional<EntryPoint> classifyEntryPoint(StringRef Mangled) {
  if (!Mangled.contains("__enzyme_"))
    return std::nullopt;
  std::string Own = ownName(Mangled);
  StringRef Name = Own;
  if (!Name.contains("__enzyme_"))
    return std::nullopt;
  // An ordinary (inactive) function until the pass ends: IterationCounters.
  if (Name.contains("__enzyme_iter"))
    return std::nullopt;
  // Order matters only for names that contain one another; none of these do.
  static const std::pair<const char *, DiffMode> Requests[] = {
      {"__enzyme_fwddiff", DiffMode::Forward},
      {"__enzyme_autodiff", DiffMode::ReverseCombined},
      {"__enzyme_augmentfwd", DiffMode::ReverseAugmented},
      {"__enzyme_reverse", DiffMode::ReverseBackward},
      {"__enzyme_augmentsize", DiffMode::TapeSize},
  };
  for (const auto &[Spelling, Mode] : Requests)
    if (Name.contains(Spelling))
      return EntryPoint{EntryKind::Request, Mode};
  if (Name.contains("__enzyme_batch"))
    return EntryPoint{EntryKind::Batch};
  if (Name.contains("__enzyme_call_inactive"))
    return EntryPoint{EntryKind::InactiveCall};
  if (Name.contains("__enzyme_virtualreverse"))
    return EntryPoint{EntryKind::VirtualReverse};
  // Enzyme's type annotations of memory; they carry no derivative semantics.
  static const char *const Hints[] = {"__enzyme_float", "__enzyme_double",
                                      "__enzyme_integer", "__enzyme_pointer"};
  for (const char *Hint : Hints)
    if (Name.contains(Hint))
      return EntryPoint{EntryKind::TypeHint};
  return EntryPoint{EntryKind::Unknown};
}

std::vector<CallBase *> findEntryCalls(Module &M) {
  std::vector<CallBase *> Calls;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      const Function *Callee =
          dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
      if (Callee && classifyEntryPoint(Callee->getName()))
        Calls.push_back(CB);
    }
  }
  return Calls;
}

bool carriesFloat(Type *Ty) {
  if (Ty->isFPOrFPVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return any_of(ST->elements(), carriesFloat);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return carriesFloat(AT->getElementType());
  return false;
}

ArgActivity defaultActivity(Type *Ty, DiffMode Mode) {
  if (Ty->isPtrOrPtrVectorTy())
    return ArgActivity::Dup;
  if (carriesFloat(Ty))
    return Mode == DiffMode::Forward ? ArgActivity::Dup : ArgActivity::Active;
  return ArgActivity::Const;
}

Function *resolveFunction(Value *V) {
  V = V->stripPointerCasts();
  if (auto *GA = dyn_cast<GlobalAlias>(V))
    V = GA->getAliaseeObject();
  if (auto *Load = dyn_cast<LoadInst>(V)) {
    auto *Slot =
        dyn_cast<AllocaInst>(Load->getPointerOperand()->stripPointerCasts());
    Value *Stored = Slot ? onlyStoredValue(*Slot) : nullptr;
    return Stored ? resolveFunction(Stored) : nullptr;
  }
  return dyn_cast<Function>(V);
}

Function *requestedFunction(const CallBase &Call) {
  for (Value *Arg : Call.args())
    if (auto *F = dyn_cast<Function>(Arg->stripPointerCasts()))
      if (!F->isDeclaration())
        return F;
  return nullptr;
}

void eraseRequestCall(CallBase &Call) {
  if (!Call.use_empty())
    Call.replaceAllUsesWith(PoisonValue::get(Call.getType()));
  if (auto *Inv = dyn_cast<InvokeInst>(&Call)) {
    Inv->getUnwindDest()->removePredecessor(Inv->getParent());
    BranchInst::Create(Inv->getNormalDest(), Inv->getIterator());
  }
  Call.eraseFromParent();
}

} // namespace gpuad
