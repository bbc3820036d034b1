//===- BufferCallSite.cpp - What every buffer routine's builder sees ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
///
/// The parts of a call site that follow from the row and the spelling
/// alone: how flags are encoded, how long a vector is, where an argument is
/// among the call's operands.
///
//===----------------------------------------------------------------------===//

#include "Rules/CallRule.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace gpuad {

BufferCallSite::~BufferCallSite() = default;

std::optional<unsigned>
BufferRoutine::operand(unsigned K, BufferSpelling::Form Form) const {
  if (Form == BufferSpelling::C)
    return K;
  if (Form == BufferSpelling::Lapacke) // (the status is the result)
    return Args[K].Kind == ArgKind::Info ? std::nullopt
                                         : std::optional<unsigned>(K);
  if (Args[K].Kind == ArgKind::Layout)
    return std::nullopt;
  // cuBLAS passes its handle first.
  return K + (Form == BufferSpelling::Cublas) -
         count_if(Args.take_front(K), [](const CallArgument &A) {
           return A.Kind == ArgKind::Layout;
         });
}

unsigned BufferRoutine::resultOperand() const {
  assert(ReturnsScalar && "the routine returns no scalar");
  return 1 + count_if(Args, [](const CallArgument &A) {
           return A.Kind != ArgKind::Layout;
         });
}

bool BufferRoutine::outputsMayOverlap() const {
  return none_of(
      Args, [](const CallArgument &A) { return A.Kind == ArgKind::Matrix; });
}

Value *BufferCallSite::constant(double X) const {
  return ConstantFP::get(Element, X);
}

Value *BufferCallSite::saysTransposed(IRBuilderBase &B, Value *Flag,
                                      BufferSpelling::Form Form) {
  if (Form == BufferSpelling::C)
    return B.CreateICmpNE(
        Flag, ConstantInt::get(Flag->getType(), blas_flag::NoTrans));
  if (Form == BufferSpelling::Cublas) // CUBLAS_OP_T, CUBLAS_OP_C
    return B.CreateICmpNE(
        Flag, ConstantInt::get(Flag->getType(), cublas_flag::NoTrans));
  // 'N' or 'n'; 'T', 't', 'C', 'c' transpose (a real matrix's conjugate
  // transpose is its transpose).
  return B.CreateAnd(
      B.CreateICmpNE(Flag, ConstantInt::get(Flag->getType(), 'N')),
      B.CreateICmpNE(Flag, ConstantInt::get(Flag->getType(), 'n')));
}

Value *BufferCallSite::saysRowMajor(IRBuilderBase &B, Value *Layout,
                                    BufferSpelling::Form Form) {
  if (!BufferSpelling::passesLayout(Form))
    return B.getFalse();
  return B.CreateICmpEQ(
      Layout, ConstantInt::get(Layout->getType(), blas_flag::RowMajor));
}

Value *BufferCallSite::transposed(unsigned I) {
  assert(Routine.Args[I].Kind == ArgKind::Transpose && "not a flag argument");
  return saysTransposed(B, primal(I), Spelling.Convention);
}

Value *BufferCallSite::transposeFlag(Value *Transposed) {
  if (Spelling.Convention == BufferSpelling::Cublas)
    return B.CreateSelect(Transposed, B.getInt32(cublas_flag::Trans),
                          B.getInt32(cublas_flag::NoTrans));
  if (Spelling.Convention != BufferSpelling::C)
    return B.CreateSelect(Transposed, B.getInt8('T'), B.getInt8('N'));
  // An enum, passed as the call passes its own flags (an int; a char in
  // some programs' own declarations).
  Type *Ty = B.getInt32Ty();
  for (auto [K, Arg] : enumerate(Routine.Args))
    if (Arg.Kind == ArgKind::Layout || Arg.Kind == ArgKind::Transpose)
      Ty = primal(K)->getType();
  return B.CreateSelect(Transposed, ConstantInt::get(Ty, blas_flag::Trans),
                        ConstantInt::get(Ty, blas_flag::NoTrans));
}

Value *BufferCallSite::transposeFlag(bool Transposed) {
  return transposeFlag(B.getInt1(Transposed));
}

Value *BufferCallSite::rowMajor(unsigned I) {
  assert(Routine.Args[I].Kind == ArgKind::Layout && "not a layout argument");
  return saysRowMajor(B, primal(I), Spelling.Convention);
}

Value *BufferCallSite::saysFlag(IRBuilderBase &B, Value *Flag,
                                BufferSpelling::Form Form, int Enum,
                                char Letter) {
  if (Form == BufferSpelling::C)
    return B.CreateICmpEQ(Flag, ConstantInt::get(Flag->getType(), Enum));
  if (Form == BufferSpelling::Cublas) {
    assert((Enum == blas_flag::Upper || Enum == blas_flag::Unit ||
            Enum == blas_flag::Left) &&
           "a flag cuBLAS has no value for");
    int Cublas = Enum == blas_flag::Upper  ? cublas_flag::Upper
                 : Enum == blas_flag::Unit ? cublas_flag::Unit
                                           : cublas_flag::Left;
    return B.CreateICmpEQ(Flag, ConstantInt::get(Flag->getType(), Cublas));
  }
  return B.CreateOr(
      B.CreateICmpEQ(Flag, ConstantInt::get(Flag->getType(), Letter)),
      B.CreateICmpEQ(Flag,
                     ConstantInt::get(Flag->getType(), Letter - 'A' + 'a')));
}

Value *BufferCallSite::upper(unsigned I) {
  assert(Routine.Args[I].Kind == ArgKind::Uplo && "not an uplo argument");
  return saysFlag(B, primal(I), Spelling.Convention, blas_flag::Upper, 'U');
}

Value *BufferCallSite::unitDiagonal(unsigned I) {
  assert(Routine.Args[I].Kind == ArgKind::Diag && "not a diag argument");
  return saysFlag(B, primal(I), Spelling.Convention, blas_flag::Unit, 'U');
}

Value *BufferCallSite::leftSide(unsigned I) {
  assert(Routine.Args[I].Kind == ArgKind::Side && "not a side argument");
  return saysFlag(B, primal(I), Spelling.Convention, blas_flag::Left, 'L');
}

BufferCallSite::StridedMatrix BufferCallSite::strided(unsigned Layout, Value *M,
                                                      Value *Ld) {
  Value *Row = rowMajor(Layout), *One = ConstantInt::get(Ld->getType(), 1);
  return {M, B.CreateSelect(Row, Ld, One), B.CreateSelect(Row, One, Ld)};
}

Value *BufferCallSite::length(unsigned I) {
  const CallArgument &Arg = Routine.Args[I];
  assert(Arg.Kind == ArgKind::Vector && "not a vector argument");
  if (Arg.Transpose < 0)
    return primal(Arg.Length);
  return B.CreateSelect(transposed(Arg.Transpose), primal(Arg.Width),
                        primal(Arg.Length));
}

Value *BufferCallSite::magnitude(Value *Inc) {
  return B.CreateSelect(
      B.CreateICmpSLT(Inc, ConstantInt::get(Inc->getType(), 0)),
      B.CreateNeg(Inc), Inc);
}

} // namespace gpuad
