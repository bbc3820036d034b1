; A request made with invoke (C++ code with cleanups) becomes an invoke of
; the derivative; its result is unpacked on the normal edge.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare i32 @__gxx_personality_v0(...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: invoke double @f.fwd.d.dret(double %x, double 1.000000e+00)
; CHECK-NEXT: to label %request.cont unwind label %lpad
define double @caller(double %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
          to label %ok unwind label %lpad
ok:
  ret double %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
