//===- TapeTransport.h - The tape between the two split-mode calls -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// In split mode the user carries the tape from `__enzyme_augmentfwd` to
/// `__enzyme_reverse`.  Internally the augmented half returns it by value (a
/// struct of the values the backward half needs; a heap pointer for
/// recursive functions).  How the user holds it:
///   - by default, a pointer to a heap block: the augmented call boxes the
///     tape, the reverse call unboxes and frees it;
///   - `enzyme_allocated N`: by value, in the first N bytes of the
///     augmented call's result, passed back by value (however the C ABI
///     lowered the struct: in pieces, or by pointer with byval); a tape
///     larger than N bytes is an error naming both sizes;
///   - `enzyme_tape p`: stored to memory at p and loaded back from there
///     (`__enzyme_augmentsize` says how many bytes).
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

/// Checks that a tape of type \p TapeTy fits the request's transport;
/// reports and returns false otherwise.  Emits nothing.
bool checkTapeFits(const DiffRequest &Req, llvm::Type *TapeTy,
                   Diagnostics &Diags);

/// __enzyme_reverse: the tape, of type \p TapeTy, from the request's
/// operands or memory.
llvm::Value *receiveTape(llvm::IRBuilderBase &B, const DiffRequest &Req,
                         llvm::Type *TapeTy, TargetHooks &Target);

/// __enzyme_augmentfwd: hands \p Tape to the user; returns the scalars the
/// request's result holds for it (none for enzyme_tape), with \p Declared
/// the request's result type (its leading N bytes are the tape for
/// enzyme_allocated).
llvm::SmallVector<llvm::Value *, 8>
sendTape(llvm::IRBuilderBase &B, const DiffRequest &Req, llvm::Value *Tape,
         llvm::Type *Declared, TargetHooks &Target);

/// For enzyme_allocated: the type the request declares for the tape (the
/// result itself, or its first member), or null if it declares none of N
/// bytes.
llvm::Type *declaredTapeType(const DiffRequest &Req, llvm::Type *Declared);

} // namespace gpuad

#endif // GPUAD_REQUESTS_TAPETRANSPORT_H
