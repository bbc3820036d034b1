; Reverse mode through a shuffle of integer lanes that hold doubles: one
; that moves whole doubles (lanes 0-1 and 2-3 together) is differentiated as
; a shuffle of doubles; one that splits a double between lanes has no
; adjoint to move, and is an error naming it, never a silent zero.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot differentiate '%s = shufflevector <4 x i32> %i, <4 x i32> poison, <4 x i32> <i32 1, i32 0, i32 2, i32 3>': it moves parts of floating-point values that carry a derivative
; CHECK-NOT: error:

declare void @__enzyme_autodiff(ptr, ...)

define double @whole(ptr %x) {
  %v = load <2 x double>, ptr %x
  %i = bitcast <2 x double> %v to <4 x i32>
  %s = shufflevector <4 x i32> %i, <4 x i32> poison, <4 x i32> <i32 2, i32 3, i32 0, i32 1>
  %d = bitcast <4 x i32> %s to <2 x double>
  %a = extractelement <2 x double> %d, i64 0
  %b = extractelement <2 x double> %d, i64 1
  %p = fmul double %a, %b
  ret double %p
}

define double @split(ptr %x) {
  %v = load <2 x double>, ptr %x
  %i = bitcast <2 x double> %v to <4 x i32>
  %s = shufflevector <4 x i32> %i, <4 x i32> poison, <4 x i32> <i32 1, i32 0, i32 2, i32 3>
  %d = bitcast <4 x i32> %s to <2 x double>
  %a = extractelement <2 x double> %d, i64 0
  %b = extractelement <2 x double> %d, i64 1
  %p = fmul double %a, %b
  ret double %p
}

define void @caller(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @whole, ptr %x, ptr %dx)
  call void (ptr, ...) @__enzyme_autodiff(ptr @split, ptr %x, ptr %dx)
  ret void
}
