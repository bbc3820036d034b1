//===- CallTable.cpp - What each call of a module does to derivatives -----===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/CallTable.h"

#include "Rules/BlasRules.h"
#include "Rules/LibraryAliases.h"
#include "Rules/MpiCalls.h"
#include "Rules/OpenMPCalls.h"
#include "Support/DemangledTypes.h"
#include "Target/TargetHooks.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpuad-calls"

using namespace llvm;

STATISTIC(NumClassified, "Number of calls classified");
STATISTIC(NumBufferCalls, "Number of calls of buffer routines (BLAS)");

namespace gpuad {

namespace {

/// The GPU runtimes whose calls are rows: `cuda<Name>` and `hip<Name>`.
constexpr const char *RuntimeApis[] = {"cuda", "hip"};

/// Every spelling of the runtime rows: cudaMemcpy -> {Copy, "cuda"}.
const StringMap<RuntimeCall> &runtimeNames() {
  static const StringMap<RuntimeCall> Names = [] {
    StringMap<RuntimeCall> M;
    for (const char *Api : RuntimeApis) {
#define RUNTIME_FUNCTION(Name, Kind)                                           \
  M[std::string(Api) + #Name] = {RuntimeCall::Kind, Api};
#include "Rules/CallRules.def"
    }
    return M;
  }();
  return Names;
}

const StringSet<> &inactiveNames() {
  static const StringSet<> Names = [] {
    StringSet<> S = {
#define INACTIVE_FUNCTION(Spelling) Spelling,
#include "Rules/CallRules.def"
    };
    for (const auto &Entry : runtimeNames())
      if (Entry.getValue().K == RuntimeCall::Inactive)
        S.insert(Entry.getKey());
    return S;
  }();
  return Names;
}

/// Whether \p FT is how the runtimes declare a call of kind \p K.
bool fitsRuntimeCall(RuntimeCall::Kind K, const FunctionType &FT) {
  auto Is = [&](unsigned I, auto Test) {
    return I < FT.getNumParams() && Test(FT.getParamType(I));
  };
  auto Ptr = [](Type *T) { return T->isPointerTy(); };
  auto Int = [](Type *T) { return T->isIntegerTy(); };
  unsigned Params = FT.getNumParams();
  switch (K) {
  case RuntimeCall::Allocate: // (void **p, size_t bytes, ...)
    return Params >= 2 && Is(0, Ptr) && Is(1, Int);
  case RuntimeCall::Free:   // (void *p[, stream])
  case RuntimeCall::Launch: // (const void *kernel, ...)
    return Params >= 1 && Is(0, Ptr);
  case RuntimeCall::Copy: // (dst, src, bytes, kind[, stream])
  case RuntimeCall::CopyAsync:
    return Params == (K == RuntimeCall::Copy ? 4u : 5u) && Is(0, Ptr) &&
           Is(1, Ptr) && Is(2, Int) && Is(3, Int);
  case RuntimeCall::Set: // (p, value, bytes[, stream])
  case RuntimeCall::SetAsync:
    return Params == (K == RuntimeCall::Set ? 3u : 4u) && Is(0, Ptr) &&
           Is(1, Int) && Is(2, Int);
  case RuntimeCall::SymbolCopy: // (symbol, src, bytes, offset, ...)
    return Params >= 4 && Is(0, Ptr) && Is(1, Ptr) && Is(2, Int);
  case RuntimeCall::Inactive:
    return true;
  }
  llvm_unreachable("runtime call kinds are covered");
}

bool isInactiveIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
#define INACTIVE_INTRINSIC(ID) case Intrinsic::ID:
#include "Rules/CallRules.def"
    return true;
  default:
    return false;
  }
}

struct HeapRow {
  HeapFn Fn;
  HeapRelease Release;
};

const StringMap<HeapRow> &heapNames() {
  static const StringMap<HeapRow> Names = {
#define HEAP_FUNCTION(Spelling, Fn, Release, AlignedRelease)                   \
  {Spelling, {HeapFn::Fn, {Release, AlignedRelease}}},
#include "Rules/CallRules.def"
  };
  return Names;
}

const StringSet<> &noncapturingNames() {
  static const StringSet<> Names = {
#define NONCAPTURING_FUNCTION(Spelling) Spelling,
#include "Rules/CallRules.def"
  };
  return Names;
}

bool hasStructurePrefix(StringRef Name) {
  static const StringRef Prefixes[] = {
#define STRUCTURE_PREFIX(Prefix) Prefix,
#include "Rules/CallRules.def"
  };
  return any_of(Prefixes, [&](StringRef P) { return Name.starts_with(P); });
}

// The buffer routines' rows and their argument lists.
constexpr CallArgument LengthArg{ArgKind::Length, Reads};
constexpr CallArgument IncrementArg{ArgKind::Increment, Reads};
constexpr CallArgument LeadingArg{ArgKind::LeadingDimension, Reads};
constexpr CallArgument LayoutArg{ArgKind::Layout, Reads};
constexpr CallArgument TransposeArg{ArgKind::Transpose, Reads};
constexpr CallArgument UploArg{ArgKind::Uplo, Reads};
constexpr CallArgument DiagArg{ArgKind::Diag, Reads};
constexpr CallArgument SideArg{ArgKind::Side, Reads};
constexpr CallArgument ScalarArg{ArgKind::Scalar, Reads};
constexpr CallArgument InfoArg{ArgKind::Info, Writes};
constexpr CallArgument bufferArg(ArgKind Kind, uint8_t Access, int8_t Length,
                                 int8_t Width, int8_t Increment,
                                 int8_t Transpose, int8_t Side = -1) {
  return {Kind, Access, Length, Increment, Width, Transpose, Side};
}
#define LENGTH LengthArg
#define INCREMENT IncrementArg
#define LEADING LeadingArg
#define LAYOUT LayoutArg
#define TRANSPOSE TransposeArg
#define UPLO UploArg
#define DIAG DiagArg
#define SIDE SideArg
#define SCALAR ScalarArg
#define INFO InfoArg
#define VECTOR(Access, Length, Increment)                                      \
  bufferArg(ArgKind::Vector, Access, Length, -1, Increment, -1)
#define VECTOR_OP(Access, Length, Width, Increment, Transpose)                 \
  bufferArg(ArgKind::Vector, Access, Length, Width, Increment, Transpose)
#define MATRIX(Access, Rows, Columns, Leading)                                 \
  bufferArg(ArgKind::Matrix, Access, Rows, Columns, Leading, -1)
#define MATRIX_SIDE(Access, M, N, Leading, Side)                               \
  bufferArg(ArgKind::Matrix, Access, M, N, Leading, -1, Side)
#define PIVOTS(Access, Length)                                                 \
  bufferArg(ArgKind::Pivots, Access, Length, -1, -1, -1)
#define MATRIX_OP(Access, Rows, Columns, Leading, Transpose)                   \
  bufferArg(ArgKind::Matrix, Access, Rows, Columns, Leading, Transpose)
#define UNPAREN(...) __VA_ARGS__
#define BUFFER_ROUTINE(Name, Precisions, ReturnsScalar, ArgList, Tangent,      \
                       Adjoint)                                                \
  const CallArgument Name##Arguments[] = {UNPAREN ArgList};
#define LAPACK_ROUTINE(Name, Precisions, ArgList, Tangent, Adjoint)            \
  const CallArgument Name##Arguments[] = {UNPAREN ArgList};
#include "Rules/CallRules.def"

const BufferRoutine BufferRoutines[] = {
#define BUFFER_ROUTINE(Name, Precisions, ReturnsScalar, ArgList, Tangent,      \
                       Adjoint)                                                \
  {#Name, Precisions, ReturnsScalar, Name##Arguments, Tangent, Adjoint},
#define LAPACK_ROUTINE(Name, Precisions, ArgList, Tangent, Adjoint)            \
  {#Name, Precisions, false, Name##Arguments, Tangent, Adjoint, true},
#include "Rules/CallRules.def"
};
#undef LENGTH
#undef INCREMENT
#undef LEADING
#undef LAYOUT
#undef TRANSPOSE
#undef UPLO
#undef DIAG
#undef SIDE
#undef MATRIX_SIDE
#undef SCALAR
#undef INFO
#undef VECTOR
#undef VECTOR_OP
#undef MATRIX
#undef MATRIX_OP
#undef PIVOTS
#undef UNPAREN

/// A linear row (no tangent builder) reads one buffer it does not write,
/// and writes only vectors: its tangent is the call on the shadows, or zero
/// where that buffer has none (ForwardBufferCalls.cpp).  A buffer's sizes
/// are the row's lengths, increments and flags.
[[maybe_unused]] bool isWellFormed(const BufferRoutine &R) {
  auto Is = [&](int8_t K, std::initializer_list<ArgKind> Kinds) {
    return K >= 0 && unsigned(K) < R.Args.size() &&
           is_contained(Kinds, R.Args[K].Kind);
  };
  for (const CallArgument &A : R.Args) {
    if (!A.isBuffer())
      continue;
    bool Sized = Is(A.Length, {ArgKind::Length}) &&
                 (A.Kind == ArgKind::Vector
                      ? Is(A.Increment, {ArgKind::Increment})
                      : Is(A.Increment, {ArgKind::LeadingDimension}) &&
                            Is(A.Width, {ArgKind::Length})) &&
                 (A.Transpose < 0 || (Is(A.Transpose, {ArgKind::Transpose}) &&
                                      Is(A.Width, {ArgKind::Length}))) &&
                 (A.Side < 0 || Is(A.Side, {ArgKind::Side}));
    if (!Sized ||
        (!R.Tangent && A.Kind == ArgKind::Matrix && (A.Access & Writes)))
      return false;
  }
  return R.Tangent || count_if(R.Args, [](const CallArgument &A) {
                        return A.isBuffer() && A.Access == Reads;
                      }) == 1;
}

struct BufferName {
  const BufferRoutine *Routine;
  BufferSpelling::Form Convention;
  bool Double;
};

/// The spelling of routine \p Name in precision \p Letter and \p Form.
std::string spell(StringRef Name, char Letter, BufferSpelling::Form Form) {
  std::string Base = Letter + Name.str();
  switch (Form) {
  case BufferSpelling::C:
    return "cblas_" + Base;
  case BufferSpelling::Lapacke:
    return "LAPACKE_" + Base;
  case BufferSpelling::Cublas:
    return "cublas" + std::string(1, toUpper(Letter)) + Name.str() + "_v2";
  case BufferSpelling::CublasLegacy:
    return "cublas" + std::string(1, toUpper(Letter)) + Name.str();
  default:
    return Base + "_";
  }
}

/// Every spelling of every buffer routine: `cblas_ddot`, `ddot_`,
/// `cublasDdot_v2`.
const StringMap<BufferName> &bufferNames() {
  static const StringMap<BufferName> Names = [] {
    StringMap<BufferName> M;
    for (const BufferRoutine &R : BufferRoutines) {
      assert(isWellFormed(R) && "a buffer routine's row is malformed");
      for (const char *P = R.Precisions; *P; ++P)
        for (auto Form : {BufferSpelling::C, BufferSpelling::Fortran,
                          BufferSpelling::Lapacke, BufferSpelling::Cublas,
                          BufferSpelling::CublasLegacy})
          if (Form == BufferSpelling::Fortran ||
              R.Lapack == (Form == BufferSpelling::Lapacke ||
                           Form == BufferSpelling::Fortran))
            M[spell(R.Name, *P, Form)] = {&R, Form, *P == 'd'};
    }
    return M;
  }();
  return Names;
}

/// Whether \p FT is how spelling \p N passes \p N's routine's arguments.
/// A Fortran spelling may end in the hidden lengths of its character
/// arguments (gfortran's convention); a derivative's own calls pass none,
/// as C callers of the Fortran interface do.
bool fitsBufferRoutine(const BufferName &N, const FunctionType &FT,
                       Type *Element) {
  const BufferRoutine &R = *N.Routine;
  bool ByPointer = N.Convention == BufferSpelling::Fortran;
  bool Lapacke = N.Convention == BufferSpelling::Lapacke;
  bool Cublas = N.Convention == BufferSpelling::Cublas;
  bool NoLayout = !BufferSpelling::passesLayout(N.Convention);
  // cuBLAS: the handle, and the pointer a scalar result is written to.
  unsigned Passed = Cublas ? 1 + R.ReturnsScalar : 0, Flags = 0;
  for (const CallArgument &Arg : R.Args) {
    Passed += NoLayout  ? Arg.Kind != ArgKind::Layout
              : Lapacke ? Arg.Kind != ArgKind::Info
                        : true;
    Flags += Arg.Kind == ArgKind::Transpose || Arg.Kind == ArgKind::Uplo ||
             Arg.Kind == ArgKind::Diag || Arg.Kind == ArgKind::Side;
  }
  unsigned Params = FT.getNumParams();
  if (FT.isVarArg() ||
      (Params != Passed && !(ByPointer && Params == Passed + Flags)))
    return false;
  Type *Ret = FT.getReturnType();
  if (Lapacke || Cublas ? !Ret->isIntegerTy()
      : R.ReturnsScalar ? Ret != Element
                        : !Ret->isVoidTy())
    return false;
  if (Cublas &&
      (!FT.getParamType(0)->isPointerTy() ||
       (R.ReturnsScalar && !FT.getParamType(R.resultOperand())->isPointerTy())))
    return false;
  for (auto [K, Arg] : enumerate(R.Args)) {
    std::optional<unsigned> Op = R.operand(K, N.Convention);
    if (!Op)
      continue;
    Type *Param = FT.getParamType(*Op);
    if (ByPointer || Arg.isBuffer() || Arg.Kind == ArgKind::Pivots ||
        (Cublas && Arg.Kind == ArgKind::Scalar)) {
      if (!Param->isPointerTy())
        return false;
    } else if (Arg.Kind == ArgKind::Scalar ? Param != Element
                                           : !Param->isIntegerTy()) {
      return false;
    }
  }
  for (unsigned K = Passed; K < Params; ++K)
    if (!FT.getParamType(K)->isIntegerTy())
      return false;
  return true;
}

CallEffect heapEffect(HeapFn Fn) {
  switch (Fn) {
  case HeapFn::Free:
  case HeapFn::UserFree:
    return CallEffect::Deallocator;
  case HeapFn::Realloc:
    return CallEffect::Reallocator;
  default:
    return CallEffect::Allocator;
  }
}

} // namespace

CallTable::CallTable(const Module &M, const TargetHooks *Target)
    : Target(Target) {
  if (Target)
    Target->forEachRuleSpelling(
        [&](StringRef Name, StringRef Family) { addAlias(Name, Family); });
  forEachLibraryAlias(M, [&](StringRef Name, StringRef Family) {
    if (!scalarByName(Name))
      addAlias(Name, Family);
  });
}

bool CallTable::addAlias(StringRef Name, StringRef Family) {
  const DerivativeRule *R = findFamily(Family);
  if (R)
    Aliases.try_emplace(Name, R);
  return R;
}

const DerivativeRule *CallTable::scalarByName(StringRef Name) const {
  if (const DerivativeRule *R = findBuiltinRule(Name))
    return R;
  auto It = Aliases.find(Name);
  return It == Aliases.end() ? nullptr : It->second;
}

const DerivativeRule *CallTable::family(StringRef Name) const {
  if (const DerivativeRule *R = scalarByName(Name))
    return R;
  return findFamily(Name);
}

const DerivativeRule *CallTable::scalarRule(const Function &F) const {
  if (F.isIntrinsic())
    return scalarByName(Intrinsic::getBaseName(F.getIntrinsicID()));
  const DerivativeRule *R = scalarByName(F.getName());
  return R && fitsRule(*R, *F.getFunctionType()) ? R : nullptr;
}

const DerivativeRule *CallTable::scalarRule(const Instruction &I) const {
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call)
    return scalarByName(I.getOpcodeName());
  if (const auto *II = dyn_cast<IntrinsicInst>(Call))
    return scalarByName(Intrinsic::getBaseName(II->getIntrinsicID()));
  const Function *Callee = Call->getCalledFunction();
  if (!Callee)
    return nullptr;
  // The call's own type: a call through a mismatched prototype is not the
  // row's function.
  const DerivativeRule *R = scalarByName(Callee->getName());
  return R && fitsRule(*R, *Call->getFunctionType()) ? R : nullptr;
}

bool CallTable::keepsNoPointer(const Function &F) const {
  if (!F.isDeclaration())
    return false;
  // (A launched kernel may keep what it is given.)
  std::optional<RuntimeCall> R = runtimeCall(F);
  return noncapturingNames().contains(F.getName()) || bufferRoutine(F) ||
         (R && R->K != RuntimeCall::Launch);
}

std::optional<HeapFn> CallTable::heapCall(const Value *V) const {
  const auto *Call = dyn_cast<CallBase>(V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee ? heapFunction(*Callee) : std::nullopt;
}

std::optional<HeapFn> CallTable::heapFunction(const Function &F) const {
  if (F.hasFnAttribute("enzyme_allocator"))
    return HeapFn::UserAlloc;
  if (F.hasFnAttribute("gpuad-user-free"))
    return HeapFn::UserFree;
  if (std::optional<RuntimeCall> R = runtimeCall(F)) {
    if (R->K == RuntimeCall::Allocate)
      return HeapFn::DeviceMalloc;
    if (R->K == RuntimeCall::Free)
      return HeapFn::Free;
    return std::nullopt;
  }
  auto It = heapNames().find(F.getName());
  if (It == heapNames().end())
    return std::nullopt;
  return It->second.Fn;
}

HeapRelease CallTable::releaseOf(const Function &F) const {
  if (std::optional<RuntimeCall> R = runtimeCall(F))
    return {R->isCuda() ? "cudaFree" : "hipFree", ""};
  auto It = heapNames().find(F.getName());
  return It == heapNames().end() ? HeapRelease() : It->second.Release;
}

std::optional<RuntimeCall> CallTable::runtimeCall(const Function &F) const {
  // Host code's: device code's own runtime (dynamic parallelism) is not
  // these rows.
  if (Target && Target->isGPU())
    return std::nullopt;
  auto It = runtimeNames().find(F.getName());
  if (It == runtimeNames().end() || !F.isDeclaration() ||
      !fitsRuntimeCall(It->second.K, *F.getFunctionType()))
    return std::nullopt;
  return It->second;
}

bool CallTable::isRuntimeWrapper(const Function &F) const {
  if (F.isDeclaration() || (Target && Target->isGPU()))
    return false;
  std::string Base = demangledBaseName(F.getName());
  if (Base == F.getName())
    return false; // not a C++ function
  return runtimeNames().contains(StringRef(Base).split('<').first);
}

std::optional<std::pair<const BufferRoutine *, BufferSpelling>>
CallTable::bufferRoutine(const Function &F) const {
  auto It = bufferNames().find(F.getName());
  if (It == bufferNames().end())
    return std::nullopt;
  const BufferName &N = It->second;
  LLVMContext &C = F.getContext();
  Type *Element = N.Double ? Type::getDoubleTy(C) : Type::getFloatTy(C);
  if (!fitsBufferRoutine(N, *F.getFunctionType(), Element))
    return std::nullopt;
  return std::make_pair(N.Routine, BufferSpelling{N.Convention, Element});
}

/// LLVM's annotations, noreturn calls, Enzyme's inactive annotation and
/// gpuad's own inactive helpers, and the inactive rows.
static bool isInactive(const CallBase &Call) {
  // A call that never returns (abort, C++'s __throw_length_error) cannot
  // influence a derivative of the code after it.
  if (Call.doesNotReturn())
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    return isInactiveIntrinsic(II->getIntrinsicID());
  if (Call.hasFnAttr("enzyme_inactive"))
    return true;
  const Function *Callee = Call.getCalledFunction();
  return Callee && (inactiveNames().contains(Callee->getName()) ||
                    Callee->hasFnAttribute(InactiveAttr));
}

CallClass CallTable::classify(const CallBase &Call) const {
  ++NumClassified;
  CallClass C;
  const Function *Named = Call.getCalledFunction();
  if ((Target && Target->isBlockBarrier(Call)) ||
      (Named && mirroredTeamSync(Named->getName())))
    C.Effect = CallEffect::Barrier;
  else if (isInactive(Call) || (Target && Target->isInactiveCall(Call)))
    C.Effect = CallEffect::Inactive;
  else if (std::optional<unsigned> Op =
               Target ? Target->shuffledOperand(Call) : std::nullopt) {
    C.Effect = CallEffect::Shuffle;
    C.ShuffledOperand = *Op;
  } else if (isa<MemTransferInst>(Call)) {
    C.Effect = CallEffect::MemoryTransfer;
  } else if (isa<MemSetInst>(Call)) {
    C.Effect = CallEffect::MemorySet;
  } else if (Call.isInlineAsm()) {
    C.Effect = CallEffect::InlineAsm;
  } else if ((C.Scalar = scalarRule(Call))) {
    C.Effect = CallEffect::Elementwise;
  } else if (const Function *Callee = Call.getCalledFunction()) {
    C = classifyCallee(Call, *Callee);
  } else {
    C.Effect = CallEffect::Indirect;
  }
  LLVM_DEBUG(dbgs() << "gpuad-calls: " << Call << " -> effect "
                    << unsigned(C.Effect) << "\n");
  return C;
}

CallClass CallTable::classifyCallee(const CallBase &Call,
                                    const Function &Callee) const {
  CallClass C;
  std::optional<RuntimeCall> Runtime = runtimeCall(Callee);
  if (Callee.getName() == NormalizedLaunchName) {
    C.Effect = CallEffect::KernelLaunch;
  } else if (Runtime && Runtime->K == RuntimeCall::SymbolCopy) {
    // Device variables carry no derivative (the sweep refuses a source
    // that does).
    C.Effect = CallEffect::Inactive;
  } else if (Runtime && Runtime->K != RuntimeCall::Allocate &&
             Runtime->K != RuntimeCall::Free) {
    C.Effect = Runtime->K == RuntimeCall::Launch ? CallEffect::KernelLaunch
                                                 : CallEffect::RuntimeMemory;
  } else if (std::optional<HeapFn> Heap = heapFunction(Callee)) {
    C.Effect = heapEffect(*Heap);
    C.Heap = *Heap;
  } else if (auto Routine = bufferRoutine(Callee);
             Routine && Call.getFunctionType() == Callee.getFunctionType()) {
    ++NumBufferCalls;
    C.Effect = CallEffect::Buffer;
    std::tie(C.Routine, C.Spelling) = *Routine;
  } else if (const MpiRoutine *Mpi = mpiRoutine(Callee.getName());
             Mpi && Callee.isDeclaration() &&
             Call.arg_size() == Mpi->Operands) {
    C.Effect = CallEffect::Message;
    C.Mpi = Mpi;
  } else if (Callee.isDeclaration() && hasStructurePrefix(Callee.getName())) {
    C.Effect = CallEffect::Structure;
  } else if (Custom.count(&Callee)) {
    C.Effect = CallEffect::Custom;
  } else {
    C.Effect =
        Callee.isDeclaration() ? CallEffect::Unknown : CallEffect::Defined;
  }
  return C;
}

const BufferRoutine *CallTable::bufferRoutineNamed(StringRef Name) {
  for (const BufferRoutine &R : BufferRoutines)
    if (Name == R.Name)
      return &R;
  return nullptr;
}

std::string CallTable::spellingOf(const BufferRoutine &R,
                                  const BufferSpelling &S) {
  return spell(R.Name, S.Element->isDoubleTy() ? 'd' : 's', S.Convention);
}

StringRef CallTable::headerMemoryFunction(const Function &F) {
  StringRef Mangled = F.getName();
  if (F.isDeclaration() || !Mangled.starts_with("_Z") ||
      !Mangled.contains("mem"))
    return "";
  // (void *, const void *, size_t) or (void *, int, size_t).
  FunctionType *T = F.getFunctionType();
  if (T->getNumParams() != 3 || !T->getParamType(0)->isPointerTy() ||
      !T->getParamType(2)->isIntegerTy())
    return "";
  bool FromMemory = T->getParamType(1)->isPointerTy();
  std::string Name = demangle(Mangled);
  for (StringRef Kind : {"memcpy", "memmove", "memset"})
    if (StringRef(Name).starts_with((Kind + "(").str()) &&
        FromMemory == (Kind != "memset"))
      return Kind;
  return "";
}

void CallTable::forEachScalarSpelling(
    function_ref<void(StringRef, const DerivativeRule &)> Fn) const {
  forEachBuiltinRuleName(Fn);
  for (const auto &Entry : Aliases)
    Fn(Entry.getKey(), *Entry.getValue());
}

} // namespace gpuad
