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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

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
  /// A block-wide barrier, or an OpenMP team's synchronisation (a barrier,
  /// entering or leaving a critical section): inactive, but mirrored in
  /// the reverse sweep.
  Barrier,
  /// A scalar rule row (DerivativeRules.h): libm, libdevice, ocml,
  /// intrinsics, complex functions.
  Elementwise,
  /// A routine over buffers (BufferRoutine): BLAS.
  Buffer,
  /// An MPI routine that moves data between processes (MpiRoutine).
  Message,
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
  /// A GPU runtime copy or fill (RuntimeCall), before normalization makes
  /// it a tagged memory intrinsic.
  RuntimeMemory,
  /// A kernel launch from host code: the runtime's call, or the
  /// normalised form (`gpuad.launch`, Normalize/KernelLaunches.h) whose
  /// derivative launches the kernel's derivative kernel.
  KernelLaunch,
  /// Not a row: the call itself decides.
  InlineAsm,
  NestedRequest, ///< an `__enzyme_*` entry point inside differentiated code
  Custom,        ///< a user's registered derivative
  Indirect,      ///< the callee is unknown
  Defined,       ///< a body in this module, differentiated like the caller
  Unknown,       ///< a declaration no row describes
};

/// A call of the CUDA or HIP runtime from host code (CallRules.def's
/// RUNTIME_FUNCTION rows).  Allocations and frees are heap functions
/// (HeapFn::DeviceMalloc, HeapFn::Free); copies and fills become tagged
/// memory intrinsics before differentiation (Normalize/RuntimeMemory.h).
struct RuntimeCall {
  enum Kind : uint8_t {
    Allocate,  ///< (void **p, size_t bytes, ...)
    Free,      ///< (void *p[, stream])
    Copy,      ///< (void *dst, const void *src, size_t bytes, kind)
    CopyAsync, ///< (..., stream)
    Set,       ///< (void *p, int value, size_t bytes)
    SetAsync,  ///< (..., stream)
    Launch,    ///< (kernel, grid, block, args, shared bytes, stream)
    /// (symbol, src, bytes, offset, kind[, stream]): writes a device
    /// variable kernels read (no derivative; ordered against launches).
    SymbolCopy,
    Inactive, ///< devices, streams, events, errors
  };
  Kind K;
  /// "cuda" or "hip".
  const char *Api;

  bool isCuda() const { return Api[0] == 'c'; }
  bool isAsync() const { return K == CopyAsync || K == SetAsync; }
};

/// The name of a kernel launch's normalised form (Normalize/KernelLaunches.h).
inline constexpr const char *NormalizedLaunchName = "gpuad.launch";

/// How a buffer routine's argument is used.
enum class ArgKind : uint8_t {
  Length,           ///< n, m, k: a dimension of the buffers
  Increment,        ///< inc: a vector's stride (negative: from its end)
  LeadingDimension, ///< ld: the stride between a matrix's columns (rows)
  Layout,    ///< CBLAS's order (row or column major); no Fortran argument
  Transpose, ///< op(A): CBLAS's enum, Fortran's character 'N', 'T', 'C'
  Uplo,      ///< the triangle a symmetric or triangular matrix is read from:
             ///< CBLAS's enum, Fortran's character 'U', 'L'
  Diag,      ///< whether a triangular matrix's diagonal is taken as ones:
             ///< CBLAS's enum, Fortran's character 'U' (unit), 'N'
  Side,      ///< which side a triangular matrix multiplies from: CBLAS's
             ///< enum, Fortran's character 'L', 'R'
  Scalar,    ///< a floating-point operand (alpha)
  Vector,    ///< floating-point elements at a stride
  Matrix,    ///< floating-point elements in columns (rows) at a stride
  Info,      ///< LAPACK's status: the integer Fortran's last argument
             ///< points to, which the routine writes
  Pivots,    ///< LAPACK's row interchanges: `Length` integers (1-based:
             ///< row i was swapped with row ipiv[i], in order)
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
  /// The arguments that size a buffer.  A vector has `Length` elements at
  /// stride `Increment`; a matrix is `Length` x `Width` (rows x columns)
  /// with leading dimension `Increment`.  Where `Transpose` names a flag
  /// argument that says "transposed", a vector has `Width` elements and a
  /// matrix is `Width` x `Length` (gemv's x, gemm's A).  Where `Side`
  /// names a side flag, a matrix is square, of order `Length` where it says
  /// left, else `Width` (trmm's A).
  int8_t Length = -1;
  int8_t Increment = -1;
  int8_t Width = -1;
  int8_t Transpose = -1;
  int8_t Side = -1;

  bool isBuffer() const {
    return Kind == ArgKind::Vector || Kind == ArgKind::Matrix;
  }
};

/// The BLAS encodings of layouts and transposes.
namespace blas_flag {
constexpr int RowMajor = 101, ColumnMajor = 102;
constexpr int NoTrans = 111, Trans = 112;
constexpr int Upper = 121;
constexpr int Unit = 132;
constexpr int Left = 141;
} // namespace blas_flag

/// cuBLAS's encodings (cublasOperation_t, cublasFillMode_t,
/// cublasDiagType_t, cublasSideMode_t).
namespace cublas_flag {
constexpr int NoTrans = 0, Trans = 1;
constexpr int Upper = 1;
constexpr int Unit = 1;
constexpr int Left = 0;
} // namespace cublas_flag

/// How one spelling of a buffer routine passes its arguments.
struct BufferSpelling {
  enum Form : uint8_t {
    C,       ///< CBLAS: integers and scalars by value (`cblas_ddot`)
    Fortran, ///< every argument by pointer (`ddot_`), no layout
    Lapacke, ///< LAPACKE: by value, flags as characters, the status
             ///< returned (`LAPACKE_dpotrf`); its derivatives call BLAS and
             ///< LAPACK through the Fortran spelling
    Cublas,  ///< cuBLAS v2 (`cublasDdot_v2`): the handle first, no layout
             ///< (column major), integers and flags (cuBLAS's enums) by
             ///< value, scalars by pointer into host or device memory as
             ///< the handle's pointer mode says, a scalar result written
             ///< through a last pointer, the status returned; buffers are
             ///< device memory, which the derivative touches only through
             ///< cuBLAS and the runtime API
    CublasLegacy, ///< the legacy cuBLAS API (`cublasDdot`, cublas.h): no
                  ///< handle, no layout, scalars by value, flags as
                  ///< characters, a scalar result returned; device memory
  };
  Form Convention = C;
  /// The precision: float or double.
  llvm::Type *Element = nullptr;

  /// Whether spelling \p F passes a layout (CBLAS's and LAPACKE's); the
  /// others are column major.
  static bool passesLayout(Form F) { return F == C || F == Lapacke; }
};

struct BufferRoutine;

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
  /// Calls level-1 routine \p Name on each column (row, in row-major
  /// \p Layout) of \p Rows x \p Columns matrices: \p Args are the
  /// routine's without its length, a matrix and its leading dimension in
  /// place of each vector and its increment.  A routine returning a scalar
  /// returns the sum over the columns (a matrix dot product).
  virtual llvm::Value *eachColumn(llvm::StringRef Name, llvm::Value *Layout,
                                  llvm::Value *Rows, llvm::Value *Columns,
                                  llvm::ArrayRef<llvm::Value *> Args) = 0;
  /// What eachElement does with element k: \p Elements are the addresses
  /// of each vector's element k, \p Scalars the scalars passed along; the
  /// result (a float) is summed where eachElement sums.
  using ElementBody = llvm::function_ref<llvm::Value *(
      llvm::IRBuilderBase &B, llvm::ArrayRef<llvm::Value *> Elements,
      llvm::ArrayRef<llvm::Value *> Scalars)>;
  /// Runs \p Body on element k of each of \p Vectors ((vector, increment)
  /// pairs) for k in [0, \p N), in BLAS's order (a negative increment walks
  /// from the vector's end), with \p Scalars; returns the sum of Body's
  /// results where \p Sums.  The loop is a helper function made once per
  /// module for \p Name: what no BLAS routine computes (asum's signs).
  virtual llvm::Value *
  eachElement(llvm::StringRef Name, llvm::Value *N,
              llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Vectors,
              llvm::ArrayRef<llvm::Value *> Scalars, bool Sums,
              ElementBody Body) = 0;
  /// An n x n matrix: element (i, j) at Base[i RowStride + j ColumnStride]
  /// (column major: 1, ld; row major: ld, 1; its transpose: swapped).
  struct StridedMatrix {
    llvm::Value *Base, *RowStride, *ColumnStride;
  };
  /// Runs \p Body on each (i, j) of a triangle of n x n indices: the upper
  /// one (i <= j) where \p Upper, else the lower, without the diagonal
  /// where \p Strict (both i1).  Body gets the addresses of element (i, j)
  /// of each of \p Matrices, then of element i of each of \p Rows and
  /// element j of each of \p Columns ((vector, increment) pairs, in BLAS's
  /// order), and \p Scalars; the sum of its results is returned where
  /// \p Sums.  A helper function made once per module for \p Name.
  virtual llvm::Value *eachTriangleElement(
      llvm::StringRef Name, llvm::Value *N, llvm::Value *Upper,
      llvm::Value *Strict, llvm::ArrayRef<StridedMatrix> Matrices,
      llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Rows,
      llvm::ArrayRef<std::pair<llvm::Value *, llvm::Value *>> Columns,
      llvm::ArrayRef<llvm::Value *> Scalars, bool Sums, ElementBody Body) = 0;
  /// \p M, leading dimension \p Ld, as a strided matrix in the layout
  /// argument \p Layout says.
  StridedMatrix strided(unsigned Layout, llvm::Value *M, llvm::Value *Ld);
  /// A scratch buffer of \p Count elements, freed once this call's
  /// derivative is done with it.
  virtual llvm::Value *temporary(llvm::Value *Count) = 0;

  /// Whether \p Flag, a transpose flag passed as spelling form \p Form
  /// passes it, says "transposed"; whether \p Layout says row major.
  static llvm::Value *saysTransposed(llvm::IRBuilderBase &B, llvm::Value *Flag,
                                     BufferSpelling::Form Form);
  static llvm::Value *saysRowMajor(llvm::IRBuilderBase &B, llvm::Value *Layout,
                                   BufferSpelling::Form Form);
  /// Whether flag argument \p I says "transposed" (an i1).
  llvm::Value *transposed(unsigned I);
  /// The flag that says \p Transposed (an i1), in this spelling.
  llvm::Value *transposeFlag(llvm::Value *Transposed);
  llvm::Value *transposeFlag(bool Transposed);
  /// Whether layout argument \p I says row major (an i1; Fortran's
  /// matrices are column major).
  llvm::Value *rowMajor(unsigned I);
  /// Whether uplo argument \p I says upper, diag argument \p I unit (i1s).
  llvm::Value *upper(unsigned I);
  llvm::Value *unitDiagonal(unsigned I);
  /// Whether side argument \p I says left (an i1).
  llvm::Value *leftSide(unsigned I);
  /// Applies the row interchanges \p Pivots (LAPACK's, 1-based) 1 to
  /// \p Count to the \p Columns columns of the column-major matrix \p A,
  /// \p Ld: in order (P A), or where \p Inverse last first (P^T A).  LAPACK's
  /// laswp.
  virtual void swapRows(llvm::Value *Columns, llvm::Value *A, llvm::Value *Ld,
                        llvm::Value *Pivots, llvm::Value *Count,
                        bool Inverse) = 0;
  /// Copies the \p Rows x \p Columns matrix \p From into \p To (a
  /// transpose, a change of layout: strides say where elements are).
  virtual void copyMatrix(llvm::Value *Rows, llvm::Value *Columns,
                          StridedMatrix From, StridedMatrix To) = 0;
  /// Stops the program with \p Message where \p Ok (an i1) is false: what
  /// a derivative does not cover, checked when it runs.
  virtual void require(llvm::Value *Ok, llvm::StringRef Message) = 0;

  /// Whether flag \p Flag is CBLAS's \p Enum, or Fortran's character
  /// \p Letter (either case).
  static llvm::Value *saysFlag(llvm::IRBuilderBase &B, llvm::Value *Flag,
                               BufferSpelling::Form Form, int Enum,
                               char Letter);
  /// How many elements vector argument \p I has.
  llvm::Value *length(unsigned I);
  llvm::Value *constant(double X) const;
  /// The absolute value of increment \p Inc: the same elements, walked
  /// from the start (for routines that do nothing at a negative increment,
  /// scal, where the order does not matter).
  llvm::Value *magnitude(llvm::Value *Inc);

protected:
  BufferCallSite(llvm::IRBuilderBase &B, llvm::Type *Element,
                 const BufferRoutine &Routine, BufferSpelling Spelling)
      : B(B), Element(Element), Routine(Routine), Spelling(Spelling) {}

  const BufferRoutine &Routine;
  BufferSpelling Spelling;
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
  /// A LAPACK routine: spelled `<p><Name>_` only (Fortran's interface).
  bool Lapack = false;

  /// Whether a buffer it writes may overlap another argument.  BLAS's
  /// levels 2 and 3 (the routines with a matrix) forbid it: their results
  /// are undefined where an output overlaps an input.  Level 1 works
  /// element by element (axpy(n, a, x, 1, x, 1) is x = (1 + a) x).
  bool outputsMayOverlap() const;
  /// Argument \p K's operand in a call of spelling \p Form; none for the
  /// layout in Fortran and cuBLAS, which have no such argument.
  std::optional<unsigned> operand(unsigned K, BufferSpelling::Form Form) const;
  /// cuBLAS: the operand through which a routine returning a scalar
  /// writes it (its last).
  unsigned resultOperand() const;
};

} // namespace gpuad

#endif // GPUAD_RULES_CALLRULE_H
