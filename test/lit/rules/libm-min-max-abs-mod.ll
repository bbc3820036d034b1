; fmin/fmax/fabs/fmod from libm, double and float spellings:
; fmin and fmax take the tangent of the operand they return (x when r == x),
; d fabs = sign(x) dx (0 at x == 0), d fmod(x, y) = dx - trunc(x/y) dy.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @fmin(double, double)
define double @fmin_d(double %x, double %y) {
  %r = call double @fmin(double %x, double %y)
  ret double %r
}
define double @fmin_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmin_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare double @fmax(double, double)
define double @fmax_d(double %x, double %y) {
  %r = call double @fmax(double %x, double %y)
  ret double %r
}
define double @fmax_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmax_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare double @fabs(double)
define double @fabs_d(double %x) {
  %r = call double @fabs(double %x)
  ret double %r
}
define double @fabs_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fabs_d, double %x, double %dx)
  ret double %d
}

declare double @fmod(double, double)
define double @fmod_d(double %x, double %y) {
  %r = call double @fmod(double %x, double %y)
  ret double %r
}
define double @fmod_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmod_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare float @fminf(float, float)
define float @fmin_f(float %x, float %y) {
  %r = call float @fminf(float %x, float %y)
  ret float %r
}
define float @fmin_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fmin_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

declare float @fmaxf(float, float)
define float @fmax_f(float %x, float %y) {
  %r = call float @fmaxf(float %x, float %y)
  ret float %r
}
define float @fmax_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fmax_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

declare float @fabsf(float)
define float @fabs_f(float %x) {
  %r = call float @fabsf(float %x)
  ret float %r
}
define float @fabs_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fabs_f, float %x, float %dx)
  ret float %d
}

declare float @fmodf(float, float)
define float @fmod_f(float %x, float %y) {
  %r = call float @fmodf(float %x, float %y)
  ret float %r
}
define float @fmod_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fmod_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

; CHECK-LABEL: define internal double @fmin_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @fmin(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @fmax_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @fmax(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @fabs_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @fabs(double %x)
; CHECK-NEXT:    [[SGN:%.*]] = call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq double %x, 0.000000e+00
; CHECK-NEXT:    [[P:%.*]] = select i1 [[ZERO]], double 0.000000e+00, double [[SGN]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @fmod_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @fmod(double %x, double %y)
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %x, %y
; CHECK-NEXT:    [[T:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; CHECK-NEXT:    [[NT:%.*]] = fneg double [[T]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[NT]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double %x.d, [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @fmin_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @fminf(float %x, float %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], float 1.000000e+00, float 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], float 0.000000e+00, float 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @fmax_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @fmaxf(float %x, float %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], float 1.000000e+00, float 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], float 0.000000e+00, float 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @fabs_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @fabsf(float %x)
; CHECK-NEXT:    [[SGN:%.*]] = call float @llvm.copysign.f32(float 1.000000e+00, float %x)
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq float %x, 0.000000e+00
; CHECK-NEXT:    [[P:%.*]] = select i1 [[ZERO]], float 0.000000e+00, float [[SGN]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @fmod_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @fmodf(float %x, float %y)
; CHECK-NEXT:    [[Q:%.*]] = fdiv float %x, %y
; CHECK-NEXT:    [[T:%.*]] = call float @llvm.trunc.f32(float [[Q]])
; CHECK-NEXT:    [[NT:%.*]] = fneg float [[T]]
; CHECK-NEXT:    [[B:%.*]] = fmul float [[NT]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float %x.d, [[B]]
; CHECK-NEXT:    ret float [[D]]
