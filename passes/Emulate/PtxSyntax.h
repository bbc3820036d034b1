//===- PtxSyntax.h - The statements of an inline PTX string -----*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Inline PTX, as it reaches the IR (`asm "ld.global.nc.u32 $0, [$1];"`),
/// parsed into statements: instructions (an optional `@p`/`@!p` guard, the
/// opcode, its dot-separated modifiers, the operands), labels, `{`/`}`
/// scopes and `.reg` declarations.  Operands are registers (`$N` for the
/// asm's own operands, `%name` special registers, names declared with
/// `.reg`), immediates (integers, `0f`/`0d` float bits, decimal floats),
/// addresses `[base+offset]`, vectors `{a, b}`, the sink `_`, and
/// `d|p` pairs.  Only the syntax is checked here; PtxAsm.cpp gives it
/// meaning.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_EMULATE_PTXSYNTAX_H
#define GPUAD_EMULATE_PTXSYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuad::emu::ptx {

/// One operand of an instruction.
struct Operand {
  enum Kind { Register, Integer, Float, Address, Vector, Sink };
  Kind K = Register;
  /// Register (`$0`, `%laneid`, `p`, or a label `bra` names), or the base
  /// register of an Address (empty for an absolute address).
  std::string Name;
  bool Negated = false;    ///< `!p`
  std::string Pair;        ///< `d|p`: the predicate written beside d
  uint64_t Bits = 0;       ///< Integer: the value; Float: the bits (0f, 0d)
  unsigned FloatWidth = 0; ///< Float: 32 (0f), 64 (0d), 0 (decimal, Real)
  double Real = 0;
  int64_t Offset = 0;            ///< Address: bytes added to the base
  std::vector<Operand> Elements; ///< Vector
};

struct Statement {
  enum Kind { Instruction, Label, OpenScope, CloseScope, RegDecl };
  Kind K = Instruction;
  std::string Text;  ///< as written, for messages
  std::string Guard; ///< `@p`: the predicate register (empty: none)
  bool GuardNegated = false;
  std::string Opcode;            ///< "ld"; Label: its name
  std::vector<std::string> Mods; ///< "global", "nc", "v2", "u64"
  std::vector<Operand> Operands;
  /// RegDecl: the type ("u32", "pred") and the names, each with a count
  /// (`r<4>` declares r0..r3; 0 for a plain name).
  std::string RegType;
  std::vector<std::pair<std::string, unsigned>> Names;
  /// The full opcode with its modifiers, for messages.
  std::string spelling() const;
};

/// Parses \p Asm (an IR inline asm string: `$N` operands, `$$` a dollar).
/// On a syntax error returns false and sets \p Error.
bool parseStatements(llvm::StringRef Asm, std::vector<Statement> &Out,
                     std::string &Error);

} // namespace gpuad::emu::ptx

#endif // GPUAD_EMULATE_PTXSYNTAX_H
