; Powers and roots from libm, double and float spellings:
; d pow(x, y) = y x^(y-1) dx + r log(x) dy, d sqrt = dx / (2 r),
; d cbrt = dx / (3 r^2), d hypot(x, y) = (x dx + y dy) / r (0 at the
; origin, fabs's subgradient).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @pow(double, double)
define double @pow_d(double %x, double %y) {
  %r = call double @pow(double %x, double %y)
  ret double %r
}
define double @pow_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @pow_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare double @sqrt(double)
define double @sqrt_d(double %x) {
  %r = call double @sqrt(double %x)
  ret double %r
}
define double @sqrt_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sqrt_d, double %x, double %dx)
  ret double %d
}

declare double @cbrt(double)
define double @cbrt_d(double %x) {
  %r = call double @cbrt(double %x)
  ret double %r
}
define double @cbrt_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @cbrt_d, double %x, double %dx)
  ret double %d
}

declare double @hypot(double, double)
define double @hypot_d(double %x, double %y) {
  %r = call double @hypot(double %x, double %y)
  ret double %r
}
define double @hypot_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @hypot_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

declare float @powf(float, float)
define float @pow_f(float %x, float %y) {
  %r = call float @powf(float %x, float %y)
  ret float %r
}
define float @pow_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @pow_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

declare float @sqrtf(float)
define float @sqrt_f(float %x) {
  %r = call float @sqrtf(float %x)
  ret float %r
}
define float @sqrt_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @sqrt_f, float %x, float %dx)
  ret float %d
}

declare float @cbrtf(float)
define float @cbrt_f(float %x) {
  %r = call float @cbrtf(float %x)
  ret float %r
}
define float @cbrt_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @cbrt_f, float %x, float %dx)
  ret float %d
}

declare float @hypotf(float, float)
define float @hypot_f(float %x, float %y) {
  %r = call float @hypotf(float %x, float %y)
  ret float %r
}
define float @hypot_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @hypot_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

; CHECK-LABEL: define internal double @pow_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @pow(double %x, double %y)
; CHECK-NEXT:    [[YM1:%.*]] = fsub double %y, 1.000000e+00
; CHECK-NEXT:    [[XP:%.*]] = call double @llvm.pow.f64(double %x, double [[YM1]])
; CHECK-NEXT:    [[PX:%.*]] = fmul double %y, [[XP]]
; CHECK-NEXT:    [[YZ:%.*]] = fcmp oeq double %y, 0.000000e+00
; CHECK-NEXT:    [[PXS:%.*]] = select i1 [[YZ]], double 0.000000e+00, double [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PXS]], %x.d
; CHECK-NEXT:    [[LOG:%.*]] = call double @llvm.log.f64(double %x)
; CHECK-NEXT:    [[PY:%.*]] = fmul double %r, [[LOG]]
; CHECK-NEXT:    [[XZ:%.*]] = fcmp oeq double %x, 0.000000e+00
; CHECK-NEXT:    [[PYS:%.*]] = select i1 [[XZ]], double 0.000000e+00, double [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @sqrt_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @sqrt(double %x)
; CHECK-NEXT:    [[INV:%.*]] = fdiv double 1.000000e+00, %r
; CHECK-NEXT:    [[P:%.*]] = fmul double 5.000000e-01, [[INV]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @cbrt_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @cbrt(double %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul double %r, %r
; CHECK-NEXT:    [[R23:%.*]] = fmul double 3.000000e+00, [[R2]]
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[R23]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @hypot_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @hypot(double %x, double %y)
; CHECK-NEXT:    [[PX:%.*]] = fdiv double %x, %r
; CHECK-NEXT:    [[RZ:%.*]] = fcmp oeq double %r, 0.000000e+00
; CHECK-NEXT:    [[PXS:%.*]] = select i1 [[RZ]], double 0.000000e+00, double [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PXS]], %x.d
; CHECK-NEXT:    [[PY:%.*]] = fdiv double %y, %r
; CHECK-NEXT:    [[RZ2:%.*]] = fcmp oeq double %r, 0.000000e+00
; CHECK-NEXT:    [[PYS:%.*]] = select i1 [[RZ2]], double 0.000000e+00, double [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @pow_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @powf(float %x, float %y)
; CHECK-NEXT:    [[YM1:%.*]] = fsub float %y, 1.000000e+00
; CHECK-NEXT:    [[XP:%.*]] = call float @llvm.pow.f32(float %x, float [[YM1]])
; CHECK-NEXT:    [[PX:%.*]] = fmul float %y, [[XP]]
; CHECK-NEXT:    [[YZ:%.*]] = fcmp oeq float %y, 0.000000e+00
; CHECK-NEXT:    [[PXS:%.*]] = select i1 [[YZ]], float 0.000000e+00, float [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PXS]], %x.d
; CHECK-NEXT:    [[LOG:%.*]] = call float @llvm.log.f32(float %x)
; CHECK-NEXT:    [[PY:%.*]] = fmul float %r, [[LOG]]
; CHECK-NEXT:    [[XZ:%.*]] = fcmp oeq float %x, 0.000000e+00
; CHECK-NEXT:    [[PYS:%.*]] = select i1 [[XZ]], float 0.000000e+00, float [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @sqrt_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @sqrtf(float %x)
; CHECK-NEXT:    [[INV:%.*]] = fdiv float 1.000000e+00, %r
; CHECK-NEXT:    [[P:%.*]] = fmul float 5.000000e-01, [[INV]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @cbrt_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @cbrtf(float %x)
; CHECK-NEXT:    [[R2:%.*]] = fmul float %r, %r
; CHECK-NEXT:    [[R23:%.*]] = fmul float 3.000000e+00, [[R2]]
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[R23]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @hypot_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @hypotf(float %x, float %y)
; CHECK-NEXT:    [[PX:%.*]] = fdiv float %x, %r
; CHECK-NEXT:    [[RZ:%.*]] = fcmp oeq float %r, 0.000000e+00
; CHECK-NEXT:    [[PXS:%.*]] = select i1 [[RZ]], float 0.000000e+00, float [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PXS]], %x.d
; CHECK-NEXT:    [[PY:%.*]] = fdiv float %y, %r
; CHECK-NEXT:    [[RZ2:%.*]] = fcmp oeq float %r, 0.000000e+00
; CHECK-NEXT:    [[PYS:%.*]] = select i1 [[RZ2]], float 0.000000e+00, float [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]
