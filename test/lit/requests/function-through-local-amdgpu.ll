; At -O0 an AMDGPU function keeps its locals in addrspace(5) and reaches
; them through an addrspacecast: the function to differentiate, and a
; function passed for an enzyme_const parameter (bound into a copy, see
; const-function-argument.ll), are found through it.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@enzyme_const = external addrspace(1) global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @apply(ptr %fn, double %x) {
  %y = call double %fn(double %x)
  ret double %y
}

; The derivatives are inlined (as on every GPU target): sq's tangent twice,
; no call through a pointer, no dispatcher.
; CHECK-LABEL: define double @caller(
; CHECK-NOT: call
; CHECK: fadd double %x, %x
; CHECK-NOT: call
; CHECK: fadd double %x, %x
; CHECK-NOT: call
; CHECK: ret double
; CHECK-LABEL: define internal double @apply.gpuad.bound.0.sq(
; CHECK-NEXT: call double @sq(double %x)
; CHECK-NOT: dispatch
define double @caller(double %x) {
  %slot = alloca ptr, addrspace(5)
  %slot.ascast = addrspacecast ptr addrspace(5) %slot to ptr
  store ptr @sq, ptr %slot.ascast
  %fp = load ptr, ptr %slot.ascast
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr %fp, double %x, double 1.0)
  %fp2 = load ptr, ptr %slot.ascast
  %c = load i32, ptr addrspace(1) @enzyme_const
  %b = call double (ptr, ...) @__enzyme_fwddiff(ptr @apply, i32 %c, ptr %fp2, double %x, double 1.0)
  %s = fadd double %a, %b
  ret double %s
}
