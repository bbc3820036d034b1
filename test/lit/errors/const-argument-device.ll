; Device code: an argument passed as enzyme_const whose memory carries
; derivatives (a value stored there and maybe read back) gets no scratch
; shadow on a GPU (no heap in a kernel by default): an error naming it,
; never a dropped derivative.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}gpuad: argument 2 'state' of 'f' is passed as enzyme_const, but derivatives flow through its memory {{.*}}here it cannot (device code): pass it with enzyme_dup and a zeroed shadow

target triple = "nvptx64-nvidia-cuda"

declare double @__enzyme_fwddiff(ptr, ...)

@enzyme_const = external addrspace(1) global i32

define double @f(double %x, ptr %state, i64 %i, i64 %j) {
  %sq = fmul double %x, %x
  %at = getelementptr double, ptr %state, i64 %i
  store double %sq, ptr %at
  %from = getelementptr double, ptr %state, i64 %j
  %back = load double, ptr %from
  %r = fmul double %back, %x
  ret double %r
}

define double @caller(double %x, ptr %state, i64 %i, i64 %j) {
  %c = load i32, ptr addrspace(1) @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, i32 %c, ptr %state, i32 %c, i64 %i, i32 %c, i64 %j)
  ret double %d
}
