; What callees do with their arguments' memory reaches the caller's types.
; At -O0 a C++ expression object (Eigen's blocks) passes through member
; functions that return `this` through a parameter slot, copy constructors
; that memcpy a member from another object, constructors that store a
; reference, and accessors that return a member by value: each is a
; relation between parameters, applied where the caller knows the types.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; `Derived &derived() { return *this; }` at -O0.
define ptr @derived(ptr %this) {
  %slot = alloca ptr
  store ptr %this, ptr %slot
  %v = load ptr, ptr %slot
  ret ptr %v
}

; `Wrap(const Obj &o) : m(o) {}` for a trivially copyable Obj at offset 8.
define void @wrap_ctor(ptr %this, ptr %o) {
  %m = getelementptr i8, ptr %this, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr %m, ptr %o, i64 16, i1 false)
  ret void
}

; `Obj(double *d, long n) : data(d), n(n) {}` through derived().
define void @obj_ctor(ptr %this, ptr %d) {
  %self = call ptr @derived(ptr %this)
  store ptr %d, ptr %self
  ret void
}

; `long size() const { return n; }`, by value from offset 8.
define i64 @size(ptr %this) {
  %p = getelementptr i8, ptr %this, i64 8
  %n = load i64, ptr %p
  ret i64 %n
}

define double @f(ptr %x) {
  %obj = alloca [16 x i8]
  %wrap = alloca [24 x i8]
  call void @obj_ctor(ptr %obj, ptr %x)
  %same = call ptr @derived(ptr %obj)
  call void @wrap_ctor(ptr %wrap, ptr %same)
  %n = call i64 @size(ptr %obj)
  %twice = mul i64 %n, 2
  %v = load double, ptr %x
  ret double %v
}

define double @caller(ptr %x, ptr %dx) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  ret double %r
}

; The stored pointer and what it points to, the member read as an integer,
; and the same facts in the wrapper's copy at offset 8.
; CHECK-LABEL: gpuad-types for @f
; CHECK-DAG: %obj: {[]:Pointer, [0]:Pointer, [0,0]:Float@double, [8]:Integer}
; CHECK-DAG: %same: {[]:Pointer, [0]:Pointer, [0,0]:Float@double, [8]:Integer}
; CHECK-DAG: %wrap: {[]:Pointer, [8]:Pointer, [8,0]:Float@double, [16]:Integer}
