; Regression: a first-class aggregate stored to shadow memory keeps the
; primal's integer fields (as a scalar integer store does), so a shadow
; structure's counts stay right (was: the tangent aggregate's 0).
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_const = external global i32
declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %out, double %x, i32 %n) {
  %m = fmul double %x, %x
  %a = insertvalue { double, i32 } poison, double %m, 0
  %b = insertvalue { double, i32 } %a, i32 %n, 1
  store { double, i32 } %b, ptr %out
  ret void
}

; CHECK-LABEL: define internal void @f.fwd.ddc(
; CHECK: [[T:%.*]] = insertvalue { double, i32 } zeroinitializer, double {{%.*}}, 0
; CHECK: [[S:%.*]] = insertvalue { double, i32 } [[T]], i32 %n, 1
; CHECK: store { double, i32 } [[S]], ptr %out.d
define void @caller(ptr %o, ptr %do, double %x, i32 %n) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %o, ptr %do, double %x, double 1.0, i32 %n)
  ret void
}
