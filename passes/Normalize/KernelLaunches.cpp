//===- KernelLaunches.cpp - Kernel launches as calls with values ----------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Normalize/KernelLaunches.h"

#include "Normalize/RuntimeMemory.h"
#include "Rules/CallTable.h"
#include "Support/DemangledTypes.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ModRef.h"

#define DEBUG_TYPE "gpuad-calls"

using namespace llvm;

STATISTIC(NumLaunches, "Kernel launches normalised");

namespace gpuad {

// ---- Normalising and lowering ----------------------------------------------

/// How one kernel parameter reaches a launch: a scalar of type \p Scalar,
/// or an aggregate of \p Shape.
struct LaunchedParam {
  Type *Scalar = nullptr;
  AggregateShape Shape;
};

/// The runtime launch \p Call's array of argument pointers.
static Value *argumentArray(const CallBase &Call) {
  return Call.getArgOperand(Call.arg_size() - 3);
}

/// The number of entries of \p Call's argument array, where it says.
static std::optional<unsigned> arrayEntries(const CallBase &Call) {
  const auto *Array =
      dyn_cast<AllocaInst>(argumentArray(Call)->stripPointerCasts());
  if (!Array)
    return std::nullopt;
  if (const auto *Ty = dyn_cast<ArrayType>(Array->getAllocatedType()))
    return Ty->getNumElements();
  if (const auto *N = dyn_cast<ConstantInt>(Array->getArraySize());
      N && Array->getAllocatedType()->isPointerTy())
    return N->getZExtValue();
  return std::nullopt;
}

/// The type of the memory entry \p K of \p Call's argument array points
/// to, where it is a local variable of its own (the stub's copy of the
/// argument): only that says what a struct the host ABI passes in pieces
/// holds.
static Type *slotType(const CallBase &Call, unsigned K) {
  const DataLayout &DL = Call.getModule()->getDataLayout();
  Value *Array = argumentArray(Call)->stripPointerCasts();
  uint64_t Want = K * DL.getPointerSize();
  Value *Stored = nullptr;
  unsigned Stores = 0;
  auto Consider = [&](User *W, Value *Slot) {
    if (auto *SI = dyn_cast<StoreInst>(W);
        SI && SI->getPointerOperand() == Slot) {
      Stored = SI->getValueOperand();
      ++Stores;
    }
  };
  for (User *U : Array->users()) {
    auto *GEP = dyn_cast<GetElementPtrInst>(U);
    if (!GEP) {
      if (Want == 0)
        Consider(U, Array);
      continue;
    }
    APInt Off(DL.getIndexTypeSizeInBits(Array->getType()), 0);
    if (GEP->accumulateConstantOffset(DL, Off) && Off == Want)
      for (User *W : GEP->users())
        Consider(W, GEP);
  }
  if (Stores != 1 || !Stored->getType()->isPointerTy())
    return nullptr;
  APInt Off(DL.getIndexTypeSizeInBits(Stored->getType()), 0);
  const auto *Local = dyn_cast<AllocaInst>(
      Stored->stripAndAccumulateConstantOffsets(DL, Off, true));
  return Local && Off.isZero() ? Local->getAllocatedType() : nullptr;
}

/// The parameters the kernel of runtime launch \p Call takes, in
/// \p Params, or why gpuad cannot follow them.
static std::string launchedParams(const CallBase &Call,
                                  SmallVectorImpl<LaunchedParam> &Params) {
  Function *Stub = launchedStub(Call.getArgOperand(0));
  if (!Stub)
    return "the kernel is a pointer gpuad cannot resolve to a kernel";
  const DataLayout &DL = Stub->getDataLayout();
  std::optional<SmallVector<std::string, 8>> Declared =
      demangledParameterTypes(Stub->getName());
  std::optional<unsigned> Entries = arrayEntries(Call);
  unsigned N = Declared ? Declared->size() : Entries.value_or(Stub->arg_size());
  if (Entries && *Entries != N)
    return ("its argument array has " + Twine(*Entries) +
            " entries for a kernel of " + Twine(N) + " parameters")
        .str();
  // The stub takes one IR argument per parameter unless the host ABI split
  // a struct into pieces.
  bool OneForOne = Stub->arg_size() == N;
  for (unsigned K = 0; K < N; ++K) {
    auto Unsupported = [&](StringRef Why) {
      return ("its argument " + Twine(K + 1) + " is passed by value as an " +
              "aggregate gpuad cannot read: " + Why)
          .str();
    };
    // (Without a declaration, an integer parameter may be a struct the
    // ABI passed as one: only the stub's copy can say.)
    bool Whole = Declared && isPassedWhole((*Declared)[K]);
    Type *Ty = slotType(Call, K);
    if (OneForOne && Stub->getArg(K)->hasByValAttr())
      Ty = Stub->getArg(K)->getParamByValType();
    else if (!Ty && OneForOne && Whole)
      Ty = Stub->getArg(K)->getType();
    if (!Ty)
      return Unsupported("the memory the runtime reads it from is not a "
                         "variable of its type");
    LaunchedParam P;
    if (Ty->isAggregateType() || Ty->isVectorTy()) {
      std::string Why;
      std::optional<AggregateShape> Shape = aggregateShape(Ty, DL, Why);
      if (!Shape)
        return Unsupported(Why);
      P.Shape = std::move(*Shape);
    } else if (launchParamKind(Ty) == LaunchParam::Unsupported) {
      return Unsupported("its type is neither a pointer, an integer nor a "
                         "float or double");
    } else {
      P.Scalar = Ty;
    }
    Params.push_back(std::move(P));
  }
  return "";
}

std::string whyLaunchNotNormalized(const CallBase &Call) {
  SmallVector<LaunchedParam, 8> Params;
  std::string Why = launchedParams(Call, Params);
  return Why.empty() ? "internal error: the launch was not normalised" : Why;
}

bool normalizeKernelLaunches(Function &F, const CallTable &Calls) {
  bool Changed = false;
  Module &M = *F.getParent();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionCallee Form = M.getOrInsertFunction(
      KernelLaunch::FormName,
      FunctionType::get(Type::getInt32Ty(C), {Ptr, Ptr}, /*isVarArg=*/true));
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallBase>(&I);
      Function *Runtime = Call ? Call->getCalledFunction() : nullptr;
      std::optional<RuntimeCall> R =
          Runtime ? Calls.runtimeCall(*Runtime) : std::nullopt;
      SmallVector<LaunchedParam, 8> Params;
      if (!R || R->K != RuntimeCall::Launch ||
          !launchedParams(*Call, Params).empty())
        continue;
      // -O0's `alloca ptr, i64 N` as an array type, which SROA splits (the
      // launch's values are then those stored for it).
      if (auto *AI = dyn_cast<AllocaInst>(argumentArray(*Call));
          AI && AI->isArrayAllocation() &&
          isa<ConstantInt>(AI->getArraySize())) {
        auto *Whole = new AllocaInst(
            ArrayType::get(
                AI->getAllocatedType(),
                cast<ConstantInt>(AI->getArraySize())->getZExtValue()),
            AI->getAddressSpace(), nullptr, AI->getAlign(), "",
            AI->getIterator());
        Whole->takeName(AI);
        AI->replaceAllUsesWith(Whole);
        AI->eraseFromParent();
      }
      unsigned N = Call->arg_size();
      IRBuilder<> B(Call);
      SmallVector<Value *, 16> Ops = {Runtime};
      for (unsigned K = 0; K < N; ++K)
        if (K != N - 3)
          Ops.push_back(Call->getArgOperand(K));
      Value *Array = argumentArray(*Call);
      LaunchOperands Args;
      for (auto [K, P] : enumerate(Params)) {
        Value *Slot =
            B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(Ptr, Array, K));
        if (P.Scalar) {
          Args.scalar(B.CreateLoad(P.Scalar, Slot));
          continue;
        }
        // An aggregate: its leaves.
        LaunchArgument Shape;
        Shape.Aggregate = true;
        Shape.Size = P.Shape.Size;
        Shape.Align = P.Shape.Align;
        SmallVector<Value *, 8> Leaves;
        for (auto [Offset, Ty] : P.Shape.Leaves) {
          Shape.Offsets.push_back(Offset);
          Leaves.push_back(B.CreateAlignedLoad(
              Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, Offset),
              commonAlignment(Align(P.Shape.Align), Offset)));
        }
        Args.aggregate(Shape, Leaves);
      }
      Ops.append(Args.values().begin(), Args.values().end());
      CallInst *New = B.CreateCall(Form, Ops);
      New->setDebugLoc(Call->getDebugLoc());
      KernelLaunch::setArguments(*New, Args.arguments());
      // The runtime function, the handle and the stream are no memory the
      // launch touches.
      for (unsigned K : {0u, 1u, N - 1}) {
        New->addParamAttr(K, Attribute::ReadNone);
        New->addParamAttr(
            K, Attribute::getWithCaptureInfo(C, CaptureInfo::none()));
      }
      LLVM_DEBUG(dbgs() << "gpuad-calls: " << *Call << " -> " << *New << "\n");
      replaceRuntimeCall(*Call, New);
      ++NumLaunches;
      Changed = true;
    }
  return Changed;
}

/// What bits [\p Lo, \p Lo + \p Width) of integer \p V were assembled from
/// (through or, shifts, extensions and truncations), or null.
static Value *bitsOf(Value *V, unsigned Lo, unsigned Width) {
  using namespace PatternMatch;
  unsigned Bits = V->getType()->getScalarSizeInBits();
  // (Past the top, through a right shift: zeros, not a value's bits.)
  if (Lo + Width > Bits)
    return nullptr;
  Value *X, *A, *Y, *From = nullptr;
  const APInt *C;
  if (auto *Const = dyn_cast<ConstantInt>(V))
    return ConstantInt::get(V->getContext(),
                            Const->getValue().extractBits(Width, Lo));
  if (match(V, m_ZExt(m_Value(X))) || match(V, m_Trunc(m_Value(X)))) {
    if (Lo + Width <= X->getType()->getScalarSizeInBits())
      From = bitsOf(X, Lo, Width);
  } else if (match(V, m_Shl(m_Value(X), m_APInt(C)))) {
    if (Lo >= C->getZExtValue())
      From = bitsOf(X, Lo - C->getZExtValue(), Width);
  } else if (match(V, m_LShr(m_Value(X), m_APInt(C)))) {
    From = bitsOf(X, Lo + C->getZExtValue(), Width);
  } else if (match(V, m_Or(m_Value(A), m_Value(Y)))) {
    // The side whose bits there are not known zero.
    APInt Range = APInt::getBitsSet(Bits, Lo, Lo + Width);
    const DataLayout &DL = cast<Instruction>(V)->getDataLayout();
    if (Range.isSubsetOf(computeKnownBits(A, DL).Zero))
      From = bitsOf(Y, Lo, Width);
    else if (Range.isSubsetOf(computeKnownBits(Y, DL).Zero))
      From = bitsOf(A, Lo, Width);
  }
  if (From)
    return From;
  return Lo == 0 && Bits == Width ? V : nullptr;
}

bool reassembleLaunchLeaves(Function &F) {
  using namespace PatternMatch;
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    auto *Call = dyn_cast<CallBase>(&I);
    std::optional<KernelLaunch> L =
        Call ? KernelLaunch::match(*Call) : std::nullopt;
    if (!L)
      continue;
    for (unsigned K = 0; K < L->numArgs(); ++K) {
      // A leaf read out of an integer: as an integer, or its bits as a
      // float.
      Value *Leaf = L->arg(K), *Int = Leaf, *Float;
      if (Leaf->getType()->isFloatingPointTy() &&
          !match(Leaf, m_BitCast(m_Value(Int))))
        continue;
      if (!Int->getType()->isIntegerTy())
        continue;
      Value *From = bitsOf(Int, 0, Int->getType()->getIntegerBitWidth());
      if (From && match(From, m_BitCast(m_Value(Float))))
        From = Float;
      if (From && From != Leaf && From->getType() == Leaf->getType()) {
        L->setArg(K, From);
        Changed = true;
      }
    }
  }
  return Changed;
}

bool lowerKernelLaunches(Function &F) {
  bool Changed = false;
  for (BasicBlock &BB : F)
    for (Instruction &I : make_early_inc_range(BB)) {
      auto *Call = dyn_cast<CallBase>(&I);
      std::optional<KernelLaunch> L =
          Call ? KernelLaunch::match(*Call) : std::nullopt;
      if (!L)
        continue;
      Function &Runtime = *cast<Function>(Call->getArgOperand(0));
      unsigned N = Runtime.arg_size();
      IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
      IRBuilder<> B(Call);
      Type *Ptr = B.getPtrTy();
      SmallVector<LaunchArgument, 8> Args = L->arguments();
      Value *Array = Entry.CreateAlloca(
          ArrayType::get(Ptr, std::max<size_t>(1, Args.size())), nullptr,
          "gpuad.launch.args");
      for (auto [K, A] : enumerate(Args)) {
        Value *Slot;
        if (!A.Aggregate) {
          Value *V = L->arg(A.First);
          Slot = Entry.CreateAlloca(V->getType(), nullptr, "gpuad.launch.arg");
          B.CreateStore(V, Slot);
        } else {
          // The aggregate's bytes, its padding zero.
          auto *Bytes =
              Entry.CreateAlloca(ArrayType::get(B.getInt8Ty(), A.Size), nullptr,
                                 "gpuad.launch.aggregate");
          Bytes->setAlignment(Align(A.Align));
          Slot = Bytes;
          B.CreateMemSet(Slot, B.getInt8(0), A.Size, Align(A.Align));
          for (unsigned I = 0; I < A.Count; ++I)
            B.CreateAlignedStore(
                L->arg(A.First + I),
                B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, A.Offsets[I]),
                commonAlignment(Align(A.Align), A.Offsets[I]));
        }
        B.CreateStore(Slot, B.CreateConstInBoundsGEP1_64(Ptr, Array, K));
      }
      // Back to (handle, grid and block, args, shared bytes, stream).
      SmallVector<Value *, 8> Ops;
      for (unsigned K = 1; K < N; ++K)
        Ops.push_back(Call->getArgOperand(K));
      Ops.insert(Ops.end() - 2, Array);
      CallInst *New = B.CreateCall(&Runtime, Ops);
      New->setDebugLoc(Call->getDebugLoc());
      Call->replaceAllUsesWith(New);
      Call->eraseFromParent();
      Changed = true;
    }
  return Changed;
}

} // namespace gpuad
