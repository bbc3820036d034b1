; A stencil adjoint's updates of u_bar[i+1], u_bar[i-1], u_bar[i] in a loop
; of one block are carried in registers from one iteration to the next:
; each address is loaded by its first update and stored by its last.  Where
; they cannot be (a position left out, a store that may alias them), a
; loop walking down has them reordered to ascending addresses (u_bar[i-1]
; first: the next iteration's updates read u_bar[i-1] and u_bar[i] back
; last).  In gpuad's derivatives only, and only past memory that cannot
; alias.
; RUN: %opt -passes=gpuad-accumulation-order -S %s | FileCheck %s

; CHECK-LABEL: define void @down(
; The addresses the first iteration continues, loaded before the loop:
; CHECK:      entry:
; CHECK:      %[[FIRST_I1:.+]] = load double, ptr %{{.+}}, align 8
; CHECK:      %[[FIRST_I:.+]] = load double, ptr %{{.+}}, align 8
; CHECK-NEXT: br label %loop
; u_bar[i] continues u_bar[i-1] of the iteration before, u_bar[i+1] u_bar[i]:
; CHECK:      loop:
; CHECK-DAG:  %[[AT_I:.+]] = phi double [ %[[FIRST_I]], %entry ], [ %s0, %loop ]
; CHECK-DAG:  %[[AT_I1:.+]] = phi double [ %[[FIRST_I1]], %entry ], [ %s, %loop ]
; u_bar[i+1] is finished: its only store in the loop.
; CHECK:      %s1 = fadd double %[[AT_I1]], %d
; CHECK-NEXT: store double %s1, ptr %p1
; u_bar[i-1] is new: its only load.
; CHECK:      %a0 = load double, ptr %p0
; CHECK-NEXT: %s0 = fadd double %a0, %d2
; CHECK-NOT:  store
; CHECK:      %s = fadd double %d3, %[[AT_I]]
; CHECK-NOT:  store
; CHECK:      br i1 %c, label %loop, label %exit
; The last iteration's unfinished addresses, stored after it:
; CHECK:      exit:
; CHECK-DAG:  %[[S:.+]] = phi double [ %s, %loop ]
; CHECK-DAG:  %[[P:.+]] = phi ptr [ %p, %loop ]
; CHECK-DAG:  %[[S0:.+]] = phi double [ %s0, %loop ]
; CHECK-DAG:  %[[P0:.+]] = phi ptr [ %p0, %loop ]
; CHECK-DAG:  store double %[[S]], ptr %[[P]]
; CHECK-DAG:  store double %[[S0]], ptr %[[P0]]
; CHECK:      ret void
define void @down(ptr noalias %du, ptr noalias %dv, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %pv = getelementptr double, ptr %dv, i64 %i
  %d = load double, ptr %pv
  store double 0.0, ptr %pv
  %d2 = fmul double %d, 2.0
  %d3 = fmul double %d, 3.0
  %ip1 = add i64 %i, 1
  %p1 = getelementptr double, ptr %du, i64 %ip1
  %a1 = load double, ptr %p1
  %s1 = fadd double %a1, %d
  store double %s1, ptr %p1
  %im1 = add i64 %i, -1
  %p0 = getelementptr double, ptr %du, i64 %im1
  %a0 = load double, ptr %p0
  %s0 = fadd double %a0, %d2
  store double %s0, ptr %p0
  %p = getelementptr double, ptr %du, i64 %i
  %a = load double, ptr %p
  %s = fadd double %d3, %a
  store double %s, ptr %p
  %i.next = add i64 %i, -1
  %c = icmp sgt i64 %i.next, 1
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; Walking up, u_bar[i] left out (no register can carry u_bar[i+1] to
; u_bar[i-1]): descending addresses.
; CHECK-LABEL: define void @up(
; CHECK:      store double %s1, ptr %p1
; CHECK-NEXT: %a0 = load double, ptr %p0
; CHECK:      store double %s0, ptr %p0
; CHECK-NEXT: %i.next = add
define void @up(ptr noalias %du, ptr noalias %dv, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i.next, %loop ]
  %pv = getelementptr double, ptr %dv, i64 %i
  %d = load double, ptr %pv
  %im1 = add i64 %i, -1
  %p0 = getelementptr double, ptr %du, i64 %im1
  %a0 = load double, ptr %p0
  %s0 = fadd double %a0, %d
  store double %s0, ptr %p0
  %ip1 = add i64 %i, 1
  %p1 = getelementptr double, ptr %du, i64 %ip1
  %a1 = load double, ptr %p1
  %s1 = fadd double %a1, %d
  store double %s1, ptr %p1
  %i.next = add i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A store through %other, which may alias du, between the updates: kept.
; CHECK-LABEL: define void @may.alias(
; CHECK:      store double %s1, ptr %p1
; CHECK-NEXT: store double 0.000000e+00, ptr %other
; CHECK:      store double %s0, ptr %p0
define void @may.alias(ptr %du, ptr %other, i64 %n) #0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %ip1 = add i64 %i, 1
  %p1 = getelementptr double, ptr %du, i64 %ip1
  %a1 = load double, ptr %p1
  %s1 = fadd double %a1, 1.0
  store double %s1, ptr %p1
  store double 0.0, ptr %other
  %im1 = add i64 %i, -1
  %p0 = getelementptr double, ptr %du, i64 %im1
  %a0 = load double, ptr %p0
  %s0 = fadd double %a0, 1.0
  store double %s0, ptr %p0
  %i.next = add i64 %i, -1
  %c = icmp sgt i64 %i.next, 1
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; Not a derivative gpuad made: left alone.
; CHECK-LABEL: define void @user(
; CHECK:      store double %s1, ptr %p1
; CHECK:      store double %s0, ptr %p0
define void @user(ptr noalias %du, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %ip1 = add i64 %i, 1
  %p1 = getelementptr double, ptr %du, i64 %ip1
  %a1 = load double, ptr %p1
  %s1 = fadd double %a1, 1.0
  store double %s1, ptr %p1
  %im1 = add i64 %i, -1
  %p0 = getelementptr double, ptr %du, i64 %im1
  %a0 = load double, ptr %p0
  %s0 = fadd double %a0, 1.0
  store double %s0, ptr %p0
  %i.next = add i64 %i, -1
  %c = icmp sgt i64 %i.next, 1
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

attributes #0 = { "gpuad-derivative" }
