; compiler-rt's complex product and quotient, __muldc3(a, b, c, d) =
; (a + ib)(c + id), are complex rows: each operand's Jacobian follows from the
; complex derivative (d(z1 z2)/dz1 = z2, d(z1/z2)/dz2 = -r/z2), in real parts.
; Forward mode: the tangent {du, dv}; reverse mode: each real part's adjoint.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare { double, double } @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare { double, double } @__muldc3(double, double, double, double)
declare { double, double } @__divdc3(double, double, double, double)
declare <2 x float> @__mulsc3(float, float, float, float)

define { double, double } @mul(double %a, double %b, double %c, double %d) {
  %r = call { double, double } @__muldc3(double %a, double %b, double %c, double %d)
  ret { double, double } %r
}

; du = c da - d db + a dc - b dd, dv = d da + c db + b dc + a dd.
; CHECK-LABEL: define internal { double, double } @mul.fwd.
; CHECK: [[ND:%.*]] = fneg double %d
; CHECK: [[T1:%.*]] = fmul double %c, %a.d
; CHECK: [[T2:%.*]] = fmul double [[ND]], %b.d
; CHECK: [[U1:%.*]] = fadd double [[T1]], [[T2]]
; CHECK: [[T3:%.*]] = fmul double %d, %a.d
; CHECK: [[T4:%.*]] = fmul double %c, %b.d
; CHECK: [[V1:%.*]] = fadd double [[T3]], [[T4]]
; CHECK: [[NB:%.*]] = fneg double %b
; CHECK: [[T5:%.*]] = fmul double %a, %c.d
; CHECK: [[U2:%.*]] = fadd double [[U1]], [[T5]]
; CHECK: [[T6:%.*]] = fmul double [[NB]], %d.d
; CHECK: [[U:%.*]] = fadd double [[U2]], [[T6]]
; CHECK: [[T7:%.*]] = fmul double %b, %c.d
; CHECK: [[V2:%.*]] = fadd double [[V1]], [[T7]]
; CHECK: [[T8:%.*]] = fmul double %a, %d.d
; CHECK: [[V:%.*]] = fadd double [[V2]], [[T8]]
; CHECK: [[P:%.*]] = insertvalue { double, double } poison, double [[U]], 0
; CHECK: insertvalue { double, double } [[P]], double [[V]], 1

define { double, double } @fwd_mul(double %a, double %b, double %c, double %d) {
  %t = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @mul,
      double %a, double 1.0, double %b, double 0.0,
      double %c, double 0.0, double %d, double 1.0)
  ret { double, double } %t
}

define double @quot_re(double %a, double %b, double %c, double %d) {
  %r = call { double, double } @__divdc3(double %a, double %b, double %c, double %d)
  %u = extractvalue { double, double } %r, 0
  ret double %u
}

; Reverse: a real result adjoint du reaches a and b through Re(1/z2) and
; Im(1/z2) (Smith's division: no |z2|^2), c and d through -r/z2 with r the
; quotient (from the primal call).
; CHECK-LABEL: define internal {{.*}} @quot_re.rev.
; CHECK: [[R:%.*]] = call { double, double } @__divdc3(double %a, double %b, double %c, double %d)
; CHECK: fcmp oge double
; CHECK: extractvalue { double, double } [[R]], 0
; CHECK: extractvalue { double, double } [[R]], 1
; CHECK: ret

declare { double, double, double, double } @__enzyme_autodiff4(ptr, ...)
define { double, double, double, double } @rev_quot(double %a, double %b, double %c, double %d) {
  %g = call { double, double, double, double } (ptr, ...) @__enzyme_autodiff4(ptr @quot_re,
      double %a, double %b, double %c, double %d)
  ret { double, double, double, double } %g
}

define <2 x float> @mulf(float %a, float %b, float %c, float %d) {
  %r = call <2 x float> @__mulsc3(float %a, float %b, float %c, float %d)
  ret <2 x float> %r
}

; Float complex returns <2 x float>: the tangent is built with insertelement.
; CHECK-LABEL: define internal <2 x float> @mulf.fwd.
; CHECK: call <2 x float> @__mulsc3(float %a, float %b, float %c, float %d)
; CHECK: [[E:%.*]] = insertelement <2 x float> poison, float {{%.*}}, i32 0
; CHECK: insertelement <2 x float> [[E]], float {{%.*}}, i32 1

declare <2 x float> @__enzyme_fwddiff_f(ptr, ...)
define <2 x float> @fwd_mulf(float %a, float %b, float %c, float %d) {
  %t = call <2 x float> (ptr, ...) @__enzyme_fwddiff_f(ptr @mulf,
      float %a, float 1.0, float %b, float 0.0,
      float %c, float 0.0, float %d, float 0.0)
  ret <2 x float> %t
}
