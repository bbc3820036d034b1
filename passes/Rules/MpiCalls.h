//===- MpiCalls.h - MPI's communication routines as rows --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// An MPI routine that moves data between processes is a row: its operand
/// count, which operands are buffers, and the runtime functions
/// (runtime/Mpi.h) that compute its tangent and its adjoint, each called
/// with the routine's own operands and then one shadow per buffer (null
/// where the buffer has none).  Forward mode calls the tangent after the
/// routine, once per lane; reverse mode calls the adjoint at the routine's
/// place in the reverse sweep, once per lane.  Both ends of a message run
/// the same derivative code (the program is SPMD: every rank makes the
/// request), so every message of floats carries its derivative, and the
/// analyses take every buffer as carrying derivatives from or to other
/// ranks.
///
/// Queries and setup (ranks, sizes, committing a datatype) are inactive
/// rows (CallRules.def); a barrier's adjoint is a barrier.  A datatype or
/// communicator the differentiated code makes and frees lives until the
/// reverse sweep has run the adjoints that use it.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_MPICALLS_H
#define GPUAD_RULES_MPICALLS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace gpuad {

struct MpiRoutine {
  enum Kind : uint8_t {
    /// Moves data: Tangent and Adjoint are runtime functions.
    Communicate,
    /// Makes a datatype or communicator, written through operand Handle:
    /// reverse mode releases it (Adjoint, given the handle's address) at
    /// the creation's place in the reverse sweep, after every adjoint that
    /// uses it.
    Create,
    /// Releases the handle operand Handle points to: reverse mode leaves
    /// that to the reverse of the creation.
    Release,
    /// Starts a non-blocking operation, its request written through
    /// operand Handle: forward mode posts the tangent (Tangent); reverse
    /// mode keeps a record (Record, returning it) whose Adjoint completes
    /// the transposed operation.
    Post,
    /// Completes the Count requests at operand Handle (Count -1: one; Flag:
    /// MPI_Test's, whether they completed): runtime/Mpi.h's completion
    /// functions, around the call.
    Complete,
  };
  llvm::StringRef Name;
  Kind K;
  unsigned Operands;
  /// The buffers' operand numbers (-1: none).
  int8_t Buffers[2];
  /// The status it writes (-1: none).
  int8_t Status;
  /// Create, Release, Post: the operand pointing to the handle; Complete:
  /// to the requests.
  int8_t Handle;
  /// Called after the routine in forward mode (empty: nothing).
  llvm::StringRef Tangent;
  /// Called in the reverse sweep.
  llvm::StringRef Adjoint;
  /// Complete: the operands of the request count and of the flag (-1:
  /// none).
  int8_t Count = -1, Flag = -1;
  /// Post, and a Communicate row whose adjoint needs what the call did (a
  /// MAX's winners): the runtime function that records it, right after
  /// the call in reverse mode; the adjoint gets the record last.
  llvm::StringRef Record = "";

  llvm::ArrayRef<int8_t> buffers() const {
    return llvm::ArrayRef<int8_t>(Buffers, Buffers[1] >= 0   ? 2
                                           : Buffers[0] >= 0 ? 1
                                                             : 0);
  }
};

/// The row of MPI routine \p Name, if it has one.
const MpiRoutine *mpiRoutine(llvm::StringRef Name);

/// Whether this build of gpuad has MPI's derivatives (it found MPI's
/// headers).
bool mpiDerivativesBuilt();

} // namespace gpuad

#endif // GPUAD_RULES_MPICALLS_H
