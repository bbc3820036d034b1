; Pass parameters: gpuad<no-cleanup> keeps the raw emitted code; an unknown
; parameter is rejected by the pipeline parser.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s --check-prefix=RAW
; RUN: not %opt -passes='gpuad<frobnicate>' -S %s 2>&1 | FileCheck %s --check-prefix=BAD

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

; Without clean-up the zero tangent of the const-free y stays a separate term.
; RAW-LABEL: define internal double @f.fwd.dd.dret(
; RAW: fmul double %y, %x.d
; RAW: fmul double %x, %y.d
; RAW: fadd double
; BAD: invalid gpuad pass parameter 'frobnicate'
define double @caller(double %x, double %y) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, double %y, double 0.0)
  ret double %d
}
