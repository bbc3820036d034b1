; ocml's float spellings (`__ocml_exp_f32`, `__ocml_log_f32`) use the exp and
; log rows: d log(exp(x)) = (1/e) * (e dx).  They need no library function.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare float @__enzyme_fwddiff(ptr, ...)
declare float @__ocml_exp_f32(float)
declare float @__ocml_log_f32(float)

define float @f(float %x) #0 {
  %e = call float @__ocml_exp_f32(float %x)
  %l = call float @__ocml_log_f32(float %e)
  ret float %l
}

define float @caller(float %x, float %dx) #0 {
  %d = call float (ptr, ...) @__enzyme_fwddiff(ptr @f, float %x, float %dx)
  ret float %d
}

attributes #0 = { "target-cpu"="gfx90a" "target-features"="+wavefrontsize64" }

; The derivative is inlined into the caller (GPU target).
; CHECK-LABEL: define float @caller(float %x, float %dx)
; CHECK-NEXT:    [[E:%.*]] = call float @__ocml_exp_f32(float %x)
; CHECK-NEXT:    [[DE:%.*]] = fmul float [[E]], %dx
; CHECK-NEXT:    call float @__ocml_log_f32(float [[E]])
; CHECK-NEXT:    [[INV:%.*]] = fdiv float 1.000000e+00, [[E]]
; CHECK-NEXT:    [[D:%.*]] = fmul float [[INV]], [[DE]]
; CHECK-NEXT:    ret float [[D]]
