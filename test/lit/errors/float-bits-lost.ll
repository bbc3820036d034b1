; A double split into two 32-bit words and joined again: the derivative
; would be lost, so it is an error naming the value (not a zero derivative).
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate '%hi = lshr i64 %bits, 32': it computes with the bits of a floating-point value that carries a derivative, and its result is used as floating-point data again

declare double @__enzyme_fwddiff(ptr, ...)

define double @split(double %x) {
  %sq = fmul double %x, %x
  %bits = bitcast double %sq to i64
  %hi = lshr i64 %bits, 32
  %hi32 = trunc i64 %hi to i32
  %lo = trunc i64 %bits to i32
  %hi64 = zext i32 %hi32 to i64
  %top = shl i64 %hi64, 32
  %lo64 = zext i32 %lo to i64
  %joined = or i64 %top, %lo64
  %r = bitcast i64 %joined to double
  ret double %r
}

define double @caller(double %x) {
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @split, double %x, double 1.0)
  ret double %a
}
