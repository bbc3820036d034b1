//===- CallTable.h - What each call does ------------------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Every question "what is this call?" has one answer, here.  A module's
/// CallTable holds the rows of the routines gpuad knows without their
/// bodies -- the scalar rule families (DerivativeRules.h), the inactive
/// library calls, the heap functions, the structure-preserving library
/// calls and the buffer routines (CallRules.def) -- under every spelling
/// (C, libm's `f`/`l`, libdevice's `__nv_`, ocml's `__ocml_`, Fortran's
/// trailing `_`, CBLAS's `cblas_`), plus the module's own aliases: the
/// target's intrinsic spellings, thrust's complex functions, the functions
/// a user registered as "like" a row.  classify() then answers for a call
/// site, and analyses and emitters read the answer's effect and arguments;
/// none of them tests a function's name.
///
/// The built-in rows are constant data, shared; what a module adds lives in
/// its table, which the planner owns: nothing global changes while a module
/// is compiled.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_CALLTABLE_H
#define GPUAD_RULES_CALLTABLE_H

#include "Rules/CallRule.h"
#include "Rules/DerivativeRules.h"
#include "Rules/KnownFunctions.h"
#include "Rules/MpiCalls.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace llvm {
class Module;
} // namespace llvm

namespace gpuad {

class TargetHooks;

/// What classify() found: the effect, and the row behind it.
struct CallClass {
  CallEffect Effect = CallEffect::Unknown;
  /// Elementwise: the scalar rule.
  const DerivativeRule *Scalar = nullptr;
  /// Allocator, Deallocator, Reallocator: which heap function.
  HeapFn Heap = HeapFn::Malloc;
  /// Buffer: the routine and the precision of this spelling.
  const BufferRoutine *Routine = nullptr;
  BufferSpelling Spelling;
  /// Shuffle: the operand that moves between threads.
  unsigned ShuffledOperand = 0;
  /// Message: the MPI routine.
  const MpiRoutine *Mpi = nullptr;

  /// The call changes no derivative (its effect is Inactive or Barrier).
  bool inactive() const {
    return Effect == CallEffect::Inactive || Effect == CallEffect::Barrier;
  }
  bool isHeap() const {
    return Effect == CallEffect::Allocator ||
           Effect == CallEffect::Deallocator ||
           Effect == CallEffect::Reallocator;
  }
  /// The heap function, where the call is one.
  std::optional<HeapFn> heap() const {
    return isHeap() ? std::optional<HeapFn>(Heap) : std::nullopt;
  }
  /// A row gpuad knows without a body: a scalar rule, a heap function, a
  /// buffer routine, an MPI routine, or an inactive call.
  bool known() const {
    return inactive() || isHeap() || Scalar || Routine || Mpi;
  }
};

class CallTable {
public:
  /// The rows for \p M: the built-in ones, \p Target's spellings (none
  /// without a target: passes that run before the planner), and the
  /// module's library aliases.
  CallTable(const llvm::Module &M, const TargetHooks *Target);

  /// What \p Call does.  One lookup: the call's callee spelling, intrinsic
  /// or attributes decide it, and the table's rows the rest.
  CallClass classify(const llvm::CallBase &Call) const;

  /// The scalar rule of an instruction (an opcode's row, or a call's), or
  /// null.
  const DerivativeRule *scalarRule(const llvm::Instruction &I) const;
  /// The scalar rule a direct call of \p F uses (its spelling names a row
  /// and its type fits it), or null.
  const DerivativeRule *scalarRule(const llvm::Function &F) const;
  /// The scalar row named by a spelling or a family name (rows that name
  /// other rows: a several-output row's results).  Never for deciding what
  /// a call is.
  const DerivativeRule *family(llvm::StringRef Name) const;
  /// Whether library function \p F reads or writes through its pointer
  /// arguments and keeps none of them.
  bool keepsNoPointer(const llvm::Function &F) const;
  /// The heap function \p V calls, where it is such a call (an allocation,
  /// a free).
  std::optional<HeapFn> heapCall(const llvm::Value *V) const;
  /// The heap function \p F is, by its spelling or attributes.
  std::optional<HeapFn> heapFunction(const llvm::Function &F) const;
  /// How blocks that library heap function \p F allocates or frees are
  /// released (empty for a user's allocator: its own metadata says).
  HeapRelease releaseOf(const llvm::Function &F) const;
  /// The GPU runtime call \p F is (its spelling and type), if any.
  std::optional<RuntimeCall> runtimeCall(const llvm::Function &F) const;
  /// Whether \p F is a runtime header's C++ wrapper of a runtime row
  /// (cuda_runtime.h's `cudaMalloc<T>`, `cudaMemcpyToSymbol<T>`,
  /// `cudaLaunchKernel<T>`): a definition named as the row.
  bool isRuntimeWrapper(const llvm::Function &F) const;
  /// The buffer routine \p F is (its spelling and type), if any.
  std::optional<std::pair<const BufferRoutine *, BufferSpelling>>
  bufferRoutine(const llvm::Function &F) const;

  /// Whether a direct call of \p F is differentiated by a row of the table
  /// (a scalar rule, a heap function, a buffer routine) rather than
  /// through a body.
  bool hasDerivativeRow(const llvm::Function &F) const {
    return scalarRule(F) || heapFunction(F) || bufferRoutine(F);
  }
  /// The buffer routine named \p Name ("axpy"), for builders that call
  /// another routine of the family; null if none.
  static const BufferRoutine *bufferRoutineNamed(llvm::StringRef Name);
  /// The name routine \p R has in spelling \p S: `cblas_daxpy`, `daxpy_`.
  static std::string spellingOf(const BufferRoutine &R,
                                const BufferSpelling &S);

  /// Which C memory function ("memcpy", "memmove", "memset") \p F defines
  /// under a C++ name, or "" if none: HIP's device headers define
  /// `static void *memcpy(void *, const void *, size_t)` as a byte loop,
  /// whose calls gpuad differentiates as the intrinsic.
  static llvm::StringRef headerMemoryFunction(const llvm::Function &F);

  /// Makes \p Name a spelling of the scalar row \p Family names (a user's
  /// function "like" a row, a wrapper gpuad made).  Returns false when no
  /// row has that name.
  bool addAlias(llvm::StringRef Name, llvm::StringRef Family);
  /// Functions with a registered derivative: classify() answers Custom.
  void addCustom(const llvm::Function &F) { Custom.insert(&F); }
  bool isCustom(const llvm::Function &F) const { return Custom.contains(&F); }

  /// Every spelling of the scalar rows (for tests and documentation).
  void forEachScalarSpelling(
      llvm::function_ref<void(llvm::StringRef, const DerivativeRule &)> Fn)
      const;

private:
  const DerivativeRule *scalarByName(llvm::StringRef Name) const;
  CallClass classifyCallee(const llvm::CallBase &Call,
                           const llvm::Function &Callee) const;

  const TargetHooks *Target;
  /// The module's spellings of scalar rows, beside the built-in ones.
  llvm::StringMap<const DerivativeRule *> Aliases;
  llvm::DenseSet<const llvm::Function *> Custom;
};

} // namespace gpuad

#endif // GPUAD_RULES_CALLTABLE_H
