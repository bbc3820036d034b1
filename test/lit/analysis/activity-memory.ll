; Activity through memory: a local buffer that receives an active value and is
; read for the output is shadowed; one that only holds constants is not; a
; const argument's memory never is.
; RUN: %opt -passes='print<gpuad-activity>' -disable-output %s | FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %out, ptr %in, ptr %table, i64 %i) {
  %active = alloca [4 x double]
  %scratch = alloca [4 x double]
  %v = load double, ptr %in
  %t = load double, ptr %table
  %pa = getelementptr [4 x double], ptr %active, i64 0, i64 %i
  store double %v, ptr %pa
  %ps = getelementptr [4 x double], ptr %scratch, i64 0, i64 %i
  store double %t, ptr %ps
  %a = load double, ptr %pa
  %s = load double, ptr %ps
  %m = fmul double %a, %s
  store double %m, ptr %out
  ret void
}

define void @caller(ptr %o, ptr %do, ptr %in, ptr %din, ptr %tab) {
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %d, ptr %o, ptr %do, i32 %d, ptr %in, ptr %din, i32 %c, ptr %tab, i64 0)
  ret void
}

; CHECK-LABEL: gpuad-activity for @f (fwd dup dup const const)
; CHECK: %out: shadowed pointer
; CHECK: %in: shadowed pointer
; CHECK: %table: pointer without shadow
; CHECK: %active: shadowed pointer
; CHECK: %scratch: pointer without shadow
; CHECK: %v: active
; CHECK: %t: inactive (useful, not varied)
; CHECK: %a: active
; CHECK: %s: inactive (useful, not varied)
; CHECK: %m: active
; CHECK-DAG: memory %out: shadowed, varied, useful
; CHECK-DAG: memory %table: not shadowed
; CHECK-DAG: memory %active: shadowed, varied, useful
; CHECK-DAG: memory %scratch: not shadowed, useful
