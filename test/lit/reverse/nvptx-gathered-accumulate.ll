; A gathered address -- x[k] with k hashed from the thread id in a loop, so
; the reverse sweep takes k from the tape -- gets a plain atomic add per
; lane: it derives from the thread id, and the warp check (activemask,
; shuffles, a vote) would only cost time and registers.  The shared weight
; w[0], the same address in every lane, keeps the warp-aggregated add.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; s = sum_{j<8} w[0] * x[k_j],  k_0 = tid & 63,  k_{j+1} = (5 k_j + 1) & 63
define void @f(ptr noalias %x, ptr noalias %w, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k0 = and i32 %tid, 63
  %w0 = load double, ptr %w
  br label %loop

loop:
  %j = phi i32 [ 0, %entry ], [ %j.next, %loop ]
  %k = phi i32 [ %k0, %entry ], [ %k.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %ki = zext i32 %k to i64
  %px = getelementptr inbounds double, ptr %x, i64 %ki
  %xk = load double, ptr %px
  %t = fmul double %w0, %xk
  %s.next = fadd double %s, %t
  %k5 = mul i32 %k, 5
  %k6 = add i32 %k5, 1
  %k.next = and i32 %k6, 63
  %j.next = add i32 %j, 1
  %done = icmp eq i32 %j.next, 8
  br i1 %done, label %exit, label %loop

exit:
  %tidi = zext i32 %tid to i64
  %po = getelementptr inbounds double, ptr %out, i64 %tidi
  store double %s.next, ptr %po
  ret void
}

define ptx_kernel void @k(ptr %x, ptr %dx, ptr %w, ptr %dw, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %w, ptr %dw, ptr %out, ptr %dout)
  ret void
}

; One warp check, for w[0]; x[k]'s adjoint is one atomic per lane, its
; address read back from the tape.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-COUNT-1: call i32 @llvm.nvvm.activemask()
; CHECK-NOT:     call i32 @llvm.nvvm.activemask()
