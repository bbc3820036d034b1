; Trigonometric libm functions, double (sin) and float (sinf) spellings:
; d sin = cos(x) dx, d cos = -sin(x) dx, d tan = (1 + r^2) dx,
; d asin = dx / sqrt(1 - x^2), d acos = -dx / sqrt(1 - x^2),
; d atan = dx / (1 + x^2), d atan2(x, y) = (y dx - x dy) / (x^2 + y^2).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @sin(double)
define double @sin_d(double %x) {
  %r = call double @sin(double %x)
  ret double %r
}
define double @sin_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sin_d, double %x, double %dx)
  ret double %d
}

declare double @cos(double)
define double @cos_d(double %x) {
  %r = call double @cos(double %x)
  ret double %r
}
define double @cos_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @cos_d, double %x, double %dx)
  ret double %d
}

declare double @tan(double)
define double @tan_d(double %x) {
  %r = call double @tan(double %x)
  ret double %r
}
define double @tan_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @tan_d, double %x, double %dx)
  ret double %d
}

declare double @asin(double)
define double @asin_d(double %x) {
  %r = call double @asin(double %x)
  ret double %r
}
define double @asin_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @asin_d, double %x, double %dx)
  ret double %d
}

declare double @acos(double)
define double @acos_d(double %x) {
  %r = call double @acos(double %x)
  ret double %r
}
define double @acos_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @acos_d, double %x, double %dx)
  ret double %d
}

declare double @atan(double)
define double @atan_d(double %x) {
  %r = call double @atan(double %x)
  ret double %r
}
define double @atan_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @atan_d, double %x, double %dx)
  ret double %d
}

declare double @atan2(double, double)
define double @atan2_d(double %x, double %y) {
  %r = call double @atan2(double %x, double %y)
  ret double %r
}
define double @atan2_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @atan2_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare float @sinf(float)
define float @sin_f(float %x) {
  %r = call float @sinf(float %x)
  ret float %r
}
define float @sin_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @sin_f, float %x, float %dx)
  ret float %d
}

declare float @cosf(float)
define float @cos_f(float %x) {
  %r = call float @cosf(float %x)
  ret float %r
}
define float @cos_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @cos_f, float %x, float %dx)
  ret float %d
}

declare float @tanf(float)
define float @tan_f(float %x) {
  %r = call float @tanf(float %x)
  ret float %r
}
define float @tan_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @tan_f, float %x, float %dx)
  ret float %d
}

declare float @asinf(float)
define float @asin_f(float %x) {
  %r = call float @asinf(float %x)
  ret float %r
}
define float @asin_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @asin_f, float %x, float %dx)
  ret float %d
}

declare float @acosf(float)
define float @acos_f(float %x) {
  %r = call float @acosf(float %x)
  ret float %r
}
define float @acos_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @acos_f, float %x, float %dx)
  ret float %d
}

declare float @atanf(float)
define float @atan_f(float %x) {
  %r = call float @atanf(float %x)
  ret float %r
}
define float @atan_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @atan_f, float %x, float %dx)
  ret float %d
}

declare float @atan2f(float, float)
define float @atan2_f(float %x, float %y) {
  %r = call float @atan2f(float %x, float %y)
  ret float %r
}
define float @atan2_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @atan2_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

; CHECK-LABEL: define internal double @sin_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @sin(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double [[COS]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @cos_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @cos(double %x)
; CHECK-NEXT:    [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg double [[SIN]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[NSIN]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @tan_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @tan(double %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul double %r, %r
; CHECK-NEXT:    [[P:%.*]] = fadd double 1.000000e+00, [[R2]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @asin_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @asin(double %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[A:%.*]] = fsub double 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[S:%.*]] = call double @llvm.sqrt.f64(double [[A]])
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[S]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @acos_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @acos(double %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[A:%.*]] = fsub double 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[S:%.*]] = call double @llvm.sqrt.f64(double [[A]])
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[S]]
; CHECK-NEXT:    [[NP:%.*]] = fneg double [[P]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[NP]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @atan_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @atan(double %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[A:%.*]] = fadd double 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[A]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @atan2_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @atan2(double %x, double %y)
; CHECK-NEXT:    [[Y2:%.*]] = fmul double %y, %y
; CHECK-NEXT:    [[X2:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[DEN:%.*]] = fadd double [[X2]], [[Y2]]
; CHECK-NEXT:    [[PX:%.*]] = fdiv double %y, [[DEN]]
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[Y2B:%.*]] = fmul double %y, %y
; CHECK-NEXT:    [[X2B:%.*]] = fmul double %x, %x
; CHECK-NEXT:    [[DENB:%.*]] = fadd double [[X2B]], [[Y2B]]
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %x, [[DENB]]
; CHECK-NEXT:    [[PY:%.*]] = fneg double [[Q]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @sin_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @sinf(float %x)
; CHECK-NEXT:    [[COS:%.*]] = call float @llvm.cos.f32(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float [[COS]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @cos_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @cosf(float %x)
; CHECK-NEXT:    [[SIN:%.*]] = call float @llvm.sin.f32(float %x)
; CHECK-NEXT:    [[NSIN:%.*]] = fneg float [[SIN]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[NSIN]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @tan_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @tanf(float %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul float %r, %r
; CHECK-NEXT:    [[P:%.*]] = fadd float 1.000000e+00, [[R2]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @asin_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @asinf(float %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[A:%.*]] = fsub float 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[S:%.*]] = call float @llvm.sqrt.f32(float [[A]])
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[S]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @acos_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @acosf(float %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[A:%.*]] = fsub float 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[S:%.*]] = call float @llvm.sqrt.f32(float [[A]])
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[S]]
; CHECK-NEXT:    [[NP:%.*]] = fneg float [[P]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[NP]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @atan_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @atanf(float %x)
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[A:%.*]] = fadd float 1.000000e+00, [[X2]]
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[A]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @atan2_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @atan2f(float %x, float %y)
; CHECK-NEXT:    [[Y2:%.*]] = fmul float %y, %y
; CHECK-NEXT:    [[X2:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[DEN:%.*]] = fadd float [[X2]], [[Y2]]
; CHECK-NEXT:    [[PX:%.*]] = fdiv float %y, [[DEN]]
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PX]], %x.d
; CHECK-NEXT:    [[Y2B:%.*]] = fmul float %y, %y
; CHECK-NEXT:    [[X2B:%.*]] = fmul float %x, %x
; CHECK-NEXT:    [[DENB:%.*]] = fadd float [[X2B]], [[Y2B]]
; CHECK-NEXT:    [[Q:%.*]] = fdiv float %x, [[DENB]]
; CHECK-NEXT:    [[PY:%.*]] = fneg float [[Q]]
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]
