; llvm.sin and llvm.cos: d sin = cos(x) dx, d cos = -sin(x) dx.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

define double @sin_d(double %x) {
  %r = call double @llvm.sin.f64(double %x)
  ret double %r
}
define double @sin_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sin_d, double %x, double %dx)
  ret double %d
}

define double @cos_d(double %x) {
  %r = call double @llvm.cos.f64(double %x)
  ret double %r
}
define double @cos_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @cos_d, double %x, double %dx)
  ret double %d
}

define float @sin_f(float %x) {
  %r = call float @llvm.sin.f32(float %x)
  ret float %r
}
define float @sin_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @sin_f, float %x, float %dx)
  ret float %d
}

define float @cos_f(float %x) {
  %r = call float @llvm.cos.f32(float %x)
  ret float %r
}
define float @cos_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @cos_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @sin_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double [[COS]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @cos_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg double [[SIN]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[NSIN]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @sin_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @llvm.sin.f32(float %x)
; CHECK-NEXT:    [[COS:%.*]] = call float @llvm.cos.f32(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float [[COS]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @cos_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @llvm.cos.f32(float %x)
; CHECK-NEXT:    [[SIN:%.*]] = call float @llvm.sin.f32(float %x)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg float [[SIN]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[NSIN]], %x.d
; CHECK-NEXT:    ret float [[D]]
