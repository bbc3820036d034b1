; A value loaded from memory the function later overwrites is cached: x[i]
; is replaced by sin(x[i]) * x[i], so when the reverse loop needs the old
; x[i] (for cos and for the product's partial) the memory no longer holds
; it.  It is stored in the iteration's frame and read back; the reverse
; loop never reloads x.  The store's reverse moves the adjoint out of the
; shadow (read, then zero) before the load's reverse adds the input's
; gradient back: on return the shadow holds d out / d in times the seed.
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [16 x i8] c"%.6f %.6f %.6f\0A\00"

; for i < n: x[i] = sin(x[i]) * x[i]
define void @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %v)
  %m = fmul double %s, %v
  store double %m, ptr %p
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define internal void @f.rev.dc(ptr %x, ptr %x.d, i64 %n)
; Forward: the loaded value goes into the frame right after the load.
; CHECK:       loop:
; CHECK:         %v = load double, ptr %p
; CHECK:         [[VF:%.*]] = getelementptr i8, ptr {{%.*}}, i64 0
; CHECK-NEXT:    store double %v, ptr [[VF]]
; CHECK:         store double %m, ptr %p
; Reverse: nothing reads x; the store's adjoint is taken from the shadow ...
; CHECK:       loop.rev:
; CHECK-NOT:     ptr %x,
; CHECK:         %p.d.re = getelementptr inbounds double, ptr %x.d, i64 %i.re
; CHECK-NEXT:    [[MD:%.*]] = load double, ptr %p.d.re
; CHECK-NEXT:    store double 0.000000e+00, ptr %p.d.re
; CHECK-NOT:     ptr %x,
; ... the old x[i] comes from the frame ...
; CHECK:         %v.tape = load double, ptr
; CHECK-NOT:     ptr %x,
; CHECK:         call double @llvm.cos.f64(double %v.tape)
; CHECK-NOT:     ptr %x,
; ... and the input's gradient is added back to the shadow.
; CHECK:         [[OLD:%.*]] = load double, ptr %p.d.re
; CHECK-NEXT:    [[NEW:%.*]] = fadd double [[OLD]], %v.d
; CHECK-NEXT:    store double [[NEW]], ptr %p.d.re
; CHECK-NOT:     ptr %x,
; CHECK:       {{^}$}}

; out_i = sin(v) v,  d out_i / d v = cos(v) v + sin(v),  shadow_i = seed_i * that.
; x = (0.5, 1.2, -0.7), seeds (1, 2, 0.5):
;   out:    0.2397127693  1.1184469032  0.4509523811
;   shadow: 1 * (0.4387912809 + 0.4794255386)  =  0.9182168195
;           2 * (0.4348293054 + 0.9320390860)  =  2.7337367827
;         0.5 * (-0.5353895311 - 0.6442176872) = -0.5898036092
; EXEC:      0.239713 1.118447 0.450952
; EXEC-NEXT: 0.918217 2.733737 -0.589804

@x = global [3 x double] [double 0.5, double 1.2, double -0.7]
@dx = global [3 x double] [double 1.0, double 2.0, double 0.5]

define void @print(ptr %a) {
  %a0 = load double, ptr %a
  %p1 = getelementptr double, ptr %a, i64 1
  %a1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %a, i64 2
  %a2 = load double, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt, double %a0, double %a1, double %a2)
  ret void
}

define i32 @main() {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @x, ptr @dx, i64 3)
  call void @print(ptr @x)
  call void @print(ptr @dx)
  ret i32 0
}
