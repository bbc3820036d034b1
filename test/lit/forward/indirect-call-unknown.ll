; A call through a function pointer on active values whose callee gpuad
; cannot see (no function of its type has its address taken here): the
; derivative dispatches on the pointer and its default case stops at run
; time with a message naming the caller; no compile-time error, no zero.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

; CHECK: @gpuad.dispatch.msg = {{.*}}c"gpuad: no derivative for the function called through a pointer in 'f': its body was not in the module gpuad differentiated (address %p)\0A\00"
; CHECK-LABEL: define internal {{.*}} @f.fwd
; CHECK: call {{.*}} @gpuad.dispatch{{.*}}(ptr %fp
; CHECK-LABEL: define internal void @gpuad.dispatch.miss(ptr
; CHECK: call {{.*}} @dprintf(i32 2, ptr @gpuad.dispatch.msg, ptr
; CHECK: call void @abort()
; CHECK-LABEL: define internal {{.*}} @gpuad.dispatch.fwd
; CHECK: call void @gpuad.dispatch.miss(ptr

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %fp, double %x) {
  %y = call double %fp(double %x)
  ret double %y
}

define double @caller(ptr %fp, double %x) {
  %c = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %c, ptr %fp, double %x, double 1.0)
  ret double %d
}
