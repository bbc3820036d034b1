; Intrinsic calls on <2 x double> use the same rows, elementwise: the partials
; are vector values (vector llvm.cos, splatted constants) times the tangent.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare <2 x double> @__enzyme_fwddiff(ptr, ...)

define <2 x double> @vsin(<2 x double> %x) {
  %r = call <2 x double> @llvm.sin.v2f64(<2 x double> %x)
  ret <2 x double> %r
}
define <2 x double> @vsin_caller(<2 x double> %x, <2 x double> %dx) {
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @vsin, <2 x double> %x, <2 x double> %dx)
  ret <2 x double> %d
}

define <2 x double> @vpow(<2 x double> %x, <2 x double> %y) {
  %r = call <2 x double> @llvm.pow.v2f64(<2 x double> %x, <2 x double> %y)
  ret <2 x double> %r
}
define <2 x double> @vpow_caller(<2 x double> %x, <2 x double> %dx, <2 x double> %y, <2 x double> %dy) {
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @vpow, <2 x double> %x, <2 x double> %dx, <2 x double> %y, <2 x double> %dy)
  ret <2 x double> %d
}

define <2 x double> @vfabs(<2 x double> %x) {
  %r = call <2 x double> @llvm.fabs.v2f64(<2 x double> %x)
  ret <2 x double> %r
}
define <2 x double> @vfabs_caller(<2 x double> %x, <2 x double> %dx) {
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @vfabs, <2 x double> %x, <2 x double> %dx)
  ret <2 x double> %d
}

define <2 x double> @vfloor(<2 x double> %x) {
  %r = call <2 x double> @llvm.floor.v2f64(<2 x double> %x)
  ret <2 x double> %r
}
define <2 x double> @vfloor_caller(<2 x double> %x, <2 x double> %dx) {
  %d = call <2 x double> (ptr, ...) @__enzyme_fwddiff(ptr @vfloor, <2 x double> %x, <2 x double> %dx)
  ret <2 x double> %d
}

; CHECK-LABEL: define internal <2 x double> @vsin.fwd.d.dret(<2 x double> %x, <2 x double> %x.d)
; CHECK:         %r = call <2 x double> @llvm.sin.v2f64(<2 x double> %x)
; CHECK-NEXT:    [[COS:%.*]] = call <2 x double> @llvm.cos.v2f64(<2 x double> %x)
; CHECK-NEXT:    [[D:%.*]] = fmul <2 x double> [[COS]], %x.d
; CHECK-NEXT:    ret <2 x double> [[D]]

; CHECK-LABEL: define internal <2 x double> @vpow.fwd.dd.dret(<2 x double> %x, <2 x double> %x.d, <2 x double> %y, <2 x double> %y.d)
; CHECK:         %r = call <2 x double> @llvm.pow.v2f64(<2 x double> %x, <2 x double> %y)
; CHECK-NEXT:    [[YM1:%.*]] = fsub <2 x double> %y, splat (double 1.000000e+00)
; CHECK-NEXT:    [[XP:%.*]] = call <2 x double> @llvm.pow.v2f64(<2 x double> %x, <2 x double> [[YM1]])
; CHECK-NEXT:    [[PX:%.*]] = fmul <2 x double> %y, [[XP]]
; CHECK-NEXT:    [[YZ:%.*]] = fcmp oeq <2 x double> %y, zeroinitializer
; CHECK-NEXT:    [[PXS:%.*]] = select <2 x i1> [[YZ]], <2 x double> zeroinitializer, <2 x double> [[PX]]
; CHECK-NEXT:    [[A:%.*]] = fmul <2 x double> [[PXS]], %x.d
; CHECK-NEXT:    [[LOG:%.*]] = call <2 x double> @llvm.log.v2f64(<2 x double> %x)
; CHECK-NEXT:    [[PY:%.*]] = fmul <2 x double> %r, [[LOG]]
; CHECK-NEXT:    [[XZ:%.*]] = fcmp oeq <2 x double> %x, zeroinitializer
; CHECK-NEXT:    [[PYS:%.*]] = select <2 x i1> [[XZ]], <2 x double> zeroinitializer, <2 x double> [[PY]]
; CHECK-NEXT:    [[B:%.*]] = fmul <2 x double> [[PYS]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd <2 x double> [[A]], [[B]]
; CHECK-NEXT:    ret <2 x double> [[D]]

; CHECK-LABEL: define internal <2 x double> @vfabs.fwd.d.dret(<2 x double> %x, <2 x double> %x.d)
; CHECK:         %r = call <2 x double> @llvm.fabs.v2f64(<2 x double> %x)
; CHECK-NEXT:    [[SGN:%.*]] = call <2 x double> @llvm.copysign.v2f64(<2 x double> splat (double 1.000000e+00), <2 x double> %x)
; CHECK-NEXT:    [[ZERO:%.*]] = fcmp oeq <2 x double> %x, zeroinitializer
; CHECK-NEXT:    [[P:%.*]] = select <2 x i1> [[ZERO]], <2 x double> zeroinitializer, <2 x double> [[SGN]]
; CHECK-NEXT:    [[D:%.*]] = fmul <2 x double> [[P]], %x.d
; CHECK-NEXT:    ret <2 x double> [[D]]

; CHECK-LABEL: define internal <2 x double> @vfloor.fwd.d.dret(<2 x double> %x, <2 x double> %x.d)
; CHECK-NEXT:    %r = call <2 x double> @llvm.floor.v2f64(<2 x double> %x)
; CHECK-NEXT:    ret <2 x double> zeroinitializer
