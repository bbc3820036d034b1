; A local initialised from a constant global (what clang emits at -O0 for
; `state_type x = {1.0}`): the memcpy's source holds the initializer's type,
; so the local, and what is loaded from it, are typed by it.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

@init = private unnamed_addr constant { [2 x double] } { [2 x double] [double 1.0, double 2.0] }

define i64 @f(double %t) {
  %x = alloca { [2 x double] }, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %x, ptr @init, i64 16, i1 false)
  %second = getelementptr i8, ptr %x, i64 8
  %bits = load i64, ptr %second
  ret i64 %bits
}

define i64 @caller(double %t) {
  %r = call i64 (ptr, ...) @__enzyme_fwddiff(ptr @f, double %t, double 1.0)
  ret i64 %r
}

; CHECK-LABEL: gpuad-types for @f
; CHECK-DAG: %x: {[]:Pointer, [0]:Float@double, [8]:Float@double}
; CHECK-DAG: %bits: {[]:Float@double}
