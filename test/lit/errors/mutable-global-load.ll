; A global written with an active value and read back in the same function
; (through memory the optimiser cannot forward) would need a shadow.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: {{.*}}global{{.*}}'table'

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
