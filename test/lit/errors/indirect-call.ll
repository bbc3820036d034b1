; A call through a function pointer on active values: the callee is unknown.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate an indirect call ('%y = call double %fp(double %x)'): the callee is unknown

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
