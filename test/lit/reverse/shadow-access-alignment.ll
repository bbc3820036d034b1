; The reverse sweep reads and writes shadow memory with the alignment the
; primal access promised, not its type's: a vectorised primal reads
; <2 x double> at an 8-byte aligned offset (Eigen's fixed-size products), and
; an adjoint access that claimed 16 bytes there faults (movapd).  Loads
; (adjoints added), stores (adjoints taken and zeroed) and a memcpy of
; doubles at an 8-aligned address.
; RUN: %opt -passes=gpuad -S %s | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @f(ptr noalias %w, ptr noalias %out, ptr noalias %tmp) {
  %w.hi = getelementptr inbounds i8, ptr %w, i64 24
  %a = load <2 x double>, ptr %w.hi, align 8
  %sq = fmul <2 x double> %a, %a
  %out.hi = getelementptr inbounds i8, ptr %out, i64 8
  store <2 x double> %sq, ptr %out.hi, align 8
  %tmp.hi = getelementptr inbounds i8, ptr %tmp, i64 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %tmp.hi, ptr align 8 %out.hi, i64 16, i1 false)
  ret void
}

; CHECK-LABEL: define {{.*}} @f.rev
; CHECK-NOT: <2 x double>, ptr {{.*}}, align 16
; CHECK: load <2 x double>, ptr %{{.*}}, align 8
; CHECK-NOT: <2 x double>, ptr {{.*}}, align 16
; CHECK: ret void

define void @caller(ptr %w, ptr %dw, ptr %out, ptr %dout, ptr %tmp, ptr %dtmp) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %w, ptr %dw, ptr %out, ptr %dout, ptr %tmp, ptr %dtmp)
  ret void
}
