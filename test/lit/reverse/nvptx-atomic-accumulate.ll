; On a GPU, reverse mode adds adjoints into shadow memory other threads may
; be adding to as well, so those adds are atomic (atomicrmw fadd, device
; scope) -- here x[0], read by every thread, and x[threadIdx.x], which the
; threads of different blocks share.  Memory only this thread touches is
; accumulated with a plain load / fadd / store: a local array (alloca, read
; with a thread-dependent index so it stays in memory) and y[gid], gid =
; blockIdx.x * blockDim.x + threadIdx.x, the thread's own slot.  gpuad
; inlines derivatives on GPU targets, so the code is in the kernel @k.
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s
; RUN: %opt -passes='gpuad<no-cleanup>' -S %s | FileCheck %s --check-prefix=ATOM

target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @__enzyme_autodiff(ptr, ...)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; t = { x[tid], y[gid] };  out[gid] = t[tid & 1] * x[0]
define void @f(ptr noalias %x, ptr noalias %y, ptr noalias %out) {
  %t = alloca [2 x double]
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %bid, %bdim
  %g = add i32 %b, %tid
  %gi = zext i32 %g to i64
  %i = zext i32 %tid to i64
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %px
  %x0 = load double, ptr %x
  %py = getelementptr inbounds double, ptr %y, i64 %gi
  %yg = load double, ptr %py
  store double %xi, ptr %t
  %t1 = getelementptr inbounds double, ptr %t, i64 1
  store double %yg, ptr %t1
  %j = and i64 %i, 1
  %pt = getelementptr inbounds double, ptr %t, i64 %j
  %tv = load double, ptr %pt
  %m = fmul double %tv, %x0
  %po = getelementptr inbounds double, ptr %out, i64 %gi
  store double %m, ptr %po
  ret void
}

define ptx_kernel void @k(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %out, ptr %dout)
  ret void
}

; Three atomic adds in the module, for the two shared reads of x: x[0]'s
; address may be the same in every lane (it does not depend on the thread
; id), so when the whole warp is active and a vote finds it the same in
; every lane, the warp sums its adjoints and lane 0 adds once (one atomic),
; else each lane adds (the other); x[tid] is added by each thread.
; ATOM-COUNT-3: atomicrmw fadd
; ATOM-NOT:     atomicrmw

; CHECK-LABEL: define ptx_kernel void @k(
; The local array's shadow is a local too, zeroed.
; CHECK:         alloca [2 x double]
; CHECK-NEXT:    [[TD:%.*]] = alloca [2 x double]
; CHECK:         call void @llvm.memset.p0.i64(ptr align 8 [[TD]], i8 0, i64 16, i1 false)
; CHECK:         [[TID:%.*]] = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK:         [[I:%.*]] = zext i32 [[TID]] to i64
; CHECK:         [[PXD:%.*]] = getelementptr inbounds double, ptr %dx, i64 [[I]]
; CHECK:         [[PYD:%.*]] = getelementptr inbounds double, ptr %dy, i64 [[GI:%.*]]
; CHECK:         [[J:%.*]] = and i64 [[I]], 1
; CHECK:         [[PTD:%.*]] = getelementptr inbounds double, ptr [[TD]], i64 [[J]]
; Reverse of the load of t[tid & 1]: plain.
; CHECK:         [[A0:%.*]] = load double, ptr [[PTD]]
; CHECK-NEXT:    [[A1:%.*]] = fadd double [[A0]], [[TVD:%.*]]
; CHECK-NEXT:    store double [[A1]], ptr [[PTD]]
; Reverse of the load of y[gid]: plain.
; CHECK:         [[B0:%.*]] = load double, ptr [[PYD]]
; CHECK-NEXT:    [[B1:%.*]] = fadd double [[B0]], [[YGD:%.*]]
; CHECK-NEXT:    store double [[B1]], ptr [[PYD]]
; Reverse of the loads of x[0] (warp-aggregated) and x[tid]: atomic.
; CHECK:         [[ACTIVE:%.*]] = call i32 @llvm.nvvm.activemask()
; CHECK-NEXT:    [[WHOLE:%.*]] = icmp eq i32 [[ACTIVE]], -1
; CHECK-NEXT:    br i1 [[WHOLE]], label %gpuad.acc.check{{.*}}, label %gpuad.acc.each
; CHECK:       gpuad.acc.check{{.*}}:
; CHECK:         call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 -1, i32 {{%.*}}, i32 0, i32 31)
; CHECK:         [[SAME:%.*]] = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 {{%.*}})
; CHECK-NEXT:    br i1 [[SAME]], label %gpuad.acc.warp{{.*}}, label %gpuad.acc.each
; CHECK:       gpuad.acc.warp{{.*}}:
; CHECK:         call { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32 -1, i32 {{%.*}}, i32 16, i32 31)
; CHECK:         call { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32 -1, i32 {{%.*}}, i32 1, i32 31)
; CHECK:         call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK:       gpuad.acc.leader{{.*}}:
; CHECK-NEXT:    atomicrmw fadd ptr %dx, double {{%.*}} syncscope("device") monotonic
; CHECK:       gpuad.acc.each{{.*}}:
; CHECK-NEXT:    atomicrmw fadd ptr %dx, double {{%.*}} syncscope("device") monotonic
; CHECK:         atomicrmw fadd ptr [[PXD]], double {{%.*}} syncscope("device") monotonic
; CHECK:         ret void
