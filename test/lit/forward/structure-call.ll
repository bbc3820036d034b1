; A libstdc++ call that only moves links (the red-black tree's increment)
; is made again on the shadow, and its result is the shadow of the primal's:
; the derivative walks the shadow tree beside the primal one.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

; CHECK-LABEL: define internal double @f.fwd
; CHECK: %n = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node)
; CHECK: %[[S:.+]] = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node.d)
; CHECK: %p.d = getelementptr i8, ptr %[[S]], i64 32
; CHECK: %v.d = load double, ptr %p.d

declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)
declare double @__enzyme_fwddiff(ptr, ...)

define double @f(ptr %node) {
  %n = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %node)
  %p = getelementptr i8, ptr %n, i64 32
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define double @caller(ptr %node, ptr %dnode) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %node, ptr %dnode)
  ret double %d
}
