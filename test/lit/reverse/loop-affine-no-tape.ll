; A loop whose induction variable is affine and whose loads read memory
; nothing in the function writes needs no tape: the reverse loop rebuilds i
; from its reverse iteration counter (start + step * iteration) and
; reloads x[i], so the derivative allocates nothing and caches nothing.
; The reverse loop runs the iterations last to first and adds each
; iteration's gradient into the shadow of x[i].
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s --check-prefix=NOTAPE
; RUN: %opt -passes='gpuad<no-call-site-aliasing>' -S %s | FileCheck %s --check-prefix=NOTAPE
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

@fmt = private constant [21 x i8] c"%.6f %.6f %.6f %.6f\0A\00"

; f(x, n) = sum_{i<n} i * x[i]^2
define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %vv = fmul double %v, %v
  %fi = sitofp i64 %i to double
  %t = fmul double %vv, %fi
  %s.next = fadd double %s, %t
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

; Nothing is allocated, stored to a slot or read back from a tape.
; NOTAPE-NOT: malloc
; NOTAPE-NOT: realloc
; NOTAPE-NOT: .tape
; NOTAPE-NOT: .slot

; In the reverse loop, i and x[i] are recomputed from the reverse index.
; CHECK-LABEL: define internal void @f.rev.dc.dret(ptr %x, ptr %x.d, i64 %n)
; CHECK:       loop.rev:
; CHECK:         [[RIV:%.*]] = load i64, ptr %riv.loop
; CHECK-NEXT:    [[STEP:%.*]] = mul i64 [[RIV]], 1
; CHECK-NEXT:    %i.re = add i64 0, [[STEP]]
; CHECK-NEXT:    %fi.re = sitofp i64 %i.re to double
; CHECK:         %p.re = getelementptr inbounds double, ptr %x, i64 %i.re
; CHECK-NEXT:    %v.re = load double, ptr %p.re
; The gradient of x[i] is added into the shadow of x[i].
; CHECK:         %p.d.re = getelementptr inbounds double, ptr %x.d, i64 %i.re
; CHECK-NEXT:    [[OLD:%.*]] = load double, ptr %p.d.re
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], %v.d
; CHECK-NEXT:    store double [[NEW]], ptr %p.d.re
; The reverse loop counts down to iteration 0 ...
; CHECK:         [[R:%.*]] = load i64, ptr %riv.loop
; CHECK-NEXT:    [[Z:%.*]] = icmp eq i64 [[R]], 0
; CHECK-NEXT:    br i1 [[Z]], label %loop.from.entry, label %loop.from.loop
; ... from the iteration the forward loop left in.
; CHECK:       exit.from.loop:
; CHECK:         store i64 %iv.exit, ptr %riv.loop

; df/dx[i] = 2 i x[i]; x = (1, 2, 3, 4): (0, 4, 12, 24)
; EXEC: 0.000000 4.000000 12.000000 24.000000

@x = global [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]
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
