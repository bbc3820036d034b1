; A recursive function: the size of its tape is unbounded (one per level),
; so its augmented half allocates the tape on the heap and returns the
; pointer; each caller keeps the callee's pointer in its own tape, and the
; backward half loads its tape through the pointer, frees it, and passes the
; pointer it holds to the recursive backward call.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | lli | FileCheck %s --check-prefix=EXEC --match-full-lines

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)

@fmt = private constant [6 x i8] c"%.6f\0A\00"

; g(x, 0) = x;  g(x, n) = sin(g(x, n - 1)) * x
define double @g(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double %x
rec:
  %n1 = sub i32 %n, 1
  %r = call double @g(double %x, i32 %n1)
  %s = call double @llvm.sin.f64(double %r)
  %m = fmul double %s, %x
  ret double %m
}

; The entry derivative: the recursive call's halves, the tape as a pointer.
; CHECK-LABEL: define internal double @g.rev.ac.dret(double %x, i32 %n)
; CHECK:         [[AUG:%.*]] = call { ptr, double } @g.aug.ac.dret.pret(double %x, i32 %n1)
; CHECK:         [[TP:%.*]] = extractvalue { ptr, double } [[AUG]], 0
; CHECK-NEXT:    store ptr [[TP]], ptr [[SLOT:%.*]], align 8
; CHECK:         [[TP2:%.*]] = load ptr, ptr [[SLOT]]
; CHECK-NEXT:    call double @g.bwd.ac.dret.pret(double %x, i32 %n1.re, double {{%.*}}, ptr [[TP2]])

; The augmented half boxes its tape (holding the child's tape pointer).
; CHECK-LABEL: define internal { ptr, double } @g.aug.ac.dret.pret(double %0, i32 %1)
; CHECK:         [[BOX:%.*]] = call ptr @malloc(i64 {{[0-9]+}})
; CHECK-NEXT:    store { {{.*}}ptr{{.*}} } {{%.*}}, ptr [[BOX]]
; CHECK-NEXT:    [[RET:%.*]] = insertvalue { ptr, double } poison, ptr [[BOX]], 0
; CHECK:         call { ptr, double } @g.aug.ac.dret.pret(double %0, i32 %n1)

; The backward half unboxes, frees, and recurses with the child's pointer.
; CHECK-LABEL: define internal double @g.bwd.ac.dret.pret(double %0, i32 %1, double %2, ptr %3)
; CHECK-NEXT:  tape:
; CHECK-NEXT:    [[T:%.*]] = load { {{.*}} }, ptr %3
; CHECK-NEXT:    call void @free(ptr %3)
; CHECK-DAG:     call double @g.bwd.ac.dret.pret(double %0, i32 %n1.re, double {{%.*}}, ptr [[CHILD:%[^)]*]])
; CHECK-DAG:     [[CHILD]] = extractvalue { {{.*}} } [[T]], {{[0-9]+}}

; g_k' = cos(g_{k-1}) g_{k-1}' x + sin(g_{k-1}),  g_0 = x, g_0' = 1.  x = 0.9:
;   k = 1: g = 0.7049942187, g' = cos(0.9) 0.9 + sin(0.9)            = 1.3427758811
;   k = 2: g = 0.5832264838, g' = cos(g_1) 1.3427758811 0.9 + sin(g_1) = 1.5684402142
;   k = 3: g = 0.4956479215, g' = cos(g_2) 1.5684402142 0.9 + sin(g_2) = 1.7289652925
; EXEC: 1.728965
define i32 @main() {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double 0.9, i32 3)
  call i32 (ptr, ...) @printf(ptr @fmt, double %d)
  ret i32 0
}
