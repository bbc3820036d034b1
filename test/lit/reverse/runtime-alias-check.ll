; A host reverse derivative whose pointer arguments the call site cannot
; prove apart is a dispatcher: it computes the byte range each pointer and
; each shadow reaches ([0, 8n) here), compares every pair of which one is
; written, and calls the version with every pointer parameter noalias only
; when none overlaps; otherwise the version for any aliasing.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s
; RUN: %opt -passes='gpuad<no-runtime-alias-check>' -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=gpuad -pass-remarks=gpuad -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@enzyme_const = external global i32
declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

; out[i] = x[i] * x[i]; the reverse sweep needs x[i], which out == x
; overwrites.
define void @square(ptr %out, ptr %x, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %px
  %sq = fmul double %v, %v
  %po = getelementptr inbounds double, ptr %out, i64 %i
  store double %sq, ptr %po
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Only a read-only constant pointer: nothing to compare, always restrict.
define double @dot(ptr %c, double %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %c, i64 %i
  %v = load double, ptr %p
  %t = fmul double %v, %x
  %s.next = fadd double %s, %t
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret double %s.next
}

; Reads x in a call: the ranges do not follow calls, no check.
define double @peek(ptr %p) noinline {
  %v = load double, ptr %p
  ret double %v
}
define void @escapes(ptr %out, ptr %x, i64 %n) {
entry:
  %v = call double @peek(ptr %x)
  store double %v, ptr %out
  call void @square(ptr %out, ptr %x, i64 %n)
  ret void
}

define void @grad_square(ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @square, ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n)
  ret void
}

define double @grad_dot(ptr %c, double %x, i64 %n) {
  %k = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @dot, i32 %k, ptr %c, double %x, i64 %n)
  ret double %d
}

define void @grad_escapes(ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @escapes, ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define void @grad_square(
; CHECK:         call void @square.rev.ddc.checked(ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n)
; CHECK-LABEL: define double @grad_dot(
; CHECK:         call double @dot.rev.cac.dret.restrict(
; CHECK-LABEL: define void @grad_escapes(
; CHECK:         call void @escapes.rev.ddc(

; The dispatcher: [p, p + 8n) for out, its shadow, x and its shadow; each
; of the 6 pairs has a written member (x is only read), 2 compares each.
; CHECK-LABEL: define internal void @square.rev.ddc.checked(ptr %0, ptr %1, ptr %2, ptr %3, i64 %4)
; CHECK:         shl i64 %4, 3
; CHECK-COUNT-12: icmp ule ptr
; CHECK:         br i1 {{.*}}, label %apart, label %may.overlap
; CHECK:       apart:
; CHECK-NEXT:    call void @square.rev.ddc.restrict(ptr %0, ptr %1, ptr %2, ptr %3, i64 %4)
; CHECK:       may.overlap:
; CHECK-NEXT:    call void @square.rev.ddc(ptr %0, ptr %1, ptr %2, ptr %3, i64 %4)

; CHECK-DAG: define internal void @square.rev.ddc.restrict(ptr noalias %out, ptr noalias %out.d, ptr noalias %x, ptr noalias %x.d, i64 %n)
; CHECK-DAG: define internal void @square.rev.ddc(ptr %out, ptr %out.d, ptr %x, ptr %x.d, i64 %n)

; OFF-NOT: .checked
; OFF-NOT: .restrict

; REMARK: remark: <unknown>:0:0: derivative of 'square': restrict version if, at run time, no written range overlaps another of: argument 1 'out', the shadow of argument 1 'out', argument 2 'x', the shadow of argument 2 'x'
; REMARK: remark: <unknown>:0:0: derivative of 'dot': every pointer argument is restrict (none overlaps another)
; REMARK: remark: <unknown>:0:0: derivative of 'escapes': no run-time alias check: it calls 'peek', which may reach memory

; Apart and the same array give the same gradient, 2 x (x = 1, 2, 3), and
; dot's is sum c = 6.
; EXEC: apart: 2.000000 4.000000 6.000000
; EXEC: same: 2.000000 4.000000 6.000000
; EXEC: dot: 6.000000

@fmt = private constant [14 x i8] c"%s: %f %f %f\0A\00"
@fmt.dot = private constant [9 x i8] c"dot: %f\0A\00"
@apart = private constant [6 x i8] c"apart\00"
@same = private constant [5 x i8] c"same\00"

define void @print(ptr %label, ptr %d) {
  %a0 = load double, ptr %d
  %p1 = getelementptr double, ptr %d, i64 1
  %a1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %d, i64 2
  %a2 = load double, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %label, double %a0, double %a1, double %a2)
  ret void
}

define void @fill(ptr %x, ptr %dx) {
  store double 1.0, ptr %x
  %x1 = getelementptr double, ptr %x, i64 1
  store double 2.0, ptr %x1
  %x2 = getelementptr double, ptr %x, i64 2
  store double 3.0, ptr %x2
  store double 1.0, ptr %dx
  %d1 = getelementptr double, ptr %dx, i64 1
  store double 1.0, ptr %d1
  %d2 = getelementptr double, ptr %dx, i64 2
  store double 1.0, ptr %d2
  ret void
}

define i32 @main() {
  %x = alloca [3 x double]
  %dx = alloca [3 x double]
  %out = alloca [3 x double]
  %dout = alloca [3 x double]
  ; Apart: out, x; the seed in dout, the gradient lands in dx.
  call void @fill(ptr %out, ptr %dout)
  call void @fill(ptr %x, ptr %dx)
  store double 0.0, ptr %dx
  %dx1 = getelementptr double, ptr %dx, i64 1
  store double 0.0, ptr %dx1
  %dx2 = getelementptr double, ptr %dx, i64 2
  store double 0.0, ptr %dx2
  call void @grad_square(ptr %out, ptr %dout, ptr %x, ptr %dx, i64 3)
  call void @print(ptr @apart, ptr %dx)
  ; The same array: x = x * x, seed and gradient in dx.
  call void @fill(ptr %x, ptr %dx)
  call void @grad_square(ptr %x, ptr %dx, ptr %x, ptr %dx, i64 3)
  call void @print(ptr @same, ptr %dx)
  call void @fill(ptr %x, ptr %dx)
  %d = call double @grad_dot(ptr %x, double 2.0, i64 3)
  call i32 (ptr, ...) @printf(ptr @fmt.dot, double %d)
  ret i32 0
}
