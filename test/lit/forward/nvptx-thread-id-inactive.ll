; In an NVPTX module, thread ids are inactive: the read of tid.x gets no
; tangent, the value computed from it is a plain constant factor of the
; partial, and the index it forms is used for the shadow GEP as is.
; gpuad inlines derivatives on GPU targets, so the tangent code is in @k.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__enzyme_fwddiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; out[tid] = x * (double)tid
define void @f(ptr %out, double %x) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = uitofp i32 %tid to double
  %m = fmul double %x, %t
  %i = zext i32 %tid to i64
  %p = getelementptr inbounds double, ptr %out, i64 %i
  store double %m, ptr %p
  ret void
}

define ptx_kernel void @k(ptr %out, ptr %dout, double %x, double %dx) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %out, ptr %dout, double %x, double %dx)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(ptr %out, ptr %dout, double %x, double %dx)
; CHECK-NEXT:    [[TID:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK-NEXT:    [[T:%.*]] = uitofp i32 [[TID]] to double
; CHECK-NEXT:    [[M:%.*]] = fmul double %x, [[T]]
; CHECK-NEXT:    [[DM:%.*]] = fmul double [[T]], %dx
; CHECK-NEXT:    [[I:%.*]] = zext i32 [[TID]] to i64
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds double, ptr %out, i64 [[I]]
; CHECK-NEXT:    [[DP:%.*]] = getelementptr inbounds double, ptr %dout, i64 [[I]]
; CHECK-NEXT:    store double [[M]], ptr [[P]], align 8
; CHECK-NEXT:    store double [[DM]], ptr [[DP]], align 8
; CHECK-NEXT:    ret void
