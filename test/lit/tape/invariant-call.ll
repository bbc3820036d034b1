; A pure call whose arguments are the same in every iteration, in a loop
; that writes nothing it reads (x and out are restrict), runs once: mag's
; augmented half is called where the loop is entered (under the loop's
; entry test: the loop may run no iteration), its result and tape are kept
; once (slots, no frame for loop %outer), and its backward half runs once
; with the summed adjoint.  Where out may alias x the call stays in the loop
; and the loop keeps a frame.
; RUN: %opt -passes='print<gpuad-tape>' -disable-output %s | FileCheck %s
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s --check-prefix=IR

; CHECK-LABEL: tape of 'normalize' (combined
; CHECK-NEXT:    slots: {{[0-9]+}} B
; CHECK-NOT:     frame of
; CHECK:       tape of 'mag'
; CHECK:         frame of loop %header
; CHECK-LABEL: tape of 'normalize_plain' (combined
; CHECK:         frame of loop %outer

; IR-LABEL: define internal void @normalize.rev.ddc(
; IR:         [[TEST:%.*]] = icmp slt i32 0, %n
; IR-NEXT:    br i1 [[TEST]], label %m.once.call, label %m.once.join
; IR:       m.once.call:
; IR-NEXT:    call {{.*}} @mag.aug.
; IR:       outer:
; IR-NOT:     call {{.*}} @mag.
; IR:         call {{.*}} @mag.bwd.
; IR-NOT:     call {{.*}} @mag.
; IR:         ret void

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

; The same with plain pointers, called with the caller's parameters: out[j]
; may change x, so the call stays in the loop.
define void @normalize_plain(ptr %out, ptr %x, i32 %n) {
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

define void @grad_plain(ptr %out, ptr %dout, ptr %x, ptr %dx, i32 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @normalize_plain, ptr %out, ptr %dout, ptr %x, ptr %dx, i32 %n)
  ret void
}
