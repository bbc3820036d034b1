//===- RequestParser.cpp - Find and parse __enzyme_* calls ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Requests/RequestParser.h"

#include "Requests/Markers.h"
#include "Support/DemangledTypes.h"
#include "Support/Diagnostics.h"
#include "Support/LocalSlots.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace gpuad {

bool canCoerce(Type *From, Type *To) {
  if (From == To)
    return true;
  if (From->isPointerTy() && To->isPointerTy())
    return true;
  // C default argument promotions through `...`.
  if (From->isDoubleTy() &&
      (To->isFloatTy() || To->isHalfTy() || To->isBFloatTy()))
    return true;
  if (From->isIntegerTy() && To->isIntegerTy())
    return To->getIntegerBitWidth() <= From->getIntegerBitWidth();
  return false;
}

Value *coerceArgument(IRBuilderBase &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isPointerTy())
    return B.CreateAddrSpaceCast(V, To);
  if (From->isFloatingPointTy())
    return B.CreateFPTrunc(V, To);
  return B.CreateTrunc(V, To);
}

namespace {

/// Walks the arguments of one request call.
class Parser {
public:
  Parser(CallBase &Call, DiffMode Mode, Diagnostics &Diags)
      : Call(Call), Caller(*Call.getFunction()), Diags(Diags) {
    Req.Call = &Call;
    Req.Key.Mode = Mode;
  }

  std::optional<DiffRequest> run();

private:
  bool parseFunction();
  bool checkNoSplitArguments();
  bool parseArguments();
  bool parseMarker(const MarkerMatch &M, unsigned &Idx);
  bool parseActivitiesOnly();
  bool takeSeedAndTape();
  bool takePrimal(unsigned &Idx, ArgActivity Act);
  bool takeShadows(unsigned &Idx, ArgRequest &AR, Type *ParamTy);
  bool checkType(Value *V, Type *ParamTy, const Twine &What);
  void setReturn(Type *RetTy);
  bool checkReturnSeed();

  Value *arg(unsigned Idx) const { return Call.getArgOperand(Idx); }
  unsigned numArgs() const { return Call.arg_size(); }
  std::string paramName(unsigned P) const {
    return "argument " + std::to_string(P + 1) + " of '" +
           Req.Key.Fn->getName().str() + "'";
  }
  bool fail(const Twine &Msg) {
    Diags.error(Caller, Call, Msg);
    return false;
  }

  CallBase &Call;
  Function &Caller;
  Diagnostics &Diags;
  DiffRequest Req;
  unsigned FirstArg = 0;

  // Marker state that applies to the next parameter or to the request.
  std::optional<ArgActivity> PendingActivity;
  bool PendingDupV = false;
  bool SawShadowedArg = false;
  std::optional<ReturnShadow> RetOverride;
  bool PrimalReturn = false;
  bool NoReturn = false;
  /// __enzyme_reverse: the values after the last argument.
  SmallVector<Value *, 4> Extra;
};

} // namespace

bool Parser::parseFunction() {
  // With an sret result slot the function is the second argument.
  if (Call.arg_size() > 0 && Call.paramHasAttr(0, Attribute::StructRet)) {
    Req.ReturnSlot = arg(0);
    Req.ResultType = Call.getParamStructRetType(0);
    FirstArg = 1;
  } else {
    Req.ResultType = Call.getType();
  }
  if (numArgs() <= FirstArg)
    return fail("request has no function to differentiate");
  Function *Fn = resolveFunction(arg(FirstArg));
  if (!Fn)
    return fail("cannot tell which function to differentiate from '" +
                describe(*arg(FirstArg)) +
                "'; pass the function itself, e.g. (void*)f");
  if (Fn->isDeclaration())
    return fail("cannot differentiate '" + Fn->getName() +
                "': only its declaration is in this module (define it in "
                "the same translation unit)");
  if (Fn->isVarArg())
    return fail("cannot differentiate variadic function '" + Fn->getName() +
                "'");
  Req.Key.Fn = Fn;
  return true;
}

bool Parser::checkType(Value *V, Type *ParamTy, const Twine &What) {
  if (canCoerce(V->getType(), ParamTy))
    return true;
  std::string Have, Want;
  raw_string_ostream(Have) << *V->getType();
  raw_string_ostream(Want) << *ParamTy;
  return fail(What + " has type " + Have + ", expected " + Want);
}

/// Why a marker of Enzyme's ABI that gpuad does not implement is refused
/// rather than ignored; none for the others.
static std::optional<StringRef> whyRefused(StringRef Name) {
  return StringSwitch<std::optional<StringRef>>(Name)
      .Cases({"enzyme_scalar", "enzyme_vector", "enzyme_buffer"},
             "it applies to __enzyme_batch only")
      .Case("enzyme_interleave",
            "pass each shadow right after its primal (enzyme_dup, x, dx)")
      .Case("enzyme_byref", "pass the value itself")
      .Case("enzyme_nofree", "gpuad's split halves free what they allocate; "
                             "the tape may not outlive __enzyme_reverse")
      .Case("enzyme_runtime_activity",
            "gpuad decides activity at compile time; pass a shadow that is "
            "not the primal itself")
      .Case("enzyme_strong_zero", "gpuad does not implement strong zeros")
      .Cases({"enzyme_interface", "enzyme_trace", "enzyme_duptrace",
              "enzyme_likelihood", "enzyme_duplikelihood",
              "enzyme_observations", "enzyme_active_rand_var"},
             "gpuad does not implement Enzyme's probabilistic programming")
      .Default(std::nullopt);
}

/// The error for a refused marker, or none.
static std::optional<std::string> refusal(const MarkerMatch &M) {
  if (std::optional<StringRef> Why = whyRefused(M.Name))
    return "marker '" + M.Name + "' is not supported here: " + Why->str();
  return std::nullopt;
}

bool Parser::parseMarker(const MarkerMatch &M, unsigned &Idx) {
  if (std::optional<std::string> Refused = refusal(M))
    return fail(*Refused);
  if (!M.Kind)
    return fail("unknown marker '" + M.Name + "'");
  DiffMode Mode = Req.Key.Mode;
  switch (*M.Kind) {
  case MarkerKind::Dup:
    PendingActivity = ArgActivity::Dup;
    return true;
  case MarkerKind::DupNoNeed:
    PendingActivity = ArgActivity::DupNoNeed;
    return true;
  case MarkerKind::Const:
    PendingActivity = ArgActivity::Const;
    return true;
  case MarkerKind::Out:
    if (Mode == DiffMode::Forward)
      return fail("enzyme_out is not valid in forward mode (use enzyme_dup "
                  "with a tangent)");
    PendingActivity = ArgActivity::Active;
    return true;
  case MarkerKind::DupV:
  case MarkerKind::DupNoNeedV:
    PendingActivity =
        *M.Kind == MarkerKind::DupV ? ArgActivity::Dup : ArgActivity::DupNoNeed;
    PendingDupV = true;
    return true;
  case MarkerKind::NotOverwritten:
    // A promise that the argument's memory does not change between the
    // split halves; gpuad assumes it may, which is always right.
    return true;
  case MarkerKind::Width: {
    if (SawShadowedArg)
      return fail("enzyme_width must come before the arguments it applies to");
    if (++Idx >= numArgs())
      return fail("enzyme_width needs a value");
    auto *C = dyn_cast<ConstantInt>(arg(Idx));
    if (!C)
      return fail("enzyme_width needs a compile-time constant, got '" +
                  describe(*arg(Idx)) + "'");
    if (C->isZero() || C->getZExtValue() > 64)
      return fail("enzyme_width must be between 1 and 64, got " +
                  Twine(C->getZExtValue()));
    Req.Key.Width = C->getZExtValue();
    return true;
  }
  case MarkerKind::PrimalReturn:
    PrimalReturn = true;
    return true;
  case MarkerKind::NoReturn:
    PrimalReturn = false;
    NoReturn = true;
    return true;
  case MarkerKind::ConstReturn:
    RetOverride = ReturnShadow::None;
    return true;
  case MarkerKind::DupReturn:
  case MarkerKind::ActiveReturn:
    RetOverride = ReturnShadow::Shadow;
    return true;
  case MarkerKind::Tape:
  case MarkerKind::Allocated: {
    if (Mode != DiffMode::ReverseAugmented && Mode != DiffMode::ReverseBackward)
      return fail(M.Name + " applies to __enzyme_augmentfwd and "
                           "__enzyme_reverse only");
    if (++Idx >= numArgs())
      return fail(M.Name + " needs a value");
    if (*M.Kind == MarkerKind::Tape) {
      if (!arg(Idx)->getType()->isPointerTy())
        return fail("enzyme_tape needs a pointer to the tape's memory, got '" +
                    describe(*arg(Idx)) + "'");
      Req.Tape = TapeTransport::Memory;
      Req.TapePointer = arg(Idx);
      return true;
    }
    auto *C = dyn_cast<ConstantInt>(arg(Idx));
    if (!C)
      return fail("enzyme_allocated needs a compile-time byte count, got '" +
                  describe(*arg(Idx)) + "'");
    // (With enzyme_tape too, the size of the memory it points to.)
    if (Req.Tape != TapeTransport::Memory)
      Req.Tape = TapeTransport::Allocated;
    Req.AllocatedBytes = C->getZExtValue();
    Req.HasAllocatedBytes = true;
    return true;
  }
  }
  return true;
}

bool Parser::takeShadows(unsigned &Idx, ArgRequest &AR, Type *ParamTy) {
  unsigned P = Req.Args.size();
  for (unsigned Lane = 0; Lane < Req.Key.Width; ++Lane) {
    if (++Idx >= numArgs())
      return fail("too few arguments: missing shadow " +
                  (Req.Key.Width > 1 ? "#" + Twine(Lane + 1) + " " : Twine()) +
                  "of " + paramName(P));
    Value *S = arg(Idx);
    MarkerMatch M = matchMarker(S);
    if (std::optional<std::string> Refused = refusal(M))
      return fail(*Refused);
    if (M.isMarker())
      return fail("expected the shadow of " + paramName(P) +
                  ", found marker '" + M.Name + "'");
    if (!checkType(S, ParamTy, "shadow of " + paramName(P)))
      return false;
    AR.Shadows.push_back(S);
  }
  return true;
}

bool Parser::takePrimal(unsigned &Idx, ArgActivity Act) {
  unsigned P = Req.Args.size();
  Type *ParamTy = Req.Key.Fn->getArg(P)->getType();
  ArgRequest AR;
  if (PendingDupV) {
    // enzyme_dupv stride, primal, base
    AR.DupVStride = arg(Idx);
    if (!AR.DupVStride->getType()->isIntegerTy())
      return fail("enzyme_dupv expects an integer byte stride before " +
                  paramName(P));
    if (++Idx >= numArgs())
      return fail("too few arguments: enzyme_dupv needs a primal and a base "
                  "for " +
                  paramName(P));
  }
  AR.Primal = arg(Idx);
  if (!checkType(AR.Primal, ParamTy, paramName(P)))
    return false;
  if (Act == ArgActivity::Active && !carriesFloat(ParamTy))
    return fail("enzyme_out applies to floating-point values; " + paramName(P) +
                " is not one");
  if (Act == ArgActivity::Dup || Act == ArgActivity::DupNoNeed) {
    if (Req.Key.Mode != DiffMode::Forward && !ParamTy->isPtrOrPtrVectorTy()) {
      // A value passed by copy cannot receive an adjoint through a shadow.
      if (carriesFloat(ParamTy))
        return fail("enzyme_dup on " + paramName(P) +
                    ", a value, in reverse mode: use enzyme_out to get its "
                    "adjoint (shadows are for pointers)");
      Act = ArgActivity::Const; // an integer has no derivative
    } else {
      SawShadowedArg = true;
    }
  }
  if ((Act == ArgActivity::Dup || Act == ArgActivity::DupNoNeed) &&
      !PendingDupV && !takeShadows(Idx, AR, ParamTy))
    return false;
  if (PendingDupV) {
    if (!ParamTy->isPointerTy())
      return fail("enzyme_dupv applies to pointers; " + paramName(P) +
                  " is not one");
    if (++Idx >= numArgs())
      return fail("too few arguments: missing the shadow base of " +
                  paramName(P));
    AR.DupVBase = arg(Idx);
    if (!checkType(AR.DupVBase, ParamTy, "shadow base of " + paramName(P)))
      return false;
  }
  Req.Key.Args.push_back(Act);
  Req.Args.push_back(std::move(AR));
  PendingActivity.reset();
  PendingDupV = false;
  return true;
}

bool Parser::parseArguments() {
  Function &Fn = *Req.Key.Fn;
  for (unsigned Idx = FirstArg + 1; Idx < numArgs(); ++Idx) {
    MarkerMatch M = matchMarker(arg(Idx));
    if (M.isMarker()) {
      if (!parseMarker(M, Idx))
        return false;
      continue;
    }
    if (Req.Args.size() == Fn.arg_size() &&
        Req.Key.Mode == DiffMode::ReverseBackward) {
      // After the arguments: the return's seed, then the tape.
      Extra.push_back(arg(Idx));
      continue;
    }
    if (Req.Args.size() == Fn.arg_size())
      return fail("too many arguments: '" + Fn.getName() + "' takes " +
                  Twine(Fn.arg_size()) + " parameter(s); extra value '" +
                  describe(*arg(Idx)) + "'");
    Type *ParamTy = Fn.getArg(Req.Args.size())->getType();
    ArgActivity Act =
        PendingActivity.value_or(defaultActivity(ParamTy, Req.Key.Mode));
    if (!takePrimal(Idx, Act))
      return false;
  }
  if (PendingActivity)
    return fail("marker at the end of the request applies to no argument");
  if (Req.Args.size() != Fn.arg_size())
    return fail("too few arguments: '" + Fn.getName() + "' takes " +
                Twine(Fn.arg_size()) + " parameter(s), the request passes " +
                Twine(Req.Args.size()));
  return true;
}

void Parser::setReturn(Type *RetTy) {
  // Forward mode returns the tangent of floats and the shadow of pointers;
  // reverse mode seeds an active (float) return.
  ReturnShadow Default = ReturnShadow::None;
  bool Pointer = RetTy->isPointerTy() && Req.Key.Mode == DiffMode::Forward;
  if (!RetTy->isVoidTy() && (carriesFloat(RetTy) || Pointer))
    Default = ReturnShadow::Shadow;
  Req.Key.Ret = RetOverride.value_or(Default);
  if (RetTy->isVoidTy())
    Req.Key.Ret = ReturnShadow::None;
  Req.Key.ReturnPrimal = PrimalReturn && !RetTy->isVoidTy();
  // The two halves of split mode are one derivative: the augmented half
  // returns the primal unless enzyme_noret says otherwise, and both calls
  // name the same key.
  if (isSplit(Req.Key.Mode))
    Req.Key.ReturnPrimal = !NoReturn && !RetTy->isVoidTy();
}

bool Parser::takeSeedAndTape() {
  // __enzyme_reverse: [seed per lane of an active float return], then the
  // tape (unless enzyme_tape gave its memory).
  Type *RetTy = Req.Key.Fn->getReturnType();
  unsigned NumSeeds = Req.Key.Ret == ReturnShadow::Shadow &&
                              !RetTy->isVoidTy() && !RetTy->isPointerTy()
                          ? Req.Key.Width
                          : 0;
  if (Extra.size() < NumSeeds)
    return fail("too few arguments: __enzyme_reverse of '" +
                Req.Key.Fn->getName() + "' needs the adjoint of its return" +
                (NumSeeds > 1 ? " for each of the " + Twine(NumSeeds) + " lanes"
                              : Twine()) +
                " after the arguments");
  for (unsigned K = 0; K < NumSeeds; ++K) {
    if (!checkType(Extra[K], RetTy, "the adjoint of the return"))
      return false;
    Req.Seeds.push_back(Extra[K]);
  }
  Req.TapeOperands.append(Extra.begin() + NumSeeds, Extra.end());
  if (Req.Tape == TapeTransport::Memory) {
    if (!Req.TapeOperands.empty())
      return fail("too many arguments: the tape comes from enzyme_tape's "
                  "pointer, extra value '" +
                  describe(*Req.TapeOperands.front()) + "'");
    return true;
  }
  if (Req.TapeOperands.empty())
    return fail("too few arguments: __enzyme_reverse of '" +
                Req.Key.Fn->getName() +
                "' needs the tape __enzyme_augmentfwd returned, last");
  // The tape operands are the call's last ones.
  if (Req.TapeOperands.size() == 1 &&
      Req.TapeOperands[0]->getType()->isPointerTy())
    Req.TapeByValType = Call.getParamByValType(numArgs() - 1);
  return true;
}

bool Parser::parseActivitiesOnly() {
  // __enzyme_augmentsize(f, activity markers...): one marker per parameter;
  // parameters without one get the default activity.
  Function &Fn = *Req.Key.Fn;
  for (unsigned Idx = FirstArg + 1; Idx < numArgs(); ++Idx) {
    MarkerMatch M = matchMarker(arg(Idx));
    if (!M.isMarker())
      return fail("__enzyme_augmentsize takes activity markers only, found '" +
                  describe(*arg(Idx)) + "'");
    if (!parseMarker(M, Idx))
      return false;
    if (!PendingActivity)
      continue;
    if (Req.Key.Args.size() == Fn.arg_size())
      return fail("too many activity markers: '" + Fn.getName() + "' takes " +
                  Twine(Fn.arg_size()) + " parameter(s)");
    ArgActivity Act = *PendingActivity;
    Type *Ty = Fn.getArg(Req.Key.Args.size())->getType();
    if ((Act == ArgActivity::Dup || Act == ArgActivity::DupNoNeed) &&
        !Ty->isPointerTy())
      Act = carriesFloat(Ty) ? ArgActivity::Active : ArgActivity::Const;
    Req.Key.Args.push_back(Act);
    PendingActivity.reset();
    PendingDupV = false;
  }
  while (Req.Key.Args.size() < Fn.arg_size())
    Req.Key.Args.push_back(defaultActivity(
        Fn.getArg(Req.Key.Args.size())->getType(), Req.Key.Mode));
  return true;
}

/// A C++ request (gpuad.h's templates) names the source types of its
/// arguments in its mangled name.  When the target's calling convention
/// split a struct passed by value into several IR arguments (AMDGPU and
/// x86-64 pass small structs as their fields), a marker or a default pairing
/// would take one field as another's shadow: refuse instead of guessing.
bool Parser::checkNoSplitArguments() {
  Function *Callee = Call.getCalledFunction();
  std::optional<SmallVector<std::string, 8>> Demangled =
      Callee ? demangledParameterTypes(Callee->getName()) : std::nullopt;
  if (!Demangled)
    return true;
  SmallVector<std::string, 8> &Types = *Demangled;
  unsigned IRArgs = numArgs() - (Req.ReturnSlot ? 1 : 0);
  // A variadic declaration (`(void *, ...)`) says nothing of its arguments.
  if (Types.size() == IRArgs || Types.empty() || is_contained(Types, "..."))
    return true;
  std::string ByValue;
  for (const std::string &T : Types)
    if (!isPassedWhole(T))
      ByValue += (ByValue.empty() ? "'" : ", '") + T + "'";
  return fail("the request's arguments (" + Twine(Types.size()) +
              " in the source) reach the IR as " + Twine(IRArgs) +
              ": a struct passed by value (" +
              (ByValue.empty() ? std::string("?") : ByValue) +
              ") was split into its fields by the target's calling "
              "convention, so its shadow cannot be told apart; pass the "
              "struct by pointer (enzyme_dup, &s, &ds)");
}

/// A function passed for an enzyme_const pointer parameter is the same
/// function in every call the request makes: the request differentiates a
/// copy of its function with that parameter replaced by the function, so
/// calls through it are direct calls (the callee's own derivative, or its
/// registered rule) instead of a dispatcher over every function of the
/// type.  This is what lets a C++ wrapper (include/enzyme/enzyme) call the
/// user's function through a parameter.  The copy is shared by the requests
/// that pass the same functions (its name says which).  Split requests are
/// left alone: `__enzyme_augmentsize` has no values to bind, and its tape
/// must be the augmented half's.
static void bindConstantFunctions(DiffRequest &Req) {
  if (isSplit(Req.Key.Mode))
    return;
  Function &Fn = *Req.Key.Fn;
  SmallVector<std::pair<unsigned, Function *>, 2> Bound;
  std::string Name = (Fn.getName() + ".gpuad.bound").str();
  for (unsigned I = 0; I < Req.Args.size(); ++I) {
    Argument *A = Fn.getArg(I);
    if (Req.Key.Args[I] != ArgActivity::Const || !A->getType()->isPointerTy() ||
        A->use_empty())
      continue;
    if (Function *G = resolveFunction(Req.Args[I].Primal)) {
      Bound.push_back({I, G});
      Name += "." + std::to_string(I) + "." + G->getName().str();
    }
  }
  if (Bound.empty())
    return;
  Module &M = *Fn.getParent();
  Function *Copy = M.getFunction(Name);
  if (!Copy) {
    ValueToValueMapTy VMap;
    Copy = CloneFunction(&Fn, VMap);
    Copy->setName(Name);
    Copy->setLinkage(GlobalValue::InternalLinkage);
    for (auto [I, G] : Bound) {
      Argument *A = Copy->getArg(I);
      A->replaceAllUsesWith(ConstantExpr::getPointerCast(G, A->getType()));
    }
  }
  Req.Key.Fn = Copy;
}

std::optional<DiffRequest> Parser::run() {
  if (!parseFunction() || !checkNoSplitArguments())
    return std::nullopt;
  if (Req.Key.Mode == DiffMode::TapeSize) {
    if (!parseActivitiesOnly())
      return std::nullopt;
  } else if (!parseArguments()) {
    return std::nullopt;
  }
  bindConstantFunctions(Req);
  setReturn(Req.Key.Fn->getReturnType());
  if (!checkReturnSeed())
    return std::nullopt;
  if (Req.Key.Mode == DiffMode::ReverseBackward && !takeSeedAndTape())
    return std::nullopt;
  return std::move(Req);
}

/// Combined reverse mode seeds an active return with 1: a float or a vector
/// of floats.  A returned struct or array of floats has no one seed (a
/// complex result's, say, depends on what the caller wants of it).
bool Parser::checkReturnSeed() {
  Type *RetTy = Req.Key.Fn->getReturnType();
  if (Req.Key.Mode != DiffMode::ReverseCombined ||
      Req.Key.Ret != ReturnShadow::Shadow || !RetTy->isAggregateType())
    return true;
  std::string Ty;
  raw_string_ostream(Ty) << *RetTy;
  return fail("reverse mode seeds the result of '" + Req.Key.Fn->getName() +
              "' with 1, but it returns an aggregate (" + Ty +
              "): pass enzyme_const_return to leave it unseeded, return it "
              "through a pointer argument whose shadow holds the seed "
              "(enzyme_dup), or use split mode (__enzyme_reverse takes the "
              "seed)");
}

std::optional<DiffRequest> parseRequest(CallBase &Call, DiffMode Mode,
                                        Diagnostics &Diags) {
  return Parser(Call, Mode, Diags).run();
}

} // namespace gpuad
