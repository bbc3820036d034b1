; Regression: llvm.powi on a vector with a scalar exponent; the exponent's
; conversion to floating point must be splatted (was invalid IR).
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_const = external global i32
declare <2 x double> @__enzyme_fwddiff(ptr, ...)
declare <2 x double> @llvm.powi.v2f64.i32(<2 x double>, i32)

define <2 x double> @f(<2 x double> %x, i32 %n) {
  %r = call <2 x double> @llvm.powi.v2f64.i32(<2 x double> %x, i32 %n)
  ret <2 x double> %r
}

; d/dx x^n = n * x^(n-1), lane-wise.
; CHECK-LABEL: define internal <2 x double> @f.fwd.dc.dret(
; CHECK-DAG: [[NM1:%.*]] = add i32 %n, -1
; CHECK-DAG: [[NF:%.*]] = sitofp i32 %n to double
; CHECK: [[P:%.*]] = call <2 x double> @llvm.powi.v2f64.i32(<2 x double> %x, i32 [[NM1]])
; CHECK: fmul <2 x double>
; CHECK: fmul <2 x double> {{.*}}, %x.d
define <2 x double> @caller(<2 x double> %x, <2 x double> %dx, i32 %n) {
  %r = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @f, <2 x double> %x, <2 x double> %dx, i32 %n)
  ret <2 x double> %r
}
