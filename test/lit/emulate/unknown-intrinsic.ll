; The retarget pass names a target intrinsic it cannot run on the host
; instead of leaving it for the host backend (where it would not select).
; RUN: not %opt -passes=gpuad-emulate -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: gpuad-emulate: the emulator does not know the intrinsic 'llvm.nvvm.mbarrier.init.shared' (in 'k')

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)

@bar = internal addrspace(3) global i64 undef

define ptx_kernel void @k() {
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 32)
  ret void
}
