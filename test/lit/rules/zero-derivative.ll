; Piecewise-constant functions (floor, ceil, trunc, round, rint; intrinsic and
; libm spellings) have derivative zero: no tangent arithmetic is emitted and
; the tangent returned is 0.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)
declare double @floor(double)
declare float @rintf(float)

define double @floor_i(double %x) {
  %r = call double @llvm.floor.f64(double %x)
  ret double %r
}
define double @floor_i_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @floor_i, double %x, double %dx)
  ret double %d
}

define double @ceil_i(double %x) {
  %r = call double @llvm.ceil.f64(double %x)
  ret double %r
}
define double @ceil_i_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @ceil_i, double %x, double %dx)
  ret double %d
}

define double @trunc_i(double %x) {
  %r = call double @llvm.trunc.f64(double %x)
  ret double %r
}
define double @trunc_i_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @trunc_i, double %x, double %dx)
  ret double %d
}

define double @round_i(double %x) {
  %r = call double @llvm.round.f64(double %x)
  ret double %r
}
define double @round_i_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @round_i, double %x, double %dx)
  ret double %d
}

define double @rint_i(double %x) {
  %r = call double @llvm.rint.f64(double %x)
  ret double %r
}
define double @rint_i_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @rint_i, double %x, double %dx)
  ret double %d
}

define double @floor_libm(double %x) {
  %r = call double @floor(double %x)
  ret double %r
}
define double @floor_libm_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @floor_libm, double %x, double %dx)
  ret double %d
}

define float @rintf_libm(float %x) {
  %r = call float @rintf(float %x)
  ret float %r
}
define float @rintf_libm_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @rintf_libm, float %x, float %dx)
  ret float %d
}

; The tangent of a sum with a piecewise-constant term is the other term's.
define double @mixed(double %x) {
  %f = call double @llvm.floor.f64(double %x)
  %r = fadd double %f, %x
  ret double %r
}
define double @mixed_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @mixed, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @floor_i.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @llvm.floor.f64(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal double @ceil_i.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @llvm.ceil.f64(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal double @trunc_i.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @llvm.trunc.f64(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal double @round_i.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @llvm.round.f64(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal double @rint_i.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @llvm.rint.f64(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal double @floor_libm.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %r = call double @floor(double %x)
; CHECK-NEXT:    ret double 0.000000e+00

; CHECK-LABEL: define internal float @rintf_libm.fwd.d.dret(float %x, float %x.d)
; CHECK-NEXT:    %r = call float @rintf(float %x)
; CHECK-NEXT:    ret float 0.000000e+00

; CHECK-LABEL: define internal double @mixed.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %f = call double @llvm.floor.f64(double %x)
; CHECK-NEXT:    %r = fadd double %f, %x
; CHECK-NEXT:    ret double %x.d
