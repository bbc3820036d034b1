; Return markers: enzyme_dup_return asks for the return's shadow (here of a
; pointer return), enzyme_noret drops the primal that enzyme_primal_return
; asked for.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_dup_return = external global i32
@enzyme_primal_return = external global i32
@enzyme_noret = external global i32
declare ptr @__enzyme_fwddiff_ptr(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

define ptr @second(ptr %p) {
  %q = getelementptr double, ptr %p, i64 1
  ret ptr %q
}

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define ptr @shadow_of_pointer(
; CHECK: call ptr @second.fwd.d.dret(ptr %p, ptr %dp)
define ptr @shadow_of_pointer(ptr %p, ptr %dp) {
  %r = load i32, ptr @enzyme_dup_return
  %d = load i32, ptr @enzyme_dup
  %s = call ptr (ptr, ...) @__enzyme_fwddiff_ptr(ptr @second, i32 %r, i32 %d, ptr %p, ptr %dp)
  ret ptr %s
}

; CHECK-LABEL: define double @no_primal(
; CHECK: call double @sq.fwd.d.dret(double %x, double 1.000000e+00)
define double @no_primal(double %x) {
  %p = load i32, ptr @enzyme_primal_return
  %n = load i32, ptr @enzyme_noret
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, i32 %p, i32 %n, double %x, double 1.0)
  ret double %d
}

; The shadow of the returned pointer is the same GEP on the shadow.
; CHECK-LABEL: define internal ptr @second.fwd.d.dret(ptr %p, ptr %p.d)
; CHECK: [[Q:%.*]] = getelementptr i8, ptr %p.d, i64 8
; CHECK: ret ptr [[Q]]
