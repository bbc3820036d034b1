//===- Registrations.cpp - Users' derivatives and annotations -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/Registrations.h"

#include "Rules/CallTable.h"
#include "Rules/DerivativeRules.h"
#include "Support/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace gpuad {

namespace {

enum class RegKind {
  Gradient,
  Derivative,
  SplitDerivative,
  InactiveFn,
  InactiveGlobal,
  FunctionLike,
  AllocationLike,
  NoFree,
  ShouldRecompute,
  SparseAccumulate,
};

/// Name keyword, kind and number of elements, one row per form.
struct RegForm {
  StringRef Keyword;
  RegKind Kind;
  unsigned Elements;
};

// Longer keywords first: "__enzyme_register_derivative" is not a prefix of
// another keyword, but the table stays unambiguous only in this order.
constexpr RegForm Forms[] = {
    {"__enzyme_register_gradient", RegKind::Gradient, 3},
    {"__enzyme_register_splitderivative", RegKind::SplitDerivative, 3},
    {"__enzyme_register_derivative", RegKind::Derivative, 2},
    {"__enzyme_inactivefn", RegKind::InactiveFn, 1},
    {"__enzyme_inactive_global", RegKind::InactiveGlobal, 1},
    {"__enzyme_function_like", RegKind::FunctionLike, 2},
    {"__enzyme_allocation_like", RegKind::AllocationLike, 4},
    {"__enzyme_nofree", RegKind::NoFree, 1},
    {"__enzyme_shouldrecompute", RegKind::ShouldRecompute, 1},
    {"__enzyme_sparse_accumulate", RegKind::SparseAccumulate, 1},
};

/// What a one-element registration or an annotation says of a function:
/// `enzyme_inactive` (no derivative through calls of it), `enzyme_nofree`
/// (LLVM's nofree), and two hints gpuad reads but that cannot change a
/// result: `enzyme_shouldrecompute` (gpuad's tape decides what to keep) and
/// `enzyme_sparse_accumulate` (adjoints are accumulated densely).
void markFunction(Function &F, RegKind Kind) {
  switch (Kind) {
  case RegKind::InactiveFn:
    return F.addFnAttr("enzyme_inactive");
  case RegKind::NoFree:
    return F.addFnAttr(Attribute::NoFree);
  case RegKind::ShouldRecompute:
    return F.addFnAttr("enzyme_shouldrecompute");
  case RegKind::SparseAccumulate:
    return F.addFnAttr("enzyme_sparse_accumulate");
  default:
    llvm_unreachable("not a one-element registration of a function");
  }
}

/// The kind an annotation's text names, for the texts without an argument.
std::optional<RegKind> annotationKind(StringRef Text) {
  return StringSwitch<std::optional<RegKind>>(Text)
      .Case("enzyme_inactive", RegKind::InactiveFn)
      .Case("enzyme_nofree", RegKind::NoFree)
      .Case("enzyme_shouldrecompute", RegKind::ShouldRecompute)
      .Case("enzyme_sparse_accumulate", RegKind::SparseAccumulate)
      .Default(std::nullopt);
}

const RegForm *formOf(const GlobalVariable &GV) {
  // A CUDA host module holds an undefined shadow of a __device__
  // registration (the device module has the real one): not ours.
  if (!GV.hasInitializer() || isa<UndefValue>(GV.getInitializer()))
    return nullptr;
  for (const RegForm &F : Forms)
    if (GV.getName().contains(F.Keyword))
      return &F;
  return nullptr;
}

/// Element \p I of a registration's initializer (an array or a struct of
/// pointers), casts stripped; null when there is none.
Constant *element(const GlobalVariable &GV, unsigned I) {
  if (!GV.hasInitializer())
    return nullptr;
  auto *CA = dyn_cast<ConstantAggregate>(GV.getInitializer());
  if (!CA || I >= CA->getNumOperands())
    return nullptr;
  Constant *C = CA->getOperand(I);
  // A C++ initializer may wrap each element in a one-field struct.
  if (auto *Inner = dyn_cast<ConstantAggregate>(C);
      Inner && Inner->getNumOperands())
    C = Inner->getOperand(0);
  return cast<Constant>(C->stripPointerCasts());
}

Function *functionAt(const GlobalVariable &GV, unsigned I) {
  Constant *C = element(GV, I);
  return C ? dyn_cast<Function>(C) : nullptr;
}

/// A C string constant (`"log"`), or none.
std::optional<StringRef> stringAt(const GlobalVariable &GV, unsigned I) {
  auto *Str = dyn_cast_or_null<GlobalVariable>(element(GV, I));
  if (!Str || !Str->isConstant() || !Str->hasInitializer())
    return std::nullopt;
  auto *Data = dyn_cast<ConstantDataArray>(Str->getInitializer());
  if (!Data || !Data->isCString())
    return std::nullopt;
  return Data->getAsCString();
}

/// An integer cast to a pointer (`(void *)1`; 0 is a null pointer).
std::optional<uint64_t> integerAt(const GlobalVariable &GV, unsigned I) {
  if (!GV.hasInitializer())
    return std::nullopt;
  auto *CA = dyn_cast<ConstantAggregate>(GV.getInitializer());
  if (!CA || I >= CA->getNumOperands())
    return std::nullopt;
  Constant *C = CA->getOperand(I);
  if (C->isNullValue())
    return 0;
  if (auto *CE = dyn_cast<ConstantExpr>(C);
      CE && CE->getOpcode() == Instruction::IntToPtr)
    if (auto *CI = dyn_cast<ConstantInt>(CE->getOperand(0)))
      return CI->getZExtValue();
  return std::nullopt;
}

/// Calls \p Fn with each `llvm.global.annotations` entry's annotated value
/// and text.
void forEachAnnotation(Module &M, function_ref<void(Value *, StringRef)> Fn) {
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  auto *Entries = GA && GA->hasInitializer()
                      ? dyn_cast<ConstantArray>(GA->getInitializer())
                      : nullptr;
  if (!Entries)
    return;
  for (Value *Op : Entries->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *Str =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    auto *Data = Str && Str->hasInitializer()
                     ? dyn_cast<ConstantDataArray>(Str->getInitializer())
                     : nullptr;
    if (Data && Data->isCString())
      Fn(Entry->getOperand(0)->stripPointerCasts(), Data->getAsCString());
  }
}

/// Reads one module's registrations.
class Reader {
public:
  Reader(Module &M, Diagnostics *Diags,
         std::vector<std::pair<const Function *, std::string>> &Likes)
      : M(M), Diags(Diags), Likes(Likes) {}

  void read(GlobalVariable &GV, const RegForm &Form,
            DenseMap<const Function *, CustomRule> &Rules);
  void readAnnotations();
  void readAttributes();
  void annotationError(Value *Target, StringRef Text);
  const Function *reportedAt(const Function *At) const;

private:
  Module &M;
  Diagnostics *Diags;
  std::vector<std::pair<const Function *, std::string>> &Likes;

  void error(const GlobalVariable &GV, const Function *At, const Twine &Msg);
  void makeFunctionLike(const GlobalVariable *GV, Function &F, StringRef Name);
};

void Reader::error(const GlobalVariable &GV, const Function *At,
                   const Twine &Msg) {
  if (!Diags)
    return;
  if ((At = reportedAt(At)))
    Diags->error(*At, DebugLoc(), "'" + GV.getName() + "': " + Msg);
}

/// Diagnostics are attached to a function: \p At, else any function of the
/// module (the message names what it is about).
const Function *Reader::reportedAt(const Function *At) const {
  if (At)
    return At;
  for (const Function &F : M)
    if (!F.isDeclaration())
      return &F;
  return nullptr;
}

void Reader::makeFunctionLike(const GlobalVariable *GV, Function &F,
                              StringRef Name) {
  const DerivativeRule *R = findFamily(Name);
  if (!R) {
    if (GV)
      error(*GV, &F,
            "'" + Name +
                "' is not a function gpuad has a "
                "derivative rule for");
    else if (Diags)
      Diags->error(F, DebugLoc(),
                   "'" + F.getName() + "' is annotated as like '" + Name +
                       "', which is not a function gpuad has a derivative "
                       "rule for");
    return;
  }
  // Calls are matched to rows by name and type (fitsRule): a registration
  // whose function cannot be the row's would otherwise be ignored silently.
  if (!fitsRule(*R, *F.getFunctionType())) {
    std::string Msg = "'" + F.getName().str() +
                      "' does not have the type of '" + Name.str() +
                      "' (floating-point operands and result, " +
                      std::to_string(R->NumOperands) + " parameters)";
    if (GV)
      error(*GV, &F, Msg);
    else if (Diags)
      Diags->error(F, DebugLoc(), Msg);
    return;
  }
  Likes.push_back({&F, Name.str()});
}

void Reader::read(GlobalVariable &GV, const RegForm &Form,
                  DenseMap<const Function *, CustomRule> &Rules) {
  auto *CA = GV.hasInitializer()
                 ? dyn_cast<ConstantAggregate>(GV.getInitializer())
                 : nullptr;
  if (!CA || CA->getNumOperands() < Form.Elements)
    return error(GV, nullptr,
                 "a registration must be initialised with " +
                     Twine(Form.Elements) + " element(s)");
  if (Form.Kind == RegKind::InactiveGlobal) {
    auto *G = dyn_cast_or_null<GlobalVariable>(element(GV, 0));
    if (!G)
      return error(GV, nullptr, "the element must be a global variable");
    G->setMetadata("enzyme_inactive", MDNode::get(M.getContext(), {}));
    return;
  }
  Function *F = functionAt(GV, 0);
  if (!F)
    return error(GV, nullptr, "the first element must be a function");
  switch (Form.Kind) {
  case RegKind::Gradient:
  case RegKind::Derivative:
  case RegKind::SplitDerivative: {
    SmallVector<Function *, 2> Fns;
    for (unsigned I = 1; I < Form.Elements; ++I)
      Fns.push_back(functionAt(GV, I));
    if (is_contained(Fns, nullptr))
      return error(GV, F, "every element must be a function");
    CustomRule &R = Rules[F];
    if (Form.Kind == RegKind::Gradient) {
      R.Augmented = Fns[0];
      R.Reverse = Fns[1];
      R.GradientGlobal = GV.getName().str();
    } else if (Form.Kind == RegKind::Derivative) {
      R.Forward = Fns[0];
      R.DerivativeGlobal = GV.getName().str();
    } else {
      R.SplitAugmented = Fns[0];
      R.SplitForward = Fns[1];
      R.SplitGlobal = GV.getName().str();
    }
    return;
  }
  case RegKind::InactiveFn:
  case RegKind::NoFree:
  case RegKind::ShouldRecompute:
  case RegKind::SparseAccumulate:
    return markFunction(*F, Form.Kind);
  case RegKind::FunctionLike:
    if (std::optional<StringRef> Name = stringAt(GV, 1))
      return makeFunctionLike(&GV, *F, *Name);
    return error(GV, F, "the second element must be a function name");
  case RegKind::AllocationLike: {
    std::optional<uint64_t> SizeArg = integerAt(GV, 1);
    std::optional<StringRef> FreeArgs = stringAt(GV, 2);
    Function *Dealloc = functionAt(GV, 3);
    if (!SizeArg || *SizeArg >= F->arg_size() ||
        !F->getFunctionType()->getParamType(*SizeArg)->isIntegerTy())
      return error(GV, F,
                   "the second element must be the index of the "
                   "allocator's integer size parameter");
    // The deallocator's arguments: allocator argument numbers, and -1 (once)
    // for the allocated pointer.
    SmallVector<StringRef, 4> Parts;
    if (FreeArgs)
      FreeArgs->split(Parts, ',');
    int Released = -1;
    bool Valid = FreeArgs && Dealloc && Parts.size() == Dealloc->arg_size();
    for (auto [K, P] : enumerate(Parts)) {
      int V = 0;
      Valid &=
          !P.trim().getAsInteger(10, V) && V >= -1 && V < int(F->arg_size());
      if (V == -1)
        Valid &= Released == -1 && (Released = K, true);
    }
    if (!Valid || Released == -1)
      return error(GV, F,
                   "the third element must be the deallocator's "
                   "argument list (\"-1\" for the allocated pointer, "
                   "else allocator argument numbers, one per "
                   "deallocator parameter) and the fourth the "
                   "deallocator");
    Dealloc->addFnAttr("gpuad-user-free", std::to_string(Released));
    F->addFnAttr("enzyme_allocator", std::to_string(*SizeArg));
    F->addFnAttr("enzyme_deallocator", *FreeArgs);
    F->setMetadata("enzyme_deallocator_fn",
                   MDNode::get(M.getContext(), ValueAsMetadata::get(Dealloc)));
    return;
  }
  case RegKind::InactiveGlobal:
    return;
  }
}

/// `__attribute__((annotate("enzyme_inactive")))` on a function or global,
/// `annotate("enzyme_function_like=log")`, `annotate("enzyme_nofree")`, ...
/// on a function: what gpuad's frontend plugin lowers Enzyme's attributes to
/// (`__attribute__((enzyme_inactive))`).  An `enzyme_` annotation gpuad does
/// not know, or one on the wrong kind of symbol, is an error: ignored, it
/// would differentiate what the program asked not to.
void Reader::readAnnotations() {
  forEachAnnotation(M, [&](Value *Target, StringRef Text) {
    if (!Text.starts_with("enzyme_"))
      return;
    auto *F = dyn_cast<Function>(Target);
    auto *G = dyn_cast<GlobalVariable>(Target);
    std::optional<RegKind> Kind = annotationKind(Text);
    StringRef LikeName = Text;
    if (LikeName.consume_front("enzyme_function_like=")) {
      if (F)
        return makeFunctionLike(nullptr, *F, LikeName);
    } else if (Kind && F) {
      return markFunction(*F, *Kind);
    } else if (Kind && G) {
      // Of the global forms, only inactivity means something to gpuad.
      if (*Kind == RegKind::InactiveFn)
        G->setMetadata("enzyme_inactive", MDNode::get(M.getContext(), {}));
      return;
    }
    annotationError(Target, Text);
  });
}

void Reader::annotationError(Value *Target, StringRef Text) {
  if (!Diags)
    return;
  const Function *At = reportedAt(dyn_cast<Function>(Target));
  if (!At)
    return;
  bool Known =
      annotationKind(Text) || Text.starts_with("enzyme_function_like=");
  Diags->error(*At, DebugLoc(),
               Known ? "the annotation '" + Text + "' on '" +
                           Target->getName() + "' applies to functions only"
                     : "unknown annotation '" + Text + "' on '" +
                           Target->getName() +
                           "' (gpuad knows enzyme_inactive, "
                           "enzyme_function_like=NAME, enzyme_nofree, "
                           "enzyme_shouldrecompute, "
                           "enzyme_sparse_accumulate)");
}

/// The IR spelling: `"enzyme_math"="log"` on a function.
void Reader::readAttributes() {
  for (Function &F : M)
    if (F.hasFnAttribute("enzyme_math"))
      makeFunctionLike(nullptr, F,
                       F.getFnAttribute("enzyme_math").getValueAsString());
}

} // namespace

bool isRegistrationGlobal(const GlobalVariable &GV) { return formOf(GV); }

Registrations Registrations::read(Module &M, Diagnostics *Diags) {
  Registrations R;
  Reader Read(M, Diags, R.Likes);
  SmallVector<GlobalVariable *, 8> Globals;
  for (GlobalVariable &GV : M.globals())
    if (const RegForm *Form = formOf(GV)) {
      Read.read(GV, *Form, R.Rules);
      Globals.push_back(&GV);
    }
  Read.readAnnotations();
  Read.readAttributes();
  // The registrations spoke to the compiler only.
  SmallPtrSet<Constant *, 8> Erased(Globals.begin(), Globals.end());
  removeFromUsedLists(M, [&](Constant *C) { return Erased.count(C); });
  for (GlobalVariable *GV : Globals) {
    GV->replaceAllUsesWith(Constant::getNullValue(GV->getType()));
    GV->eraseFromParent();
  }
  return R;
}

void Registrations::addToCallTable(CallTable &Calls) const {
  for (const auto &[F, Family] : Likes)
    Calls.addAlias(F->getName(), Family);
  for (const auto &Entry : Rules)
    Calls.addCustom(*Entry.first);
}

SmallVector<Function *, 8> registeredFunctions(Module &M) {
  SmallVector<Function *, 8> Fns;
  for (GlobalVariable &GV : M.globals()) {
    const RegForm *Form = formOf(GV);
    if (!Form || Form->Kind == RegKind::InactiveGlobal)
      continue;
    if (Function *F = functionAt(GV, 0))
      Fns.push_back(F);
    if (Form->Kind == RegKind::AllocationLike)
      if (Function *F = functionAt(GV, 3))
        Fns.push_back(F);
  }
  for (Function &F : M)
    if (F.hasFnAttribute("enzyme_inactive") || F.hasFnAttribute("enzyme_math"))
      Fns.push_back(&F);
  forEachAnnotation(M, [&](Value *Target, StringRef Text) {
    if (auto *F = dyn_cast<Function>(Target); F && Text.starts_with("enzyme_"))
      Fns.push_back(F);
  });
  return Fns;
}

} // namespace gpuad
