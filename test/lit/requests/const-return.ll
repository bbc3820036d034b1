; enzyme_const_return: no tangent of the return value is computed; only the
; shadow memory is written.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_const_return = external global i32
@enzyme_dup = external global i32
declare void @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %out, double %x) {
  %m = fmul double %x, %x
  store double %m, ptr %out
  ret double %m
}

; CHECK-LABEL: define void @caller(
; CHECK: call void @f.fwd.dd(ptr %out, ptr %dout, double %x, double 1.000000e+00)
; CHECK-LABEL: define internal void @f.fwd.dd(
; CHECK: store double {{.*}}, ptr %out.d
; CHECK: ret void
define void @caller(ptr %out, ptr %dout, double %x) {
  %c = load i32, ptr @enzyme_const_return
  %d = load i32, ptr @enzyme_dup
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %c, i32 %d, ptr %out, ptr %dout, double %x, double 1.0)
  ret void
}
