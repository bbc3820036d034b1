//===- TypeInfo.cpp - Type analysis of values and memory ------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/TypeInfo.h"
#include "Analysis/CopyLayout.h"

#include "Rules/CallTable.h"
#include "Rules/KernelLaunch.h"
#include "Support/DemangledTypes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "gpuad-types"

STATISTIC(NumSolved, "Number of functions whose types were solved");
STATISTIC(NumOverBudget,
          "Number of type analyses stopped by their visit budget (facts "
          "missing: a solver bug)");

using namespace llvm;

namespace gpuad {

/// \p IntegersAreData: whether integer fields are integers (in a constant's
/// initializer), not maybe the bits of a float moved as an integer.
static void addTypeFacts(TypeTree &T, Type *Ty, const DataLayout &DL,
                         TypePath Prefix, bool IntegersAreData = false) {
  if (Ty->isFloatingPointTy()) {
    T.insert(Prefix, ConcreteType::floatOf(Ty));
  } else if (Ty->isPointerTy()) {
    T.insert(Prefix, ConcreteType(ConcreteType::Pointer));
  } else if (Ty->isIntegerTy(1) || (IntegersAreData && Ty->isIntegerTy())) {
    T.insert(Prefix, ConcreteType(ConcreteType::Integer));
  } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
    // Elements of a vector value sit at byte offsets of the value.
    if (!Prefix.empty())
      return;
    int Size = DL.getTypeAllocSize(VT->getElementType());
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      addTypeFacts(T, VT->getElementType(), DL, {int(I) * Size},
                   IntegersAreData);
  } else if (auto *ST = dyn_cast<StructType>(Ty)) {
    if (!Prefix.empty() || ST->isOpaque())
      return;
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I) {
      TypeTree Elem;
      addTypeFacts(Elem, ST->getElementType(I), DL, {}, IntegersAreData);
      for (const auto &[P, C] : Elem.entries()) {
        TypePath Q = P;
        if (Q.empty())
          Q.push_back(SL->getElementOffset(I));
        else if (Q[0] != -1)
          Q[0] += SL->getElementOffset(I);
        T.insert(Q, C);
      }
    }
  } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
    if (!Prefix.empty() || AT->getNumElements() > 64)
      return;
    int Size = DL.getTypeAllocSize(AT->getElementType());
    for (unsigned I = 0; I < AT->getNumElements(); ++I) {
      TypeTree Elem;
      addTypeFacts(Elem, AT->getElementType(), DL, {}, IntegersAreData);
      for (const auto &[P, C] : Elem.entries()) {
        TypePath Q = P;
        if (Q.empty())
          Q.push_back(int(I) * Size);
        else if (Q[0] != -1)
          Q[0] += int(I) * Size;
        T.insert(Q, C);
      }
    }
  }
}

TypeTree treeOfType(Type *Ty, const DataLayout &DL) {
  TypeTree T;
  addTypeFacts(T, Ty, DL, {});
  return T;
}

const TypeSummaries::Summary *TypeSummaries::get(Function &F) {
  constexpr unsigned MaxDepth = 6;
  auto It = Done.find(&F);
  bool Cached = It != Done.end();
  if (Cached && (!It->second.MissedDeeper || It->second.Depth <= Depth)) {
    CutOff |= It->second.MissedDeeper;
    return It->second.S.get();
  }
  if (F.isDeclaration())
    return nullptr;
  if (Depth >= MaxDepth) {
    CutOff = true;
    return nullptr;
  }
  if (!InProgress.insert(&F).second)
    return Cached ? It->second.S.get() : nullptr;
  bool OuterCutOff = CutOff;
  CutOff = false;
  unsigned AtDepth = Depth++;
  Summary S = compute(F);
  --Depth;
  InProgress.erase(&F);
  bool Missed = CutOff;
  CutOff = OuterCutOff || Missed;
  Entry &E = Done[&F];
  if (E.S)
    Replaced.push_back(std::move(E.S));
  E.S = std::make_unique<Summary>(std::move(S));
  E.Depth = AtDepth;
  E.MissedDeeper = Missed;
  return E.S.get();
}

TypeSummaries::Summary TypeSummaries::compute(Function &F) {
  TypeInfo TI(F, Calls, this);
  Summary S;
  // The callees' relations are known by now (or cut off by depth).
  S.Relations = findPathRelations(F, [this](Function &G) {
    const Summary *GS = get(G);
    return GS ? &GS->Relations : nullptr;
  });
  for (Argument &A : F.args())
    S.Params.push_back(TI.tree(&A));
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      if (Value *RV = Ret->getReturnValue())
        S.Return.join(TI.tree(RV));
  return S;
}

/// The floating-point type named \p S ("double", "float"), or null.
static Type *floatNamed(StringRef S, LLVMContext &C) {
  return StringSwitch<Type *>(S.trim())
      .Case("double", Type::getDoubleTy(C))
      .Case("float", Type::getFloatTy(C))
      .Default(nullptr);
}

/// The fact a builtin arithmetic type named \p S gives its bytes: a float,
/// or an integer (not char types: their arrays are storage for anything).
static std::optional<ConcreteType> scalarNamed(StringRef S, LLVMContext &C) {
  S = S.trim();
  if (Type *Float = floatNamed(S, C))
    return ConcreteType::floatOf(Float);
  S.consume_front("unsigned ");
  if (is_contained({"short", "int", "long", "long long"}, S))
    return ConcreteType(ConcreteType::Integer);
  return std::nullopt;
}

/// What a C++ parameter declared `double *` (`float &`, `const double *`,
/// `std::vector<double> const &`) points to: the IR's opaque pointer forgets
/// it, and a body that only moves the bytes (memmove) says nothing.  A
/// std::vector is three pointers to its elements (begin, end, end of
/// storage), in libstdc++ and libc++ alike.
static TypeTree pointeeOfDeclared(StringRef Declared, const Argument &A) {
  const Function &F = *A.getParent();
  TypeTree T;
  StringRef S = Declared.trim();
  // A class passed by value in memory (byval, or the callee's copy): the
  // pointer is to the declared type itself.
  bool InMemory = A.hasByValAttr() || (A.getType()->isPointerTy() &&
                                       !S.ends_with("*") && !S.ends_with("&"));
  bool IsPointer = !InMemory && S.ends_with("*");
  if (!InMemory && !S.consume_back("*") && !S.consume_back("&"))
    return T;
  S = S.trim();
  S.consume_back("const");
  S = S.trim();
  S.consume_front("const ");
  S = S.trim();
  LLVMContext &C = F.getContext();
  if (std::optional<ConcreteType> Scalar = scalarNamed(S, C)) {
    // A reference (or a scalar in memory) is one value; a pointer may be
    // to an array of them.
    T.insert({IsPointer ? -1 : 0}, *Scalar);
    return T;
  }
  // std::array<long, 4ul> (Eigen's index arrays): its elements throughout.
  if (StringRef Array = S;
      Array.consume_front("std::array<") && Array.consume_back(">"))
    if (std::optional<ConcreteType> Scalar =
            scalarNamed(Array.rsplit(',').first, C)) {
      T.insert({-1}, *Scalar);
      return T;
    }
  StringRef Element = S;
  if (Element.consume_front("std::vector<") && Element.consume_back(">")) {
    Element = Element.split(',').first;
    unsigned PtrBytes = F.getDataLayout().getPointerSize();
    if (Type *Float = floatNamed(Element, C))
      for (int Field = 0; Field < 3; ++Field) {
        T.insert({Field * int(PtrBytes)}, ConcreteType(ConcreteType::Pointer));
        T.insert({Field * int(PtrBytes), -1}, ConcreteType::floatOf(Float));
      }
  }
  return T;
}

/// What a parameter's declared source type says of it: a `long` is an
/// integer (Eigen's indices, moved through members as i64 that might
/// otherwise be a double's bits), and a pointer's pointee as above.  The
/// constructor takes what it says of integers as a default only.
static TypeTree treeOfDeclared(StringRef Declared, const Argument &A) {
  if (A.getType()->isIntegerTy()) {
    TypeTree T;
    std::optional<ConcreteType> Scalar = scalarNamed(Declared, A.getContext());
    if (Scalar && Scalar->kind() == ConcreteType::Integer)
      T.insert({}, *Scalar);
    return T;
  }
  return pointeeOfDeclared(Declared, A);
}

/// Whether \p T says that something is a float.
static bool saysFloat(const TypeTree &T) {
  return any_of(T.entries(), [](const auto &E) {
    return E.second.kind() == ConcreteType::Float;
  });
}

SmallVector<TypeTree, 8> TypeInfo::declaredFloats(const Function &F) {
  SmallVector<TypeTree, 8> Trees(F.arg_size());
  if (std::optional<SmallVector<std::string, 8>> Declared =
          declaredArgumentTypes(F, /*WithoutCloneSuffix=*/true))
    for (const Argument &A : F.args()) {
      // Scalars only: a std::array reference may be a member with other
      // data after it, which the derivative's callers know better.
      StringRef D = (*Declared)[A.getArgNo()];
      if (D.contains('<'))
        continue;
      if (TypeTree T = treeOfDeclared(D, A); saysFloat(T))
        Trees[A.getArgNo()] = std::move(T);
    }
  return Trees;
}

TypeInfo::TypeInfo(Function &F, const CallTable &Calls,
                   const ArgumentTypes &Known, TypeSummaries *Callees,
                   const ArgumentTypes &Fallback)
    : F(F), DL(F.getParent()->getDataLayout()), Calls(Calls), Callees(Callees) {
  std::optional<SmallVector<std::string, 8>> Declared =
      declaredArgumentTypes(F);
  // Declared floats are facts; declared integers only a default where
  // nothing else is known (a `uint64_t` may hold a double's bits, punned
  // by memcpy, and then the code says so).
  SmallVector<std::pair<Argument *, TypeTree>, 4> Defaults;
  for (Argument &A : F.args()) {
    Trees[&A] = treeOfType(A.getType(), DL);
    if (auto It = Known.find(&A); It != Known.end())
      Trees[&A].join(It->second);
    TypeTree FromDeclared =
        Declared ? treeOfDeclared((*Declared)[A.getArgNo()], A) : TypeTree();
    if (saysFloat(FromDeclared))
      Trees[&A].join(FromDeclared);
    else if (!FromDeclared.empty())
      Defaults.push_back({&A, std::move(FromDeclared)});
    if (auto It = Fallback.find(&A); It != Fallback.end())
      Defaults.push_back({&A, It->second});
  }
  for (Instruction &I : instructions(F)) {
    if (!I.getType()->isVoidTy())
      Trees[&I] = treeOfType(I.getType(), DL);
    Worklist.insert(&I);
  }
  solve();
  for (auto &[A, T] : Defaults) {
    TypeTree &Now = Trees[A];
    bool Unknown = A->getType()->isIntegerTy()
                       ? Now.at({}).kind() == ConcreteType::Unknown
                       : none_of(Now.entries(), [](const auto &E) {
                           return !E.first.empty();
                         });
    if (Unknown)
      update(A, T);
  }
  solve();
}

TypeTree TypeInfo::tree(const Value *V) const {
  auto It = Trees.find(V);
  if (It != Trees.end())
    return It->second;
  TypeTree T = treeOfType(V->getType(), DL);
  // A constant global holds its initializer: what it points to is the
  // initializer's type (a `const double x[] = {...}` memcpy'd into a local
  // at -O0).
  if (const auto *GV = dyn_cast<GlobalVariable>(V);
      GV && GV->isConstant() && GV->hasDefinitiveInitializer()) {
    // Its integers are integers: a constant's bits are no float's that
    // carries a derivative (code that reads them as one conflicts).
    Type *VT = GV->getValueType();
    TypeTree Pointee;
    addTypeFacts(Pointee, VT, DL, {}, /*IntegersAreData=*/true);
    T.join(VT->isAggregateType() || VT->isVectorTy()
               ? Pointee
               : Pointee.underPrefix({0}));
  }
  return T;
}

/// Integer operations whose operands and result are integers (not addresses,
/// not float bits).
static bool isIntegerArithmetic(unsigned Opcode) {
  switch (Opcode) {
  case Instruction::Mul:
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
    return true;
  default:
    return false;
  }
}

bool TypeInfo::isInteger(const Value *V) const {
  if (!V->getType()->isIntOrIntVectorTy())
    return false;
  ConcreteType C = typeOf(V);
  // An integer here and a pointer there (a list's sentinel taken for a
  // node): never a float's bits.
  if (C.kind() == ConcreteType::Integer ||
      (C.kind() == ConcreteType::Anything && !C.mayBeFloat()))
    return true;
  // Results of integer arithmetic are integers unless proven otherwise.
  if (const auto *I = dyn_cast<Instruction>(V)) {
    if (isIntegerArithmetic(I->getOpcode()))
      return C.kind() == ConcreteType::Unknown;
    switch (I->getOpcode()) {
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::ICmp:
    case Instruction::FPToSI:
    case Instruction::FPToUI:
    case Instruction::ZExt:
    case Instruction::SExt:
    case Instruction::Trunc:
      return C.kind() == ConcreteType::Unknown;
    default:
      break;
    }
  }
  return isa<ConstantInt>(V);
}

bool TypeInfo::isAddress(const Value *V) const {
  return V->getType()->isIntegerTy() &&
         typeOf(V).kind() == ConcreteType::Pointer;
}

bool TypeInfo::mayHoldPointers(const Value *Ptr) const {
  bool AnyKnown = false;
  TypeTree Tree = tree(Ptr);
  for (const auto &[Path, C] : Tree.entries()) {
    if (Path.empty())
      continue;
    if (Path.size() > 1 || C.kind() == ConcreteType::Pointer ||
        C.kind() == ConcreteType::Anything)
      return true;
    AnyKnown |= C.isKnown();
  }
  return !AnyKnown;
}

void TypeInfo::update(const Value *V, const TypeTree &T) {
  if (isa<Constant>(V) || T.empty())
    return;
  auto It = Trees.find(V);
  if (It == Trees.end())
    return;
  bool Changed;
  Type *Ty = V->getType();
  if (Ty->isFloatingPointTy() || Ty->isPointerTy()) {
    // The IR type of a float or pointer value is the truth about the value
    // itself; only facts about what lies behind it can be learned.
    TypeTree Behind;
    for (const auto &[P, C] : T.entries())
      if (!P.empty())
        Behind.insert(P, C);
    Changed = It->second.join(Behind);
  } else {
    Changed = It->second.join(T);
  }
  if (!Changed)
    return;
  // V grew: everything that relates to V must be revisited.
  if (auto *I = dyn_cast<Instruction>(const_cast<Value *>(V)))
    Worklist.insert(I);
  for (const User *U : V->users()) {
    if (auto *UI = dyn_cast<Instruction>(const_cast<User *>(U)))
      Worklist.insert(UI);
    // A copy at an offset from V learns from V's elements too
    // (floatArrayAround).
    if (isa<GetElementPtrInst>(U))
      for (const User *Copy : U->users())
        if (isa<MemTransferInst>(Copy))
          Worklist.insert(cast<Instruction>(const_cast<User *>(Copy)));
  }
}

void TypeInfo::update(const Value *V, const TypePath &P, ConcreteType C) {
  TypeTree T;
  T.insert(P, C);
  update(V, T);
}

void TypeInfo::solve() {
  // Each update moves a tree up a finite lattice, so this terminates; the
  // bound guards against a bug turning into a hang.
  unsigned Budget = 64 * (Worklist.size() + 16);
  while (!Worklist.empty() && Budget--) {
    Instruction *I = Worklist.pop_back_val();
    visit(*I);
  }
  ++NumSolved;
  if (!Worklist.empty()) {
    ++NumOverBudget;
    LLVM_DEBUG(dbgs() << "gpuad-types: " << F.getName()
                      << ": visit budget exhausted, " << Worklist.size()
                      << " instructions left\n");
  }
}

/// The type a TBAA access tag names, if it is a scalar gpuad cares about.
static ConcreteType typeFromTBAA(const MDNode *Tag, Type *AccessTy) {
  if (!Tag || Tag->getNumOperands() < 2)
    return ConcreteType();
  const auto *TypeNode = dyn_cast<MDNode>(Tag->getOperand(1));
  if (!TypeNode || TypeNode->getNumOperands() < 1)
    return ConcreteType();
  const auto *Name = dyn_cast<MDString>(TypeNode->getOperand(0));
  if (!Name)
    return ConcreteType();
  StringRef N = Name->getString();
  if (N == "double" || N == "float" || N == "long double" || N == "_Float16" ||
      N == "__fp16" || N == "half" || N == "__bf16") {
    if (AccessTy->isFloatingPointTy())
      return ConcreteType::floatOf(AccessTy);
    LLVMContext &Ctx = AccessTy->getContext();
    if (N == "double")
      return ConcreteType::floatOf(Type::getDoubleTy(Ctx));
    if (N == "float")
      return ConcreteType::floatOf(Type::getFloatTy(Ctx));
    return ConcreteType();
  }
  if (N == "any pointer" || N.starts_with("p1 ") || N.starts_with("p2 ") ||
      N.starts_with("p3 ") || N == "vtable pointer")
    return ConcreteType(ConcreteType::Pointer);
  if (N == "int" || N == "long" || N == "long long" || N == "short" ||
      N == "bool" || N == "_Bool" || N.starts_with("unsigned ") ||
      N == "__int128")
    return ConcreteType(ConcreteType::Integer);
  return ConcreteType(); // "omnipotent char" and unknown names say nothing
}

/// Whether the local \p Obj is copied to or from as bytes (memcpy,
/// memmove, or the headers' functions of those names): C's sanctioned type
/// pun, `memcpy(&u, &d, 8)` with a uint64_t u, whose integer accesses hold a
/// double's bits.
static bool isPunnedLocal(const Value *Obj) {
  if (!isa<AllocaInst>(Obj))
    return false;
  for (const User *U : Obj->users()) {
    const auto *Call = dyn_cast<CallBase>(U);
    if (!Call)
      continue;
    if (isa<MemTransferInst>(Call))
      return true;
    if (const Function *Callee = Call->getCalledFunction()) {
      StringRef Kind = CallTable::headerMemoryFunction(*Callee);
      if (Kind == "memcpy" || Kind == "memmove")
        return true;
    }
  }
  return false;
}

void TypeInfo::applyTBAA(Instruction &I, Value *Ptr, Type *AccessTy) {
  ConcreteType C = typeFromTBAA(I.getMetadata(LLVMContext::MD_tbaa), AccessTy);
  if (C.kind() == ConcreteType::Unknown || AccessTy->isAggregateType() ||
      AccessTy->isVectorTy())
    return;
  // An integer's tag on a local that bytes are copied into says what the
  // program declared, not what the bits are.
  if (C.kind() == ConcreteType::Integer &&
      isPunnedLocal(getUnderlyingObject(Ptr)))
    return;
  update(Ptr, {0}, C);
}

void TypeInfo::visitMemoryAccess(Instruction &I, Value *Ptr, Value *Val) {
  Type *Ty = Val->getType();
  update(Ptr, {}, ConcreteType(ConcreteType::Pointer));
  applyTBAA(I, Ptr, Ty);
  TypeTree PtrT = tree(Ptr);
  TypeTree ValT = tree(Val);
  if (Ty->isAggregateType() || Ty->isVectorTy()) {
    int Size = DL.getTypeStoreSize(Ty);
    update(Val, PtrT.shifted(0, 0, Size));
    update(Ptr, ValT.shifted(0, 0, Size));
    return;
  }
  // A scalar: the value is the memory at offset 0, and what it points to is
  // what the memory at offset 0 points to.
  update(Val, PtrT.child({0}));
  update(Ptr, ValT.underPrefix({0}));
}

/// The size of the struct member whose address \p GEP takes (its last index
/// selects a field), or -1.
static int memberSize(const GEPOperator &GEP, const DataLayout &DL) {
  if (GEP.getNumIndices() < 2)
    return -1;
  gep_type_iterator Last = gep_type_begin(GEP);
  for (unsigned K = 1; K < GEP.getNumIndices(); ++K)
    ++Last;
  if (!Last.isStruct())
    return -1;
  TypeSize Size = DL.getTypeAllocSize(GEP.getResultElementType());
  if (Size.isScalable() || Size.getFixedValue() > uint64_t(TypeTree::MaxOffset))
    return -1;
  return int(Size.getFixedValue());
}

void TypeInfo::visitGEP(Instruction &I) {
  auto &GEP = cast<GEPOperator>(I);
  Value *Base = GEP.getPointerOperand();
  update(Base, {}, ConcreteType(ConcreteType::Pointer));
  for (Use &Idx : GEP.indices())
    update(Idx.get(), {}, ConcreteType(ConcreteType::Integer));

  unsigned BitWidth = DL.getIndexTypeSizeInBits(GEP.getType());
  SmallMapVector<Value *, APInt, 4> VarOffsets;
  APInt ConstOffset(BitWidth, 0);
  if (!GEP.collectOffset(DL, BitWidth, VarOffsets, ConstOffset))
    return;
  int64_t C = ConstOffset.getSExtValue();
  if (VarOffsets.empty()) {
    // A struct member's address describes that member's bytes only: what
    // one side knows beyond them (an array member's every-offset fact, the
    // members around it) is not the other's.
    int Member = memberSize(GEP, DL);
    update(&I, tree(Base).shifted(-C, C, Member).clipped(Member));
    update(Base, tree(&I).clipped(Member).shifted(C));
    return;
  }
  // Run-time indices: relate positions within one element of the innermost
  // stride, assuming the base points at an element boundary.
  int64_t Stride = 0;
  for (auto &[V, Scale] : VarOffsets) {
    int64_t S = Scale.getSExtValue();
    Stride = Stride ? std::gcd(Stride, S < 0 ? -S : S) : (S < 0 ? -S : S);
  }
  if (Stride <= 0 || Stride > TypeTree::MaxOffset)
    return;
  int64_t Rem = ((C % Stride) + Stride) % Stride;
  // Stepping over floats (`gep double, p, i`), the elements are those
  // floats: the array ends where the facts disagree (what follows is the
  // rest of an enclosing object).  Over anything else every element's facts
  // fold together, so elements that differ (a union) stay visible as such.
  Type *ElemTy = GEP.getSourceElementType();
  bool FloatElements = ElemTy->isFloatingPointTy() &&
                       DL.getTypeAllocSize(ElemTy) == uint64_t(Stride);
  auto ElementOf = [&](const TypeTree &T) {
    return FloatElements ? T.arrayElement(Stride) : T.folded(Stride);
  };
  TypeTree BaseElem = ElementOf(tree(Base));
  // Offset o from the GEP is (o + Rem) mod Stride from an element start.
  TypeTree GepFromBase;
  for (const auto &[P, T] : BaseElem.entries()) {
    TypePath Q = P;
    if (Q[0] != -1)
      Q[0] = ((Q[0] - Rem) % Stride + Stride) % Stride;
    GepFromBase.insert(Q, T);
  }
  update(&I, GepFromBase);
  TypeTree BaseFromGep;
  TypeTree GepElem = ElementOf(tree(&I));
  for (const auto &[P, T] : GepElem.entries()) {
    TypePath Q = P;
    if (Q[0] != -1)
      Q[0] = (Q[0] + Rem) % Stride;
    BaseFromGep.insert(Q, T);
  }
  update(Base, BaseFromGep);
}

void TypeInfo::visitMemTransfer(Value *Dst, Value *Src, Value *Len) {
  update(Dst, {}, ConcreteType(ConcreteType::Pointer));
  update(Src, {}, ConcreteType(ConcreteType::Pointer));
  update(Len, {}, ConcreteType(ConcreteType::Integer));
  int Size = -1;
  if (auto *CI = dyn_cast<ConstantInt>(Len))
    Size = CI->getLimitedValue(TypeTree::MaxOffset);
  update(Dst, tree(Src).clipped(Size));
  update(Src, tree(Dst).clipped(Size));
  // A copy at a constant offset into an array of one float type moves
  // those floats (memcpy(b + 12, a, n) where b's elements are read in a
  // loop: their type is known at b's start only).
  for (auto [P, Other] : {std::pair(Dst, Src), std::pair(Src, Dst)})
    if (Type *Float = floatArrayAround(P))
      update(Other, {0}, ConcreteType::floatOf(Float));
}

Type *TypeInfo::floatArrayAround(Value *P) const {
  APInt Offset(DL.getIndexTypeSizeInBits(P->getType()), 0);
  const Value *Base = P->stripAndAccumulateConstantOffsets(
      DL, Offset, /*AllowNonInbounds=*/true);
  if (Base == P || !Offset.isStrictlyPositive())
    return nullptr;
  CopiedFloats F = copiedFloats(tree(Base));
  if (!F.Throughout || F.OtherData || F.FirstMixed ||
      Offset.getZExtValue() % DL.getTypeStoreSize(F.Throughout))
    return nullptr;
  return F.Throughout;
}

/// Byte offset of an aggregate index path.
static std::optional<int> aggregateOffset(Type *AggTy, ArrayRef<unsigned> Idx,
                                          const DataLayout &DL) {
  int Offset = 0;
  Type *Ty = AggTy;
  for (unsigned I : Idx) {
    if (auto *ST = dyn_cast<StructType>(Ty)) {
      Offset += DL.getStructLayout(ST)->getElementOffset(I);
      Ty = ST->getElementType(I);
    } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      Offset += I * DL.getTypeAllocSize(AT->getElementType());
      Ty = AT->getElementType();
    } else {
      return std::nullopt;
    }
  }
  return Offset;
}

void TypeInfo::visitAggregate(Instruction &I) {
  auto ElementRelation = [&](Value *Agg, Value *Elem, int Offset, int Size) {
    TypeTree ElemT = tree(Elem);
    if (Elem->getType()->isAggregateType() || Elem->getType()->isVectorTy()) {
      update(Elem, tree(Agg).shifted(-Offset, Offset, Size));
      update(Agg, ElemT.shifted(Offset));
    } else {
      update(Elem, {}, tree(Agg).at({Offset}));
      update(Agg, {Offset}, ElemT.at({}));
    }
  };
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    if (auto Off = aggregateOffset(EV->getAggregateOperand()->getType(),
                                   EV->getIndices(), DL))
      ElementRelation(EV->getAggregateOperand(), EV, *Off,
                      DL.getTypeAllocSize(EV->getType()));
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    if (auto Off = aggregateOffset(IV->getType(), IV->getIndices(), DL))
      ElementRelation(
          IV, IV->getInsertedValueOperand(), *Off,
          DL.getTypeAllocSize(IV->getInsertedValueOperand()->getType()));
    update(IV, tree(IV->getAggregateOperand()));
  } else if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
    auto *Idx = dyn_cast<ConstantInt>(EE->getIndexOperand());
    int Size = DL.getTypeAllocSize(EE->getType());
    int Off = Idx ? int(Idx->getZExtValue()) * Size : -1;
    ElementRelation(EE->getVectorOperand(), EE, Off, Size);
  } else if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
    auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2));
    int Size = DL.getTypeAllocSize(IE->getOperand(1)->getType());
    int Off = Idx ? int(Idx->getZExtValue()) * Size : -1;
    ElementRelation(IE, IE->getOperand(1), Off, Size);
    update(IE, tree(IE->getOperand(0)));
  }
}

void TypeInfo::visitIntegerOp(Instruction &I) {
  Type *Ty = I.getType();
  if (!Ty->isIntOrIntVectorTy())
    return;
  if (isIntegerArithmetic(I.getOpcode())) {
    // Arithmetic on integers: the result and the (non-constant) operands.
    update(&I, {}, ConcreteType(ConcreteType::Integer));
    for (Value *Op : I.operands())
      update(Op, {}, ConcreteType(ConcreteType::Integer));
    return;
  }
  auto IsPtr = [&](Value *V) {
    return typeOf(V).kind() == ConcreteType::Pointer;
  };
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub: {
    // Address arithmetic through integers: p + k and p - k are addresses,
    // p - q is a byte count.  Operands are not constrained (they may be
    // addresses).
    bool P0 = IsPtr(I.getOperand(0)), P1 = IsPtr(I.getOperand(1));
    bool IsSub = I.getOpcode() == Instruction::Sub;
    if ((P0 && !P1) || (P1 && !IsSub && !P0))
      update(&I, {}, ConcreteType(ConcreteType::Pointer));
    else if (IsSub && P0 && P1)
      update(&I, {}, ConcreteType(ConcreteType::Integer));
    else if (typeOf(I.getOperand(0)).kind() == ConcreteType::Integer &&
             typeOf(I.getOperand(1)).kind() == ConcreteType::Integer)
      update(&I, {}, ConcreteType(ConcreteType::Integer));
    return;
  }
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
    // Masking with a constant keeps what the other operand holds (sign-bit
    // tricks on float bits, alignment tricks on pointers).
    for (unsigned K = 0; K < 2; ++K)
      if (isa<Constant>(I.getOperand(1 - K))) {
        update(&I, {}, typeOf(I.getOperand(K)));
        update(I.getOperand(K), {}, typeOf(&I));
      }
    return;
  default:
    return;
  }
}

/// What argument \p K of \p Call learns from the callee, within the bytes
/// its parameter may reach (a reference's `dereferenceable(N)`): a `T &`
/// says nothing of the memory around the T, though an array's every-offset
/// fact, or a caller's view of the same address, would spread over it.
static TypeTree clipToArgument(const CallBase &Call, unsigned K,
                               const TypeTree &T) {
  uint64_t Bytes = Call.getParamDereferenceableBytes(K);
  if (!Bytes || Bytes > uint64_t(TypeTree::MaxOffset))
    return T;
  return T.clipped(int(Bytes));
}

void TypeInfo::visitCall(CallBase &Call) {
  CallClass Class = Calls.classify(Call);
  if (Class.isHeap() && Call.getType()->isPointerTy())
    for (Value *Arg : Call.args())
      if (Arg->getType()->isIntegerTy())
        update(Arg, {}, ConcreteType(ConcreteType::Integer));
  if (Class.Effect == CallEffect::Buffer)
    return visitBufferCall(Call, *Class.Routine, Class.Spelling);
  if (std::optional<KernelLaunch> L = KernelLaunch::match(Call))
    return visitKernelLaunch(*L);
  Function *Callee = Call.getCalledFunction();
  // A memcpy or memmove the headers define (CUDA's is a function of its
  // own, kept out of line until gpuad makes it the intrinsic): the same
  // bytes at both ends, as the intrinsic.
  if (Callee && Call.arg_size() == 3) {
    StringRef Kind = CallTable::headerMemoryFunction(*Callee);
    if (Kind == "memcpy" || Kind == "memmove") {
      visitMemTransfer(Call.getArgOperand(0), Call.getArgOperand(1),
                       Call.getArgOperand(2));
      if (!Call.getType()->isVoidTy())
        update(&Call, tree(Call.getArgOperand(0)));
      return;
    }
  }
  if (Value *Arg = Call.getReturnedArgOperand()) {
    update(&Call, tree(Arg));
    update(Arg, tree(&Call));
  }
  if (!Callees || !Callee || Callee->isDeclaration() || Callee->isVarArg())
    return;
  const TypeSummaries::Summary *S = Callees->get(*Callee);
  if (!S)
    return;
  for (unsigned K = 0; K < Call.arg_size() && K < S->Params.size(); ++K)
    if (Call.getArgOperand(K)->getType() == Callee->getArg(K)->getType())
      update(Call.getArgOperand(K), clipToArgument(Call, K, S->Params[K]));
  if (!Call.getType()->isVoidTy())
    update(&Call, S->Return);
  applyRelations(Call, S->Relations);
}

void TypeInfo::visitKernelLaunch(const KernelLaunch &L) {
  // The kernel's parameters as its host stub's name declares them: what
  // its pointers point to (a kernel reads and writes device memory as its
  // types say).
  Function &Stub = L.stub();
  std::optional<SmallVector<std::string, 8>> Declared =
      declaredArgumentTypes(Stub);
  if (!Declared)
    return;
  // (An aggregate's leaves are what their IR types say.)
  for (auto [K, A] : enumerate(L.arguments()))
    if (!A.Aggregate && K < Stub.arg_size())
      if (TypeTree T = treeOfDeclared((*Declared)[K], *Stub.getArg(K));
          !T.empty())
        update(L.arg(A.First), T);
}

void TypeInfo::visitBufferCall(CallBase &Call, const BufferRoutine &R,
                               const BufferSpelling &S) {
  // Buffers hold floats of the routine's precision at every offset (an
  // increment is a run-time stride); lengths and increments are integers,
  // in memory for the Fortran spelling.
  ConcreteType Float = ConcreteType::floatOf(S.Element);
  ConcreteType Int(ConcreteType::Integer);
  // cuBLAS passes scalars by pointer, and writes a scalar result through
  // its last argument.
  bool ByPointer = S.Convention == BufferSpelling::Fortran;
  bool Cublas = S.Convention == BufferSpelling::Cublas;
  for (auto [K, Arg] : enumerate(R.Args)) {
    std::optional<unsigned> I = R.operand(K, S.Convention);
    if (!I)
      continue;
    Value *Op = Call.getArgOperand(*I);
    bool IsFloat = Arg.isBuffer() || Arg.Kind == ArgKind::Scalar;
    if (Arg.isBuffer())
      update(Op, {-1}, Float);
    else if (Arg.Kind == ArgKind::Pivots)
      update(Op, {-1}, Int);
    else if (ByPointer || (Cublas && Arg.Kind == ArgKind::Scalar))
      update(Op, {0}, IsFloat ? Float : Int);
    else
      update(Op, {}, IsFloat ? Float : Int);
  }
  if (R.ReturnsScalar && Cublas)
    update(Call.getArgOperand(R.resultOperand()), {0}, Float);
  else if (R.ReturnsScalar)
    update(&Call, {}, Float);
}

void TypeInfo::applyRelations(CallBase &Call, const PathRelations &Relations) {
  auto Base = [&](const AccessPath &P) -> Value * {
    if (P.Arg == AccessPath::ResultArg)
      return Call.getType()->isVoidTy() ? nullptr : &Call;
    if (unsigned(P.Arg) >= Call.arg_size())
      return nullptr;
    Value *Op = Call.getArgOperand(P.Arg);
    return Op->getType()->isPointerTy() ? Op : nullptr;
  };
  // What is known of the pointer a path names, and the converse.
  auto View = [&](const AccessPath &P, Value *B) {
    TypeTree T = tree(B);
    if (!P.Loads.empty())
      T = T.child(TypePath(P.Loads.begin(), P.Loads.end()));
    return P.Offset ? T.shifted(-P.Offset, P.Offset) : T;
  };
  auto Learn = [&](const AccessPath &P, Value *B, const TypeTree &T) {
    TypeTree U = P.Offset ? T.shifted(P.Offset) : T;
    if (!P.Loads.empty())
      U = U.underPrefix(TypePath(P.Loads.begin(), P.Loads.end()));
    else if (P.Arg != AccessPath::ResultArg)
      U = clipToArgument(Call, P.Arg, U);
    update(B, U);
  };
  for (const PathRelation &R : Relations) {
    Value *BaseA = Base(R.A), *BaseB = Base(R.B);
    if (!BaseA || !BaseB)
      continue;
    TypeTree A = View(R.A, BaseA), B = View(R.B, BaseB);
    if (R.K == PathRelation::SameBytes) {
      A = A.clipped(R.Length);
      B = B.clipped(R.Length);
    }
    Learn(R.A, BaseA, B);
    if (!R.OneWay)
      Learn(R.B, BaseB, A);
  }
}

void TypeInfo::visit(Instruction &I) {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return visitMemoryAccess(I, LI->getPointerOperand(), LI);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return visitMemoryAccess(I, SI->getPointerOperand(), SI->getValueOperand());
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    visitMemoryAccess(I, RMW->getPointerOperand(), RMW->getValOperand());
    update(RMW, tree(RMW->getValOperand()));
    update(RMW->getValOperand(), tree(RMW));
    return;
  }
  if (isa<GetElementPtrInst>(I))
    return visitGEP(I);
  if (auto *MT = dyn_cast<MemTransferInst>(&I))
    return visitMemTransfer(MT->getRawDest(), MT->getRawSource(),
                            MT->getLength());
  if (auto *MS = dyn_cast<MemSetInst>(&I)) {
    update(MS->getRawDest(), {}, ConcreteType(ConcreteType::Pointer));
    update(MS->getLength(), {}, ConcreteType(ConcreteType::Integer));
    return;
  }
  if (auto *Call = dyn_cast<CallBase>(&I))
    return visitCall(*Call);
  if (isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I) ||
      (isa<CastInst>(I) && (isa<BitCastInst>(I) || isa<AddrSpaceCastInst>(I) ||
                            isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I)))) {
    // The result and the data operands describe the same bytes.
    unsigned First = isa<SelectInst>(I) ? 1 : 0;
    for (unsigned K = First; K < I.getNumOperands(); ++K) {
      Value *Op = I.getOperand(K);
      bool SameShape = Op->getType()->getPrimitiveSizeInBits() ==
                           I.getType()->getPrimitiveSizeInBits() ||
                       isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I);
      if (!SameShape)
        continue;
      TypeTree OpT = tree(Op);
      update(&I, OpT);
      update(Op, tree(&I));
    }
    if (auto *Sel = dyn_cast<SelectInst>(&I))
      update(Sel->getCondition(), {}, ConcreteType(ConcreteType::Integer));
    return;
  }
  if (isa<ExtractValueInst>(I) || isa<InsertValueInst>(I) ||
      isa<ExtractElementInst>(I) || isa<InsertElementInst>(I))
    return visitAggregate(I);
  if (isa<FPToSIInst>(I) || isa<FPToUIInst>(I) || isa<TruncInst>(I) ||
      isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<ICmpInst>(I)) {
    update(&I, {}, ConcreteType(ConcreteType::Integer));
    if (!isa<FPToSIInst>(I) && !isa<FPToUIInst>(I) && !isa<ICmpInst>(I))
      update(I.getOperand(0), {}, ConcreteType(ConcreteType::Integer));
    return;
  }
  if (isa<SIToFPInst>(I) || isa<UIToFPInst>(I))
    return update(I.getOperand(0), {}, ConcreteType(ConcreteType::Integer));
  if (isa<BinaryOperator>(I))
    return visitIntegerOp(I);
}

void TypeInfo::print(raw_ostream &OS) const {
  auto PrintOne = [&](const Value &V) {
    TypeTree T = tree(&V);
    if (T.empty())
      return;
    OS << "  ";
    V.printAsOperand(OS, /*PrintType=*/false);
    OS << ": ";
    T.print(OS);
    OS << "\n";
  };
  for (const Argument &A : F.args())
    PrintOne(A);
  for (const Instruction &I : instructions(F))
    if (!I.getType()->isVoidTy())
      PrintOne(I);
}

} // namespace gpuad
