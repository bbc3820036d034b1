; Split mode's entry points are parsed but not implemented yet.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_augmentfwd' (aug mode) is not yet supported

declare ptr @__enzyme_augmentfwd(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define ptr @caller(double %x) {
  %d = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @f, double %x)
  ret ptr %d
}
