; llvm.minnum/maxnum/minimum/maximum take the tangent of the operand they
; return: dx when r == x, dy otherwise (exactly one of them, also on ties).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

define double @minnum_d(double %x, double %y) {
  %r = call double @llvm.minnum.f64(double %x, double %y)
  ret double %r
}
define double @minnum_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @minnum_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @maxnum_d(double %x, double %y) {
  %r = call double @llvm.maxnum.f64(double %x, double %y)
  ret double %r
}
define double @maxnum_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @maxnum_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @minimum_d(double %x, double %y) {
  %r = call double @llvm.minimum.f64(double %x, double %y)
  ret double %r
}
define double @minimum_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @minimum_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @maximum_d(double %x, double %y) {
  %r = call double @llvm.maximum.f64(double %x, double %y)
  ret double %r
}
define double @maximum_d_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @maximum_d, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define float @minnum_f(float %x, float %y) {
  %r = call float @llvm.minnum.f32(float %x, float %y)
  ret float %r
}
define float @minnum_f_caller(float %x, float %dx, float %y, float %dy) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @minnum_f, float %x, float %dx, float %y, float %dy)
  ret float %d
}

; CHECK-LABEL: define internal double @minnum_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @llvm.minnum.f64(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @maxnum_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @llvm.maxnum.f64(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @minimum_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @llvm.minimum.f64(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @maximum_d.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = call double @llvm.maximum.f64(double %x, double %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], double 1.000000e+00, double 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul double [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq double %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], double 0.000000e+00, double 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul double [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @minnum_f.fwd.dd.dret(float %x, float %x.d, float %y, float %y.d)
; CHECK:         %r = call float @llvm.minnum.f32(float %x, float %y)
; CHECK-NEXT:    [[ISX:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PX:%.*]] = select i1 [[ISX]], float 1.000000e+00, float 0.000000e+00
; CHECK-NEXT:    [[A:%.*]] = fmul float [[PX]], %x.d
; CHECK-NEXT:    [[ISX2:%.*]] = fcmp oeq float %r, %x
; CHECK-NEXT:    [[PY:%.*]] = select i1 [[ISX2]], float 0.000000e+00, float 1.000000e+00
; CHECK-NEXT:    [[B:%.*]] = fmul float [[PY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    ret float [[D]]
