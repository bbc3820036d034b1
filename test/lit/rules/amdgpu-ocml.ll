; On AMDGPU, an ocml function (`__ocml_sin_f64`) is differentiated by its rule:
; the tangent is __ocml_cos_f64(x) * dx, and __ocml_cos_f64, which the module
; lacks, is linked from ocml.bc (with the oclc control constants it reads).
; REQUIRES: hip
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare double @__enzyme_fwddiff(ptr, ...)
declare double @__ocml_sin_f64(double)

define double @f(double %x) #0 {
  %y = call double @__ocml_sin_f64(double %x)
  ret double %y
}

define double @caller(double %x, double %dx) #0 {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

attributes #0 = { "target-cpu"="gfx90a" "target-features"="+wavefrontsize64" }

; CHECK: @__oclc_finite_only_opt = internal {{.*}}constant i8 0

; The derivative is inlined into the caller (GPU target).
; CHECK-LABEL: define double @caller(double %x, double %dx)
; CHECK-NEXT:    call double @__ocml_sin_f64(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @__ocml_cos_f64(double %x)
; CHECK-NEXT:    [[D:%.*]] = fmul double [[COS]], %dx
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @__ocml_cos_f64(double {{.*}}%0)
; CHECK:         call {{.*}} @__ocmlpriv_trigred_f64(

; CHECK-NOT:   @f.fwd
; CHECK-NOT:   @llvm.cos.f64
