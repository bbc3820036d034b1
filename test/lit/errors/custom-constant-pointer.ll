; A registered gradient whose functions take a shadow for a pointer argument
; passed as enzyme_const: there is none to give them, an error naming the
; registration.  (Functions without that shadow would serve the call.)
; RUN: not %opt -passes=gpuad -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}gpuad: '__enzyme_register_gradient_h': 'h_aug' takes a shadow for a pointer argument of 'h' that is constant at a call, so there is none to pass (register functions without that shadow, as Enzyme does for constant arguments)

@__enzyme_register_gradient_h = global [3 x ptr] [ptr @h, ptr @h_aug, ptr @h_rev]
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define double @h(ptr %p, double %x) {
  %v = load double, ptr %p
  %y = fmul double %v, %x
  ret double %y
}

define { ptr, double } @h_aug(ptr %p, ptr %dp, double %x) {
  %v = load double, ptr %p
  %y = fmul double %v, %x
  %r = insertvalue { ptr, double } { ptr null, double poison }, double %y, 1
  ret { ptr, double } %r
}

define double @h_rev(ptr %p, ptr %dp, double %x, double %seed) {
  %v = load double, ptr %p
  %d = fmul double %v, %seed
  ret double %d
}

define double @caller(ptr %p, double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @h, ptr @enzyme_const, ptr %p, double %x)
  ret double %d
}
