//===- CustomDerivatives.h - Derivatives the user registered ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A function with a registered derivative (Registrations.h) is never
/// differentiated: where gpuad would generate a derivative of it, it
/// generates a small adapter with gpuad's own signature for that
/// derivative key (DerivativeSignature) whose body calls the user's
/// functions.  So every caller -- a request, a call inside a forward or a
/// reverse derivative, host or device -- uses the user's rule without
/// knowing it; the adapters are inlined by the cleanup (GPU: always).
///
/// The user's functions follow Enzyme's convention, by f's parameter types:
///  - each parameter of f, followed by a shadow for a pointer (forward mode:
///    for a float too, its tangent).  Integers come alone, or -- Enzyme's
///    older form, told by the parameter count -- twice (the value again).
///    A pointer constant at the call may come without its shadow (Enzyme's
///    form for constant arguments), again told by the count;
///  - forward (`register_derivative`): returns the return's tangent, or
///    `{primal, tangent}`;  a split-forward registration
///    (`register_splitderivative`) serves forward mode too: its augmented
///    function takes f's arguments alone, its forward one also the tape;
///  - augmented (`register_gradient[1]`): returns the tape, or f's result,
///    or `{tape, result}` / `{tape, result, shadow of a returned pointer}`,
///    or nothing; it runs f's effects itself;
///  - reverse (`register_gradient[2]`): the parameters as above, the
///    adjoint of a float result, then (optionally) the tape; returns the
///    adjoints of f's float parameters in order (one alone, or a struct).
/// A derivative key that needs what a user's function cannot give (a
/// shadow for a constant pointer argument; width > 1; a mode the
/// registration does not cover) and a registration whose types
/// do not fit f are errors naming the registration global.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_PLANNER_CUSTOMDERIVATIVES_H
#define GPUAD_PLANNER_CUSTOMDERIVATIVES_H

#include "Support/DerivativeKey.h"
#include "Support/DerivativeSignature.h"

namespace llvm {
class Function;
class Type;
} // namespace llvm

namespace gpuad {

class Diagnostics;
struct CustomRule;

/// Whether \p Rule covers \p Key's mode (forward, or any reverse form), and
/// \p Key is one a user's function can serve; reports why not.
bool checkCustomRule(const CustomRule &Rule, const DerivativeKey &Key,
                     Diagnostics &Diags);

/// Forward mode: \p D (signature \p Sig) calls the user's forward function.
bool emitCustomForward(const CustomRule &Rule, const DerivativeKey &Key,
                       llvm::Function &D, const DerivativeSignature &Sig,
                       Diagnostics &Diags);

/// The type of the tape the user's augmented function returns, or an empty
/// struct when it returns none.
llvm::Type *customTapeType(const CustomRule &Rule, const llvm::Function &F);

/// Split mode: the augmented and backward halves call the user's augmented
/// and reverse functions.
bool emitCustomAugmented(const CustomRule &Rule, const DerivativeKey &Key,
                         llvm::Function &D, const DerivativeSignature &Sig,
                         Diagnostics &Diags);
bool emitCustomBackward(const CustomRule &Rule, const DerivativeKey &Key,
                        llvm::Function &D, const DerivativeSignature &Sig,
                        Diagnostics &Diags);

/// Combined reverse mode from the two halves: \p D calls \p Aug, then
/// \p Bwd with the seed 1 and the tape.
void emitCombinedFromHalves(llvm::Function &D, const DerivativeSignature &Sig,
                            const DerivativeKey &Key, llvm::Function &Aug,
                            const DerivativeSignature &AugSig,
                            llvm::Function &Bwd,
                            const DerivativeSignature &BwdSig);

} // namespace gpuad

#endif // GPUAD_PLANNER_CUSTOMDERIVATIVES_H
