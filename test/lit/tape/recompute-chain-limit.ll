; How long a chain of cheap operations the reverse sweep rebuilds: s +=
; h(x[i]) * x[i], h a Horner chain of fmul/fadd on x[i] (x is restrict, so
; x[i] is loaded again).  The reverse of the product needs h.
;  - @short: 8 steps (16 operations with the load): h is rebuilt.
;  - @long: 24 steps (48 operations): rebuilding h would redo the whole
;    chain and keep every link alive while the reverse sweep walks it
;    backwards.  The link where the chain passes 40 operations (h18) is
;    kept per iteration instead, and h is rebuilt from it.
; RUN: %opt -passes='print<gpuad-tape>' -disable-output %s | FileCheck %s

; CHECK-LABEL: tape of 'short'
; CHECK-NOT:     frame of
; CHECK:         recomputed %h7: cheap to rebuild from its operands

; CHECK-LABEL: tape of 'long'
; CHECK:         frame of loop %loop: 8 B per iteration
; CHECK-NEXT:      +0 %h18: double, rebuilding it takes a chain of more than 40 operations
; CHECK-NOT:       +8
; CHECK:         recomputed %h23: cheap to rebuild from its operands
; CHECK-NOT:     recomputed %h18

declare void @__enzyme_autodiff(ptr, ...)

define void @short(ptr noalias %x, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %px
  %m0 = fmul double %xi, %xi
  %h0 = fadd double %m0, 1.000000e+00
  %m1 = fmul double %h0, %xi
  %h1 = fadd double %m1, 1.125000e+00
  %m2 = fmul double %h1, %xi
  %h2 = fadd double %m2, 1.250000e+00
  %m3 = fmul double %h2, %xi
  %h3 = fadd double %m3, 1.375000e+00
  %m4 = fmul double %h3, %xi
  %h4 = fadd double %m4, 1.500000e+00
  %m5 = fmul double %h4, %xi
  %h5 = fadd double %m5, 1.625000e+00
  %m6 = fmul double %h5, %xi
  %h6 = fadd double %m6, 1.750000e+00
  %m7 = fmul double %h6, %xi
  %h7 = fadd double %m7, 1.875000e+00
  %t = fmul double %h7, %xi
  %s.next = fadd double %s, %t
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  store double %s.next, ptr %out
  ret void
}

define void @grad_short(ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @short, ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %n)
  ret void
}

define void @long(ptr noalias %x, ptr noalias %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %px
  %m0 = fmul double %xi, %xi
  %h0 = fadd double %m0, 1.000000e+00
  %m1 = fmul double %h0, %xi
  %h1 = fadd double %m1, 1.125000e+00
  %m2 = fmul double %h1, %xi
  %h2 = fadd double %m2, 1.250000e+00
  %m3 = fmul double %h2, %xi
  %h3 = fadd double %m3, 1.375000e+00
  %m4 = fmul double %h3, %xi
  %h4 = fadd double %m4, 1.500000e+00
  %m5 = fmul double %h4, %xi
  %h5 = fadd double %m5, 1.625000e+00
  %m6 = fmul double %h5, %xi
  %h6 = fadd double %m6, 1.750000e+00
  %m7 = fmul double %h6, %xi
  %h7 = fadd double %m7, 1.875000e+00
  %m8 = fmul double %h7, %xi
  %h8 = fadd double %m8, 2.000000e+00
  %m9 = fmul double %h8, %xi
  %h9 = fadd double %m9, 2.125000e+00
  %m10 = fmul double %h9, %xi
  %h10 = fadd double %m10, 2.250000e+00
  %m11 = fmul double %h10, %xi
  %h11 = fadd double %m11, 2.375000e+00
  %m12 = fmul double %h11, %xi
  %h12 = fadd double %m12, 2.500000e+00
  %m13 = fmul double %h12, %xi
  %h13 = fadd double %m13, 2.625000e+00
  %m14 = fmul double %h13, %xi
  %h14 = fadd double %m14, 2.750000e+00
  %m15 = fmul double %h14, %xi
  %h15 = fadd double %m15, 2.875000e+00
  %m16 = fmul double %h15, %xi
  %h16 = fadd double %m16, 3.000000e+00
  %m17 = fmul double %h16, %xi
  %h17 = fadd double %m17, 3.125000e+00
  %m18 = fmul double %h17, %xi
  %h18 = fadd double %m18, 3.250000e+00
  %m19 = fmul double %h18, %xi
  %h19 = fadd double %m19, 3.375000e+00
  %m20 = fmul double %h19, %xi
  %h20 = fadd double %m20, 3.500000e+00
  %m21 = fmul double %h20, %xi
  %h21 = fadd double %m21, 3.625000e+00
  %m22 = fmul double %h21, %xi
  %h22 = fadd double %m22, 3.750000e+00
  %m23 = fmul double %h22, %xi
  %h23 = fadd double %m23, 3.875000e+00
  %t = fmul double %h23, %xi
  %s.next = fadd double %s, %t
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  store double %s.next, ptr %out
  ret void
}

define void @grad_long(ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @long, ptr %x, ptr %dx, ptr %out, ptr %dout, i64 %n)
  ret void
}
