; Exponentials and logarithms from libm, double and float spellings:
; d exp = r dx, d exp2 = r ln2 dx, d expm1 = (r + 1) dx, d log = dx / x,
; d log2 = dx / (x ln2), d log10 = dx / (x ln10), d log1p = dx / (x + 1).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

declare double @exp(double)
define double @exp_d(double %x) {
  %r = call double @exp(double %x)
  ret double %r
}
define double @exp_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @exp_d, double %x, double %dx)
  ret double %d
}

declare double @exp2(double)
define double @exp2_d(double %x) {
  %r = call double @exp2(double %x)
  ret double %r
}
define double @exp2_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @exp2_d, double %x, double %dx)
  ret double %d
}

declare double @expm1(double)
define double @expm1_d(double %x) {
  %r = call double @expm1(double %x)
  ret double %r
}
define double @expm1_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @expm1_d, double %x, double %dx)
  ret double %d
}

declare double @log(double)
define double @log_d(double %x) {
  %r = call double @log(double %x)
  ret double %r
}
define double @log_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log_d, double %x, double %dx)
  ret double %d
}

declare double @log2(double)
define double @log2_d(double %x) {
  %r = call double @log2(double %x)
  ret double %r
}
define double @log2_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log2_d, double %x, double %dx)
  ret double %d
}

declare double @log10(double)
define double @log10_d(double %x) {
  %r = call double @log10(double %x)
  ret double %r
}
define double @log10_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log10_d, double %x, double %dx)
  ret double %d
}

declare double @log1p(double)
define double @log1p_d(double %x) {
  %r = call double @log1p(double %x)
  ret double %r
}
define double @log1p_d_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @log1p_d, double %x, double %dx)
  ret double %d
}

declare float @expf(float)
define float @exp_f(float %x) {
  %r = call float @expf(float %x)
  ret float %r
}
define float @exp_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @exp_f, float %x, float %dx)
  ret float %d
}

declare float @exp2f(float)
define float @exp2_f(float %x) {
  %r = call float @exp2f(float %x)
  ret float %r
}
define float @exp2_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @exp2_f, float %x, float %dx)
  ret float %d
}

declare float @expm1f(float)
define float @expm1_f(float %x) {
  %r = call float @expm1f(float %x)
  ret float %r
}
define float @expm1_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @expm1_f, float %x, float %dx)
  ret float %d
}

declare float @logf(float)
define float @log_f(float %x) {
  %r = call float @logf(float %x)
  ret float %r
}
define float @log_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @log_f, float %x, float %dx)
  ret float %d
}

declare float @log2f(float)
define float @log2_f(float %x) {
  %r = call float @log2f(float %x)
  ret float %r
}
define float @log2_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @log2_f, float %x, float %dx)
  ret float %d
}

declare float @log10f(float)
define float @log10_f(float %x) {
  %r = call float @log10f(float %x)
  ret float %r
}
define float @log10_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @log10_f, float %x, float %dx)
  ret float %d
}

declare float @log1pf(float)
define float @log1p_f(float %x) {
  %r = call float @log1pf(float %x)
  ret float %r
}
define float @log1p_f_caller(float %x, float %dx) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @log1p_f, float %x, float %dx)
  ret float %d
}

; CHECK-LABEL: define internal double @exp_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @exp(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double %r, %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @exp2_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @exp2(double %x)
; CHECK-NEXT:    [[P:%.*]] = fmul double %r, 0x3FE62E42FEFA39EF
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @expm1_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @expm1(double %x)
; CHECK-NEXT:    [[P:%.*]] = fadd double %r, 1.000000e+00
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @log(double %x)
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, %x
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log2_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @log2(double %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul double %x, 0x3FE62E42FEFA39EF
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log10_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @log10(double %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul double %x, 0x40026BB1BBB55516
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @log1p_d.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = call double @log1p(double %x)
; CHECK-NEXT:    [[X1:%.*]] = fadd double %x, 1.000000e+00
; CHECK-NEXT:    [[P:%.*]] = fdiv double 1.000000e+00, [[X1]]
; CHECK-NEXT:    [[D:%.*]] = fmul double [[P]], %x.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @exp_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @expf(float %x)
; CHECK-NEXT:    [[D:%.*]] = fmul float %r, %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @exp2_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @exp2f(float %x)
; CHECK-NEXT:    [[P:%.*]] = fmul float %r, 0x3FE62E4300000000
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @expm1_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @expm1f(float %x)
; CHECK-NEXT:    [[P:%.*]] = fadd float %r, 1.000000e+00
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @log_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @logf(float %x)
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, %x
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @log2_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @log2f(float %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul float %x, 0x3FE62E4300000000
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @log10_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @log10f(float %x)
; CHECK-NEXT:    [[XL:%.*]] = fmul float %x, 0x40026BB1C0000000
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[XL]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]

; CHECK-LABEL: define internal float @log1p_f.fwd.d.dret(float %x, float %x.d)
; CHECK:         %r = call float @log1pf(float %x)
; CHECK-NEXT:    [[X1:%.*]] = fadd float %x, 1.000000e+00
; CHECK-NEXT:    [[P:%.*]] = fdiv float 1.000000e+00, [[X1]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[P]], %x.d
; CHECK-NEXT:    ret float [[D]]
