//===- LaneMapping.h - Width-N device derivatives on a lane group -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A width-N request in device code can carry its N directions as N shadows
/// per thread (Batch/Lanes: vectors, registers ~N-fold) or on lanes: the N
/// consecutive lanes of the calling thread's lane group each compute one
/// direction with the width-1 derivative, so a lane holds the registers and
/// the tape of the width-1 derivative.
///
/// At the request the group serves its threads in turn: in round r every
/// lane reads thread r's arguments (warp reads), lane l computes direction l
/// of thread r, and thread r collects the N results.  All lanes of a round
/// compute thread r's primal on the same data, so its control flow is the
/// same in all of them; what must happen once per calling thread happens
/// once:
///   - a write to memory other lanes may read is preceded by a meeting of
///     the group's lanes (every lane's earlier reads are done), and all
///     lanes write the same value;
///   - a primal atomic, volatile access or device printf is performed by
///     the round's first lane, and its result read by the others.
///
/// Where lanes cannot serve -- the function talks to other threads
/// (barriers, shared memory, shuffles, votes), reads its thread index, or
/// does what cannot be made once -- the request keeps the vector form,
/// decided at compile time.  At run time a lane group that is not all
/// active at the request (a divergent caller, a partial last warp), or
/// whose arguments point to a thread's own private memory, does not use
/// lanes: each of its threads computes its directions one after another
/// with the same width-1 code where that is the same as computing them once
/// (the function's writes cannot change what it reads and it has no
/// atomics or output: "replayable"), and with the vector form otherwise.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_LANEMAPPING_H
#define GPUAD_PLANNER_LANEMAPPING_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <utility>

namespace llvm {
class Function;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class DerivativeContext;
class TargetHooks;
struct DerivativeSignature;
struct DiffRequest;

struct LanePlan {
  /// The width-1 derivative made for a lane: its parameters, then the mask
  /// (i64) of the lanes that run it together and the lane (i32) that
  /// performs the calling thread's once-only operations.
  llvm::Function *Variant = nullptr;
  /// The width-1 derivative's signature (Variant's first parameters).
  const DerivativeSignature *Sig = nullptr;
  /// N: the lanes of a group.
  unsigned Width = 0;
  /// A thread may compute its directions one after another (see the file
  /// comment); otherwise the vector form is the run-time fallback.
  bool Replayable = false;
  /// An argument is the calling thread's own memory at every call (a local
  /// variable), so lanes never serve; the directions run one after another.
  bool SerialOnly = false;
};

/// How a request's directions run, and why (for the remark).
struct BatchMapping {
  std::optional<LanePlan> Plan; ///< none: the vector form
  /// "lanes", "serial" (each thread alone, one direction after another),
  /// "vectors"; empty where the request has one direction or is host code.
  std::string Kind;
  /// Why, as the rest of the remark's sentence.
  std::string Why;
  void set(std::string K, std::string W) {
    Kind = std::move(K);
    Why = std::move(W);
  }
};

/// Decides the mapping of width-N request \p Req, whose vector-form
/// derivative is \p Derivative, by the `batch-mapping` option; makes the
/// lane variant when lanes are chosen.  Host code and split mode keep the
/// vector form (a split request's tape holds one thread's N directions).
BatchMapping planBatchMapping(const DiffRequest &Req,
                              llvm::Function &Derivative,
                              DerivativeContext &Ctx);

/// The parts a derivative call returns, in order, as (primal type, number
/// of directions): the primal, then tangents or adjoints.
using ResultParts = llvm::ArrayRef<std::pair<llvm::Type *, unsigned>>;

/// Emits, at \p B (the request's place in its block), the lane-mapped
/// computation of \p Req: the value of each of \p Parts (a width-N part in
/// Batch/Lanes' form).  \p VectorForm emits the vector-form call and
/// returns its parts, for the fallback.  Leaves \p B after the computation.
llvm::SmallVector<llvm::Value *, 4>
emitLaneMapped(llvm::IRBuilderBase &B, const DiffRequest &Req,
               const LanePlan &Plan, ResultParts Parts,
               llvm::function_ref<
                   llvm::SmallVector<llvm::Value *, 4>(llvm::IRBuilderBase &)>
                   VectorForm,
               TargetHooks &Target);

/// A rough count of the 32-bit registers \p F needs: the most values live
/// at one point (predicates and constants not counted).
unsigned estimateRegisters(const llvm::Function &F);

} // namespace gpuad

#endif // GPUAD_PLANNER_LANEMAPPING_H
