; Where keeping a loop's value once is not enough: the reverse sweep needs it
; inside the loop, every iteration.
;  - @product: p *= x[i]; the adjoint of x[i] is p (before the update) times
;    the product's adjoint, so the header PHI p is kept per iteration; the
;    value the loop leaves behind is still kept once.
;  - @chase: a pointer walking a linked list, p = p->next; the reverse sweep
;    adds into the shadow of p->val every iteration, so p is kept per
;    iteration (it is not start + step * i), with its shadow; the list's
;    length is unknown at entry, so the frame array grows.
; Where it does not matter that the value feeds a store or the loop bound:
;  - @bound: while (s < 10) s += x[i++]; s decides the exit, but the reverse
;    sweep retraces the loop by its recorded exit iteration, not by s, and
;    the fadd's adjoint needs no operand: nothing per iteration.
;  - @store: out[i] = s; s += x[i]; the store's reverse moves out[i]'s
;    adjoint into s without needing s's value: nothing per iteration.
; RUN: %opt -passes='print<gpuad-tape>' -disable-output %s | FileCheck %s
; RUN: %opt -passes=gpuad -pass-remarks-analysis=gpuad -pass-remarks=gpuad -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; The same decisions as optimisation remarks, with sizes:
; REMARK: remark: {{.*}}%i recomputed: start + step * iteration
; REMARK: remark: {{.*}}%p cached (8 B x trip(loop %header)): a loop-carried value
; REMARK: remark: {{.*}}%p.lcssa kept: the value loop %header leaves behind: kept once, from its last iteration
; REMARK: remark: {{.*}}tape: 1 values cached (0 B outside loops, 1 loop frames; 1 loop(s) growing in the heap)

; CHECK-LABEL: tape of 'product'
; CHECK:         frame of loop %header: 8 B per iteration
; CHECK-NEXT:      +0 %p: double, a loop-carried value
; CHECK:         kept %p.lcssa: the value loop %header leaves behind: kept once, from its last iteration

; CHECK-LABEL: tape of 'chase'
; CHECK:         frame of loop %header: 16 B per iteration, heap, grown
; CHECK-NEXT:      +0 %node: ptr, a loop-carried value
; CHECK-NEXT:      +8 %node.d: ptr, a loop-carried value

; CHECK-LABEL: tape of 'bound'
; CHECK-NOT:     frame of
; CHECK-LABEL: tape of 'store'
; CHECK-NOT:     frame of
; CHECK:         recomputed %i: start + step * iteration

declare void @__enzyme_autodiff(ptr, ...)

define double @product(ptr noalias %x, i32 %n) {
entry:
  br label %header
header:
  %p = phi double [ 1.0, %entry ], [ %p.next, %body ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %a = getelementptr inbounds double, ptr %x, i64 %idx
  %v = load double, ptr %a
  %p.next = fmul double %p, %v
  %i.next = add nsw i32 %i, 1
  br label %header
exit:
  %p.lcssa = phi double [ %p, %header ]
  %r = fmul double %p.lcssa, %p.lcssa
  ret double %r
}

%node = type { double, ptr }

define double @chase(ptr noalias %list) {
entry:
  br label %header
header:
  %node = phi ptr [ %list, %entry ], [ %next, %body ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %body ]
  %end = icmp eq ptr %node, null
  br i1 %end, label %exit, label %body
body:
  %v = load double, ptr %node
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %pn = getelementptr inbounds %node, ptr %node, i32 0, i32 1
  %next = load ptr, ptr %pn
  br label %header
exit:
  %s.lcssa = phi double [ %s, %header ]
  ret double %s.lcssa
}

define double @bound(ptr noalias %x) {
entry:
  br label %header
header:
  %s = phi double [ 0.0, %entry ], [ %s.next, %body ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = fcmp olt double %s, 10.0
  br i1 %more, label %body, label %exit
body:
  %a = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %a
  %s.next = fadd double %s, %v
  %i.next = add nsw i64 %i, 1
  br label %header
exit:
  %s.lcssa = phi double [ %s, %header ]
  ret double %s.lcssa
}

define void @store(ptr noalias %out, ptr noalias %x, i64 %n) {
entry:
  br label %header
header:
  %s = phi double [ 0.0, %entry ], [ %s.next, %body ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %o = getelementptr inbounds double, ptr %out, i64 %i
  store double %s, ptr %o
  %a = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %a
  %s.next = fadd double %s, %v
  %i.next = add nsw i64 %i, 1
  br label %header
exit:
  ret void
}

define void @grad(ptr %x, ptr %dx, ptr %l, ptr %dl, ptr %o, ptr %do, i32 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @product, ptr %x, ptr %dx, i32 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @chase, ptr %l, ptr %dl)
  call void (ptr, ...) @__enzyme_autodiff(ptr @bound, ptr %x, ptr %dx)
  call void (ptr, ...) @__enzyme_autodiff(ptr @store, ptr %o, ptr %do, ptr %x, ptr %dx, i64 10)
  ret void
}
