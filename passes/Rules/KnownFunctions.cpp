//===- KnownFunctions.cpp - Library calls with known behaviour ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/KnownFunctions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace gpuad {

static const StringSet<> &inactiveNames() {
  // clang-format off
  static const StringSet<> Names = {
      // stdio and friends: they read values but produce no derivative.
      "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush",
      "vprintf", "vfprintf", "perror", "fwrite",
      // Process control and diagnostics.
      "exit", "_exit", "abort", "__assert_fail", "__assertfail",
      "__cxa_pure_virtual", "__cxa_begin_catch", "__cxa_end_catch",
      "__cxa_rethrow", "_ZSt9terminatev", "__clang_call_terminate",
      "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_throw",
      // Time and randomness: inputs, never outputs, of a derivative.
      "clock", "time", "gettimeofday", "clock_gettime", "rand", "srand",
      "random", "srandom", "drand48", "srand48", "getenv",
      // Allocation queries.
      "malloc_usable_size",
      // Reading bytes, answering integers (string keys, hashing).
      "bcmp", "memcmp", "strlen", "strnlen", "strcmp", "strncmp",
      "_ZSt11_Hash_bytesPKvmm", "_ZSt15_Fnv_hash_bytesPKvmm",
      // std::unordered_map's bucket-count policy: integers only.
      "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
      "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
      // std::allocator<char>, an empty class.
      "_ZNSaIcEC1Ev", "_ZNSaIcEC2Ev", "_ZNSaIcED1Ev", "_ZNSaIcED2Ev",
      "_ZNSaIcEC1ERKS_", "_ZNSaIcEC2ERKS_",
  };
  // clang-format on
  return Names;
}

bool isStructureCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return false;
  StringRef Name = Callee->getName();
  // Red-black tree links and colours (the nodes' values are never touched).
  static const StringRef TreePrefixes[] = {
      "_ZSt18_Rb_tree_increment", "_ZSt18_Rb_tree_decrement",
      "_ZSt29_Rb_tree_insert_and_rebalance",
      "_ZSt28_Rb_tree_rebalance_for_erase"};
  // std::string's members (characters, lengths, its buffer pointer).
  static const StringRef StringPrefixes[] = {
      "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE",
      "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"};
  for (StringRef P : TreePrefixes)
    if (Name.starts_with(P))
      return true;
  for (StringRef P : StringPrefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

static bool isInactiveIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::sideeffect:
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::prefetch:
  case Intrinsic::donothing:
  case Intrinsic::pseudoprobe:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::codeview_annotation:
  case Intrinsic::objectsize:
  case Intrinsic::is_constant:
    return true;
  default:
    return false;
  }
}

bool isKnownInactiveCall(const CallBase &Call) {
  // A call that never returns (abort, C++'s __throw_length_error) cannot
  // influence a derivative of the code after it.
  if (Call.doesNotReturn())
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    return isInactiveIntrinsic(II->getIntrinsicID());
  // Enzyme's annotation (__enzyme_inactivefn, annotate("enzyme_inactive")).
  if (Call.hasFnAttr("enzyme_inactive"))
    return true;
  // gpuad's own helpers say so ("gpuad-inactive": a dispatcher's report of
  // a callee it cannot differentiate).
  const Function *Callee = Call.getCalledFunction();
  return Callee && (inactiveNames().contains(Callee->getName()) ||
                    Callee->hasFnAttribute(InactiveAttr));
}

std::optional<HeapFn> classifyHeapFunction(StringRef Name) {
  static const StringMap<HeapFn> Names = {
      {"malloc", HeapFn::Malloc},
      {"calloc", HeapFn::Calloc},
      {"realloc", HeapFn::Realloc},
      {"free", HeapFn::Free},
      {"posix_memalign", HeapFn::PosixMemalign},
      {"aligned_alloc", HeapFn::AlignedAlloc},
      // operator new / new[] (plain, nothrow, aligned).
      {"_Znwm", HeapFn::Malloc},
      {"_Znam", HeapFn::Malloc},
      {"_ZnwmRKSt9nothrow_t", HeapFn::Malloc},
      {"_ZnamRKSt9nothrow_t", HeapFn::Malloc},
      {"_ZnwmSt11align_val_t", HeapFn::Malloc},
      {"_ZnamSt11align_val_t", HeapFn::Malloc},
      // operator delete / delete[] (plain, sized, aligned).
      {"_ZdlPv", HeapFn::Free},
      {"_ZdaPv", HeapFn::Free},
      {"_ZdlPvm", HeapFn::Free},
      {"_ZdaPvm", HeapFn::Free},
      {"_ZdlPvSt11align_val_t", HeapFn::Free},
      {"_ZdaPvSt11align_val_t", HeapFn::Free},
      {"_ZdlPvmSt11align_val_t", HeapFn::Free},
      {"_ZdaPvmSt11align_val_t", HeapFn::Free},
  };
  auto It = Names.find(Name);
  if (It == Names.end())
    return std::nullopt;
  return It->second;
}

std::optional<HeapFn> classifyHeapCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  if (Callee->hasFnAttribute("enzyme_allocator"))
    return HeapFn::UserAlloc;
  if (Callee->hasFnAttribute("gpuad-user-free"))
    return HeapFn::UserFree;
  return classifyHeapFunction(Callee->getName());
}

unsigned releasedArgument(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  unsigned Arg = 0;
  if (Callee && Callee->hasFnAttribute("gpuad-user-free"))
    Callee->getFnAttribute("gpuad-user-free")
        .getValueAsString()
        .getAsInteger(10, Arg);
  return Arg;
}

unsigned userAllocationSize(const Function &Alloc) {
  unsigned Arg = 0;
  Alloc.getFnAttribute("enzyme_allocator")
      .getValueAsString()
      .getAsInteger(10, Arg);
  return Arg;
}

Function *userDeallocator(const Function &Alloc) {
  MDNode *MD = Alloc.getMetadata("enzyme_deallocator_fn");
  if (!MD || MD->getNumOperands() != 1)
    return nullptr;
  auto *VAM = dyn_cast<ValueAsMetadata>(MD->getOperand(0));
  return VAM ? dyn_cast<Function>(VAM->getValue()) : nullptr;
}

SmallVector<int, 4> userDeallocatorArguments(const Function &Alloc) {
  SmallVector<StringRef, 4> Parts;
  Alloc.getFnAttribute("enzyme_deallocator")
      .getValueAsString()
      .split(Parts, ',');
  SmallVector<int, 4> Args;
  for (StringRef P : Parts) {
    int V = -1;
    P.trim().getAsInteger(10, V);
    Args.push_back(V);
  }
  return Args;
}

StringRef headerMemoryFunction(const Function &F) {
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

} // namespace gpuad
