; Functions with several results: the tangent of each result that is
; returned (llvm.sincos's {sin, cos}) or written through a pointer
; (sincos's outputs) comes from its own family's partial.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare { double, double } @llvm.sincos.f64(double)
declare { double, i32 } @llvm.frexp.f64.i32(double)
declare void @sincos(double, ptr, ptr)

define double @pair(double %x) {
  %sc = call { double, double } @llvm.sincos.f64(double %x)
  %s = extractvalue { double, double } %sc, 0
  %c = extractvalue { double, double } %sc, 1
  %r = fmul double %s, %c
  ret double %r
}

; d sin = cos(x) dx in element 0, d cos = -sin(x) dx in element 1.
; CHECK-LABEL: define internal double @pair.fwd.d.dret(
; CHECK: [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK: [[DS:%.*]] = fmul double [[COS]], %x.d
; CHECK: [[SIN:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK: [[NSIN:%.*]] = fneg double [[SIN]]
; CHECK: [[DC:%.*]] = fmul double [[NSIN]], %x.d
; CHECK: [[A:%.*]] = insertvalue { double, double } zeroinitializer, double [[DS]], 0
; CHECK: insertvalue { double, double } [[A]], double [[DC]], 1

define double @through_pointers(double %x) {
  %s = alloca double
  %c = alloca double
  call void @sincos(double %x, ptr %s, ptr %c)
  %sv = load double, ptr %s
  %cv = load double, ptr %c
  %r = fadd double %sv, %cv
  ret double %r
}

; The shadows of the output slots receive the tangents.
; CHECK-LABEL: define internal double @through_pointers.fwd.d.dret(
; CHECK: call void @sincos(double %x, ptr %s, ptr %c)
; CHECK: [[C2:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK: [[T1:%.*]] = fmul double [[C2]], %x.d
; CHECK: store double [[T1]], ptr %s.d
; CHECK: [[S2:%.*]] = call double @llvm.sin.f64(double %x)
; CHECK: [[N2:%.*]] = fneg double [[S2]]
; CHECK: [[T2:%.*]] = fmul double [[N2]], %x.d
; CHECK: store double [[T2]], ptr %c.d

define double @mantissa(double %x) {
  %me = call { double, i32 } @llvm.frexp.f64.i32(double %x)
  %m = extractvalue { double, i32 } %me, 0
  ret double %m
}

; dm/dx = m / x, and 0 at x == 0; the exponent has no tangent.
; CHECK-LABEL: define internal double @mantissa.fwd.d.dret(
; CHECK: [[M:%.*]] = extractvalue { double, i32 } %me, 0
; CHECK: [[Q:%.*]] = fdiv double [[M]], %x
; CHECK: [[Z:%.*]] = fcmp oeq double %x, 0.000000e+00
; CHECK: [[P:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[Q]]
; CHECK: [[T:%.*]] = fmul double [[P]], %x.d
; CHECK: insertvalue { double, i32 } zeroinitializer, double [[T]], 0

define void @caller(ptr %out, double %x) {
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @pair, double %x, double 1.0)
  store volatile double %a, ptr %out
  %b = call double (ptr, ...) @__enzyme_fwddiff(ptr @through_pointers, double %x, double 1.0)
  store volatile double %b, ptr %out
  %c = call double (ptr, ...) @__enzyme_fwddiff(ptr @mantissa, double %x, double 1.0)
  store volatile double %c, ptr %out
  ret void
}
