; enzyme_tape and enzyme_allocated say how split mode's tape travels; in any
; other request they are an error.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: enzyme_tape applies to __enzyme_augmentfwd and __enzyme_reverse only

@enzyme_tape = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x, ptr %tape) {
  %t = load i32, ptr @enzyme_tape
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %t, ptr %tape, double %x, double 1.0)
  ret double %d
}
