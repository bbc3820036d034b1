; A function's annotation (enzyme_function_like=NAME) on a global: an error
; naming it, never ignored.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the annotation 'enzyme_function_like=log' on 'g' applies to functions only

@g = global double 0.0
@.like = private constant [25 x i8] c"enzyme_function_like=log\00", section "llvm.metadata"
@.file = private constant [4 x i8] c"a.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @g, ptr @.like, ptr @.file, i32 2, ptr null }], section "llvm.metadata"

declare double @__enzyme_fwddiff(ptr, ...)

define double @k(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @k, double %x, double 1.0)
  ret double %d
}
