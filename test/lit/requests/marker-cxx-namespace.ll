; A marker declared in a C++ namespace keeps its meaning: the source name is
; what counts (here gpuad::enzyme_const).
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@_ZN5gpuad12enzyme_constE = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: call double @f.fwd.cd.dret(double %x, double %y, double 1.000000e+00)
; CHECK-NOT: _ZN5gpuad12enzyme_constE
define double @caller(double %x, double %y) {
  %c = load i32, ptr @_ZN5gpuad12enzyme_constE
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %c, double %x, double %y, double 1.0)
  ret double %r
}
