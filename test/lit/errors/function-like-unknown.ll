; A function-like registration naming a function gpuad has no derivative
; rule for.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_function_like': 'no_such_function' is not a function gpuad has a derivative rule for

@.name = private constant [17 x i8] c"no_such_function\00"
@__enzyme_function_like = global [2 x ptr] [ptr @k, ptr @.name]

declare double @__enzyme_fwddiff(ptr, ...)

define double @k(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @k, double %x, double 1.0)
  ret double %d
}
