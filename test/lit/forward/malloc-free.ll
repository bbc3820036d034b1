; A heap block that holds active data gets a shadow block from the same
; allocator, zeroed; free of the block also frees the shadow.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

; The call keeps the stored value from being forwarded to the load.
define void @bump(ptr %p) {
  %v = load double, ptr %p
  %w = fadd double %v, 1.0
  store double %w, ptr %p
  ret void
}

define double @f(double %x) {
  %p = call ptr @malloc(i64 8)
  store double %x, ptr %p
  call void @bump(ptr %p)
  %v = load double, ptr %p
  %r = fmul double %v, %v
  call void @free(ptr %p)
  ret double %r
}

define double @caller(double %x, double %dx) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double %dx)
  ret double %d
}

; CHECK-LABEL: define internal double @f.fwd.d.dret(double %x, double %x.d)
; CHECK-NEXT:    %p = call ptr @malloc(i64 8)
; CHECK-NEXT:    [[SP:%.*]] = call ptr @malloc(i64 8)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(ptr [[SP]], i8 0, i64 8, i1 false)
; CHECK-NEXT:    store double %x, ptr %p, align 8
; CHECK-NEXT:    store double %x.d, ptr [[SP]], align 8
; CHECK-NEXT:    call void @bump.fwd.d(ptr %p, ptr [[SP]])
; CHECK-NEXT:    %v = load double, ptr %p, align 8
; CHECK-NEXT:    [[DV:%.*]] = load double, ptr [[SP]], align 8
; CHECK:         call void @free(ptr %p)
; CHECK-NEXT:    call void @free(ptr [[SP]])
; CHECK-NEXT:    ret double
