; A callee differentiated in split form (pick, called from the function the
; request differentiates) whose reverse sweep needs, in every iteration of
; a loop, a pointer that alternates between two local arrays (a loop-carried
; PHI, not an affine recurrence): its tape keeps, per iteration, pointers
; into its stack.  Generic memory moves to the heap across the split
; (integration/rev-split-stack-on-heap.cpp); AMDGPU's private memory cannot,
; and gpuad refuses, naming the function, instead of using pointers into the
; augmented half's finished frame.  (A pointer chosen once is carried as
; which local and offset; see integration/rev-split-local-array.c.)
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate 'pick' in split form: its reverse sweep needs pointers into its stack kept per loop iteration (or in a value it cannot build again), which would point into the finished forward half's frame

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare double @__enzyme_autodiff(ptr, ...)

define internal double @pick(ptr %x, i64 %n) noinline {
entry:
  %a.private = alloca [2 x double], addrspace(5)
  %b.private = alloca [2 x double], addrspace(5)
  %a = addrspacecast ptr addrspace(5) %a.private to ptr
  %b = addrspacecast ptr addrspace(5) %b.private to ptr
  store double 1.0, ptr %a
  store double 2.0, ptr %b
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = phi ptr [ %a, %entry ], [ %q, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %xp = getelementptr double, ptr %x, i64 %i
  %xv = load double, ptr %xp
  %old = load double, ptr %p
  %new = fmul double %old, %xv
  store double %new, ptr %p
  %s.next = fadd double %s, %new
  %to.a = icmp eq ptr %p, %b
  %q = select i1 %to.a, ptr %a, ptr %b
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

define double @outer(ptr %x, i64 %n) {
  %r = call double @pick(ptr %x, i64 %n)
  ret double %r
}

define void @caller(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @outer, ptr %x, ptr %dx, i64 %n)
  ret void
}
