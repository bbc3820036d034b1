; A pointer made from an integer that has no shadow address (an address
; returned by an opaque call, as an integer) must not take the primal
; address, or zero, for its shadow: adjoints would be written into the
; primal's memory, or fault.  It is an error naming the conversion.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: cannot tell the shadow of the pointer '%q = inttoptr i64 %i to ptr': the integer it is made from, '%i = call i64 @scratch_address()', has no shadow address

declare double @__enzyme_autodiff(ptr, ...)
declare i64 @scratch_address() memory(none)

define double @read(ptr %p) noinline {
  %v = load double, ptr %p
  ret double %v
}

define double @f(double %x) {
  %i = call i64 @scratch_address()
  %q = inttoptr i64 %i to ptr
  %y = fmul double %x, %x
  store double %y, ptr %q
  %v = call double @read(ptr %q)
  ret double %v
}

define double @caller(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
