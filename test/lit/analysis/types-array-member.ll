; A pointer to an array member also sees the members after it.  A run-time
; index into the array takes its elements' facts, not those members' (the
; array ends at the first element that disagrees); the address of a struct
; member, and a reference parameter (`dereferenceable(N)`), carry facts about
; their own bytes only, so a callee's array-of-doubles view of its `double &`
; or `std::array<double, 3> &` does not spread over the enclosing object.
; Over elements that are not floats (a union's), every element's facts
; fold together: an integer in one element and a double in the next stay
; visible as a conflict, not as an element of integers.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

%stepper = type { [3 x double], i32, ptr, i64 }

; sum(double *, long): a run-time number of doubles behind %p; its declared
; `double *` says doubles at every offset.
define double @_Z3sumPdl(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %e = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %e
  %s1 = fadd double %s, %v
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret double %s1
}

define double @f(ptr %st, i64 %n) {
  %count = getelementptr %stepper, ptr %st, i64 0, i32 1
  store i32 3, ptr %count, !tbaa !3
  %scale = getelementptr %stepper, ptr %st, i64 0, i32 2
  %k = load ptr, ptr %scale
  %kv = load double, ptr %k
  %steps = getelementptr %stepper, ptr %st, i64 0, i32 3
  store i64 7, ptr %steps, !tbaa !5
  %x = getelementptr %stepper, ptr %st, i64 0, i32 0
  %t = call double @_Z3sumPdl(ptr dereferenceable(24) %x, i64 %n)
  %j = add i64 %n, -1
  %last = getelementptr double, ptr %st, i64 %j
  %lv = load double, ptr %last
  %r = fmul double %t, %kv
  %r2 = fadd double %r, %lv
  ret double %r2
}

; A union { long; double; } array: element 0 holds a long, element 1 a
; double, and a run-time index reaches either.
define void @u(ptr %a, i64 %i, double %x, ptr %out) {
  store i64 3, ptr %a, !tbaa !5
  %a1 = getelementptr i8, ptr %a, i64 8
  store double %x, ptr %a1, !tbaa !7
  %e = getelementptr i64, ptr %a, i64 %i
  call void @llvm.memcpy.p0.p0.i64(ptr %out, ptr %e, i64 8, i1 false)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @ucaller(ptr %a, ptr %da, i64 %i, double %x, ptr %o, ptr %do) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @u, ptr %a, ptr %da, i64 %i, double %x, ptr %o, ptr %do)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define double @caller(ptr %st, ptr %dst, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %st, ptr %dst, i64 %n)
  ret double %r
}

; (The requests' functions print in the order of their requests.)
; CHECK-LABEL: gpuad-types for @u
; CHECK: %e: {[]:Pointer, [0]:Anything}

; CHECK-LABEL: gpuad-types for @f
; The object: the array's three doubles, then the members; no every-offset
; double from the callee's view of the array.
; CHECK: %st: {[]:Pointer, [0]:Float@double, [8]:Float@double, [16]:Float@double, [24]:Integer, [32]:Pointer, [32,0]:Float@double, [40]:Integer}
; CHECK: %x: {[]:Pointer, [0]:Float@double, [8]:Float@double, [16]:Float@double}
; An element reached by a run-time index is a double.
; CHECK: %last: {[]:Pointer, [0]:Float@double}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"int", !1, i64 0}
!3 = !{!2, !2, i64 0}
!4 = !{!"long", !1, i64 0}
!5 = !{!4, !4, i64 0}
!6 = !{!"double", !1, i64 0}
!7 = !{!6, !6, i64 0}
