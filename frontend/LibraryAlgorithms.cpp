//===- LibraryAlgorithms.cpp - Thrust algorithm calls as map kernels ------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "LibraryAlgorithms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <optional>
#include <utility>

using namespace clang;

namespace gpuad {

namespace {

/// A function's or class's name qualified by its enclosing namespaces and
/// classes, inline namespaces (thrust's versioned one) left out.
std::string qualifiedName(const NamedDecl &D) {
  std::string Name = D.getNameAsString();
  for (const DeclContext *C = D.getDeclContext(); C; C = C->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (!NS->isInline())
        Name = NS->getNameAsString() + "::" + Name;
    } else if (const auto *R = dyn_cast<RecordDecl>(C)) {
      Name = R->getNameAsString() + "::" + Name;
    }
  }
  return Name;
}

const CXXRecordDecl *recordOf(QualType T) {
  return T.getCanonicalType()->getAsCXXRecordDecl();
}

/// The record's qualified name, or "".
std::string recordName(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD ? qualifiedName(*RD) : "";
}

/// \p T as the user wrote it, without `struct`.
std::string typeName(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return T.getAsString(Policy);
}

/// The scalar kind gpuad's map kernels pass \p T as: f32, f64, i<bits>,
/// ptr; "" for anything else.
std::string typeCode(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType();
  if (T->isReferenceType() || T->isPointerType())
    return "ptr";
  if (const auto *ET = T->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType().getCanonicalType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    if (BT->getKind() == BuiltinType::Float)
      return "f32";
    if (BT->getKind() == BuiltinType::Double)
      return "f64";
    if (BT->isInteger()) {
      uint64_t Bits = Ctx.getTypeSize(T);
      if (Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64)
        return "i" + std::to_string(Bits);
    }
  }
  return "";
}

/// The type of the elements iterator type \p It visits on the device, or
/// null: a raw pointer, thrust::device_ptr<T> or thrust::pointer<T, ...>
/// (a pointer's size), or device_vector's iterator around one.
QualType deviceElementType(QualType It, const ASTContext &Ctx,
                           bool &RawPointer) {
  It = It.getCanonicalType().getUnqualifiedType();
  RawPointer = false;
  if (It->isPointerType()) {
    RawPointer = true;
    return It->getPointeeType();
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      It->getAsCXXRecordDecl());
  if (!Spec || Ctx.getTypeSize(It) != Ctx.getTypeSize(Ctx.VoidPtrTy) ||
      Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  std::string Name = qualifiedName(*Spec);
  QualType Arg = Spec->getTemplateArgs()[0].getAsType();
  if (Name == "thrust::device_ptr" || Name == "thrust::pointer")
    return Arg;
  if (Name == "thrust::detail::normal_iterator") {
    bool Raw;
    QualType T = deviceElementType(Arg, Ctx, Raw);
    return Raw ? QualType() : T;
  }
  return QualType();
}

/// Whether \p T is an execution policy that runs on the device's default
/// stream: thrust::device (and .nosync), CUDA's or HIP's.
bool isDevicePolicy(QualType T, std::string &Why) {
  std::string Name = recordName(T.getNonReferenceType());
  if (Name == "thrust::cuda_cub::par_t" ||
      Name == "thrust::cuda_cub::par_nosync_t" ||
      Name == "thrust::hip_rocprim::par_t" ||
      Name == "thrust::hip_rocprim::par_nosync_t")
    return true;
  Why = Name.find("execute_on_stream") != std::string::npos
            ? "its execution policy names a stream (thrust::cuda::par.on); "
              "gpuad supports thrust::device"
            : "its execution policy '" + Name +
                  "' is not thrust::device (thrust::cuda::par)";
  return false;
}

/// Whether \p T is addition: thrust::plus, cuda::std::plus or std::plus.
bool isPlus(QualType T) {
  std::string Name = recordName(T);
  return Name == "thrust::plus" || Name == "cuda::std::plus" ||
         Name == "std::plus";
}

/// The functor's scalar leaves at their byte offsets, or why they cannot
/// be listed.
bool addLeaves(QualType T, uint64_t Offset, const ASTContext &Ctx,
               llvm::SmallVectorImpl<std::pair<uint64_t, std::string>> &Out,
               std::string &Why) {
  T = T.getCanonicalType();
  if (Out.size() > 64) {
    Why = "it has more than 64 scalar fields";
    return false;
  }
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    uint64_t Step = Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
    for (uint64_t I = 0, N = AT->getZExtSize(); I < N; ++I)
      if (!addLeaves(AT->getElementType(), Offset + I * Step, Ctx, Out, Why))
        return false;
    return true;
  }
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl()) {
    if (RD->isUnion()) {
      Why = "it holds a union";
      return false;
    }
    if (RD->getNumVBases()) {
      Why = "it has a virtual base";
      return false;
    }
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
    for (const CXXBaseSpecifier &B : RD->bases())
      if (!addLeaves(B.getType(),
                     Offset +
                         L.getBaseClassOffset(B.getType()->getAsCXXRecordDecl())
                             .getQuantity(),
                     Ctx, Out, Why))
        return false;
    for (const FieldDecl *F : RD->fields()) {
      if (F->isBitField()) {
        Why = "it has a bit-field";
        return false;
      }
      uint64_t At = Offset + L.getFieldOffset(F->getFieldIndex()) / 8;
      if (!addLeaves(F->getType(), At, Ctx, Out, Why))
        return false;
    }
    return true;
  }
  std::string Code = typeCode(T, Ctx);
  if (Code.empty()) {
    Why = "it has a field of type '" + typeName(T, Ctx) +
          "' (gpuad passes pointers, integers, float and double)";
    return false;
  }
  Out.push_back({Offset, Code});
  return true;
}

/// The functor's `operator()` that the library calls with \p Arity
/// arguments of types \p Elements, or null.
const CXXMethodDecl *callOperator(const CXXRecordDecl &RD, unsigned Arity,
                                  llvm::ArrayRef<QualType> Elements,
                                  ASTContext &Ctx) {
  auto Matches = [&](const CXXMethodDecl &M) {
    if (M.getNumParams() != Arity)
      return false;
    for (unsigned I = 0; I < Arity; ++I)
      if (!Ctx.hasSameUnqualifiedType(
              M.getParamDecl(I)->getType().getNonReferenceType(), Elements[I]))
        return false;
    return true;
  };
  const CXXMethodDecl *Any = nullptr;
  DeclarationName Name = Ctx.DeclarationNames.getCXXOperatorName(OO_Call);
  for (const NamedDecl *D : RD.lookup(Name)) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
      if (Matches(*M))
        return M;
      if (M->getNumParams() == Arity)
        Any = M;
    } else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      for (const FunctionDecl *S : FT->specializations())
        if (const auto *M = dyn_cast<CXXMethodDecl>(S); M && Matches(*M))
          return M;
    }
  }
  return Any;
}

/// One call's record, built field by field.
struct Record {
  std::string Callee, Algorithm, Form, Status = "ok";
  std::string Inputs, Output = "-", Operator = "-", Passing = "-";
  std::string Functor = "0,1,empty", Leaves = "-";
  /// The algorithm's parameters: P policy, I iterator, F functor, T init,
  /// B binary operation.
  std::string Params;

  bool fail(std::string Why) {
    Status = std::move(Why);
    return false;
  }
  std::string kernelName() const {
    std::string Key = Form + "|" + Inputs + "|" + Output + "|" + Operator +
                      "|" + Passing + "|" + Functor + "|" + Leaves;
    return "__gpuad_map_" + Form + "_" +
           llvm::utohexstr(llvm::xxh3_64bits(Key));
  }
  std::string line() const {
    return Callee + "\t" + Algorithm + "\t" + Form + "\t" + kernelName() +
           "\t" + Status + "\t" + Inputs + "\t" + Output + "\t" + Operator +
           "\t" + Passing + "\t" + Functor + "\t" + Leaves + "\t" + Params;
  }
};

/// Fills \p R's functor fields from the functor argument \p Arg, called
/// with elements of types \p Elements; \p Returns is the type its result
/// must have ("" for any).
bool describeFunctor(Record &R, const Expr &Arg,
                     llvm::ArrayRef<QualType> Elements, llvm::StringRef Returns,
                     ASTContext &Ctx, MangleContext &Mangle) {
  QualType T = Arg.getType().getCanonicalType().getUnqualifiedType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return R.fail("its function is not a class object (a functor or lambda)");
  const CXXMethodDecl *Op = callOperator(*RD, Elements.size(), Elements, Ctx);
  if (!Op)
    return R.fail("gpuad finds no operator() of '" + typeName(T, Ctx) +
                  "' taking the elements");
  // How each element reaches operator(): by value (of the element's type)
  // or by reference.
  R.Passing.clear();
  for (unsigned I = 0; I < Elements.size(); ++I) {
    QualType P = Op->getParamDecl(I)->getType();
    if (P->isReferenceType()) {
      R.Passing += "r";
    } else if (Ctx.hasSameUnqualifiedType(P, Elements[I])) {
      R.Passing += "v";
    } else {
      return R.fail("its operator() takes '" + typeName(P, Ctx) +
                    "' for elements of type '" + typeName(Elements[I], Ctx) +
                    "'");
    }
  }
  QualType Ret = Op->getReturnType();
  std::string RetCode = Ret->isVoidType() ? "void" : typeCode(Ret, Ctx);
  if (RetCode.empty() || RetCode == "ptr")
    return R.fail("its operator() returns '" + typeName(Ret, Ctx) +
                  "' (gpuad's map kernels take float, double or integer "
                  "results)");
  if (!Returns.empty() && RetCode != Returns)
    return R.fail("its operator() returns '" + typeName(Ret, Ctx) +
                  "', not the type of the result's elements");
  R.Passing += ":" + RetCode;
  {
    llvm::raw_string_ostream OS(R.Operator);
    R.Operator.clear();
    Mangle.mangleName(GlobalDecl(Op), OS);
  }
  // The functor's bytes travel to the map kernel as its scalar leaves.
  if (!RD->canPassInRegisters())
    return R.fail("its functor '" + typeName(T, Ctx) +
                  "' has a copy constructor or destructor of its own");
  llvm::SmallVector<std::pair<uint64_t, std::string>, 8> Leaves;
  std::string Why;
  if (!addLeaves(T, 0, Ctx, Leaves, Why))
    return R.fail("gpuad cannot pass its functor '" + typeName(T, Ctx) +
                  "': " + Why);
  uint64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
  uint64_t Align = Ctx.getTypeAlignInChars(T).getQuantity();
  // How the host ABI passes it (x86-64: up to 16 bytes in registers, one
  // IR argument per eightbyte; more in memory, byval).
  std::string How = RD->isEmpty() ? "empty" : Size > 16 ? "memory" : "regs";
  R.Functor = std::to_string(Size) + "," + std::to_string(Align) + "," + How;
  R.Leaves.clear();
  for (auto &[Offset, Code] : Leaves)
    R.Leaves +=
        (R.Leaves.empty() ? "" : ";") + std::to_string(Offset) + ":" + Code;
  if (R.Leaves.empty())
    R.Leaves = "-";
  return true;
}

/// The element type of iterator argument \p Arg, its code in \p Code, or
/// a failure in \p R.
std::optional<QualType> elementOf(Record &R, const Expr &Arg, ASTContext &Ctx,
                                  std::string &Code) {
  bool Raw;
  QualType T = deviceElementType(Arg.getType(), Ctx, Raw);
  if (T.isNull()) {
    R.fail("its iterator '" + typeName(Arg.getType(), Ctx) +
           "' is not a pointer to device memory (a raw pointer, "
           "thrust::device_ptr or a device_vector's iterator)");
    return std::nullopt;
  }
  Code = typeCode(T, Ctx);
  if (Code.empty() || Code == "ptr") {
    R.fail("its elements are of type '" + typeName(T, Ctx) +
           "' (gpuad's map kernels take float, double or integer elements)");
    return std::nullopt;
  }
  return T.getUnqualifiedType();
}

} // namespace

std::string describeAlgorithmCall(const CallExpr &Call,
                                  const FunctionDecl &Callee, ASTContext &Ctx,
                                  MangleContext &Mangle) {
  std::string Name = qualifiedName(Callee);
  Record R;
  R.Algorithm = Name;
  if (Name == "thrust::transform")
    R.Form = "transform";
  else if (Name == "thrust::for_each")
    R.Form = "for_each";
  else if (Name == "thrust::reduce")
    R.Form = "reduce";
  else if (Name == "thrust::transform_reduce")
    R.Form = "transform_reduce";
  else
    return "";
  {
    llvm::raw_string_ostream OS(R.Callee);
    Mangle.mangleName(GlobalDecl(&Callee), OS);
  }
  llvm::SmallVector<const Expr *, 8> Args;
  for (const Expr *A : Call.arguments())
    Args.push_back(A->IgnoreImplicit());
  if (Args.empty())
    return "";
  // With a policy first; without, the iterators' system decides: device
  // iterators run on the device, raw pointers on the host (plain host code,
  // differentiated as such: no record).
  std::string Why;
  bool Policy =
      Callee.getNumParams() > 0 &&
      recordName(Callee.getParamDecl(0)->getType().getNonReferenceType())
              .find("execution_policy") != std::string::npos;
  if (Policy) {
    if (!isDevicePolicy(Args[0]->getType(), Why))
      R.fail(Why);
    Args.erase(Args.begin());
  } else {
    bool Raw = true;
    if (Args.empty() ||
        deviceElementType(Args[0]->getType(), Ctx, Raw).isNull() || Raw)
      return "";
  }
  R.Params = Policy ? "P" : "";
  auto Done = [&] { return R.line(); };
  if (R.Status != "ok")
    return Done();

  std::string In0, In1, Out;
  if (R.Form == "transform") {
    if (Args.size() != 4 && Args.size() != 5)
      return Done();
    bool Binary = Args.size() == 5;
    R.Params += Binary ? "IIIIF" : "IIIF";
    if (Binary)
      R.Form = "transform2";
    std::optional<QualType> A = elementOf(R, *Args[0], Ctx, In0);
    std::optional<QualType> B = Binary ? elementOf(R, *Args[2], Ctx, In1) : A;
    if (!A || !B || !elementOf(R, *Args[Binary ? 3 : 2], Ctx, Out))
      return Done();
    R.Inputs = Binary ? In0 + "," + In1 : In0;
    R.Output = Out;
    llvm::SmallVector<QualType, 2> Elements = {*A};
    if (Binary)
      Elements.push_back(*B);
    describeFunctor(R, *Args[Binary ? 4 : 3], Elements, Out, Ctx, Mangle);
    return Done();
  }
  if (R.Form == "for_each") {
    if (Args.size() != 3)
      return Done();
    R.Params += "IIF";
    std::optional<QualType> A = elementOf(R, *Args[0], Ctx, In0);
    if (!A)
      return Done();
    R.Inputs = In0;
    describeFunctor(R, *Args[2], {*A}, "", Ctx, Mangle);
    return Done();
  }
  std::optional<QualType> A = elementOf(R, *Args[0], Ctx, In0);
  if (!A)
    return Done();
  R.Inputs = In0;
  // reduce(first, last[, init[, op]]), transform_reduce(first, last, f,
  // init, op): the sum's type is init's.
  bool Transform = R.Form == "transform_reduce";
  unsigned InitAt = Transform ? 3 : 2;
  R.Params += std::string(Transform ? "IIF" : "II") +
              (Args.size() > InitAt ? "T" : "") +
              (Args.size() > InitAt + 1 ? "B" : "");
  // (init converts to the callee's T.)
  QualType Sum = Args.size() > InitAt
                     ? Callee.getParamDecl(InitAt + (Policy ? 1 : 0))->getType()
                     : *A;
  R.Output = typeCode(Sum, Ctx);
  if (R.Output.empty() || R.Output == "ptr") {
    R.fail("its result is of type '" + typeName(Sum, Ctx) + "'");
    return Done();
  }
  if (Args.size() > InitAt + 1 && !isPlus(Args[InitAt + 1]->getType())) {
    R.fail("it reduces with '" + typeName(Args[InitAt + 1]->getType(), Ctx) +
           "' (gpuad differentiates sums: thrust::plus)");
    return Done();
  }
  if (Transform)
    describeFunctor(R, *Args[2], {*A}, R.Output, Ctx, Mangle);
  else if (R.Output != In0)
    R.fail("it sums elements of type '" + typeName(*A, Ctx) + "' into '" +
           typeName(Sum, Ctx) + "'");
  return Done();
}

} // namespace gpuad
