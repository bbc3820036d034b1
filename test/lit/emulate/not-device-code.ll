; gpuad-emulate retargets device code only; a host module is an error.
; RUN: not %opt -passes=gpuad-emulate -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: gpuad-emulate: the module is not NVPTX or AMDGPU device code

target triple = "x86_64-unknown-linux-gnu"

define void @f() {
  ret void
}

; The pass's parameters are the sanitizers it prepares device code for.
; RUN: not %opt -passes='gpuad-emulate<memory>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=PARAM
; PARAM: gpuad-emulate: unknown parameter 'memory' (expected thread or address)
