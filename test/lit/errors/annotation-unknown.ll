; An annotation gpuad does not know (a hand-written, misspelled
; annotate("enzyme_...")): an error naming it, never ignored.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: unknown annotation 'enzyme_inactve' on 'k' (gpuad knows enzyme_inactive, enzyme_function_like=NAME, enzyme_nofree, enzyme_shouldrecompute, enzyme_sparse_accumulate)

@.typo = private constant [15 x i8] c"enzyme_inactve\00", section "llvm.metadata"
@.file = private constant [4 x i8] c"a.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.typo, ptr @.file, i32 1, ptr null }], section "llvm.metadata"

declare double @__enzyme_fwddiff(ptr, ...)

define double @k(double %x) {
  %y = fmul double %x, %x
  ret double %y
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @k, double %x, double 1.0)
  ret double %d
}
