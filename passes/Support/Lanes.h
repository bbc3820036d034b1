//===- Lanes.h - How width-N shadows are represented ------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// With `enzyme_width N` every active value has N shadows, one per direction
/// ("lane").  They travel as one value:
///   - a scalar int/float primal T has a `<N x T>` vector shadow, so batched
///     arithmetic is SIMD and the host code vectorises;
///   - any other primal T (pointer, vector, aggregate) has an `[N x T]` shadow.
/// Width 1 uses the primal type itself.  Every emitter goes through this
/// class for lane access, so forward, batched forward and (batched) reverse
/// share one representation.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_LANES_H
#define GPUAD_SUPPORT_LANES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Constant;
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

class Lanes {
public:
  explicit Lanes(unsigned Width) : Width(Width) {}

  unsigned width() const { return Width; }

  /// The type that holds the shadows of all lanes of a primal of type \p Ty.
  llvm::Type *shadowType(llvm::Type *Ty) const;
  /// True when the shadows of \p Ty are one SIMD vector (`<N x T>`).
  bool isSimd(llvm::Type *Ty) const;

  /// Lane \p L of \p Shadow (a value of shadowType(\p PrimalTy)).
  llvm::Value *extract(llvm::IRBuilderBase &B, llvm::Value *Shadow,
                       llvm::Type *PrimalTy, unsigned L) const;
  /// Packs one primal-typed value per lane.
  llvm::Value *pack(llvm::IRBuilderBase &B, llvm::Type *PrimalTy,
                    llvm::ArrayRef<llvm::Value *> PerLane) const;
  /// \p V (of the primal type) in every lane.
  llvm::Value *splat(llvm::IRBuilderBase &B, llvm::Value *V) const;
  /// The all-zero shadow of a primal of type \p Ty.
  llvm::Constant *zero(llvm::Type *Ty) const;

  /// Builds a shadow of type shadowType(\p ResultTy) lane by lane: \p Fn gets
  /// lane L of each of \p Shadows (whose primal types are \p ShadowTys).
  llvm::Value *
  map(llvm::IRBuilderBase &B, llvm::Type *ResultTy,
      llvm::ArrayRef<llvm::Value *> Shadows,
      llvm::ArrayRef<llvm::Type *> ShadowTys,
      llvm::function_ref<llvm::Value *(llvm::ArrayRef<llvm::Value *>, unsigned)>
          Fn) const;

  /// \p Partial (primal-typed, the same for every lane) times \p Shadow.
  /// Multiplications by 1 and -1 become copies and negations.
  llvm::Value *scale(llvm::IRBuilderBase &B, llvm::Value *Partial,
                     llvm::Value *Shadow, llvm::Type *PrimalTy) const;
  /// Lane-wise sum of two float shadows; either may be null (zero).
  llvm::Value *add(llvm::IRBuilderBase &B, llvm::Value *A, llvm::Value *Bv,
                   llvm::Type *PrimalTy) const;

private:
  unsigned Width;
};

/// The sum of two adjoints of the same type: floats added, integers that
/// carry float bits added as floats, aggregates element by element.
/// \p View: the floating-point type integer adjoints carry where it is not
/// their lanes' width (a <4 x i32> holding two doubles: <2 x double>).
llvm::Value *addAdjoints(llvm::IRBuilderBase &B, llvm::Value *A,
                         llvm::Value *Bv, llvm::Type *View = nullptr);

} // namespace gpuad

#endif // GPUAD_SUPPORT_LANES_H
