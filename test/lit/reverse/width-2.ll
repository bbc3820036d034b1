; enzyme_width 2: one reverse sweep with two adjoint lanes.  Each dup
; pointer comes with two shadows (packed as [2 x ptr]), adjoints are
; <2 x double>, partials are computed once and splatted, and the reverse of
; a store reads (and zeroes) the adjoint from each lane's shadow.  Seeding
; the output y's shadows with the unit vectors e0 and e1 gives the two rows
; of the Jacobian dy/dx in the shadows of x.
; RUN: %opt -passes='gpuad<no-cleanup;no-call-site-aliasing>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

@enzyme_width = external global i32

declare void @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [11 x i8] c"%.6f %.6f\0A\00"

; y[0] = x[0] * x[1];  y[1] = sin(x[0]) + x[1]^2
define void @f(ptr %x, ptr %y) {
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %x0 = load double, ptr %x
  %x1 = load double, ptr %p1
  %m = fmul double %x0, %x1
  store double %m, ptr %y
  %s = call double @llvm.sin.f64(double %x0)
  %q = fmul double %x1, %x1
  %t = fadd double %s, %q
  %q1 = getelementptr inbounds double, ptr %y, i64 1
  store double %t, ptr %q1
  ret void
}

; CHECK-LABEL: define i32 @main()
; CHECK:         call void @f.rev.w2.dd(ptr @x, [2 x ptr] [ptr @dx0, ptr @dx1], ptr @y, [2 x ptr] [ptr @dy0, ptr @dy1])

; CHECK-LABEL: define internal void @f.rev.w2.dd(ptr %x, [2 x ptr] %x.d, ptr %y, [2 x ptr] %y.d)
; CHECK:         %t.adj = alloca <2 x double>
; The reverse of the store of t: lane by lane, take the adjoint out of y's shadows.
; CHECK:       .rev:
; CHECK-NEXT:    [[S0:%.*]] = extractvalue [2 x ptr] [[Q1D:%.*]], 0
; CHECK-NEXT:    [[A0:%.*]] = load double, ptr [[S0]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[S0]]
; CHECK-NEXT:    [[S1:%.*]] = extractvalue [2 x ptr] [[Q1D]], 1
; CHECK-NEXT:    [[A1:%.*]] = load double, ptr [[S1]]
; CHECK-NEXT:    store double 0.000000e+00, ptr [[S1]]
; CHECK-NEXT:    [[V0:%.*]] = insertelement <2 x double> poison, double [[A0]], i32 0
; CHECK-NEXT:    [[V1:%.*]] = insertelement <2 x double> [[V0]], double [[A1]], i32 1
; CHECK-NEXT:    [[T0:%.*]] = load <2 x double>, ptr %t.adj
; CHECK-NEXT:    [[T1:%.*]] = fadd <2 x double> [[T0]], [[V1]]
; CHECK-NEXT:    store <2 x double> [[T1]], ptr %t.adj
; One cos for both lanes.
; CHECK:         [[COS:%.*]] = call double @llvm.cos.f64(double %x0)
; CHECK-NEXT:    [[CI:%.*]] = insertelement <2 x double> poison, double [[COS]], i64 0
; CHECK-NEXT:    [[CS:%.*]] = shufflevector <2 x double> [[CI]], <2 x double> poison, <2 x i32> zeroinitializer
; CHECK-NEXT:    fmul <2 x double> [[CS]], %s.d
; CHECK-NOT:     @llvm.cos.f64
; The reverse of the load of x[0]: each lane into its own shadow of x.
; CHECK:         %x0.d = load <2 x double>, ptr %x0.adj
; CHECK:         [[D0:%.*]] = extractvalue [2 x ptr] %x.d, 0
; CHECK-NEXT:    [[E0:%.*]] = extractelement <2 x double> %x0.d, i32 0
; CHECK-NEXT:    [[O0:%.*]] = load double, ptr [[D0]]
; CHECK-NEXT:    [[N0:%.*]] = fadd double [[O0]], [[E0]]
; CHECK-NEXT:    store double [[N0]], ptr [[D0]]
; CHECK-NEXT:    [[D1:%.*]] = extractvalue [2 x ptr] %x.d, 1
; CHECK-NEXT:    [[E1:%.*]] = extractelement <2 x double> %x0.d, i32 1
; CHECK-NEXT:    [[O1:%.*]] = load double, ptr [[D1]]
; CHECK-NEXT:    [[N1:%.*]] = fadd double [[O1]], [[E1]]
; CHECK-NEXT:    store double [[N1]], ptr [[D1]]

; x = (0.5, 3).  Jacobian rows:
;   dy0/dx = (x1, x0)             = (3, 0.5)
;   dy1/dx = (cos(x0), 2 x1)      = (0.8775825619, 6)
; y's shadows end at zero (y's entry values reach nothing);
; y = (x0 x1, sin(x0) + x1^2) = (1.5, 0.4794255386 + 9).
; EXEC:      3.000000 0.500000
; EXEC-NEXT: 0.877583 6.000000
; EXEC-NEXT: 0.000000 0.000000
; EXEC-NEXT: 0.000000 0.000000
; EXEC-NEXT: 1.500000 9.479426

@x = global [2 x double] [double 0.5, double 3.0]
@dx0 = global [2 x double] zeroinitializer
@dx1 = global [2 x double] zeroinitializer
@y = global [2 x double] zeroinitializer
@dy0 = global [2 x double] [double 1.0, double 0.0]
@dy1 = global [2 x double] [double 0.0, double 1.0]

define void @print(ptr %a) {
  %a0 = load double, ptr %a
  %p1 = getelementptr double, ptr %a, i64 1
  %a1 = load double, ptr %p1
  call i32 (ptr, ...) @printf(ptr @fmt, double %a0, double %a1)
  ret void
}

define i32 @main() {
  %w = load i32, ptr @enzyme_width
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %w, i32 2, ptr @x, ptr @dx0, ptr @dx1, ptr @y, ptr @dy0, ptr @dy1)
  call void @print(ptr @dx0)
  call void @print(ptr @dx1)
  call void @print(ptr @dy0)
  call void @print(ptr @dy1)
  call void @print(ptr @y)
  ret i32 0
}
