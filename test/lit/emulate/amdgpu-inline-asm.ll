; AMDGPU inline assembly is not translated: an error names the instruction
; and the function (assembly that is only a comment is kept as its input).
; RUN: not %opt -passes=gpuad-emulate -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: gpuad-emulate: inline assembly 's_sleep 1' in 'k' cannot run on the emulator (it is GPU machine code; the emulator runs device IR): use the HIP intrinsic instead

target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %v) {
  %kept = call i32 asm "; ballot hoisting hack", "=v,0"(i32 %v)
  store i32 %kept, ptr addrspace(1) %out
  call void asm sideeffect "s_sleep 1", ""()
  ret void
}
