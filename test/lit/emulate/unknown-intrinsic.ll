; The retarget pass names a target intrinsic it cannot run on the host
; instead of leaving it for the host backend (where it would not select).
; RUN: not %opt -passes=gpuad-emulate -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: gpuad-emulate: the emulator does not know the intrinsic 'llvm.nvvm.nanosleep' (in 'k')

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.nanosleep(i32)

define ptx_kernel void @k() {
  call void @llvm.nvvm.nanosleep(i32 100)
  ret void
}
