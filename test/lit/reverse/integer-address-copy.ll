; A pointer member copied as an integer (a memcpy of an object holding a
; reference, which the optimiser turned into an i64 load and store): the
; integer is an address, so its shadow is the shadow address, loaded from
; the shadow and stored to the copy's shadow.  Taken as integer data, the
; copy's shadow held the primal address, or the call that reads through it
; was dropped as inactive: a zero gradient, silently.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

; d/dx x^2 at x = 3:
; EXEC: 6

; CHECK-LABEL: define internal void @f.rev
; CHECK: %bits.d = load i64, ptr %view.d
; CHECK: store i64 %bits.d, ptr %copy.d
; CHECK: call {{.*}} @use.aug
; CHECK: call void @use.bwd

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)

@x = global double 3.0
@dx = global double 0.0
@view = global ptr @x
@dview = global ptr @dx
@fmt = private constant [4 x i8] c"%g\0A\00"

define internal double @use(ptr %view) noinline {
  %p = load ptr, ptr %view
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}

define double @f(ptr %view) {
  %copy = alloca ptr
  %bits = load i64, ptr %view
  store i64 %bits, ptr %copy
  %r = call double @use(ptr %copy)
  ret double %r
}

define void @caller(ptr %view, ptr %dview) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %view, ptr %dview)
  ret void
}

define i32 @main() {
  call void @caller(ptr @view, ptr @dview)
  %g = load double, ptr @dx
  %n = call i32 (ptr, ...) @printf(ptr @fmt, double %g)
  ret i32 0
}
