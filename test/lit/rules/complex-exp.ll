; cexp is holomorphic with cexp' = cexp: the tangent of r = cexp(z) is
; r * dz, read from the primal result, whatever shape carries the complex
; value: two doubles in and {double, double} out (x86-64 double complex),
; <2 x float> in and out (x86-64 float complex).  Width 2 keeps one
; {double, double} per lane.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare { double, double } @__enzyme_fwddiff(ptr, ...)
declare <2 x float> @__enzyme_fwddiff_f(ptr, ...)
declare [2 x { double, double }] @__enzyme_fwddiff_2(ptr, ...)
declare { double, double } @cexp(double, double)
declare <2 x float> @cexpf(<2 x float>)

define { double, double } @e(double %x, double %y) {
  %r = call { double, double } @cexp(double %x, double %y)
  ret { double, double } %r
}

; du = u dx - v dy, dv = v dx + u dy.
; CHECK-LABEL: define internal { double, double } @e.fwd.
; CHECK: [[R:%.*]] = call { double, double } @cexp(double %x, double %y)
; CHECK: [[U:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK: [[V:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK: [[NV:%.*]] = fneg double [[V]]
; CHECK: [[A:%.*]] = fmul double [[U]], %x.d
; CHECK: [[B:%.*]] = fmul double [[NV]], %y.d
; CHECK: [[DU:%.*]] = fadd double [[A]], [[B]]
; CHECK: [[C:%.*]] = fmul double [[V]], %x.d
; CHECK: [[D:%.*]] = fmul double [[U]], %y.d
; CHECK: [[DV:%.*]] = fadd double [[C]], [[D]]
; CHECK: [[P:%.*]] = insertvalue { double, double } poison, double [[DU]], 0
; CHECK: insertvalue { double, double } [[P]], double [[DV]], 1

define { double, double } @fwd_e(double %x, double %y) {
  %t = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @e,
      double %x, double 1.0, double %y, double 0.5)
  ret { double, double } %t
}

define <2 x float> @ef(<2 x float> %z) {
  %r = call <2 x float> @cexpf(<2 x float> %z)
  ret <2 x float> %r
}

; The parts of a <2 x float> operand and its tangent are its elements.
; CHECK-LABEL: define internal <2 x float> @ef.fwd.
; CHECK: [[R:%.*]] = call <2 x float> @cexpf(<2 x float> %z)
; CHECK-DAG: extractelement <2 x float> %z.d, i32 0
; CHECK-DAG: extractelement <2 x float> %z.d, i32 1
; CHECK-DAG: extractelement <2 x float> [[R]], i32 0
; CHECK-DAG: extractelement <2 x float> [[R]], i32 1
; CHECK: insertelement <2 x float> poison, float {{%.*}}, i32 0

define <2 x float> @fwd_ef(<2 x float> %z, <2 x float> %dz) {
  %t = call <2 x float> (ptr, ...) @__enzyme_fwddiff_f(ptr @ef,
      <2 x float> %z, <2 x float> %dz)
  ret <2 x float> %t
}

; Width 2: the tangent is one {double, double} per lane.
; CHECK-LABEL: define internal [2 x { double, double }] @e.fwd.w2
; CHECK: fmul <2 x double>
; CHECK: extractelement <2 x double> {{%.*}}, i32 0
; CHECK: insertvalue [2 x { double, double }]
@enzyme_width = external global i32
define [2 x { double, double }] @fwd_e2(double %x, double %y) {
  %w = load i32, ptr @enzyme_width
  %t = call [2 x { double, double }] (ptr, ...) @__enzyme_fwddiff_2(ptr @e,
      i32 %w, i32 2,
      double %x, double 1.0, double 0.0, double %y, double 0.0, double 1.0)
  ret [2 x { double, double }] %t
}
