; libdevice's correctly rounded arithmetic (`__nv_dmul_rn`, `__nv_ddiv_rn`)
; are spellings of the fmul and fdiv rows: d(x*y) = y dx + x dy,
; d(m/y) = dm/y - (q/y) dy.  They need no library function.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare double @__enzyme_fwddiff(ptr, ...)
declare double @__nv_dmul_rn(double, double)
declare double @__nv_ddiv_rn(double, double)

define double @f(double %x, double %y) {
  %m = call double @__nv_dmul_rn(double %x, double %y)
  %q = call double @__nv_ddiv_rn(double %m, double %y)
  ret double %q
}

define double @caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx, double %y, double %dy)
  ret double %d
}

; The derivative is inlined into the caller (GPU target).
; CHECK-LABEL: define double @caller(double %x, double %dx, double %y, double %dy)
; CHECK-NEXT:    [[M:%.*]] = call double @__nv_dmul_rn(double %x, double %y)
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, %dx
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, %dy
; CHECK-NEXT:    [[DM:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    [[Q:%.*]] = call double @__nv_ddiv_rn(double [[M]], double %y)
; CHECK-NEXT:    [[INV:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT:    [[C:%.*]] = fmul double [[INV]], [[DM]]
; CHECK-NEXT:    [[INV2:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT:    [[MI:%.*]] = fmul double [[M]], [[INV2]]
; CHECK-NEXT:    [[MII:%.*]] = fmul double [[MI]], [[INV2]]
; CHECK-NEXT:    [[NQY:%.*]] = fneg double [[MII]]
; CHECK-NEXT:    [[E:%.*]] = fmul double [[NQY]], %dy
; CHECK-NEXT:    [[D:%.*]] = fadd double [[C]], [[E]]
; CHECK-NEXT:    ret double [[D]]
