; A value is active iff it depends on an active input (varied) and reaches an
; active output (useful).
; RUN: %opt -passes='print<gpuad-activity>' -disable-output %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %c, i32 %n) {
  %xx = fmul double %x, %x
  %cc = fmul double %c, %c
  %nf = sitofp i32 %n to double
  %dead = call double @llvm.sin.f64(double %x)
  %scaled = fmul double %xx, %cc
  %r = fadd double %scaled, %nf
  ret double %r
}

define double @caller(double %x, double %c) {
  %k = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i32 %k, double %c, i32 3)
  ret double %d
}

; CHECK-LABEL: gpuad-activity for @f (fwd dup const const, shadow return)
; CHECK-NEXT: %x: active
; CHECK-NEXT: %c: inactive (useful, not varied)
; CHECK-NEXT: %n: inactive (not differentiable data)
; CHECK-NEXT: %xx: active
; CHECK-NEXT: %cc: inactive (useful, not varied)
; CHECK-NEXT: %nf: inactive (useful, not varied)
; CHECK-NEXT: %dead: inactive (varied, not useful)
; CHECK-NEXT: %scaled: active
; CHECK-NEXT: %r: active
