; With enzyme_width 2 the derivative returns <2 x double>; the request's
; declared result -- a struct, an array, a vector -- is filled lane by lane.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_width = external global i32
declare { double, double } @__enzyme_fwddiff_struct(ptr, ...)
declare [2 x double] @__enzyme_fwddiff_array(ptr, ...)
declare <2 x double> @__enzyme_fwddiff_vector(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define { double, double } @as_struct(
; CHECK: [[T:%.*]] = call <2 x double> @f.fwd.w2.d.dret(double %x, <2 x double>
; CHECK-DAG: extractelement <2 x double> [[T]], i32 0
; CHECK-DAG: extractelement <2 x double> [[T]], i32 1
; CHECK: insertvalue { double, double }
define { double, double } @as_struct(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff_struct(ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.5)
  ret { double, double } %r
}

; CHECK-LABEL: define [2 x double] @as_array(
; CHECK: call <2 x double> @f.fwd.w2.d.dret(
; CHECK: insertvalue [2 x double]
define [2 x double] @as_array(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call [2 x double] (ptr, ...) @__enzyme_fwddiff_array(ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.5)
  ret [2 x double] %r
}

; CHECK-LABEL: define <2 x double> @as_vector(
; CHECK: call <2 x double> @f.fwd.w2.d.dret(
define <2 x double> @as_vector(double %x) {
  %w = load i32, ptr @enzyme_width
  %r = call <2 x double> (ptr, ...) @__enzyme_fwddiff_vector(ptr @f, i32 %w, i32 2, double %x, double 1.0, double 0.5)
  ret <2 x double> %r
}

; One derivative serves all three requests.
; CHECK-LABEL: define internal <2 x double> @f.fwd.w2.d.dret(double %x, <2 x double> %x.d)
; CHECK: fmul <2 x double>
