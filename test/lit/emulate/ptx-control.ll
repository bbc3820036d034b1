; The translator's structure: `{ }` scopes with `.reg` declarations (one
; stack slot each, the inner `x` hiding the outer), `$N` operands (outputs
; first; "+r" is an output tied to an input that starts it), a guarded
; instruction in a block of its own, labels as blocks and `bra` as a
; branch, and `r<2>` declaring r0 and r1.
; RUN: %opt -passes=gpuad-emulate %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %out, i32 %a, i32 %b) {
  %s = call i32 asm "{ .reg .u32 x; mov.u32 x, $1;\0A{ .reg .u32 x; mov.u32 x, $2; mov.u32 $0, x; }\0Aadd.u32 $0, $0, x; }", "=r,r,r"(i32 %a, i32 %b)
  store i32 %s, ptr %out
  %t = call i32 asm "add.u32 $0, $0, $1;", "=r,r,0"(i32 %b, i32 %a)
  store i32 %t, ptr %out
  %g = call i32 asm "{ .reg .pred p; setp.gt.u32 p, $1, $2; mov.u32 $0, 7; @!p mov.u32 $0, 9; }", "=r,r,r"(i32 %a, i32 %b)
  store i32 %g, ptr %out
  %l = call i32 asm "{ .reg .pred p; .reg .u32 r<2>; mov.u32 r0, 0; mov.u32 r1, 0;\0ALoop:\0Aadd.u32 r1, r1, r0; add.u32 r0, r0, 1; setp.lt.u32 p, r0, $1; @p bra Loop;\0Amov.u32 $0, r1; }", "=r,r"(i32 %a)
  store i32 %l, ptr %out
  ret void
}

; Scopes: $0 = b (the inner x), then $0 + the outer x (a).
; CHECK-LABEL: define internal i32 @gpuad.emu.ptx(i32 %0, i32 %1)
; CHECK-DAG: %x = alloca i32
; CHECK-DAG: %x1 = alloca i32
; CHECK: store i32 %{{.*}}, ptr %x,
; CHECK: store i32 %{{.*}}, ptr %x1,
; CHECK: load i32, ptr %x1,
; CHECK: load i32, ptr %x,

; The tied input starts $0 (its output): $0 = a, then a + b.
; CHECK-LABEL: define internal i32 @gpuad.emu.ptx1(i32 %0, i32 %1)
; CHECK: store i32 %1, ptr %"$2"
; CHECK: store i32 %1, ptr %"$0"

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx2(
; CHECK: %[[P:[0-9]+]] = icmp ugt i32
; CHECK: %[[NOTP:[0-9]+]] = xor i1 %{{[0-9]+}}, true
; CHECK: br i1 %[[NOTP]], label %ptx.guarded, label %ptx.join
; CHECK: ptx.guarded:
; CHECK-NEXT: store i32 9, ptr %"$0"
; CHECK-NEXT: br label %ptx.join

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx3(
; CHECK-DAG: %r0 = alloca i32
; CHECK-DAG: %r1 = alloca i32
; CHECK: br label %Loop
; CHECK: Loop:
; CHECK: br i1 %{{.*}}, label %ptx.guarded, label %ptx.join
; CHECK: ptx.guarded:
; CHECK-NEXT: br label %Loop
