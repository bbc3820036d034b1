; LLVM exponential and logarithm intrinsics (same rows as libm exp, log, ...):
; d exp = r dx, d exp2 = r ln2 dx, d log = dx / x, d log2 = dx / (x ln2),
; d log10 = dx / (x ln10).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

define double @exp_d(double %x) {
  %r = call double @llvm.exp.f64(double %x)
  ret double %r
}
define double @exp_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @exp_d, double %x, double %dx)
  ret double %d
}

define double @exp2_d(double %x) {
  %r = call double @llvm.exp2.f64(double %x)
  ret double %r
}
define double @exp2_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @exp2_d, double %x, double %dx)
  ret double %d
}

define double @log_d(double %x) {
  %r = call double @llvm.log.f64(double %x)
  ret double %r
}
define double @log_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log_d, double %x, double %dx)
  ret double %d
}

define double @log2_d(double %x) {
  %r = call double @llvm.log2.f64(double %x)
  ret double %r
}
define double @log2_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log2_d, double %x, double %dx)
  ret double %d
}

define double @log10_d(double %x) {
  %r = call double @llvm.log10.f64(double %x)
  ret double %r
}
define double @log10_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log10_d, double %x, double %dx)
  ret double %d
}

define float @exp_f(float %x) {
  %r = call float @llvm.exp.f32(float %x)
  ret float %r
}
define float @exp_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @exp_f, float %x, float %dx)
  ret float %d
}

define float @log_f(float %x) {
  %r = call float @llvm.log.f32(float %x)
  ret float %r
}
define float @log_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @log_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @exp_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.exp.f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double %r, %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @exp2_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.exp2.f64(double %x)
; CHECK-NEXT:    [[P:%.*]] = fmul double %r, 0x3FE62E42FEFA39EF
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.log.f64(double %x)
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, %x
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log2_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.log2.f64(double %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul double %x, 0x3FE62E42FEFA39EF
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log10_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @llvm.log10.f64(double %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul double %x, 0x40026BB1BBB55516
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @exp_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @llvm.exp.f32(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float %r, %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @log_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @llvm.log.f32(float %x)
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, %x
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]
