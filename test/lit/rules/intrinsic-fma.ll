; llvm.fma and llvm.fmuladd: d(x y + z) = y dx + x dy + dz.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare float @__enzyme_fwddiff_float(ptr, ...)

define double @fma_d(double %x, double %y, double %z) {
  %r = call double @llvm.fma.f64(double %x, double %y, double %z)
  ret double %r
}
define double @fma_d_caller(double %x, double %dx, double %y, double %dy, double %z, double %dz) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fma_d, double %x, double %dx, double %y, double %dy, double %z, double %dz)
  ret double %d
}

define double @fmuladd_d(double %x, double %y, double %z) {
  %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
  ret double %r
}
define double @fmuladd_d_caller(double %x, double %dx, double %y, double %dy, double %z, double %dz) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @fmuladd_d, double %x, double %dx, double %y, double %dy, double %z, double %dz)
  ret double %d
}

define float @fma_f(float %x, float %y, float %z) {
  %r = call float @llvm.fma.f32(float %x, float %y, float %z)
  ret float %r
}
define float @fma_f_caller(float %x, float %dx, float %y, float %dy, float %z, float %dz) {
  %d = call float (ptr, ...) @__enzyme_fwddiff_float(ptr @fma_f, float %x, float %dx, float %y, float %dy, float %z, float %dz)
  ret float %d
}

; CHECK-LABEL: define internal double @fma_d.fwd.ddd.dret(double %x, double %x.d, double %y, double %y.d, double %z, double %z.d)
; CHECK:         %r = call double @llvm.fma.f64(double %x, double %y, double %z)
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, %x.d
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, %y.d
; CHECK-NEXT:    [[AB:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    [[D:%.*]] = fadd double [[AB]], %z.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @fmuladd_d.fwd.ddd.dret(double %x, double %x.d, double %y, double %y.d, double %z, double %z.d)
; CHECK:         %r = call double @llvm.fmuladd.f64(double %x, double %y, double %z)
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, %x.d
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, %y.d
; CHECK-NEXT:    [[AB:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    [[D:%.*]] = fadd double [[AB]], %z.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal float @fma_f.fwd.ddd.dret(float %x, float %x.d, float %y, float %y.d, float %z, float %z.d)
; CHECK:         %r = call float @llvm.fma.f32(float %x, float %y, float %z)
; CHECK-NEXT:    [[A:%.*]] = fmul float %y, %x.d
; CHECK-NEXT:    [[B:%.*]] = fmul float %x, %y.d
; CHECK-NEXT:    [[AB:%.*]] = fadd float [[A]], [[B]]
; CHECK-NEXT:    [[D:%.*]] = fadd float [[AB]], %z.d
; CHECK-NEXT:    ret float [[D]]
