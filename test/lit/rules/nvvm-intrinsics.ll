; NVVM intrinsics that CUDA's fast math lowers to are spellings of table
; families (registered by the NVPTX target hooks).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

declare float @__enzyme_fwddiff(ptr, ...)
declare float @llvm.nvvm.ex2.approx.ftz.f32(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.rcp.rn.f(float)
declare double @llvm.nvvm.rsqrt.approx.d(double)
declare double @__enzyme_fwddiff_d(ptr, ...)

define float @ex2(float %x) {
  %r = call float @llvm.nvvm.ex2.approx.ftz.f32(float %x)
  ret float %r
}
define float @lg2(float %x) {
  %r = call float @llvm.nvvm.lg2.approx.f(float %x)
  ret float %r
}
define float @rcp(float %x) {
  %r = call float @llvm.nvvm.rcp.rn.f(float %x)
  ret float %r
}
define double @rsqrt(double %x) {
  %r = call double @llvm.nvvm.rsqrt.approx.d(double %x)
  ret double %r
}

define void @caller(ptr %out, float %x, double %y) {
  %a = call float (ptr, ...) @__enzyme_fwddiff(ptr @ex2, float %x, float 1.0)
  store volatile float %a, ptr %out
  %b = call float (ptr, ...) @__enzyme_fwddiff(ptr @lg2, float %x, float 1.0)
  store volatile float %b, ptr %out
  %c = call float (ptr, ...) @__enzyme_fwddiff(ptr @rcp, float %x, float 1.0)
  store volatile float %c, ptr %out
  %d = call double (ptr, ...) @__enzyme_fwddiff_d(ptr @rsqrt, double %y, double 1.0)
  store volatile double %d, ptr %out
  ret void
}

; On GPU targets the derivatives are inlined into the caller.
; CHECK-LABEL: define void @caller(
; d 2^x = 2^x ln 2
; CHECK: [[E:%.*]] = call float @llvm.nvvm.ex2.approx.ftz.f32(float %x)
; CHECK-NEXT: [[DE:%.*]] = fmul float [[E]], 0x3FE62E4300000000
; CHECK-NEXT: store volatile float [[DE]]
; d log2 x = 1 / (x ln 2)
; CHECK: [[XL:%.*]] = fmul float %x, 0x3FE62E4300000000
; CHECK-NEXT: [[DL:%.*]] = fdiv float 1.000000e+00, [[XL]]
; CHECK-NEXT: store volatile float [[DL]]
; d (1/x) = -r^2
; CHECK: [[R:%.*]] = call float @llvm.nvvm.rcp.rn.f(float %x)
; CHECK-NEXT: [[R2:%.*]] = fmul float [[R]], [[R]]
; CHECK-NEXT: [[DR:%.*]] = fneg float [[R2]]
; CHECK-NEXT: store volatile float [[DR]]
; d x^-1/2 = -r^3 / 2
; CHECK: [[Q:%.*]] = call double @llvm.nvvm.rsqrt.approx.d(double %y)
; CHECK-NEXT: [[Q2:%.*]] = fmul double [[Q]], [[Q]]
; CHECK-NEXT: [[Q3:%.*]] = fmul double [[Q]], [[Q2]]
; CHECK-NEXT: [[DQ:%.*]] = fmul double -5.000000e-01, [[Q3]]
; CHECK-NEXT: store volatile double [[DQ]]
