; A result the C ABI returns through memory (sret) is stored there.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

%struct.R3 = type { double, double, double }
@enzyme_width = external global i32
declare void @__enzyme_fwddiff(ptr sret(%struct.R3), ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define void @caller(
; CHECK: [[T:%.*]] = call <3 x double> @f.fwd.w3.d.dret(
; CHECK: store %struct.R3 {{.*}}, ptr %out
define void @caller(ptr %out, double %x) {
  %w = load i32, ptr @enzyme_width
  call void (ptr, ptr, ...) @__enzyme_fwddiff(ptr sret(%struct.R3) %out, ptr @f, i32 %w, i32 3, double %x, double 1.0, double 2.0, double 3.0)
  ret void
}
