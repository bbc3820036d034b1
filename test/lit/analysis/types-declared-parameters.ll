; A C++ parameter's declared type (from its mangled name) says what an
; opaque pointer or an i64 cannot: a `long` is an integer (not a double's
; bits), a `std::array<long, 4>` holds integers throughout, whether passed
; by reference or by value in memory (byval), and a `double &` is one
; double where a `double *` may be an array.
; RUN: %opt -passes='print<gpuad-types>' -disable-output %s | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_autodiff(ptr, ...)

%array = type { [4 x i64] }

; A declared integer is only a default: `double from_bits(uint64_t u)`
; reads a double's bits, and says so.
define double @_Z9from_bitsm(i64 %u) {
  %d = bitcast i64 %u to double
  ret double %d
}

define double @caller_bits(i64 %u) {
  %res = call double (ptr, ...) @__enzyme_autodiff(ptr @_Z9from_bitsm, i64 %u)
  ret double %res
}

; double g(double &r, double *p, long n, const std::array<long, 4> &a,
;          std::array<long, 4> b)
define double @_Z1gRdPdlRKSt5arrayIlLm4EES2_(ptr %r, ptr %p, i64 %n, ptr %a, ptr byval(%array) %b) {
  %v = load double, ptr %r
  ret double %v
}

define double @caller(ptr %r, ptr %dr, ptr %p, ptr %dp, i64 %n, ptr %a, ptr %b) {
  %res = call double (ptr, ...) @__enzyme_autodiff(ptr @_Z1gRdPdlRKSt5arrayIlLm4EES2_, ptr %r, ptr %dr, ptr %p, ptr %dp, i64 %n, ptr @enzyme_const, ptr %a, ptr @enzyme_const, ptr %b)
  ret double %res
}

; CHECK-LABEL: gpuad-types for @_Z9from_bitsm
; CHECK: %u: {[]:Float@double}

; CHECK-LABEL: gpuad-types for @_Z1gRdPdlRKSt5arrayIlLm4EES2_
; CHECK-DAG: %r: {[]:Pointer, [0]:Float@double}
; CHECK-DAG: %p: {[]:Pointer, [-1]:Float@double}
; CHECK-DAG: %n: {[]:Integer}
; CHECK-DAG: %a: {[]:Pointer, [-1]:Integer}
; CHECK-DAG: %b: {[]:Pointer, [-1]:Integer}
