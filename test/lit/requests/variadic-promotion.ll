; C passes a float through `...` as a double; the request undoes the
; promotion for a float parameter (and the int promotion for a short).
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define float @f(float %x, i16 %k) {
  %m = fmul float %x, %x
  ret float %m
}

; CHECK-LABEL: define double @caller(
; CHECK-DAG: [[X:%.*]] = fptrunc double %x to float
; CHECK-DAG: [[DX:%.*]] = fptrunc double %dx to float
; CHECK-DAG: [[K:%.*]] = trunc i32 %k to i16
; CHECK: [[T:%.*]] = call float @f.fwd.dc.dret(float [[X]], float [[DX]], i16 [[K]])
; The float tangent comes back as the double the C declaration promises.
; CHECK: fpext float [[T]] to double
define double @caller(double %x, double %dx, i32 %k) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, i32 %k)
  ret double %r
}
