; Loaded as a plugin, gpuad joins the default pipelines (OptimizerEarly), so
; `default<O2>` lowers requests without naming the pass.
; RUN: %opt -passes='default<O2>' -S %s | FileCheck %s
; RUN: %opt -passes='default<O0>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define {{.*}}double @caller(
; CHECK-NOT: __enzyme_fwddiff
define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
