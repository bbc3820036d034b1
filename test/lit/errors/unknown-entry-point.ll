; An __enzyme_* entry point gpuad does not implement.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_fwdsplit' is not an entry point gpuad implements

declare double @__enzyme_fwdsplit(ptr, ...)

define double @f(double %x) {
  ret double %x
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwdsplit(ptr @f, double %x)
  ret double %d
}
