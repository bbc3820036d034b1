; The optimisation gpuad was founded on.  mag() is a running sum in a loop
; that is not rotated (only SROA ran): the sum %s is the header PHI, and the
; code after the loop uses the value the loop leaves behind (%s.lcssa).
; Called inside normalize()'s O(n) loop, keeping %s for every iteration of
; mag's loop would make the tape O(n^2).  gpuad keeps it once: the value
; left behind, no frame for mag's loop at all (x is restrict, so its loads
; are recomputed).  With -gpuad-last-iteration-cache=false the per-iteration
; frame comes back.  (mag's call is kept in the loop here; by default it is
; invariant and runs once: invariant-call.ll.)
; RUN: %opt -passes='print<gpuad-tape>' -disable-output -gpuad-hoist-invariant-calls=false %s | FileCheck %s
; RUN: %opt -passes='print<gpuad-tape>' -disable-output -gpuad-hoist-invariant-calls=false -gpuad-last-iteration-cache=false %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: tape of 'mag' (augmented and backward halves
; CHECK-NEXT:    slots: 0 B
; CHECK-NOT:     frame of
; CHECK:         kept %s.lcssa: the value loop %header leaves behind: kept once, from its last iteration
; CHECK-LABEL: tape of 'normalize' (combined
; CHECK:         frame of loop %outer: {{[0-9]+}} B per iteration, heap, sized at entry
; CHECK-NOT:     frame of

; OFF-LABEL: tape of 'mag' (augmented and backward halves
; OFF:         frame of loop %header: 8 B per iteration, heap, sized at entry
; OFF-NEXT:      +0 %s: double, kept for every iteration of loop %header for the value the loop leaves behind (last-iteration cache off)

declare double @llvm.log.f64(double)
declare void @__enzyme_autodiff(ptr, ...)

; mag(x, n) = s log(s), s = sum_i x[i]^2
define double @mag(ptr %x, i32 %n) {
entry:
  br label %header
header:
  %s = phi double [ 0.0, %entry ], [ %s.next, %body ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds double, ptr %x, i64 %idx
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add nsw i32 %i, 1
  br label %header
exit:
  %s.lcssa = phi double [ %s, %header ]
  %l = call double @llvm.log.f64(double %s.lcssa)
  %r = fmul double %s.lcssa, %l
  ret double %r
}

; out[j] = x[j] / mag(x, n)
define void @normalize(ptr noalias %out, ptr noalias %x, i32 %n) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %obody ]
  %more = icmp slt i32 %j, %n
  br i1 %more, label %obody, label %done
obody:
  %idx = sext i32 %j to i64
  %px = getelementptr inbounds double, ptr %x, i64 %idx
  %xj = load double, ptr %px
  %m = call double @mag(ptr %x, i32 %n)
  %q = fdiv double %xj, %m
  %po = getelementptr inbounds double, ptr %out, i64 %idx
  store double %q, ptr %po
  %j.next = add nsw i32 %j, 1
  br label %outer
done:
  ret void
}

define void @grad(ptr %out, ptr %dout, ptr %x, ptr %dx, i32 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @normalize, ptr %out, ptr %dout, ptr %x, ptr %dx, i32 %n)
  ret void
}
