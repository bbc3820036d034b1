; A loop with a constant trip count (8) keeps its frames at a fixed offset
; of one per-thread region -- an alloca, no malloc -- and print<gpuad-tape>
; says so; tape-placement=heap gives back the heap array sized at entry.
; (The GPU placements, shared slots, thread-local memory and the pool, are
; test/device/tape-placement.cu and .hip.)
; RUN: %opt -passes='print<gpuad-tape>' -disable-output %s | FileCheck %s
; RUN: %opt -passes=gpuad -S %s | FileCheck %s --check-prefix=IR
; RUN: %opt -passes='gpuad<tape-placement=heap>' -S %s | FileCheck %s --check-prefix=HEAP
; CHECK-LABEL: tape of 'prod' (combined
; CHECK-NEXT:    slots: 0 B
; CHECK-NEXT:    region: 64 B per thread in thread-local memory
; CHECK-NEXT:    frame of loop %bb1: 8 B per iteration, fixed at +0 of the region (8 frames)
; CHECK-NEXT:      +0 %.067: double, a loop-carried value
; IR-LABEL: define internal {{.*}} @prod.rev
; IR: alloca [8 x i64], align 16
; IR-NOT: @malloc
; IR-NOT: @free
; IR: ret
; HEAP-LABEL: define internal {{.*}} @prod.rev
; HEAP: call ptr @malloc(i64 64)
; HEAP: call void @free(

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @prod(ptr noundef %arg) {
bb:
  br label %bb1

bb1:                                              ; preds = %bb1, %bb
  %.08 = phi i32 [ 0, %bb ], [ %i6, %bb1 ]
  %.067 = phi double [ 1.000000e+00, %bb ], [ %i5, %bb1 ]
  %i = zext nneg i32 %.08 to i64
  %i2 = getelementptr inbounds nuw double, ptr %arg, i64 %i
  %i3 = load double, ptr %i2, align 8
  %i4 = fmul double %.067, 5.000000e-01
  %i5 = call double @llvm.fmuladd.f64(double %.067, double %i3, double %i4)
  %i6 = add nuw nsw i32 %.08, 1
  %i7 = icmp samesign ult i32 %i6, 8
  br i1 %i7, label %bb1, label %bb8

bb8:                                              ; preds = %bb1
  %.06.lcssa = phi double [ %i5, %bb1 ]
  ret double %.06.lcssa
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

declare double @llvm.fmuladd.f64(double, double, double)

declare void @llvm.lifetime.end.p0(ptr captures(none))

define void @grad(ptr noundef %arg, ptr noundef %arg1) {
bb:
  call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @prod, ptr noundef %arg, ptr noundef %arg1)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...)

