; Device globals get no shadow: a __device__ array that carries derivatives
; is an error naming it.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: device global variable 'table' would need a shadow to carry derivatives

target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [4 x double] zeroinitializer
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i64 %i, i64 %j) {
  %p = getelementptr [4 x double], ptr addrspace(1) @table, i64 0, i64 %i
  store double %x, ptr addrspace(1) %p
  %q = getelementptr [4 x double], ptr addrspace(1) @table, i64 0, i64 %j
  %v = load double, ptr addrspace(1) %q
  ret double %v
}

define double @caller(double %x, i64 %i) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i64 %i, i64 %i)
  ret double %d
}
