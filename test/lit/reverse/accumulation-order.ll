; A stencil adjoint's updates of u_bar[i+1], u_bar[i-1], u_bar[i] in a loop
; walking down are reordered to ascending addresses (u_bar[i-1] first: the
; next iteration's updates read u_bar[i-1] and u_bar[i] back last), in
; gpuad's derivatives only, and only past memory that cannot alias: a store
; through a pointer that may alias the updates keeps their order.
; RUN: %opt -passes=gpuad-accumulation-order -S %s | FileCheck %s

; CHECK-LABEL: define void @down(
; CHECK:      %d = load double, ptr %pv
; CHECK-NEXT: store double 0.000000e+00, ptr %pv
; CHECK:      %a0 = load double, ptr %p0
; CHECK-NEXT: %s0 = fadd double %a0, %d2
; CHECK-NEXT: store double %s0, ptr %p0
; CHECK-NEXT: %a = load double, ptr %p
; CHECK-NEXT: %s = fadd double %d3, %a
; CHECK-NEXT: store double %s, ptr %p
; CHECK-NEXT: %a1 = load double, ptr %p1
; CHECK-NEXT: %s1 = fadd double %a1, %d
; CHECK-NEXT: store double %s1, ptr %p1
; CHECK-NEXT: %i.next = add
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

; Walking up: descending addresses.
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
