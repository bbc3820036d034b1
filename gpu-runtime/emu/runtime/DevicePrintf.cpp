//===- DevicePrintf.cpp - printf from device code -------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// CUDA device code calls vprintf(format, buffer) with the arguments packed
/// in a buffer, each aligned to its size (floats promoted to double); the
/// retargeted module calls __gpuad_emu_vprintf instead, which unpacks them
/// along the format.  HIP device code builds a message through ockl's
/// __ockl_printf_* calls, also formatted here.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex &printLock() {
  static std::mutex M;
  return M;
}

/// One conversion of a format: its text (with flags, width, precision and
/// length) and what it consumes.
struct Conversion {
  std::string Spec;
  char Kind = 0;       // d i u o x X c s p f F e E g G a A n
  bool Long64 = false; // an 8-byte integer
  int Stars = 0;       // '*' width / precision arguments (ints)
};

/// Splits \p Format into literal text and conversions; calls \p Literal and
/// \p Convert in order.
template <class L, class C>
void walkFormat(const char *Format, L Literal, C Convert) {
  const char *P = Format;
  while (*P) {
    if (*P != '%') {
      const char *Q = strchr(P, '%');
      size_t N = Q ? size_t(Q - P) : strlen(P);
      Literal(std::string(P, N));
      P += N;
      continue;
    }
    if (P[1] == '%') {
      Literal("%");
      P += 2;
      continue;
    }
    Conversion Conv;
    const char *Start = P++;
    while (*P && strchr("-+ #0", *P))
      ++P;
    for (int Part = 0; Part < 2; ++Part) {
      if (*P == '*') {
        ++Conv.Stars;
        ++P;
      } else {
        while (*P >= '0' && *P <= '9')
          ++P;
      }
      if (Part == 0 && *P == '.')
        ++P;
      else
        break;
    }
    while (*P && strchr("hlLqjzt", *P)) {
      if (*P == 'l' || *P == 'L' || *P == 'q' || *P == 'j' || *P == 'z' ||
          *P == 't')
        Conv.Long64 = true;
      if (*P == 'h')
        Conv.Long64 = false;
      ++P;
    }
    Conv.Kind = *P ? *P : 'd';
    if (*P)
      ++P;
    Conv.Spec.assign(Start, P);
    Convert(Conv);
  }
}

/// Formats one value with the conversion's own text.
template <class T> std::string format(const std::string &Spec, T V) {
  int N = snprintf(nullptr, 0, Spec.c_str(), V);
  std::string S(N > 0 ? size_t(N) : 0, '\0');
  snprintf(S.data(), S.size() + 1, Spec.c_str(), V);
  return S;
}

/// The spec without '*' (its width or precision given as digits instead).
std::string withStars(const Conversion &C, const std::vector<int> &Stars) {
  std::string S;
  size_t K = 0;
  for (char Ch : C.Spec)
    if (Ch == '*' && K < Stars.size())
      S += std::to_string(Stars[K++]);
    else
      S += Ch;
  return S;
}

/// Formats a conversion from an argument source: Int(bytes), Double(), Ptr().
template <class Src> std::string convert(const Conversion &C, Src &A) {
  std::vector<int> Stars;
  for (int I = 0; I < C.Stars; ++I)
    Stars.push_back(int(A.integer(4)));
  std::string Spec = withStars(C, Stars);
  switch (C.Kind) {
  case 'd':
  case 'i':
  case 'u':
  case 'o':
  case 'x':
  case 'X':
  case 'c':
    if (C.Long64)
      return format(Spec, (long long)A.integer(8));
    return format(Spec, int(A.integer(4)));
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    return format(Spec, A.real());
  case 's': {
    const char *S = static_cast<const char *>(A.pointer());
    return format(Spec, S ? S : "(null)");
  }
  case 'p':
    return format(Spec, A.pointer());
  default:
    return Spec;
  }
}

/// CUDA's argument buffer.
struct Packed {
  const char *P;
  void align(size_t N) {
    uintptr_t A = reinterpret_cast<uintptr_t>(P);
    P = reinterpret_cast<const char *>((A + N - 1) & ~uintptr_t(N - 1));
  }
  uint64_t integer(size_t N) {
    align(N);
    uint64_t V = 0;
    memcpy(&V, P, N);
    P += N;
    if (N == 4)
      return uint64_t(int64_t(int32_t(uint32_t(V))));
    return V;
  }
  double real() {
    align(8);
    double V;
    memcpy(&V, P, 8);
    P += 8;
    return V;
  }
  const void *pointer() {
    align(8);
    const void *V;
    memcpy(&V, P, 8);
    P += 8;
    return V;
  }
};

/// HIP's message: a format, then 64-bit argument slots.
struct Slots {
  const std::vector<uint64_t> &V;
  size_t I = 0;
  uint64_t next() { return I < V.size() ? V[I++] : 0; }
  uint64_t integer(size_t N) {
    uint64_t X = next();
    return N == 4 ? uint64_t(int64_t(int32_t(uint32_t(X)))) : X;
  }
  double real() {
    uint64_t X = next();
    double D;
    memcpy(&D, &X, 8);
    return D;
  }
  const void *pointer() { return reinterpret_cast<const void *>(next()); }
};

void emit(const std::string &S) {
  std::lock_guard<std::mutex> G(printLock());
  fwrite(S.data(), 1, S.size(), stdout);
}

struct HipMessage {
  std::string Format;
  std::vector<uint64_t> Args;
  std::deque<std::string> Strings; // kept alive (and in place) for %s
};
thread_local std::vector<HipMessage> HipMessages;

} // namespace

extern "C" {

int __gpuad_emu_vprintf(const char *Format, const char *Buffer) {
  std::string Out;
  Packed A{Buffer};
  walkFormat(
      Format, [&](const std::string &S) { Out += S; },
      [&](const Conversion &C) { Out += convert(C, A); });
  emit(Out);
  return int(Out.size());
}

// HIP: __ockl_printf_begin returns a descriptor; strings and arguments are
// appended; the last append prints.
uint64_t __ockl_printf_begin(uint64_t) {
  HipMessages.emplace_back();
  return HipMessages.size();
}

static uint64_t hipPrint(uint64_t Desc, bool Last) {
  if (!Last)
    return Desc;
  HipMessage &M = HipMessages[Desc - 1];
  std::string Out;
  Slots A{M.Args};
  walkFormat(
      M.Format.c_str(), [&](const std::string &S) { Out += S; },
      [&](const Conversion &C) { Out += convert(C, A); });
  emit(Out);
  HipMessages.pop_back();
  return Desc;
}

uint64_t __ockl_printf_append_string_n(uint64_t Desc, const char *S,
                                       uint64_t Length, uint32_t IsLast) {
  HipMessage &M = HipMessages[Desc - 1];
  std::string Str(S ? S : "", S ? strnlen(S, Length) : 0);
  if (M.Format.empty() && M.Args.empty() && M.Strings.empty())
    M.Format = Str; // the first string is the format
  else {
    M.Strings.push_back(Str);
    M.Args.push_back(reinterpret_cast<uint64_t>(M.Strings.back().c_str()));
  }
  return hipPrint(Desc, IsLast);
}

uint64_t __ockl_printf_append_args(uint64_t Desc, uint32_t N, uint64_t A0,
                                   uint64_t A1, uint64_t A2, uint64_t A3,
                                   uint64_t A4, uint64_t A5, uint64_t A6,
                                   uint32_t IsLast) {
  HipMessage &M = HipMessages[Desc - 1];
  uint64_t All[7] = {A0, A1, A2, A3, A4, A5, A6};
  for (uint32_t I = 0; I < N && I < 7; ++I)
    M.Args.push_back(All[I]);
  return hipPrint(Desc, IsLast);
}

} // extern "C"
