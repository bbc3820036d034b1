; A call to a defined function varies and uses every class its pointers reach;
; a call to a known-inactive function (printf) does neither.
; RUN: %opt -passes='print<gpuad-activity>' -disable-output %s | FileCheck %s

@fmt = private constant [4 x i8] c"%f\0A\00"
declare double @__enzyme_fwddiff(ptr, ...)
declare i32 @printf(ptr, ...)

define void @g(ptr %dst, double %v) {
  store double %v, ptr %dst
  ret void
}

define double @f(double %x) {
  %buf = alloca double
  %log = alloca double
  %p = call i32 (ptr, ...) @printf(ptr @fmt, double %x)
  store double %x, ptr %log
  call void @g(ptr %buf, double %x)
  %r = load double, ptr %buf
  ret double %r
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: gpuad-activity for @f
; CHECK: %buf: shadowed pointer
; CHECK: %log: pointer without shadow
; CHECK: %r: active
; CHECK: memory %buf: shadowed, varied, useful
; CHECK: memory %log: not shadowed, varied
