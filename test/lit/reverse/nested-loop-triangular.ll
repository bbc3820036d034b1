; A triangular loop nest: the inner trip count (i + 1) depends on the outer
; index.  Each outer iteration's frame holds a pointer to the inner loop's
; frame array -- allocated at inner entry with the trip count scalar
; evolution computes there.  The iteration the inner loop was left in, which
; the reverse sweep needs to start that outer iteration's inner reverse loop
; at the right place, is that count again (rebuilt from i), not kept.  Inner arrays are freed as the reverse sweep
; leaves each inner loop, the outer array when it leaves the outer loop.
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

@fmt = private constant [21 x i8] c"%.6f %.6f %.6f %.6f\0A\00"

; f(x, n) = sum_{i<n} q_i,  q_i = x[i] * prod_{j<=i} x[j]
define double @f(ptr %x, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %outer.latch ]
  %pi = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %pi
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %q = phi double [ %xi, %outer ], [ %q.next, %inner ]
  %pj = getelementptr inbounds double, ptr %x, i64 %j
  %xj = load double, ptr %pj
  %q.next = fmul double %q, %xj
  %j.next = add nuw nsw i64 %j, 1
  %cj = icmp ule i64 %j.next, %i
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %s.next = fadd double %s, %q.next
  %i.next = add nuw nsw i64 %i, 1
  %ci = icmp ult i64 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret double %s.next
}

; CHECK-LABEL: define internal void @f.rev.dc.dret(ptr %x, ptr %x.d, i64 %n)
; The outer frame array, sized by the outer trip count: 8-byte frames.
; CHECK:         %trip = add i64 {{.*}}, 1
; CHECK-NEXT:    [[OSZ:%.*]] = mul i64 %trip, 8
; CHECK-NEXT:    [[OARR:%.*]] = call ptr @malloc(i64 [[OSZ]])
; CHECK-NEXT:    store ptr [[OARR]], ptr %frames.outer
; At inner entry: the inner array for i + 1 iterations, its pointer in field 0.
; CHECK:       outer:
; CHECK:         [[ITRIP:%.*]] = add i64 %i, 1
; CHECK:         [[OFR:%.*]] = getelementptr i8, ptr {{%.*}}, i64 0
; CHECK-NEXT:    [[ISZ:%.*]] = mul i64 [[ITRIP]], 8
; CHECK-NEXT:    [[IARR:%.*]] = call ptr @malloc(i64 [[ISZ]])
; CHECK-NEXT:    store ptr [[IARR]], ptr [[OFR]]
; CHECK:       inner:
; CHECK:         store double %q, ptr
; The inner loop's exit iteration is not kept.
; CHECK:       outer.latch:
; CHECK-NOT:     store i64
; CHECK:         br
; Reverse: the outer array is freed when the outer reverse loop is left, an
; inner array when its inner reverse loop is left ...
; CHECK:       outer.from.entry:
; CHECK:         [[OA:%.*]] = load ptr, ptr %frames.outer
; CHECK-NEXT:    call void @free(ptr [[OA]])
; CHECK-NEXT:    br label %entry.rev
; CHECK:       inner.from.outer:
; CHECK:         [[F0:%.*]] = getelementptr i8, ptr {{%.*}}, i64 0
; CHECK-NEXT:    [[IA:%.*]] = load ptr, ptr [[F0]]
; CHECK-NEXT:    call void @free(ptr [[IA]])
; CHECK-NEXT:    br label %outer.rev
; ... and the inner reverse loop starts at its exit iteration, i (the inner
; loop runs i + 1 times), rebuilt from the outer reverse counter.
; CHECK:       outer.latch.from.inner:
; CHECK:         [[RIV:%.*]] = load i64, ptr %riv.outer
; CHECK-NEXT:    [[STEP:%.*]] = mul i64 [[RIV]], 1
; CHECK-NEXT:    [[LAST:%.*]] = add i64 0, [[STEP]]
; CHECK-NEXT:    store i64 [[LAST]], ptr %riv.inner
; CHECK-NEXT:    br label %inner.rev
; CHECK:       {{^}$}}

; n = 4, x = (a, b, c, d) = (1.5, -2, 0.5, 3):
;   f = a^2 + a b^2 + a b c^2 + a b c d^2
;   df/da = 2a + b^2 + b c^2 + b c d^2 = 3 + 4 - 0.5 - 9    = -2.5
;   df/db = 2ab + a c^2 + a c d^2      = -6 + 0.375 + 6.75  = 1.125
;   df/dc = 2abc + a b d^2             = -3 - 27            = -30
;   df/dd = 2abcd                                           = -9
; EXEC: -2.500000 1.125000 -30.000000 -9.000000

@x = global [4 x double] [double 1.5, double -2.0, double 0.5, double 3.0]
@dx = global [4 x double] zeroinitializer

define i32 @main() {
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @x, ptr @dx, i64 4)
  %a0 = load double, ptr @dx
  %p1 = getelementptr double, ptr @dx, i64 1
  %a1 = load double, ptr %p1
  %p2 = getelementptr double, ptr @dx, i64 2
  %a2 = load double, ptr %p2
  %p3 = getelementptr double, ptr @dx, i64 3
  %a3 = load double, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, double %a0, double %a1, double %a2, double %a3)
  ret i32 0
}
