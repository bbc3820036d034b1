; Hyperbolic libm functions, double and float spellings:
; d sinh = cosh(x) dx, d cosh = sinh(x) dx, d tanh = (1 - r^2) dx.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @sinh(double)
define double @sinh_d(double %x) {
  %r = call double @sinh(double %x)
  ret double %r
}
define double @sinh_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sinh_d, double %x, double %dx)
  ret double %d
}

declare double @cosh(double)
define double @cosh_d(double %x) {
  %r = call double @cosh(double %x)
  ret double %r
}
define double @cosh_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @cosh_d, double %x, double %dx)
  ret double %d
}

declare double @tanh(double)
define double @tanh_d(double %x) {
  %r = call double @tanh(double %x)
  ret double %r
}
define double @tanh_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @tanh_d, double %x, double %dx)
  ret double %d
}

declare float @sinhf(float)
define float @sinh_f(float %x) {
  %r = call float @sinhf(float %x)
  ret float %r
}
define float @sinh_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @sinh_f, float %x, float %dx)
  ret float %d
}

declare float @coshf(float)
define float @cosh_f(float %x) {
  %r = call float @coshf(float %x)
  ret float %r
}
define float @cosh_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @cosh_f, float %x, float %dx)
  ret float %d
}

declare float @tanhf(float)
define float @tanh_f(float %x) {
  %r = call float @tanhf(float %x)
  ret float %r
}
define float @tanh_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @tanh_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @sinh_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @sinh(double %x)
; CHECK-NEXT:    [[C:%.*]] = call double @llvm.cosh.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double [[C]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @cosh_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @cosh(double %x)
; CHECK-NEXT:    [[S:%.*]] = call double @llvm.sinh.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double [[S]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @tanh_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @tanh(double %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul double %r, %r
; CHECK-NEXT:    [[P:%.*]] = fsub double 1.000000e+00, [[R2]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @sinh_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @sinhf(float %x)
; CHECK-NEXT:    [[C:%.*]] = call float @llvm.cosh.f32(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float [[C]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @cosh_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @coshf(float %x)
; CHECK-NEXT:    [[S:%.*]] = call float @llvm.sinh.f32(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float [[S]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @tanh_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @tanhf(float %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul float %r, %r
; CHECK-NEXT:    [[P:%.*]] = fsub float 1.000000e+00, [[R2]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]
