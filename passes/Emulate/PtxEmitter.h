//===- PtxEmitter.h - What a PTX instruction rule works with ----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The PTX translator (PtxAsm.cpp) turns each inline PTX string into a
/// function of host IR.  Its instructions are rules, one table row per
/// opcode, in five files by concept:
///   - PtxArithmetic.cpp: moves, conversions, integer and float arithmetic;
///   - PtxLogic.cpp: bitwise logic, shifts, bit fields, byte permutes,
///     comparisons and selects;
///   - PtxMemory.cpp: loads, stores, atomics, fences, prefetches, address
///     conversions;
///   - PtxAsync.cpp: asynchronous copies and the mbarriers that track them;
///   - PtxThreads.cpp: special registers, warp operations, barriers,
///     sleeping, exiting and branches.
/// A rule reads its operands as IR values of the instruction's type and
/// writes its results through an Emitter, which knows the registers (the
/// asm's `$N` operands and the `.reg` names, each a stack slot of its bit
/// width), the predicates, the labels and the target-independent helpers.
/// A rule that cannot translate its instruction returns `fail(why)`.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMULATE_PTXEMITTER_H
#define GPUAD_EMULATE_PTXEMITTER_H

#include "Emulate/PtxSyntax.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <string>

namespace gpuad::emu::ptx {

/// A PTX type suffix (`.u32`, `.f64`, `.pred`, ...).
struct PtxType {
  enum Kind : uint8_t { None, Bits, Unsigned, Signed, Float, Pred };
  Kind K = None;
  unsigned Width = 0;
  bool BFloat = false; ///< bf16 (Float of width 16)

  /// The type a modifier names, or None.
  static PtxType parse(llvm::StringRef Mod);
  static PtxType bits(unsigned Width) { return {Bits, Width}; }
  static PtxType pred() { return {Pred, 1}; }
  bool valid() const { return K != None; }
  bool isFloat() const { return K == Float; }
  bool isSigned() const { return K == Signed; }
  /// half/bfloat/float/double, i1, or iN.
  llvm::Type *irType(llvm::LLVMContext &C) const;
};

class Emitter {
public:
  Emitter(llvm::Module &M, llvm::IRBuilderBase &B) : M(M), B(B) {}
  virtual ~Emitter() = default;

  llvm::Module &M;
  llvm::IRBuilderBase &B;
  /// The instruction being translated.
  const Statement *S = nullptr;

  // ---- The instruction --------------------------------------------------
  bool has(llvm::StringRef Mod) const;
  /// The first of \p Mods the instruction has, or "".
  llvm::StringRef oneOf(llvm::ArrayRef<llvm::StringRef> Mods) const;
  /// The \p K-th type modifier (cvt: 0 the destination's, 1 the source's).
  PtxType type(unsigned K = 0) const;
  /// 2, 4 or 8 for .v2/.v4/.v8, else 1.
  unsigned vectorLength() const;
  size_t size() const { return S->Operands.size(); }
  const Operand &op(unsigned I) const { return S->Operands[I]; }

  // ---- Values -----------------------------------------------------------
  /// Operand \p O as a value of \p T's IR type (registers are resized to
  /// T's width: truncated, or extended by T's signedness).
  virtual llvm::Value *read(const Operand &O, PtxType T) = 0;
  llvm::Value *read(unsigned I, PtxType T) { return read(op(I), T); }
  /// A predicate operand (`p`, `!p`, or an integer: nonzero).
  llvm::Value *predicate(unsigned I) { return read(op(I), PtxType::pred()); }
  /// Writes \p V (of \p T's IR type) to register operand \p O (resized to
  /// the register's width); the sink `_` takes nothing.
  virtual bool write(const Operand &O, llvm::Value *V, PtxType T) = 0;
  bool write(unsigned I, llvm::Value *V, PtxType T) {
    return write(op(I), V, T);
  }
  /// Writes the `|p` predicate of operand \p I, if it has one.
  bool writePair(unsigned I, llvm::Value *Pred);
  /// The host pointer an address operand names.  Shared-space addresses
  /// (\p Shared) of any width are 32-bit offsets into the block's shared
  /// window (PtxAsm.cpp, sharedWindow).
  virtual llvm::Value *address(const Operand &O, bool Shared) = 0;
  /// Whether the instruction's state space is shared (.shared, ::cta,
  /// ::cluster).
  bool sharedSpace() const;

  // ---- Control ----------------------------------------------------------
  /// Continues at \p Label (a label of this asm).
  virtual bool branch(llvm::StringRef Label) = 0;

  // ---- Helpers ----------------------------------------------------------
  llvm::Value *intrinsic(llvm::Intrinsic::ID ID,
                         llvm::ArrayRef<llvm::Type *> Tys,
                         llvm::ArrayRef<llvm::Value *> Args);
  /// A call of the emulator runtime's \p Name.
  llvm::Value *runtime(llvm::StringRef Name, llvm::Type *Ret,
                       llvm::ArrayRef<llvm::Value *> Args);
  /// Bits \p V as an unsigned value of \p Width bits (extends or truncates).
  llvm::Value *resize(llvm::Value *V, unsigned Width, bool Signed);
  /// \p V's bits as an integer (floats bitcast, pointers as i64).
  llvm::Value *bitsOf(llvm::Value *V);
  /// Whether register operand \p O is a predicate (`.reg .pred`).
  virtual bool isPredicate(const Operand &O) = 0;
  /// Records why the instruction cannot be translated; returns false.
  bool fail(const llvm::Twine &Why);
  const std::string &failure() const { return Why; }

private:
  std::string Why;
};

/// A rule translates one instruction; false (after fail()) if it cannot.
using Rule = bool (*)(Emitter &);
/// One opcode: its rule, and the modifiers other than types it accepts
/// (space-separated; `hints` accepts the L1::/L2:: cache hints).  Any
/// other modifier is an error that names it, before the rule runs.
struct RuleRow {
  llvm::StringRef Opcode;
  Rule Emit;
  llvm::StringRef Modifiers;
};
llvm::ArrayRef<RuleRow> arithmeticRules(); // PtxArithmetic.cpp
llvm::ArrayRef<RuleRow> logicRules();      // PtxLogic.cpp
llvm::ArrayRef<RuleRow> memoryRules();     // PtxMemory.cpp
llvm::ArrayRef<RuleRow> asyncRules();      // PtxAsync.cpp
llvm::ArrayRef<RuleRow> threadRules();     // PtxThreads.cpp

/// The value of special register \p Name (`%laneid`, `%tid.x`, ...), or
/// null after E.fail() (PtxThreads.cpp).
llvm::Value *specialRegister(Emitter &E, llvm::StringRef Name);

/// Translates the inline PTX that \p Call runs into an internal function
/// with the call's operands and result (PtxAsm.cpp), or returns null and
/// says why in \p Error (naming the statement).
llvm::Function *translateInlinePtx(llvm::CallInst &Call, std::string &Error);

/// The host address of the 32-bit shared-window address \p Offset: the
/// running block's shared memory lies in one 4 GiB-aligned window, whose
/// upper half the offset's upper bits come from (PtxMemory.cpp).
llvm::Value *sharedWindow(Emitter &E, llvm::Value *Offset);

} // namespace gpuad::emu::ptx

#endif // GPUAD_EMULATE_PTXEMITTER_H
