; An integer field of a struct in shadowed memory: the shadow struct gets the
; primal integer (so counts and sizes in shadow structures stay valid), not a
; tangent; the double field gets its tangent.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

%struct.S = type { i32, double }

declare void @__enzyme_fwddiff(ptr, ...)

; out->n = in->n; out->v = in->v * (double)in->n
define void @f(ptr %out, ptr %in) {
  %in.n = getelementptr inbounds %struct.S, ptr %in, i32 0, i32 0
  %n = load i32, ptr %in.n
  %in.v = getelementptr inbounds %struct.S, ptr %in, i32 0, i32 1
  %v = load double, ptr %in.v
  %nf = sitofp i32 %n to double
  %r = fmul double %v, %nf
  %out.n = getelementptr inbounds %struct.S, ptr %out, i32 0, i32 0
  store i32 %n, ptr %out.n
  %out.v = getelementptr inbounds %struct.S, ptr %out, i32 0, i32 1
  store double %r, ptr %out.v
  ret void
}

define void @caller(ptr %out, ptr %dout, ptr %in, ptr %din) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %out, ptr %dout, ptr %in, ptr %din)
  ret void
}

; The integer is read from the primal only; field 0's GEPs fold away.
; CHECK-LABEL: define internal void @f.fwd.dd(ptr %out, ptr %out.d, ptr %in, ptr %in.d)
; CHECK-NEXT:    %n = load i32, ptr %in, align 4
; CHECK-NEXT:    %in.v = getelementptr inbounds %struct.S, ptr %in, i32 0, i32 1
; CHECK-NEXT:    [[DINV:%.*]] = getelementptr inbounds %struct.S, ptr %in.d, i32 0, i32 1
; CHECK-NEXT:    %v = load double, ptr %in.v, align 8
; CHECK-NEXT:    [[DV:%.*]] = load double, ptr [[DINV]], align 8
; CHECK-NEXT:    %nf = sitofp i32 %n to double
; CHECK-NEXT:    %r = fmul double %v, %nf
; CHECK-NEXT:    [[DR:%.*]] = fmul double %nf, [[DV]]
; CHECK-NEXT:    store i32 %n, ptr %out, align 4
; CHECK-NEXT:    store i32 %n, ptr %out.d, align 4
; CHECK-NEXT:    %out.v = getelementptr inbounds %struct.S, ptr %out, i32 0, i32 1
; CHECK-NEXT:    [[DOUTV:%.*]] = getelementptr inbounds %struct.S, ptr %out.d, i32 0, i32 1
; CHECK-NEXT:    store double %r, ptr %out.v, align 8
; CHECK-NEXT:    store double [[DR]], ptr [[DOUTV]], align 8
; CHECK-NEXT:    ret void
