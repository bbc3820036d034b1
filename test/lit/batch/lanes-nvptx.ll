; A width-4 forward request in an NVPTX kernel, mapped onto lanes: the
; kernel computes each lane's group (4 lanes from a multiple of 4), checks
; that the group is active, then runs 4 rounds in which every lane reads the
; served thread's arguments from it (shfl.sync.idx with the group's mask)
; and calls the width-1 lane variant.  In the variant the primal atomic
; runs in the leader lane alone, between two meetings of the group
; (bar.warp.sync), and its result is read from the leader; the plain
; primal store is preceded by a meeting; the shadow store is not.
; batch-mapping=vector keeps the vector form; a bad value is rejected.
; RUN: %opt -passes='gpuad<batch-mapping=lanes>' -S %s | FileCheck %s
; RUN: %opt -passes='gpuad<batch-mapping=vector>' -S %s | FileCheck %s --check-prefix=VECTOR
; RUN: not %opt -passes='gpuad<batch-mapping=wide>' -S %s 2>&1 | FileCheck %s --check-prefix=BAD

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@enzyme_width = external addrspace(1) global i32
@enzyme_dupv = external addrspace(1) global i32
@enzyme_const = external addrspace(1) global i32

declare void @__enzyme_fwddiff(ptr, ...)

; y[slot] = x[0] * x[1], slot = atomicAdd(count, 1)
define void @f(ptr noalias %x, ptr noalias %y, ptr %count) {
  %slot = atomicrmw add ptr %count, i32 1 syncscope("device") monotonic
  %x0 = load double, ptr %x
  %p1 = getelementptr double, ptr %x, i64 1
  %x1 = load double, ptr %p1
  %m = fmul double %x0, %x1
  %i = zext i32 %slot to i64
  %dst = getelementptr double, ptr %y, i64 %i
  store double %m, ptr %dst
  ret void
}

define ptx_kernel void @k(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %count) {
  %w = load i32, ptr addrspace(1) @enzyme_width
  %dv = load i32, ptr addrspace(1) @enzyme_dupv
  %c = load i32, ptr addrspace(1) @enzyme_const
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 4, i32 %dv, i64 16, ptr %x, ptr %dx, i32 %dv, i64 8, ptr %y, ptr %dy, i32 %c, ptr %count)
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK:         [[LANE:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK:         udiv i32 [[LANE]], 4
; CHECK:         call i32 @llvm.nvvm.activemask()
; CHECK:       lanes.round:
; CHECK:         call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(
; CHECK:         call void @f.fwd.ddc.lanes(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i64 {{.*}}, i32 {{.*}})

; CHECK-LABEL: define internal void @f.fwd.ddc.lanes(
; CHECK:         call void @llvm.nvvm.bar.warp.sync(
; CHECK:         [[LEAD:%.*]] = icmp eq i32 {{.*}}, %lanes.leader
; CHECK-NEXT:    br i1 [[LEAD]]
; CHECK:         atomicrmw add ptr %count, i32 1
; CHECK:         call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 {{.*}}, i32 {{.*}}, i32 %lanes.leader, i32 31)
; CHECK:         call void @llvm.nvvm.bar.warp.sync(
; CHECK:         call void @llvm.nvvm.bar.warp.sync(
; CHECK-NEXT:    store double {{.*}}, ptr %dst
; CHECK-NOT:     bar.warp.sync
; CHECK:         ret void

; VECTOR-LABEL: define ptx_kernel void @k(
; VECTOR-NOT:    laneid
; VECTOR:        atomicrmw add ptr %count
; VECTOR-NOT:    shfl.sync
; VECTOR:        ret void

; BAD: invalid gpuad pass parameter 'batch-mapping=wide'
