//===- Markers.cpp - enzyme_* argument markers ----------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/Markers.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad {

static std::optional<MarkerKind> kindOf(StringRef Name) {
  return StringSwitch<std::optional<MarkerKind>>(Name)
      .Case("enzyme_dup", MarkerKind::Dup)
      .Case("enzyme_dupnoneed", MarkerKind::DupNoNeed)
      .Case("enzyme_dupv", MarkerKind::DupV)
      .Case("enzyme_dupnoneedv", MarkerKind::DupNoNeedV)
      .Case("enzyme_not_overwritten", MarkerKind::NotOverwritten)
      .Case("enzyme_const", MarkerKind::Const)
      .Case("enzyme_out", MarkerKind::Out)
      .Case("enzyme_width", MarkerKind::Width)
      .Case("enzyme_tape", MarkerKind::Tape)
      .Case("enzyme_allocated", MarkerKind::Allocated)
      .Case("enzyme_primal_return", MarkerKind::PrimalReturn)
      .Case("enzyme_noret", MarkerKind::NoReturn)
      .Case("enzyme_const_return", MarkerKind::ConstReturn)
      .Case("enzyme_dup_return", MarkerKind::DupReturn)
      .Case("enzyme_active_return", MarkerKind::ActiveReturn)
      .Default(std::nullopt);
}

std::string markerNameOf(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  if (Name.starts_with("enzyme_"))
    return Name.str();
  if (!Name.starts_with("_Z"))
    return "";
  // A C++ variable in a namespace: take the last component of its name.
  std::string Demangled = demangle(Name);
  StringRef Base = Demangled;
  size_t Colons = Base.rfind("::");
  if (Colons != StringRef::npos)
    Base = Base.drop_front(Colons + 2);
  return Base.starts_with("enzyme_") ? Base.str() : "";
}

static const GlobalVariable *markerGlobal(const Value *V) {
  if (const auto *Load = dyn_cast<LoadInst>(V))
    V = Load->getPointerOperand();
  V = V->stripPointerCasts();
  // A marker passed by address to a variadic function may arrive as an
  // integer (ptrtoint) at -O0 on some targets.
  if (const auto *CE = dyn_cast<ConstantExpr>(V))
    if (CE->getOpcode() == Instruction::PtrToInt)
      V = CE->getOperand(0)->stripPointerCasts();
  return dyn_cast<GlobalVariable>(V);
}

MarkerMatch matchMarker(const Value *V) {
  MarkerMatch M;
  if (const auto *MDV = dyn_cast<MetadataAsValue>(V)) {
    if (const auto *Str = dyn_cast<MDString>(MDV->getMetadata()))
      if (Str->getString().starts_with("enzyme_"))
        M.Name = Str->getString().str();
  } else if (const GlobalVariable *GV = markerGlobal(V)) {
    M.Name = markerNameOf(*GV);
  }
  if (M.isMarker())
    M.Kind = kindOf(M.Name);
  return M;
}

void eraseDeadMarkerReferences(Module &M) {
  SmallVector<GlobalVariable *, 8> Markers;
  for (GlobalVariable &GV : M.globals())
    if (!markerNameOf(GV).empty())
      Markers.push_back(&GV);
  for (GlobalVariable *GV : Markers) {
    // Uses are loads (by value) or constant casts (by address); drop the dead
    // ones, looking through constant expressions.
    SmallVector<User *, 8> Users(GV->users());
    for (User *U : Users) {
      if (auto *Load = dyn_cast<LoadInst>(U)) {
        if (Load->use_empty())
          Load->eraseFromParent();
        continue;
      }
      if (auto *CE = dyn_cast<ConstantExpr>(U)) {
        SmallVector<User *, 8> CEUsers(CE->users());
        for (User *CU : CEUsers)
          if (auto *Load = dyn_cast<LoadInst>(CU); Load && Load->use_empty())
            Load->eraseFromParent();
        CE->removeDeadConstantUsers();
      }
    }
    GV->removeDeadConstantUsers();
    if (GV->isDeclaration() && GV->use_empty())
      GV->eraseFromParent();
  }
}

} // namespace gpuad
