//===- PtxSyntax.cpp - The statements of an inline PTX string -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A hand-written scanner: comments go first, then the text is cut into
/// statements at `;` (a `{` or `}` where a statement would begin opens or
/// closes a scope; elsewhere it delimits a vector operand), a leading
/// `name:` is a label, and operands are split at the commas outside
/// brackets and braces.
//===----------------------------------------------------------------------===//

#include "Emulate/PtxSyntax.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace llvm;

namespace gpuad::emu::ptx {

std::string Statement::spelling() const {
  std::string S = Opcode;
  for (const std::string &M : Mods)
    S += "." + M;
  return S;
}

namespace {

bool isIdentStart(char C) {
  return isAlpha(C) || C == '_' || C == '$' || C == '%';
}
bool isIdentChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

/// The IR asm string as PTX text: `${N}` and `${N:}` are `$N`, `$$` a
/// dollar, comments are blanks.
bool normalize(StringRef In, std::string &Out, std::string &Error) {
  for (size_t I = 0; I < In.size(); ++I) {
    char C = In[I];
    if (C == '$' && I + 1 < In.size() && In[I + 1] == '$') {
      Out += '$';
      ++I;
    } else if (C == '$' && I + 1 < In.size() && In[I + 1] == '{') {
      size_t End = In.find('}', I);
      if (End == StringRef::npos) {
        Error = "unterminated operand reference";
        return false;
      }
      auto [Num, Mod] = In.slice(I + 2, End).split(':');
      if (!Mod.empty()) {
        Error = ("operand modifier '" + Mod + "'").str();
        return false;
      }
      Out += "$" + Num.str();
      I = End;
    } else if (C == '/' && In.substr(I).starts_with("//")) {
      size_t End = In.find('\n', I);
      I = End == StringRef::npos ? In.size() : End - 1;
      Out += ' ';
    } else if (C == '/' && In.substr(I).starts_with("/*")) {
      size_t End = In.find("*/", I + 2);
      I = End == StringRef::npos ? In.size() : End + 1;
      Out += ' ';
    } else {
      Out += C;
    }
  }
  return true;
}

/// Splits \p Text at the commas outside brackets and braces.
SmallVector<StringRef, 6> splitOperands(StringRef Text) {
  SmallVector<StringRef, 6> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '[' || C == '{' || C == '(')
      ++Depth;
    else if (C == ']' || C == '}' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Parts.push_back(Text.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (!Text.substr(Start).trim().empty() || !Parts.empty())
    Parts.push_back(Text.substr(Start).trim());
  return Parts;
}

/// An integer (decimal, 0x, 0b, octal, an optional U suffix and sign) or a
/// float (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX, or decimal).
bool parseNumber(StringRef T, Operand &Op) {
  bool Negative = T.consume_front("-");
  if (!Negative)
    T.consume_front("+");
  T = T.ltrim();
  if (T.size() == 10 && (T.starts_with("0f") || T.starts_with("0F")) &&
      !T.drop_front(2).getAsInteger(16, Op.Bits)) {
    Op.K = Operand::Float;
    Op.FloatWidth = 32;
    if (Negative)
      Op.Bits ^= 0x80000000u;
    return true;
  }
  if (T.size() == 18 && (T.starts_with("0d") || T.starts_with("0D")) &&
      !T.drop_front(2).getAsInteger(16, Op.Bits)) {
    Op.K = Operand::Float;
    Op.FloatWidth = 64;
    if (Negative)
      Op.Bits ^= 0x8000000000000000ull;
    return true;
  }
  StringRef Digits = T;
  Digits.consume_back("U");
  Digits.consume_back("u");
  unsigned Radix = 10;
  if (Digits.consume_front("0x") || Digits.consume_front("0X"))
    Radix = 16;
  else if (Digits.consume_front("0b") || Digits.consume_front("0B"))
    Radix = 2;
  else if (Digits.size() > 1 && Digits.starts_with("0"))
    Radix = 8;
  uint64_t V;
  if (!Digits.empty() && !Digits.getAsInteger(Radix, V)) {
    Op.K = Operand::Integer;
    Op.Bits = Negative ? uint64_t(0) - V : V;
    return true;
  }
  std::string Copy = T.str();
  char *End = nullptr;
  double D = strtod(Copy.c_str(), &End);
  if (!Copy.empty() && End == Copy.c_str() + Copy.size()) {
    Op.K = Operand::Float;
    Op.Real = Negative ? -D : D;
    return true;
  }
  return false;
}

bool isRegisterName(StringRef T) {
  if (T.empty() || !isIdentStart(T[0]))
    return false;
  // Special registers with a component: %tid.x, %ctaid.y, ...
  auto [Base, Component] = T.split('.');
  if (!Component.empty() && (!T.starts_with("%") || Component.size() != 1 ||
                             !StringRef("xyzw").contains(Component[0])))
    return false;
  return all_of(Base.drop_front(), isIdentChar);
}

bool parseOperand(StringRef T, Operand &Op, std::string &Error);

bool parseAddress(StringRef T, Operand &Op, std::string &Error) {
  Op.K = Operand::Address;
  StringRef Inner = T.drop_front().drop_back().trim();
  // base, base+imm, base-imm, base + -imm, or imm.
  size_t Split = Inner.find_first_of("+-", 1);
  StringRef Base = Inner.substr(0, Split).trim();
  StringRef Off = Split == StringRef::npos ? "" : Inner.substr(Split).trim();
  if (Off.consume_front("+"))
    Off = Off.trim();
  Operand Num;
  if (isRegisterName(Base)) {
    Op.Name = Base.str();
  } else if (parseNumber(Base, Num) && Num.K == Operand::Integer &&
             Off.empty()) {
    Op.Offset = int64_t(Num.Bits);
    return true;
  } else {
    Error = ("address '" + T + "'").str();
    return false;
  }
  if (Split == StringRef::npos)
    return true;
  if (!parseNumber(Off, Num) || Num.K != Operand::Integer) {
    Error = ("address offset in '" + T + "'").str();
    return false;
  }
  Op.Offset = int64_t(Num.Bits);
  return true;
}

bool parseOperand(StringRef T, Operand &Op, std::string &Error) {
  T = T.trim();
  if (T == "_") {
    Op.K = Operand::Sink;
    return true;
  }
  if (T.starts_with("[") && T.ends_with("]"))
    return parseAddress(T, Op, Error);
  if (T.starts_with("{") && T.ends_with("}")) {
    Op.K = Operand::Vector;
    for (StringRef E : splitOperands(T.drop_front().drop_back())) {
      Op.Elements.emplace_back();
      if (!parseOperand(E, Op.Elements.back(), Error))
        return false;
    }
    return true;
  }
  if (auto [First, Second] = T.split('|'); !Second.empty()) {
    if (!isRegisterName(Second.trim())) {
      Error = ("operand '" + T + "'").str();
      return false;
    }
    Op.Pair = Second.trim().str();
    T = First.trim();
  }
  if (T.consume_front("!"))
    Op.Negated = true;
  if (isRegisterName(T)) {
    Op.K = Operand::Register;
    Op.Name = T.str();
    return true;
  }
  if (!Op.Negated && Op.Pair.empty() && parseNumber(T, Op))
    return true;
  Error = ("operand '" + T + "'").str();
  return false;
}

/// `.reg .u32 a, b<4>;` (other directives: `.pragma` is ignored).
bool parseDirective(StringRef T, std::vector<Statement> &Out,
                    std::string &Error) {
  if (T.starts_with(".pragma"))
    return true;
  if (!T.consume_front(".reg")) {
    Error = ("directive '" + T + "'").str();
    return false;
  }
  Statement S;
  S.K = Statement::RegDecl;
  S.Text = (".reg" + T).str();
  T = T.trim();
  if (!T.consume_front(".")) {
    Error = "declaration '" + S.Text + "'";
    return false;
  }
  size_t Space = T.find_first_of(" \t\n");
  S.RegType = T.substr(0, Space).str();
  for (StringRef Name :
       splitOperands(T.substr(Space == StringRef::npos ? T.size() : Space))) {
    unsigned Count = 0;
    if (size_t Lt = Name.find('<'); Lt != StringRef::npos) {
      if (!Name.ends_with(">") ||
          Name.slice(Lt + 1, Name.size() - 1).getAsInteger(10, Count) ||
          Count == 0) {
        Error = "declaration '" + S.Text + "'";
        return false;
      }
      Name = Name.substr(0, Lt);
    }
    if (!isRegisterName(Name) || Name.contains('.')) {
      Error = "declaration '" + S.Text + "'";
      return false;
    }
    S.Names.push_back({Name.str(), Count});
  }
  if (S.Names.empty()) {
    Error = "declaration '" + S.Text + "'";
    return false;
  }
  Out.push_back(std::move(S));
  return true;
}

/// One statement without its `;` (a label has been taken off).
bool parseInstruction(StringRef T, std::vector<Statement> &Out,
                      std::string &Error) {
  if (T.starts_with("."))
    return parseDirective(T, Out, Error);
  Statement S;
  S.Text = T.str();
  if (T.consume_front("@")) {
    S.GuardNegated = T.consume_front("!");
    size_t End = 0;
    while (End < T.size() && (isIdentChar(T[End]) || T[End] == '%'))
      ++End;
    S.Guard = T.substr(0, End).str();
    T = T.substr(End).trim();
    if (S.Guard.empty()) {
      Error = "guard in '" + S.Text + "'";
      return false;
    }
  }
  size_t Space = T.find_first_of(" \t\n");
  StringRef Op = T.substr(0, Space);
  SmallVector<StringRef, 6> Parts;
  Op.split(Parts, '.');
  S.Opcode = Parts[0].str();
  for (StringRef M : ArrayRef(Parts).drop_front())
    S.Mods.push_back(M.str());
  if (S.Opcode.empty() ||
      !all_of(S.Opcode, [](char C) { return isAlnum(C) || C == '_'; })) {
    Error = "instruction '" + S.Text + "'";
    return false;
  }
  StringRef Rest = Space == StringRef::npos ? "" : T.substr(Space);
  for (StringRef O : splitOperands(Rest)) {
    S.Operands.emplace_back();
    if (!parseOperand(O, S.Operands.back(), Error)) {
      Error += " in '" + S.Text + "'";
      return false;
    }
  }
  Out.push_back(std::move(S));
  return true;
}

/// The length of a label `name:` at the start of \p T (0 if none).
size_t labelLength(StringRef T) {
  if (T.empty() || !isIdentStart(T[0]))
    return 0;
  size_t I = 1;
  while (I < T.size() && isIdentChar(T[I]))
    ++I;
  size_t Colon = I;
  while (Colon < T.size() && isSpace(T[Colon]))
    ++Colon;
  if (Colon < T.size() && T[Colon] == ':' &&
      (Colon + 1 == T.size() || T[Colon + 1] != ':'))
    return Colon + 1;
  return 0;
}

} // namespace

bool parseStatements(StringRef Asm, std::vector<Statement> &Out,
                     std::string &Error) {
  std::string Text;
  if (!normalize(Asm, Text, Error))
    return false;
  StringRef T(Text);
  while (true) {
    T = T.ltrim();
    if (T.empty())
      return true;
    if (T[0] == '{' || T[0] == '}') {
      Statement S;
      S.K = T[0] == '{' ? Statement::OpenScope : Statement::CloseScope;
      S.Text = T.substr(0, 1).str();
      Out.push_back(S);
      T = T.drop_front();
      continue;
    }
    if (T[0] == ';') {
      T = T.drop_front();
      continue;
    }
    if (size_t L = labelLength(T)) {
      Statement S;
      S.K = Statement::Label;
      S.Opcode = T.substr(0, L - 1).trim().str();
      S.Text = T.substr(0, L).str();
      Out.push_back(S);
      T = T.drop_front(L);
      continue;
    }
    // Up to the `;` (braces inside are a vector operand's).
    size_t End = 0;
    int Depth = 0;
    while (End < T.size() && !(T[End] == ';' && Depth == 0) &&
           !(T[End] == '}' && Depth == 0)) {
      Depth += T[End] == '{' ? 1 : T[End] == '}' ? -1 : 0;
      ++End;
    }
    if (!parseInstruction(T.substr(0, End).trim(), Out, Error))
      return false;
    T = T.drop_front(End);
  }
}

} // namespace gpuad::emu::ptx
