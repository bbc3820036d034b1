//===- TapeTransport.h - The tape between the two split-mode calls -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// In split mode the user carries the tape from `__enzyme_augmentfwd` to
/// `__enzyme_reverse`.  Internally the augmented half returns it by value (a
/// struct of the values the backward half needs; a heap pointer for
/// recursive functions).  How the user holds it:
///   - by default, in the type the user declares for it: the augmented
///     call's whole result, or its first member when the call also returns
///     the primal.  A pointer type holds a pointer to a heap block (the
///     augmented call boxes the tape, the reverse call unboxes and frees
///     it).  Any other type (a struct of bytes, an integer, an array) holds
///     the tape's bytes when they fit, else such a pointer in its first
///     bytes; a type too small even for a pointer is an error naming both
///     sizes.  The bytes a type holds are its memory image up to its first
///     padding byte: what survives the user's copies of it;
///   - `enzyme_allocated N`: by value, in the first N bytes of the
///     augmented call's result; a tape larger than N bytes is an error
///     naming both sizes;
///   - `enzyme_tape p`: stored to memory at p and loaded back from there
///     (`__enzyme_augmentsize` says how many bytes).
/// __enzyme_reverse receives the tape however the C ABI passed the user's
/// value: a pointer, pieces in order, or a `byval` copy, and decides by the
/// same rule, from the same declared type, how it is held.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REQUESTS_TAPETRANSPORT_H
#define GPUAD_REQUESTS_TAPETRANSPORT_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class Diagnostics;
class TargetHooks;
struct DiffRequest;

/// Bytes of a tape of type \p TapeTy.
uint64_t tapeBytes(const DiffRequest &Req, llvm::Type *TapeTy);

/// __enzyme_augmentfwd: the part of the declared result \p Declared that
/// holds the tape (\p ReturnsMore: the call also returns the primal or a
/// shadow), or null if there is none.  enzyme_tape: null.
llvm::Type *declaredTapeType(const DiffRequest &Req, llvm::Type *Declared,
                             bool ReturnsMore);

/// Checks that a tape of type \p TapeTy fits the request's transport (for
/// __enzyme_augmentfwd, in \p UserTy, the declared tape type); reports and
/// returns false otherwise.  Emits nothing.
bool checkTapeFits(const DiffRequest &Req, llvm::Type *TapeTy,
                   llvm::Type *UserTy, Diagnostics &Diags);

/// __enzyme_reverse: the tape, of type \p TapeTy, from the request's
/// operands or memory.
llvm::Value *receiveTape(llvm::IRBuilderBase &B, const DiffRequest &Req,
                         llvm::Type *TapeTy, TargetHooks &Target);

/// __enzyme_augmentfwd: hands \p Tape to the user in \p UserTy (the
/// declared tape type); returns its scalars, in order (none for
/// enzyme_tape, which stores it).
llvm::SmallVector<llvm::Value *, 8>
sendTape(llvm::IRBuilderBase &B, const DiffRequest &Req, llvm::Value *Tape,
         llvm::Type *UserTy, TargetHooks &Target);

} // namespace gpuad

#endif // GPUAD_REQUESTS_TAPETRANSPORT_H
