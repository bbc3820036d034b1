; The C++ template form of the ABI: any callee whose name contains
; __enzyme_fwddiff is a request, mangled or not.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_dup = external global i32
declare double @_Z16__enzyme_fwddiffIdJiddEET_PvDpT0_(ptr, i32, double, double)

define double @_Z1fd(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define double @caller(
; CHECK: call double @_Z1fd.fwd.d.dret(double %x, double 1.000000e+00)
; CHECK-NOT: __enzyme_fwddiff
define double @caller(double %x) {
  %d = load i32, ptr @enzyme_dup
  %r = call double @_Z16__enzyme_fwddiffIdJiddEET_PvDpT0_(ptr @_Z1fd, i32 %d, double %x, double 1.0)
  ret double %r
}
