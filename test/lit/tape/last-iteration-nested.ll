; A running sum in an inner loop with two exits (the bound, and a break when
; the sum grows large), used after the inner loop inside the outer loop:
; t += s * s.  The reverse sweep needs s only as the inner loop left it --
; here the PHI merging the two exits' values -- so the tape keeps one value
; per outer iteration, a field of the outer loop's frame, next to the exit
; iteration and the exit taken; the inner loop gets no frame at all.
; RUN: %opt -passes='print<gpuad-tape>' -disable-output %s | FileCheck %s

; CHECK-LABEL: tape of 'f' (combined
; CHECK-NEXT:    slots: 0 B
; CHECK-NEXT:    frame of loop %outer: {{[0-9]+}} B per iteration, heap, sized at entry
; CHECK-DAG:       %sj: double, a value merged from several paths
; CHECK-DAG:       %from: i8, which way control entered the block
; CHECK-DAG:       the iteration loop %inner was left in
; CHECK-NOT:     frame of
; CHECK:         recomputed %i: start + step * iteration

declare void @__enzyme_autodiff(ptr, ...)

; f(x, m, n) = sum_j s_j^2, s_j = sum_{i < n, until s > 4} x[j n + i]^2
define double @f(ptr noalias %x, i32 %m, i32 %n) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %latch ]
  %t = phi double [ 0.0, %entry ], [ %t.next, %latch ]
  %omore = icmp slt i32 %j, %m
  br i1 %omore, label %ipre, label %done
ipre:
  %base = mul nsw i32 %j, %n
  br label %inner
inner:
  %s = phi double [ 0.0, %ipre ], [ %s.next, %ibody ]
  %i = phi i32 [ 0, %ipre ], [ %i.next, %ibody ]
  %imore = icmp slt i32 %i, %n
  br i1 %imore, label %iload, label %ibound
iload:
  %k = add nsw i32 %base, %i
  %idx = sext i32 %k to i64
  %p = getelementptr inbounds double, ptr %x, i64 %idx
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %big = fcmp ogt double %s.next, 4.0
  br i1 %big, label %ibreak, label %ibody
ibody:
  %i.next = add nsw i32 %i, 1
  br label %inner
ibound:
  %s.lcssa = phi double [ %s, %inner ]
  br label %latch
ibreak:
  %s.next.lcssa = phi double [ %s.next, %iload ]
  br label %latch
latch:
  %sj = phi double [ %s.lcssa, %ibound ], [ %s.next.lcssa, %ibreak ]
  %sj2 = fmul double %sj, %sj
  %t.next = fadd double %t, %sj2
  %j.next = add nsw i32 %j, 1
  br label %outer
done:
  ret double %t
}

define void @grad(ptr %x, ptr %dx, i32 %m, i32 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i32 %m, i32 %n)
  ret void
}
