; What the PTX translator cannot run is an error naming the function, the
; statement and why: an instruction it does not know, a modifier its rule
; does not accept, an undeclared register, a label never defined,
; unbalanced braces, text it cannot parse, a named barrier with a thread
; count.  (One module per case: the first error stops opt.)
; RUN: split-file %s %t
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/unknown.ll 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/modifier.ll 2>&1 | FileCheck %s --check-prefix=MODIFIER
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/undeclared.ll 2>&1 | FileCheck %s --check-prefix=UNDECLARED
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/label.ll 2>&1 | FileCheck %s --check-prefix=LABEL
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/braces.ll 2>&1 | FileCheck %s --check-prefix=BRACES
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/syntax.ll 2>&1 | FileCheck %s --check-prefix=SYNTAX
; RUN: not %opt -passes=gpuad-emulate -disable-output %t/named.ll 2>&1 | FileCheck %s --check-prefix=NAMED
; UNKNOWN: error: gpuad-emulate: inline PTX in 'unknown' cannot run on the emulator: 'wgmma.fence.sync.aligned': the emulator does not know the instruction 'wgmma.fence.sync.aligned'
; MODIFIER: error: gpuad-emulate: inline PTX in 'modifier' cannot run on the emulator: 'add.cc.u32 $0, $1, $2': the modifier '.cc' is not supported
; UNDECLARED: error: gpuad-emulate: inline PTX in 'undeclared' cannot run on the emulator: 'add.u32 $0, q, 1': the register 'q' is not declared
; LABEL: error: gpuad-emulate: inline PTX in 'label' cannot run on the emulator: the label 'Nowhere' is never defined
; BRACES: error: gpuad-emulate: inline PTX in 'braces' cannot run on the emulator: a '}' without its '{'
; SYNTAX: error: gpuad-emulate: inline PTX in 'syntax' cannot run on the emulator: cannot parse the address offset in '[$0 + ]' in 'ld.u32 $0, [$0 + ]'
; NAMED: error: gpuad-emulate: inline PTX in 'named' cannot run on the emulator: 'bar.sync 1, 64': a barrier with a thread count (named barriers for part of a block)

;--- unknown.ll
target triple = "nvptx64-nvidia-cuda"
define void @unknown(ptr %p) {
  %r = call i32 asm sideeffect "{ .reg .pred p; setp.ne.u32 p, $1, 0; wgmma.fence.sync.aligned; selp.u32 $0, 1, 0, p; }", "=r,r"(i32 1)
  ret void
}

;--- modifier.ll
target triple = "nvptx64-nvidia-cuda"
define void @modifier() {
  %r = call i32 asm "add.cc.u32 $0, $1, $2;", "=r,r,r"(i32 1, i32 2)
  ret void
}

;--- undeclared.ll
target triple = "nvptx64-nvidia-cuda"
define void @undeclared() {
  %r = call i32 asm "add.u32 $0, q, 1;", "=r"()
  ret void
}

;--- label.ll
target triple = "nvptx64-nvidia-cuda"
define void @label() {
  call void asm sideeffect "bra Nowhere;", ""()
  ret void
}

;--- braces.ll
target triple = "nvptx64-nvidia-cuda"
define void @braces() {
  call void asm sideeffect "membar.gl; }", ""()
  ret void
}

;--- syntax.ll
target triple = "nvptx64-nvidia-cuda"
define void @syntax() {
  %r = call i32 asm "ld.u32 $0, [$0 + ];", "=r"()
  ret void
}

;--- named.ll
target triple = "nvptx64-nvidia-cuda"
define void @named() {
  call void asm sideeffect "bar.sync 1, 64;", ""()
  ret void
}
