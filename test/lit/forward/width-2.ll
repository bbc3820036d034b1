; enzyme_width 2: two tangent directions at once.  Float tangents are
; <2 x double> (partials splatted), shadow pointers [2 x ptr] used lane by
; lane; the request's shadows are packed in the caller and the result
; unpacked into the declared [2 x double].
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s

@enzyme_width = external global i32

declare [2 x double] @__enzyme_fwddiff(ptr, ...)

; *p = sin(x) * *p; return *p
define double @f(double %x, ptr %p) {
  %v = load double, ptr %p
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %v
  store double %m, ptr %p
  ret double %m
}

define [2 x double] @caller(double %x, double %dx0, double %dx1, ptr %p, ptr %dp0, ptr %dp1) {
  %w = load i32, ptr @enzyme_width
  %d = call [2 x double] (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, double %x, double %dx0, double %dx1, ptr %p, ptr %dp0, ptr %dp1)
  ret [2 x double] %d
}

; CHECK-LABEL: define [2 x double] @caller(
; CHECK-DAG:     [[X0:%.*]] = insertelement <2 x double> poison, double %dx0, i32 0
; CHECK-DAG:     [[DX:%.*]] = insertelement <2 x double> [[X0]], double %dx1, i32 1
; CHECK-DAG:     [[P0:%.*]] = insertvalue [2 x ptr] poison, ptr %dp0, 0
; CHECK-DAG:     [[DP:%.*]] = insertvalue [2 x ptr] [[P0]], ptr %dp1, 1
; CHECK:         [[R:%.*]] = call <2 x double> @f.fwd.w2.dd.dret(double %x, <2 x double> [[DX]], ptr %p, [2 x ptr] [[DP]])
; CHECK-NEXT:    [[R0:%.*]] = extractelement <2 x double> [[R]], i32 0
; CHECK-NEXT:    [[R1:%.*]] = extractelement <2 x double> [[R]], i32 1
; CHECK-NEXT:    [[A0:%.*]] = insertvalue [2 x double] poison, double [[R0]], 0
; CHECK-NEXT:    [[A1:%.*]] = insertvalue [2 x double] [[A0]], double [[R1]], 1
; CHECK-NEXT:    ret [2 x double] [[A1]]

; CHECK-LABEL: define internal <2 x double> @f.fwd.w2.dd.dret(double %x, <2 x double> %x.d, ptr %p, [2 x ptr] %p.d)
; The shadow load, lane by lane.
; CHECK-NEXT:    %v = load double, ptr %p, align 8
; CHECK-NEXT:    [[SP0:%.*]] = extractvalue [2 x ptr] %p.d, 0
; CHECK-NEXT:    [[L0:%.*]] = load double, ptr [[SP0]], align 8
; CHECK-NEXT:    [[SP1:%.*]] = extractvalue [2 x ptr] %p.d, 1
; CHECK-NEXT:    [[L1:%.*]] = load double, ptr [[SP1]], align 8
; CHECK-NEXT:    [[V0:%.*]] = insertelement <2 x double> poison, double [[L0]], i32 0
; CHECK-NEXT:    [[DV:%.*]] = insertelement <2 x double> [[V0]], double [[L1]], i32 1
; d sin = cos(x) dx, on both lanes at once.
; CHECK-NEXT:    %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT:    [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT:    [[COSI:%.*]] = insertelement <2 x double> poison, double [[COS]], i64 0
; CHECK-NEXT:    [[COSV:%.*]] = shufflevector <2 x double> [[COSI]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:    [[DS:%.*]] = fmul <2 x double> [[COSV]], %x.d
; d(s v) = v ds + s dv.
; CHECK-NEXT:    %m = fmul double %s, %v
; CHECK-NEXT:    [[VI:%.*]] = insertelement <2 x double> poison, double %v, i64 0
; CHECK-NEXT:    [[VV:%.*]] = shufflevector <2 x double> [[VI]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:    [[A:%.*]] = fmul <2 x double> [[VV]], [[DS]]
; CHECK-NEXT:    [[SI:%.*]] = insertelement <2 x double> poison, double %s, i64 0
; CHECK-NEXT:    [[SV:%.*]] = shufflevector <2 x double> [[SI]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:    [[B:%.*]] = fmul <2 x double> [[SV]], [[DV]]
; CHECK-NEXT:    [[DM:%.*]] = fadd <2 x double> [[A]], [[B]]
; The shadow store, lane by lane.
; CHECK-NEXT:    store double %m, ptr %p, align 8
; CHECK-NEXT:    [[SQ0:%.*]] = extractvalue [2 x ptr] %p.d, 0
; CHECK-NEXT:    [[M0:%.*]] = extractelement <2 x double> [[DM]], i32 0
; CHECK-NEXT:    store double [[M0]], ptr [[SQ0]], align 8
; CHECK-NEXT:    [[SQ1:%.*]] = extractvalue [2 x ptr] %p.d, 1
; CHECK-NEXT:    [[M1:%.*]] = extractelement <2 x double> [[DM]], i32 1
; CHECK-NEXT:    store double [[M1]], ptr [[SQ1]], align 8
; CHECK-NEXT:    ret <2 x double> [[DM]]
