; llvm.fabs and llvm.copysign: d |x| = sign(x) dx (0 at x == 0);
; d copysign(x, y) = sign(x) sign(y) dx (y only gives the sign: no dy term).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

define double @fabs_d(double %x) {
  %r = call double @llvm.fabs.f64(double %x)
  ret double %r
}
define double @fabs_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fabs_d, double %x, double %dx)
  ret double %d
}

define double @copysign_d(double %x, double %y) {
  %r = call double @llvm.copysign.f64(double %x, double %y)
  ret double %r
}
define double @copysign_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @copysign_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define float @fabs_f(float %x) {
  %r = call float @llvm.fabs.f32(float %x)
  ret float %r
}
define float @fabs_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fabs_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @fabs_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.fabs.f64(double %x)
; CHECK-NEXT:    [[SGN:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq double %x, 0.000000e+00
; CHECK-NEXT:    [[P:%.*]] = select i1 [[ZERO]], double 0.000000e+00, double [[SGN]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @copysign_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @llvm.copysign.f64(double %x, double %y)
; CHECK-NEXT:    [[SX:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; CHECK-NEXT:    [[SY:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %y)
; CHECK-NEXT:    [[P:%.*]] = fmul double [[SX]], [[SY]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @fabs_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @llvm.fabs.f32(float %x)
; CHECK-NEXT:    [[SGN:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq float %x, 0.000000e+00
; CHECK-NEXT:    [[P:%.*]] = select i1 [[ZERO]], float 0.000000e+00, float [[SGN]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]
