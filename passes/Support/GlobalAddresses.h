//===- GlobalAddresses.h - Where a global's address goes --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A global reached through a pointer stored elsewhere (`double *gp = &g;`
/// and a store through `*gp`) names no global where it is written.  The
/// memory classes and the module-wide choice of which globals carry
/// derivatives both need to know where such addresses are kept.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_GLOBALADDRESSES_H
#define GPUAD_SUPPORT_GLOBALADDRESSES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Constant;
class GlobalVariable;
class Use;
} // namespace llvm

namespace gpuad {

/// The globals whose addresses constant \p C (an initializer) holds.
void collectAddressedGlobals(
    const llvm::Constant *C,
    llvm::SmallVectorImpl<const llvm::GlobalVariable *> &Out);

/// Whether some use of \p GV's address, seen through GEPs and casts (and
/// not counting llvm.used), is one \p Counts accepts.
bool anyAddressUse(const llvm::GlobalVariable &GV,
                   llvm::function_ref<bool(const llvm::Use &)> Counts);

/// Whether \p GV's address goes where a scan of the stores, copies and
/// calls naming it cannot follow: into memory or another global's
/// initializer, through an integer, a PHI or a select, out of a function.
/// A store through such a copy of the address names no global.
bool addressEscapes(const llvm::GlobalVariable &GV);

} // namespace gpuad

#endif // GPUAD_SUPPORT_GLOBALADDRESSES_H
