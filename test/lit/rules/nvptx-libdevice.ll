; On NVPTX, a libdevice function (`__nv_sin`) is differentiated by its rule,
; not through its body: the tangent is __nv_cos(x) * dx, and __nv_cos, which
; the module lacks, is linked from libdevice.10.bc (no llvm.cos.f64, which
; NVPTX cannot select).  gpuad inlines derivatives on GPU targets, so the
; derivative (and libdevice's always-inline __nv_cos) ends up in @caller.
; REQUIRES: cuda
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare double @__enzyme_fwddiff(ptr, ...)

; A stand-in body: if gpuad differentiated it, llvm.cos.f64 would appear.
define double @__nv_sin(double %x) {
  %r = call double @llvm.sin.f64(double %x)
  ret double %r
}

define double @f(double %x) {
  %y = call double @__nv_sin(double %x)
  ret double %y
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; libdevice's data came with __nv_cos.
; CHECK: @__cudart_sin_cos_coeffs = internal addrspace(1) constant

; CHECK-LABEL: define double @__nv_sin(double %x)
; CHECK-NEXT:    %r = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    ret double %r

; CHECK-LABEL: define double @caller(double %x, double %dx)
; CHECK-NEXT:    call double @__nv_sin(double %x)
; CHECK-NOT:     call double @__nv_sin
; CHECK-NOT:     @llvm.cos.f64
; CHECK:       __nv_cos.exit:
; CHECK-NEXT:    [[COS:%.*]] = phi double
; CHECK-NEXT:    [[D:%.*]] = fmul double [[COS]], %dx
; CHECK-NEXT:    ret double [[D]]
; CHECK-NEXT:  }

; Neither a derivative of __nv_sin's body nor an unresolved __nv_cos is left.
; CHECK-NOT:   @__nv_sin.fwd
; CHECK-NOT:   declare double @__nv_cos(
; CHECK-NOT:   @llvm.cos.f64
