; Each lowered request is an optimisation remark (-Rpass=gpuad in clang).
; RUN: %opt -passes=gpuad -pass-remarks=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: remark: {{.*}}fwd derivative of 'f': 'f.fwd.d.dret'
; CHECK: remark: {{.*}}fwd derivative of 'f' at width 2: 'f.fwd.w2.d.dret'

@enzyme_width = external global i32
declare double @__enzyme_fwddiff(ptr, ...)
declare <2 x double> @__enzyme_fwddiff_v2(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @one(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}

define <2 x double> @two(double %x) {
  %w = load i32, ptr @enzyme_width
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff_v2(ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.5)
  ret <2 x double> %d
}
