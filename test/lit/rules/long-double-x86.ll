; x86_fp80 (long double on x86-64 hosts): the libm `l` spellings (sinl, expl,
; powl) use the same rows; partials are x86_fp80 intrinsics.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare x86_fp80 @__enzyme_fwddiff(ptr, ...)
declare x86_fp80 @sinl(x86_fp80)
declare x86_fp80 @expl(x86_fp80)
declare x86_fp80 @powl(x86_fp80, x86_fp80)

define x86_fp80 @lsin(x86_fp80 %x) {
  %r = call x86_fp80 @sinl(x86_fp80 %x)
  ret x86_fp80 %r
}
define x86_fp80 @lsin_caller(x86_fp80 %x, x86_fp80 %dx) {
  %d = call x86_fp80 (ptr, ...) @__enzyme_fwddiff(ptr @lsin, x86_fp80 %x, x86_fp80 %dx)
  ret x86_fp80 %d
}

define x86_fp80 @lexp(x86_fp80 %x) {
  %r = call x86_fp80 @expl(x86_fp80 %x)
  ret x86_fp80 %r
}
define x86_fp80 @lexp_caller(x86_fp80 %x, x86_fp80 %dx) {
  %d = call x86_fp80 (ptr, ...) @__enzyme_fwddiff(ptr @lexp, x86_fp80 %x, x86_fp80 %dx)
  ret x86_fp80 %d
}

define x86_fp80 @lpow(x86_fp80 %x, x86_fp80 %y) {
  %r = call x86_fp80 @powl(x86_fp80 %x, x86_fp80 %y)
  ret x86_fp80 %r
}
define x86_fp80 @lpow_caller(x86_fp80 %x, x86_fp80 %dx, x86_fp80 %y, x86_fp80 %dy) {
  %d = call x86_fp80 (ptr, ...) @__enzyme_fwddiff(ptr @lpow, x86_fp80 %x, x86_fp80 %dx, x86_fp80 %y, x86_fp80 %dy)
  ret x86_fp80 %d
}

; CHECK-LABEL: define internal x86_fp80 @lsin.fwd.d.dret(x86_fp80 %x, x86_fp80 %x.d)
; CHECK:         %r = call x86_fp80 @sinl(x86_fp80 %x)
; CHECK-NEXT:    [[COS:%.*]] = call x86_fp80 @llvm.cos.f80(x86_fp80 %x)
; CHECK-NEXT:    [[D:%.*]] = fmul x86_fp80 [[COS]], %x.d
; CHECK-NEXT:    ret x86_fp80 [[D]]

; CHECK-LABEL: define internal x86_fp80 @lexp.fwd.d.dret(x86_fp80 %x, x86_fp80 %x.d)
; CHECK:         %r = call x86_fp80 @expl(x86_fp80 %x)
; CHECK-NEXT:    [[D:%.*]] = fmul x86_fp80 %r, %x.d
; CHECK-NEXT:    ret x86_fp80 [[D]]

; The constant is 1.0L.
; CHECK-LABEL: define internal x86_fp80 @lpow.fwd.dd.dret(x86_fp80 %x, x86_fp80 %x.d, x86_fp80 %y, x86_fp80 %y.d)
; CHECK:         %r = call x86_fp80 @powl(x86_fp80 %x, x86_fp80 %y)
; CHECK-NEXT:    [[YM1:%.*]] = fsub x86_fp80 %y, 0xK3FFF8000000000000000
; CHECK-NEXT:    [[XP:%.*]] = call x86_fp80 @llvm.pow.f80(x86_fp80 %x, x86_fp80 [[YM1]])
; CHECK-NEXT:    [[PX:%.*]] = fmul x86_fp80 %y, [[XP]]
; CHECK-NEXT:    [[YZ:%.*]] = fcmp oeq x86_fp80 %y, 0xK00000000000000000000
; CHECK-NEXT:    [[PXS:%.*]] = select i1 [[YZ]], x86_fp80 0xK00000000000000000000, x86_fp80 [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul x86_fp80 [[PXS]], %x.d
; CHECK-NEXT:    [[LOG:%.*]] = call x86_fp80 @llvm.log.f80(x86_fp80 %x)
; CHECK-NEXT:    [[PY:%.*]] = fmul x86_fp80 %r, [[LOG]]
; CHECK-NEXT:    [[XZ:%.*]] = fcmp oeq x86_fp80 %x, 0xK00000000000000000000
; CHECK-NEXT:    [[PYS:%.*]] = select i1 [[XZ]], x86_fp80 0xK00000000000000000000, x86_fp80 [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul x86_fp80 [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd x86_fp80 [[A]], [[B]]
; CHECK-NEXT:    ret x86_fp80 [[D]]
