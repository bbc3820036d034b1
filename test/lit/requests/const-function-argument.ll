; A function passed for an enzyme_const pointer parameter is bound into a
; copy of the differentiated function: the call through the parameter is a
; direct call of that function's derivative, not a dispatcher (include/
; enzyme/enzyme calls the user's function through such a parameter).  Both
; requests passing @sq share one copy; the one passing @cube gets its own.
; A pointer that is not a function (%fp) is left alone, as is the same
; argument at -O0, through a local.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_const = external global i32
@enzyme_out = external global i32
declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @cube(double %x) {
  %m = fmul double %x, %x
  %c = fmul double %m, %x
  ret double %c
}

define double @apply(ptr %fn, double %x) {
  %y = call double %fn(double %x)
  ret double %y
}

; CHECK-LABEL: define double @forward(
; CHECK: call double @apply.gpuad.bound.0.sq.fwd.cd.dret(ptr @sq, double %x, double 1.000000e+00)
; CHECK: call double @apply.gpuad.bound.0.sq.fwd.cd.dret(ptr @sq, double %x, double 2.000000e+00)
; CHECK: call double @apply.gpuad.bound.0.cube.fwd.cd.dret(ptr @cube, double %x, double 1.000000e+00)
define double @forward(double %x) {
  %c = load i32, ptr @enzyme_const
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, i32 %c, ptr @sq, double %x, double 1.0)
  %c2 = load i32, ptr @enzyme_const
  %b = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, i32 %c2, ptr @sq, double %x, double 2.0)
  %c3 = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, i32 %c3, ptr @cube, double %x, double 1.0)
  %s = fadd double %a, %b
  %t = fadd double %s, %d
  ret double %t
}

; CHECK-LABEL: define double @reverse_through_local(
; CHECK: call double @apply.gpuad.bound.0.cube.rev.ca.dret(ptr %fp.loaded, double %x)
define double @reverse_through_local(double %x) {
  %slot = alloca ptr
  store ptr @cube, ptr %slot
  %fp.loaded = load ptr, ptr %slot
  %c = load i32, ptr @enzyme_const
  %o = load i32, ptr @enzyme_out
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @apply, i32 %c, ptr %fp.loaded, i32 %o, double %x)
  ret double %r
}

; CHECK-LABEL: define double @unknown(
; CHECK: call double @apply.fwd.cd.dret(ptr %fp, double %x, double 1.000000e+00)
define double @unknown(ptr %fp, double %x) {
  %c = load i32, ptr @enzyme_const
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, i32 %c, ptr %fp, double %x, double 1.0)
  ret double %a
}

; The derivatives of the copies call the functions' derivatives directly.
; CHECK-LABEL: define internal double @apply.gpuad.bound.0.sq.fwd.cd.dret(
; CHECK-NEXT: call { double, double } @sq.fwd.d.dret.pret(double %x, double %x.d)
; CHECK-LABEL: define internal double @apply.gpuad.bound.0.cube.rev.ca.dret(
; CHECK-NEXT: {{.*}}:
; CHECK-NEXT: call { { double }, double } @cube.aug.a.dret.pret(double %x)
; CHECK-LABEL: define internal double @apply.fwd.cd.dret(
; CHECK: call { double, double } @gpuad.dispatch
