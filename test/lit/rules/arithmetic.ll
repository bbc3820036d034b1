; Rules of the IR arithmetic opcodes: d(x+y) = dx+dy, d(x-y) = dx-dy,
; d(x*y) = y dx + x dy, d(x/y) = dx/y - (r/y) dy, d(-x) = -dx and
; d frem(x,y) = dx - trunc(x/y) dy.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @add(double %x, double %y) {
  %r = fadd double %x, %y
  ret double %r
}

define double @sub(double %x, double %y) {
  %r = fsub double %x, %y
  ret double %r
}

define double @mul(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}

define double @div(double %x, double %y) {
  %r = fdiv double %x, %y
  ret double %r
}

define double @rem(double %x, double %y) {
  %r = frem double %x, %y
  ret double %r
}

define double @neg(double %x) {
  %r = fneg double %x
  ret double %r
}

define double @add_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @add, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @sub_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sub, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @mul_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @mul, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @div_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @div, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @rem_caller(double %x, double %dx, double %y, double %dy) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @rem, double %x, double %dx, double %y, double %dy)
  ret double %d
}

define double @neg_caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @neg, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @add.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = fadd double %x, %y
; CHECK-NEXT:    [[D:%.*]] = fadd double %x.d, %y.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @sub.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = fsub double %x, %y
; CHECK:         [[D:%.*]] = fsub double %x.d, %y.d
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @mul.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = fmul double %x, %y
; CHECK-NEXT:    [[A:%.*]] = fmul double %y, %x.d
; CHECK-NEXT:    [[B:%.*]] = fmul double %x, %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @div.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = fdiv double %x, %y
; CHECK-NEXT:    [[INV:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT:    [[A:%.*]] = fmul double [[INV]], %x.d
; CHECK-NEXT:    [[INV2:%.*]] = fdiv double 1.000000e+00, %y
; CHECK-NEXT:    [[XI:%.*]] = fmul double %x, [[INV2]]
; CHECK-NEXT:    [[XII:%.*]] = fmul double [[XI]], [[INV2]]
; CHECK-NEXT:    [[NRY:%.*]] = fneg double [[XII]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[NRY]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double [[A]], [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @rem.fwd.dd.dret(double %x, double %x.d, double %y, double %y.d)
; CHECK:         %r = frem double %x, %y
; CHECK-NEXT:    [[Q:%.*]] = fdiv double %x, %y
; CHECK-NEXT:    [[T:%.*]] = call double @llvm.trunc.f64(double [[Q]])
; CHECK-NEXT:    [[NT:%.*]] = fneg double [[T]]
; CHECK-NEXT:    [[B:%.*]] = fmul double [[NT]], %y.d
; CHECK-NEXT:    [[D:%.*]] = fadd double %x.d, [[B]]
; CHECK-NEXT:    ret double [[D]]

; CHECK-LABEL: define internal double @neg.fwd.d.dret(double %x, double %x.d)
; CHECK:         %r = fneg double %x
; CHECK-NEXT:    [[D:%.*]] = fneg double %x.d
; CHECK-NEXT:    ret double [[D]]
