; A loop whose exit depends on the data it computes: the trip count is not
; known when the loop is entered, so the per-iteration values the reverse
; sweep needs (here the running product p, the partial of p*x with respect
; to x) are cached in a frame array grown by doubling (gpuad.tape.grow) as
; the forward loop runs, read back at the reverse index, and the array is
; freed when the reverse sweep leaves the loop.  x = 1.1 runs 48 iterations,
; past the first two capacities (16, 32).
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; p = x; do p = p * x while (p < 100); return p
; so f(x) = x^K with K the least integer >= 2 such that x^K >= 100.
define double @f(double %x) {
entry:
  br label %loop
loop:
  %p = phi double [ %x, %entry ], [ %p.next, %loop ]
  %p.next = fmul double %p, %x
  %c = fcmp olt double %p.next, 100.0
  br i1 %c, label %loop, label %exit
exit:
  ret double %p.next
}

; CHECK-LABEL: define internal double @f.rev.a.dret(double %x)
; Forward: each iteration makes room for its frame and stores p in it.
; CHECK:       loop:
; CHECK-NEXT:    %iv = phi i64 [ 0, %entry ], [ %iv.next, %loop ]
; CHECK-NEXT:    %p = phi double
; CHECK-NEXT:    [[OLD:%.*]] = load ptr, ptr %frames.loop
; CHECK-NEXT:    [[NEW:%.*]] = call ptr @gpuad.tape.grow(ptr [[OLD]], i64 %iv, ptr %frames.cap, i64 8)
; CHECK-NEXT:    store ptr [[NEW]], ptr %frames.loop
; CHECK:         store double %p, ptr
; Reverse: p comes back from the frame at the reverse index.
; CHECK:       loop.rev:
; CHECK:         %riv = load i64, ptr %riv.loop
; CHECK:         %p.tape = load double, ptr
; CHECK-NEXT:    fmul double %p.tape, %p.next.d
; Leaving the reverse loop frees the frames.
; CHECK:       loop.from.entry:
; CHECK:         [[F:%.*]] = load ptr, ptr %frames.loop
; CHECK-NEXT:    call void @free(ptr [[F]])
; CHECK-LABEL: define internal ptr @gpuad.tape.grow(

; df/dx = K x^(K-1)
;   x = 1.5: K = 12 (1.5^11 = 86.5, 1.5^12 = 129.7): 12 * 1.5^11 = 1037.970703125
;   x = 1.1: K = 49 (1.1^48 = 97.0, 1.1^49 = 106.7): 49 * 1.1^48 = 4753.8444554587
; EXEC:      1037.970703
; EXEC-NEXT: 4753.844455
define i32 @main() {
  %d1 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 1.5)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d1)
  %d2 = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 1.1)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d2)
  ret i32 0
}
