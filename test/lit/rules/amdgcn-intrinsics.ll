; AMDGPU intrinsics that HIP's fast math lowers to (__expf, __log2f, __tanf's
; reciprocal, __frsqrt_rn) are spellings of table families.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target triple = "amdgcn-amd-amdhsa"

declare float @__enzyme_fwddiff(ptr, ...)
declare float @llvm.amdgcn.exp2.f32(float)
declare float @llvm.amdgcn.log.f32(float)
declare float @llvm.amdgcn.rcp.f32(float)
declare float @llvm.amdgcn.rsq.f32(float)

define float @f(float %x) {
  %e = call float @llvm.amdgcn.exp2.f32(float %x)
  %l = call float @llvm.amdgcn.log.f32(float %x)
  %r = call float @llvm.amdgcn.rcp.f32(float %x)
  %q = call float @llvm.amdgcn.rsq.f32(float %x)
  %a = fadd float %e, %l
  %b = fadd float %r, %q
  %s = fadd float %a, %b
  ret float %s
}

; On GPU targets the derivative is inlined into the caller.
; CHECK-LABEL: define float @caller(
; CHECK: [[E:%.*]] = call float @llvm.amdgcn.exp2.f32(float %x)
; CHECK-NEXT: [[DE:%.*]] = fmul float [[E]], 0x3FE62E4300000000
; CHECK: [[XL:%.*]] = fmul float %x, 0x3FE62E4300000000
; CHECK-NEXT: [[DL:%.*]] = fdiv float 1.000000e+00, [[XL]]
; CHECK: [[R:%.*]] = call float @llvm.amdgcn.rcp.f32(float %x)
; CHECK-NEXT: [[R2:%.*]] = fmul float [[R]], [[R]]
; CHECK-NEXT: fneg float [[R2]]
; CHECK: [[Q:%.*]] = call float @llvm.amdgcn.rsq.f32(float %x)
; CHECK-NEXT: [[Q2:%.*]] = fmul float [[Q]], [[Q]]
; CHECK-NEXT: [[Q3:%.*]] = fmul float [[Q]], [[Q2]]
; CHECK-NEXT: fmul float -5.000000e-01, [[Q3]]
define float @caller(float %x) {
  %d = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, float %x, float 1.0)
  ret float %d
}
