//===- PtxAsm.cpp - Inline PTX as host IR ---------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Translates an inline PTX string into an internal, always-inline function
/// that takes the asm call's operands and returns its results, so the call
/// becomes an ordinary call the host can run.
///
/// Every register is a stack slot of its bit width (i1 for predicates): the
/// asm's operands `$N` (outputs first, then inputs, as the constraint
/// string numbers them; a tied input starts its output), and the names
/// declared with `.reg`, scoped by `{ }`.  PTX registers are untyped bits,
/// so a rule reads an operand as its instruction's type (truncating a wider
/// register, extending a narrower one by the type's signedness) and writes
/// results back the same way.  A guarded instruction (`@p`, `@!p`) runs in
/// a block of its own; labels are blocks and `bra` branches.  The host
/// optimizer turns the slots back into SSA values (SROA), and the function
/// is inlined where the asm was.
///
/// Each instruction is a row of one of the rule tables (PtxEmitter.h); an
/// opcode without a row, or a modifier its row does not accept, stops the
/// translation with a message naming the statement.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxEmitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu::ptx {

// ---- PtxType and Emitter helpers -----------------------------------------

PtxType PtxType::parse(StringRef Mod) {
  if (Mod == "pred")
    return pred();
  if (Mod == "bf16")
    return {Float, 16, true};
  Kind K = Mod.starts_with("b")   ? Bits
           : Mod.starts_with("u") ? Unsigned
           : Mod.starts_with("s") ? Signed
           : Mod.starts_with("f") ? Float
                                  : None;
  unsigned W;
  if (K == None || Mod.drop_front().getAsInteger(10, W))
    return {};
  bool IntWidth =
      W == 8 || W == 16 || W == 32 || W == 64 || (K == Bits && W == 128);
  bool FloatWidth = W == 16 || W == 32 || W == 64;
  if (K == Float ? !FloatWidth : !IntWidth)
    return {};
  return {K, W};
}

Type *PtxType::irType(LLVMContext &C) const {
  if (K == Pred)
    return Type::getInt1Ty(C);
  if (K == Float)
    return Width == 16   ? (BFloat ? Type::getBFloatTy(C) : Type::getHalfTy(C))
           : Width == 32 ? Type::getFloatTy(C)
                         : Type::getDoubleTy(C);
  return Type::getIntNTy(C, Width);
}

bool Emitter::has(StringRef Mod) const { return is_contained(S->Mods, Mod); }

StringRef Emitter::oneOf(ArrayRef<StringRef> Mods) const {
  for (StringRef M : Mods)
    if (has(M))
      return M;
  return "";
}

PtxType Emitter::type(unsigned K) const {
  for (const std::string &M : S->Mods)
    if (PtxType T = PtxType::parse(M); T.valid() && K-- == 0)
      return T;
  return {};
}

unsigned Emitter::vectorLength() const {
  return has("v2") ? 2 : has("v4") ? 4 : has("v8") ? 8 : 1;
}

bool Emitter::sharedSpace() const {
  return has("shared") || has("shared::cta") || has("shared::cluster");
}

bool Emitter::writePair(unsigned I, Value *Pred) {
  if (op(I).Pair.empty())
    return true;
  Operand P;
  P.Name = op(I).Pair;
  return write(P, Pred, PtxType::pred());
}

Value *Emitter::intrinsic(Intrinsic::ID ID, ArrayRef<Type *> Tys,
                          ArrayRef<Value *> Args) {
  return B.CreateCall(Intrinsic::getOrInsertDeclaration(&M, ID, Tys), Args);
}

Value *Emitter::runtime(StringRef Name, Type *Ret, ArrayRef<Value *> Args) {
  SmallVector<Type *, 4> Tys;
  for (Value *A : Args)
    Tys.push_back(A->getType());
  return B.CreateCall(
      M.getOrInsertFunction(Name, FunctionType::get(Ret, Tys, false)), Args);
}

Value *Emitter::resize(Value *V, unsigned Width, bool Signed) {
  unsigned Have = V->getType()->getIntegerBitWidth();
  if (Have == Width)
    return V;
  Type *T = B.getIntNTy(Width);
  if (Have > Width)
    return B.CreateTrunc(V, T);
  return Signed ? B.CreateSExt(V, T) : B.CreateZExt(V, T);
}

Value *Emitter::bitsOf(Value *V) {
  Type *T = V->getType();
  if (T->isPointerTy())
    return B.CreatePtrToInt(V, B.getInt64Ty());
  if (T->isFloatingPointTy())
    return B.CreateBitCast(V, B.getIntNTy(T->getPrimitiveSizeInBits()));
  return V;
}

bool Emitter::fail(const Twine &Reason) {
  if (Why.empty())
    Why = Reason.str();
  return false;
}

namespace {

/// The rows of all three tables by opcode.
const StringMap<const RuleRow *> &rules() {
  static const StringMap<const RuleRow *> Table = [] {
    StringMap<const RuleRow *> T;
    for (ArrayRef<RuleRow> Rows : {arithmeticRules(), logicRules(),
                                   memoryRules(), asyncRules(), threadRules()})
      for (const RuleRow &R : Rows)
        T[R.Opcode] = &R;
    return T;
  }();
  return Table;
}

/// The modifier of \p S that \p Row does not accept, or "".
StringRef unacceptedModifier(const Statement &S, const RuleRow &Row) {
  SmallVector<StringRef, 16> Allowed;
  Row.Modifiers.split(Allowed, ' ', -1, false);
  for (const std::string &M : S.Mods) {
    if (PtxType::parse(M).valid() || is_contained(Allowed, M))
      continue;
    if (is_contained(Allowed, "hints") &&
        (StringRef(M).starts_with("L1::") || StringRef(M).starts_with("L2::")))
      continue;
    return M;
  }
  return "";
}

class Translation final : public Emitter {
public:
  Translation(Function &Body, IRBuilder<> &Builder, const InlineAsm &Asm)
      : Emitter(*Body.getParent(), Builder), Body(Body), Asm(Asm),
        C(Body.getContext()) {}

  /// Builds the body; on failure returns false and sets \p Error.
  bool run(const std::vector<Statement> &Program, std::string &Error);

  Value *read(const Operand &O, PtxType T) override;
  bool write(const Operand &O, Value *V, PtxType T) override;
  Value *address(const Operand &O, bool Shared) override;
  bool branch(StringRef Label) override;

private:
  struct Reg {
    AllocaInst *Slot = nullptr;
    unsigned Width = 0;
    /// An input the asm received as a pointer (while it keeps it): its
    /// addresses derive from it, not from an integer.
    Value *Pointer = nullptr;
  };
  Reg *lookup(StringRef Name);
  Reg &declare(StringRef Name, unsigned Width);
  bool bindOperands();
  bool statement(const Statement &St);
  BasicBlock *labelBlock(StringRef Name);
  void finish();
  bool isPredicate(const Operand &O) override {
    Reg *R = O.K == Operand::Register ? lookup(O.Name) : nullptr;
    return R && R->Width == 1;
  }
  Value *fromBits(Value *Bits, PtxType T);
  Value *constant(const Operand &O, PtxType T);

  Function &Body;
  const InlineAsm &Asm;
  LLVMContext &C;
  BasicBlock *Entry = nullptr;
  std::vector<StringMap<Reg>> Scopes;
  StringMap<BasicBlock *> Labels;
  StringSet<> Placed;
  /// The result's parts: the operand number of each output.
  SmallVector<unsigned, 4> Outputs;
};

Translation::Reg *Translation::lookup(StringRef Name) {
  for (auto Scope = Scopes.rbegin(); Scope != Scopes.rend(); ++Scope)
    if (auto It = Scope->find(Name); It != Scope->end())
      return &It->second;
  return nullptr;
}

Translation::Reg &Translation::declare(StringRef Name, unsigned Width) {
  IRBuilder<> EB(Entry, Entry->begin());
  Reg &R = Scopes.back()[Name];
  R.Slot = EB.CreateAlloca(EB.getIntNTy(Width), nullptr, Name);
  R.Width = Width;
  return R;
}

Value *Translation::fromBits(Value *Bits, PtxType T) {
  return T.isFloat() ? B.CreateBitCast(Bits, T.irType(C)) : Bits;
}

bool Translation::bindOperands() {
  const DataLayout &DL = M.getDataLayout();
  unsigned Number = 0, Input = 0, Output = 0;
  Type *Ret = Body.getReturnType();
  IRBuilder<> EB(Entry);
  for (const InlineAsm::ConstraintInfo &CI : Asm.ParseConstraints()) {
    if (CI.Type == InlineAsm::isClobber)
      continue;
    std::string Code = CI.Codes.empty() ? "" : CI.Codes[0];
    if (CI.Type == InlineAsm::isLabel || CI.isIndirect)
      return fail("the operand constraint '" + Code +
                  "' (memory and label operands)");
    std::string Name = "$" + std::to_string(Number++);
    if (CI.Type == InlineAsm::isOutput) {
      Type *T = Ret->isStructTy() ? Ret->getStructElementType(Output) : Ret;
      ++Output;
      declare(Name, DL.getTypeSizeInBits(T));
      Outputs.push_back(Number - 1);
      continue;
    }
    Argument *A = Body.getArg(Input++);
    Type *T = A->getType();
    Value *Bits = A;
    if (T->isPointerTy())
      Bits = EB.CreatePtrToInt(A, EB.getInt64Ty());
    else if (T->isFloatingPointTy())
      Bits = EB.CreateBitCast(A, EB.getIntNTy(DL.getTypeSizeInBits(T)));
    else if (!T->isIntegerTy())
      return fail("the operand '" + Name + "' of constraint '" + Code +
                  "' is not a scalar");
    Reg &R = declare(Name, Bits->getType()->getIntegerBitWidth());
    EB.CreateStore(Bits, R.Slot);
    if (T->isPointerTy())
      R.Pointer = EB.CreateAddrSpaceCast(A, EB.getPtrTy());
    // A tied input ("0") starts the output it is tied to.
    if (!Code.empty() && all_of(Code, isDigit)) {
      Reg *Out = lookup("$" + Code);
      if (!Out || Out->Width != R.Width)
        return fail("a tied operand of another width");
      EB.CreateStore(Bits, Out->Slot);
    }
  }
  return true;
}

Value *Translation::constant(const Operand &O, PtxType T) {
  Type *Ty = T.irType(C);
  if (T.K == PtxType::Pred)
    return B.getInt1(O.K == Operand::Integer ? O.Bits != 0 : O.Real != 0);
  if (O.K == Operand::Integer)
    return T.isFloat() ? ConstantFP::get(Ty, double(int64_t(O.Bits)))
                       : ConstantInt::get(Ty, O.Bits);
  // 0f/0d bits: as written for a type of their width; converted for a float
  // of another width; the bits themselves for an integer type (mov.b32).
  if (O.FloatWidth == T.Width)
    return fromBits(B.getIntN(T.Width, O.Bits), T);
  if (O.FloatWidth && !T.isFloat())
    return fail("a " + Twine(O.FloatWidth) + "-bit float for a " +
                Twine(T.Width) + "-bit operand"),
           PoisonValue::get(Ty);
  double V = O.Real;
  if (O.FloatWidth == 32)
    V = double(bit_cast<float>(uint32_t(O.Bits)));
  else if (O.FloatWidth == 64)
    V = bit_cast<double>(O.Bits);
  if (!T.isFloat())
    return fail("a float immediate for an integer operand"),
           PoisonValue::get(Ty);
  return ConstantFP::get(Ty, V);
}

Value *Translation::read(const Operand &O, PtxType T) {
  Type *Ty = T.valid() ? T.irType(C) : B.getInt32Ty();
  if (!T.valid())
    return fail("an instruction without a type"), PoisonValue::get(Ty);
  if (O.K == Operand::Integer || O.K == Operand::Float)
    return constant(O, T);
  if (O.K != Operand::Register)
    return fail("a source operand that is not a register or immediate"),
           PoisonValue::get(Ty);
  Value *Bits;
  if (Reg *R = lookup(O.Name))
    Bits = B.CreateLoad(B.getIntNTy(R->Width), R->Slot);
  else if (StringRef(O.Name).starts_with("%"))
    Bits = specialRegister(*this, O.Name);
  else
    Bits = nullptr;
  if (!Bits)
    return fail("the register '" + O.Name + "' is not declared"),
           PoisonValue::get(Ty);
  if (T.K == PtxType::Pred) {
    Value *P = Bits->getType()->isIntegerTy(1)
                   ? Bits
                   : B.CreateICmpNE(Bits, ConstantInt::get(Bits->getType(), 0));
    return O.Negated ? B.CreateNot(P) : P;
  }
  if (O.Negated)
    return fail("'!' on a value that is not a predicate"), PoisonValue::get(Ty);
  return fromBits(resize(Bits, T.Width, T.isSigned()), T);
}

bool Translation::write(const Operand &O, Value *V, PtxType T) {
  if (O.K == Operand::Sink)
    return true;
  Reg *R = O.K == Operand::Register ? lookup(O.Name) : nullptr;
  if (!R)
    return fail(O.K == Operand::Register
                    ? "the destination '" + O.Name +
                          "' is not a declared register"
                    : Twine("a destination that is not a register"));
  Value *Bits = bitsOf(V);
  if (R->Width == 1 && !Bits->getType()->isIntegerTy(1))
    Bits = B.CreateICmpNE(Bits, ConstantInt::get(Bits->getType(), 0));
  else
    Bits = resize(Bits, R->Width, T.isSigned());
  B.CreateStore(Bits, R->Slot);
  R->Pointer = nullptr;
  return true;
}

Value *Translation::address(const Operand &O, bool Shared) {
  Value *Bad = PoisonValue::get(B.getPtrTy());
  if (O.K != Operand::Address)
    return fail("an address operand that is not [register+offset]"), Bad;
  Reg *R = lookup(O.Name);
  if (!R)
    return fail(O.Name.empty()
                    ? Twine("an absolute address")
                    : "the address register '" + O.Name + "' is not declared"),
           Bad;
  if (!Shared && R->Pointer)
    return B.CreateConstGEP1_64(B.getInt8Ty(), R->Pointer, O.Offset);
  Value *Base = B.CreateLoad(B.getIntNTy(R->Width), R->Slot);
  if (R->Width != 32 && R->Width != 64)
    return fail("a " + Twine(R->Width) + "-bit address"), Bad;
  Value *At = B.CreateAdd(Base, ConstantInt::get(Base->getType(), O.Offset));
  if (Shared)
    return sharedWindow(*this, resize(At, 32, false));
  if (R->Width != 64)
    return fail("a 32-bit address outside the shared space"), Bad;
  return B.CreateIntToPtr(At, B.getPtrTy());
}

BasicBlock *Translation::labelBlock(StringRef Name) {
  BasicBlock *&BB = Labels[Name];
  if (!BB)
    BB = BasicBlock::Create(C, Name, &Body);
  return BB;
}

bool Translation::branch(StringRef Label) {
  B.CreateBr(labelBlock(Label));
  // What follows runs only if a label names it.
  B.SetInsertPoint(BasicBlock::Create(C, "ptx.after.bra", &Body));
  return true;
}

bool Translation::statement(const Statement &St) {
  S = &St;
  switch (St.K) {
  case Statement::OpenScope:
    Scopes.emplace_back();
    return true;
  case Statement::CloseScope:
    if (Scopes.size() <= 1)
      return fail("a '}' without its '{'");
    Scopes.pop_back();
    return true;
  case Statement::RegDecl: {
    PtxType T = PtxType::parse(St.RegType);
    if (!T.valid())
      return fail("registers of type '." + St.RegType + "'");
    for (auto &[Name, Count] : St.Names)
      for (unsigned I = 0; I < std::max(Count, 1u); ++I)
        declare(Count ? Name + std::to_string(I) : Name, T.Width);
    return true;
  }
  case Statement::Label:
    if (!Placed.insert(St.Opcode).second)
      return fail("the label '" + St.Opcode + "' is defined twice");
    B.CreateBr(labelBlock(St.Opcode));
    B.SetInsertPoint(labelBlock(St.Opcode));
    return true;
  case Statement::Instruction:
    break;
  }
  auto Row = rules().find(St.Opcode);
  if (Row == rules().end())
    return fail("the emulator does not know the instruction '" + St.spelling() +
                "'");
  if (StringRef Bad = unacceptedModifier(St, *Row->second); !Bad.empty())
    return fail("the modifier '." + Bad + "' is not supported");
  BasicBlock *Join = nullptr;
  if (!St.Guard.empty()) {
    Operand G;
    G.Name = St.Guard;
    G.Negated = St.GuardNegated;
    Value *P = read(G, PtxType::pred());
    BasicBlock *Then = BasicBlock::Create(C, "ptx.guarded", &Body);
    Join = BasicBlock::Create(C, "ptx.join", &Body);
    B.CreateCondBr(P, Then, Join);
    B.SetInsertPoint(Then);
  }
  if (!Row->second->Emit(*this) || !failure().empty())
    return fail("the instruction is not supported");
  if (Join) {
    B.CreateBr(Join);
    B.SetInsertPoint(Join);
  }
  return true;
}

void Translation::finish() {
  Type *Ret = Body.getReturnType();
  SmallVector<Value *, 4> Parts;
  for (unsigned I = 0; I < Outputs.size(); ++I) {
    Type *T = Ret->isStructTy() ? Ret->getStructElementType(I) : Ret;
    Reg *R = lookup("$" + std::to_string(Outputs[I]));
    Value *Bits = B.CreateLoad(B.getIntNTy(R->Width), R->Slot);
    Parts.push_back(T->isPointerTy()   ? B.CreateIntToPtr(Bits, T)
                    : T->isIntegerTy() ? Bits
                                       : B.CreateBitCast(Bits, T));
  }
  if (Ret->isVoidTy()) {
    B.CreateRetVoid();
  } else if (!Ret->isStructTy()) {
    B.CreateRet(Parts[0]);
  } else {
    Value *Agg = PoisonValue::get(Ret);
    for (unsigned I = 0; I < Parts.size(); ++I)
      Agg = B.CreateInsertValue(Agg, Parts[I], I);
    B.CreateRet(Agg);
  }
  BasicBlock *Start = Entry->getNextNode();
  IRBuilder<>(Entry).CreateBr(Start);
}

bool Translation::run(const std::vector<Statement> &Program,
                      std::string &Error) {
  Entry = BasicBlock::Create(C, "entry", &Body);
  B.SetInsertPoint(BasicBlock::Create(C, "ptx", &Body));
  Scopes.emplace_back();
  bool Ok = bindOperands();
  // With labels, an address may be formed again after its register
  // changed (a loop): addresses then always come from the registers.
  if (any_of(Program,
             [](const Statement &St) { return St.K == Statement::Label; }))
    for (auto &Input : Scopes.front())
      Input.second.Pointer = nullptr;
  for (const Statement &St : Program)
    if (!(Ok = Ok && statement(St)))
      break;
  if (Ok)
    S = nullptr; // not a statement's fault
  for (const auto &L : Labels)
    if (Ok && !Placed.contains(L.getKey()))
      Ok = fail("the label '" + L.getKey() + "' is never defined");
  if (!Ok) {
    Error = failure();
    if (S && S->K == Statement::Instruction)
      Error = "'" + S->Text + "': " + Error;
    return false;
  }
  // Blocks no label names after a `bra` end where the asm ends.
  finish();
  return true;
}

} // namespace

Function *translateInlinePtx(CallInst &Call, std::string &Error) {
  auto &Asm = *cast<InlineAsm>(Call.getCalledOperand());
  std::vector<Statement> Program;
  if (!parseStatements(Asm.getAsmString(), Program, Error)) {
    Error = "cannot parse the " + Error;
    return nullptr;
  }
  Module &M = *Call.getModule();
  Function *Body = Function::Create(
      Call.getFunctionType(), GlobalValue::InternalLinkage, "gpuad.emu.ptx", M);
  Body->addFnAttr(Attribute::AlwaysInline);
  Body->addFnAttr(Attribute::NoUnwind);
  // Warp operations inside: the copies in two branches stay apart.
  Body->addFnAttr(Attribute::Convergent);
  IRBuilder<> B(M.getContext());
  Translation T(*Body, B, Asm);
  if (!T.run(Program, Error)) {
    Body->eraseFromParent();
    return nullptr;
  }
  return Body;
}

} // namespace gpuad::emu::ptx
