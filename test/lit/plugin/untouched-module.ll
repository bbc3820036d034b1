; A module without requests comes out exactly as it went in.
; RUN: %opt -passes=gpuad -S %s -o %t.out
; RUN: opt -S %s -o %t.ref
; RUN: diff %t.ref %t.out

@g = global double 1.0

define double @f(double %x) {
  %v = load double, ptr @g
  %m = fmul double %x, %v
  %s = call double @llvm.sin.f64(double %m)
  ret double %s
}
