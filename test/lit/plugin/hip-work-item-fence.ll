; ROCm 5.2's HIP headers implement __syncthreads() and __threadfence*() with
; OpenCL's __atomic_work_item_fence, which no Debian device library defines:
; at PipelineStart gpuad gives the declaration a body (the fence of the
; C11 order at the AMDGPU scope of the OpenCL memory scope), so HIP programs
; link.  Host and NVPTX modules, and definitions, are left alone.
;
; RUN: %opt -passes='default<O1>' -S %s | FileCheck %s
; RUN: sed -e 's/amdgcn-amd-amdhsa/x86_64-unknown-linux-gnu/' %s | %opt -passes='default<O1>' -S | FileCheck %s --check-prefix=HOST

target triple = "amdgcn-amd-amdhsa"

declare void @__atomic_work_item_fence(i32, i32, i32)

; __syncthreads: seq_cst at work-group scope (1), around the barrier.
; CHECK-LABEL: define {{.*}}void @sync
; CHECK: fence syncscope("workgroup") seq_cst
; CHECK-NEXT: tail call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT: fence syncscope("workgroup") seq_cst
; CHECK-NOT: __atomic_work_item_fence
define void @sync() {
  call void @__atomic_work_item_fence(i32 1, i32 5, i32 1)
  call void @llvm.amdgcn.s.barrier()
  call void @__atomic_work_item_fence(i32 1, i32 5, i32 1)
  ret void
}

; __threadfence: device scope (2) is the agent; __threadfence_system (3)
; the system; release and acquire keep their order; relaxed is no fence.
; CHECK-LABEL: define {{.*}}void @fences
; CHECK: fence syncscope("agent") seq_cst
; CHECK-NEXT: fence seq_cst
; CHECK-NEXT: fence syncscope("workgroup") release
; CHECK-NEXT: fence syncscope("agent") acquire
; CHECK-NEXT: ret void
define void @fences() {
  call void @__atomic_work_item_fence(i32 0, i32 5, i32 2)
  call void @__atomic_work_item_fence(i32 0, i32 5, i32 3)
  call void @__atomic_work_item_fence(i32 0, i32 3, i32 1)
  call void @__atomic_work_item_fence(i32 0, i32 2, i32 2)
  call void @__atomic_work_item_fence(i32 0, i32 0, i32 2)
  ret void
}

; HOST: declare void @__atomic_work_item_fence(i32, i32, i32)

declare void @llvm.amdgcn.s.barrier()
