//===- FunctionAttributes.h - Attributes generated code keeps ---*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Functions gpuad makes for a function of the program (its derivatives,
/// helpers called from them) keep the attributes that stay true of them:
/// the target's string attributes, nounwind, convergent, ...
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_FUNCTIONATTRIBUTES_H
#define GPUAD_SUPPORT_FUNCTIONATTRIBUTES_H

namespace llvm {
class Function;
} // namespace llvm

namespace gpuad {

/// The parameter attribute of memory only the running thread touches (a
/// device loop's state in its per-thread record): reverse mode adds its
/// adjoints without atomics.
inline constexpr const char *ThreadPrivateAttr = "gpuad-thread-private";

/// The function attribute of a derivative gpuad made (passes that tune
/// generated code, AccumulationOrder, look for it).
inline constexpr const char *DerivativeAttr = "gpuad-derivative";

/// Function attributes of a primal that stay true of its derivatives.
void copyFunctionAttributes(const llvm::Function &From, llvm::Function &To);
/// For a function cloned from \p From with another signature or body
/// (CloneFunctionInto copies every attribute): drops \p To's attributes,
/// then copies those that stay true.
void recopyFunctionAttributes(const llvm::Function &From, llvm::Function &To);

} // namespace gpuad

#endif // GPUAD_SUPPORT_FUNCTIONATTRIBUTES_H
