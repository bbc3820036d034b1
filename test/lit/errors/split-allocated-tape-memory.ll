; enzyme_allocated N with enzyme_tape p: the memory p points to holds N
; bytes (Enzyme's reading), so a tape that needs more is an error naming
; both sizes, not a read past the user's buffer.  Here the reverse of
; x[0] = sin(x[0]) needs the overwritten x[0] (8 bytes); the buffer has 1.
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: the tape of 'f' needs 8 bytes, but enzyme_allocated gives 1 (__enzyme_augmentsize gives the size)

@enzyme_allocated = external global i32
@enzyme_tape = external global i32
declare void @__enzyme_reverse(ptr, ...)
declare double @sin(double)

define void @f(ptr %x) {
  %v = load double, ptr %x
  %s = call double @sin(double %v)
  store double %s, ptr %x
  ret void
}

define void @f_rev(ptr %x, ptr %dx, ptr %tape) {
  %a = load i32, ptr @enzyme_allocated
  %t = load i32, ptr @enzyme_tape
  call void (ptr, ...) @__enzyme_reverse(ptr @f, ptr %x, ptr %dx, i32 %a, i64 1, i32 %t, ptr %tape)
  ret void
}
