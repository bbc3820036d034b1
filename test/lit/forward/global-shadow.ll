; A mutable global written with an active value and read back in the same
; function gets a shadow global, zero-initialised, named after it: the
; tangent is stored there and read back from there.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

; CHECK: @table_shadow = weak global [4 x double] zeroinitializer
; CHECK-LABEL: define internal double @f.fwd
; CHECK: %p.d = getelementptr double, ptr @table_shadow, i64 %i
; CHECK: store double %x.d, ptr %p.d
; CHECK: %q.d = getelementptr double, ptr @table_shadow, i64 %j
; CHECK: %v.d = load double, ptr %q.d
; CHECK: ret double %v.d

@table = global [4 x double] zeroinitializer
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i64 %i, i64 %j) {
  %p = getelementptr [4 x double], ptr @table, i64 0, i64 %i
  store double %x, ptr %p
  %q = getelementptr [4 x double], ptr @table, i64 0, i64 %j
  %v = load double, ptr %q
  ret double %v
}

define double @caller(double %x, i64 %i) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i64 %i, i64 %i)
  ret double %d
}
