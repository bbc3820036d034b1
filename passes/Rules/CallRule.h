//===- CallRule.h - A call's effect and arguments, as data ------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The vocabulary of the call table (CallTable.h).  A call's effect says
/// what it does to derivatives; a buffer routine (BLAS and the libraries
/// after it) describes each argument by kind -- a length, an increment, a
/// scalar, a buffer of `length` elements at stride `increment` it reads or
/// writes -- and gives its derivative as builders over a small view of the
/// call site (BufferCallSite): the tangent and the adjoint are calls of
/// other routines on primal values, shadows and adjoints.  Analyses read the
/// argument kinds; only the builders know what a routine computes.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_CALLRULE_H
#define GPUAD_RULES_CALLRULE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace llvm {
class IRBuilderBase;
class Type;
class Value;
} // namespace llvm

namespace gpuad {

/// What a call does to derivatives.
enum class CallEffect : uint8_t {
  /// Reads no differentiable data and writes none a derivative depends on
  /// (I/O, timing, hashing, annotations, a target's thread ids).
  Inactive,
  /// A block-wide barrier: inactive, but mirrored in the reverse sweep.
  Barrier,
  /// A scalar rule row (DerivativeRules.h): libm, libdevice, ocml,
  /// intrinsics, complex functions.
  Elementwise,
  /// A routine over buffers (BufferRoutine): BLAS.
  Buffer,
  /// Heap functions: the derivative manages the shadow allocation.
  Allocator,
  Deallocator,
  Reallocator,
  /// A library call that only moves pointers and integers inside the
  /// structures it is given: made again on the shadows.
  Structure,
  /// memcpy/memmove and memset (LLVM's intrinsics).
  MemoryTransfer,
  MemorySet,
  /// A warp shuffle: one operand moves between threads.
  Shuffle,
  /// Not a row: the call itself decides.
  InlineAsm,
  NestedRequest, ///< an `__enzyme_*` entry point inside differentiated code
  Custom,        ///< a user's registered derivative
  Indirect,      ///< the callee is unknown
  Defined,       ///< a body in this module, differentiated like the caller
  Unknown,       ///< a declaration no row describes
};

/// How a buffer routine's argument is used.
enum class ArgKind : uint8_t {
  Length,    ///< n: elements of the buffers it sizes
  Increment, ///< inc: the stride of a buffer (negative: from the end)
  Scalar,    ///< a floating-point operand (alpha)
  Buffer,    ///< floating-point elements in memory
};

enum ArgAccess : uint8_t {
  NoAccess = 0,
  Reads = 1,
  Writes = 2,
  ReadsWrites = Reads | Writes,
};

struct CallArgument {
  ArgKind Kind;
  uint8_t Access = Reads;
  /// Buffer: the arguments giving its length and its increment.
  int8_t Length = -1;
  int8_t Increment = -1;
};

/// How one spelling of a buffer routine passes its arguments.
struct BufferSpelling {
  enum Form : uint8_t {
    C,       ///< CBLAS: integers and scalars by value (`cblas_ddot`)
    Fortran, ///< every argument by pointer (`ddot_`)
  };
  Form Convention = C;
  /// The precision: float or double.
  llvm::Type *Element = nullptr;
};

/// What a buffer routine's builders see of one call, for one lane.  Values
/// are the call's: in reverse mode, as they were when the call ran.
class BufferCallSite {
public:
  virtual ~BufferCallSite();
  llvm::IRBuilderBase &B;
  /// The routine's float type.
  llvm::Type *Element;

  /// The value of argument \p I (a Fortran argument's pointee).
  virtual llvm::Value *primal(unsigned I) = 0;
  /// The shadow of argument \p I (a buffer's shadow pointer, a scalar's
  /// tangent); null where it has none (inactive).
  virtual llvm::Value *shadow(unsigned I) = 0;
  /// Whether argument \p I carries a derivative (reverse mode: a scalar
  /// whose adjoint is wanted).
  virtual bool active(unsigned I) = 0;
  /// Buffer \p I as it was when the call ran, and its increment: the buffer
  /// itself where nothing later overwrites it, else a copy saved before the
  /// call (increment 1).  Reverse mode only.
  virtual std::pair<llvm::Value *, llvm::Value *> atCall(unsigned I) = 0;
  /// The call's result, as it returned it (reverse mode).
  virtual llvm::Value *result() = 0;
  /// The adjoint of the returned scalar (reverse mode), or null.
  virtual llvm::Value *resultAdjoint() = 0;
  /// Adds \p Delta to scalar argument \p I's adjoint (reverse mode).
  virtual void addAdjoint(unsigned I, llvm::Value *Delta) = 0;
  /// Calls routine \p Name (same family and precision as this call) with
  /// \p Args given as values; the spelling passes them as it must.
  virtual llvm::Value *call(llvm::StringRef Name,
                            llvm::ArrayRef<llvm::Value *> Args) = 0;
  /// Sets \p N elements of \p Buffer at stride \p Inc to zero.
  virtual void zero(llvm::Value *N, llvm::Value *Buffer, llvm::Value *Inc) = 0;
  llvm::Value *constant(double X) const;

protected:
  BufferCallSite(llvm::IRBuilderBase &B, llvm::Type *Element)
      : B(B), Element(Element) {}
};

/// Forward mode: emits the tangent of the call (its written buffers'
/// shadows, before the primal call runs) and returns the result's tangent
/// (null for a void routine).
using TangentBuilder = llvm::Value *(*)(BufferCallSite & S);
/// Reverse mode: adds the call's adjoint to its operands' adjoints and
/// restores its written buffers' adjoints to before the call.
using AdjointBuilder = void (*)(BufferCallSite &S);

/// One routine over buffers, in every precision and spelling (CallRules.def).
struct BufferRoutine {
  /// The name without precision or spelling ("dot" for `cblas_ddot`).
  const char *Name;
  /// Precisions by BLAS letter: "sd".
  const char *Precisions;
  /// The result is a float of the routine's precision (else void).
  bool ReturnsScalar;
  llvm::ArrayRef<CallArgument> Args;
  /// Null: the routine is linear in its buffers, and its tangent is the
  /// same call on the shadows (JAX's deflinear).
  TangentBuilder Tangent;
  AdjointBuilder Adjoint;
};

} // namespace gpuad

#endif // GPUAD_RULES_CALLRULE_H
