; Error functions from libm, double and float spellings:
; d erf = 2/sqrt(pi) exp(-x^2) dx, d erfc = -2/sqrt(pi) exp(-x^2) dx.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @erf(double)
define double @erf_d(double %x) {
  %r = call double @erf(double %x)
  ret double %r
}
define double @erf_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @erf_d, double %x, double %dx)
  ret double %d
}

declare double @erfc(double)
define double @erfc_d(double %x) {
  %r = call double @erfc(double %x)
  ret double %r
}
define double @erfc_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @erfc_d, double %x, double %dx)
  ret double %d
}

declare float @erff(float)
define float @erf_f(float %x) {
  %r = call float @erff(float %x)
  ret float %r
}
define float @erf_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @erf_f, float %x, float %dx)
  ret float %d
}

declare float @erfcf(float)
define float @erfc_f(float %x) {
  %r = call float @erfcf(float %x)
  ret float %r
}
define float @erfc_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @erfc_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @erf_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @erf(double %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[NX2:%.*]] = fneg double [[X2]]
; CHECK-NEXT:    [[E:%.*]] = call double @llvm.exp.f64(double [[NX2]])
; CHECK-NEXT:    [[P:%.*]] = fmul double 0x3FF20DD750429B6D, [[E]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @erfc_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @erfc(double %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[NX2:%.*]] = fneg double [[X2]]
; CHECK-NEXT:    [[E:%.*]] = call double @llvm.exp.f64(double [[NX2]])
; CHECK-NEXT:    [[P:%.*]] = fmul double 0x3FF20DD750429B6D, [[E]]
; CHECK-NEXT:    [[NP:%.*]] = fneg double [[P]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[NP]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @erf_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @erff(float %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[NX2:%.*]] = fneg float [[X2]]
; CHECK-NEXT:    [[E:%.*]] = call float @llvm.exp.f32(float [[NX2]])
; CHECK-NEXT:    [[P:%.*]] = fmul float 0x3FF20DD760000000, [[E]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @erfc_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @erfcf(float %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[NX2:%.*]] = fneg float [[X2]]
; CHECK-NEXT:    [[E:%.*]] = call float @llvm.exp.f32(float [[NX2]])
; CHECK-NEXT:    [[P:%.*]] = fmul float 0x3FF20DD760000000, [[E]]
; CHECK-NEXT:    [[NP:%.*]] = fneg float [[P]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[NP]], %x.d
; CHECK-NEXT:    ret float [[D]]
