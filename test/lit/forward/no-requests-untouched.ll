; A module without derivative requests is left exactly as it is: no function
; is cloned or rewritten, no derivative is created.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s > %t.gpuad.ll
; RUN: opt -S %s > %t.plain.ll
; RUN: diff %t.plain.ll %t.gpuad.ll

define double @f(double %x) {
  %y = call double @llvm.sin.f64(double %x)
  %z = fmul double %y, %x
  ret double %z
}

define double @g(double %x) {
  %r = call double @f(double %x)
  ret double %r
}

; CHECK-LABEL: define double @f(double %x)
; CHECK-NEXT:    %y = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    %z = fmul double %y, %x
; CHECK-NEXT:    ret double %z
; CHECK-NEXT:  }

; CHECK-LABEL: define double @g(double %x)
; CHECK-NEXT:    %r = call double @f(double %x)
; CHECK-NEXT:    ret double %r
; CHECK-NEXT:  }

; CHECK-NOT:   .fwd
; CHECK-NOT:   define
