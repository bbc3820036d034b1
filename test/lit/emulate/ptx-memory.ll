; Inline PTX loads, stores and atomics become host memory operations of the
; same order: a relaxed 16-byte pair goes through the runtime (single-copy
; atomic, after a check of its bounds), an acquire load is an acquire atomic
; load, a release store a release atomic store, atom.add.f32 an atomicrmw
; fadd and atom.cas a cmpxchg; strong loads let other threads run first.
; Each distinct asm becomes one always-inline function of the call's type.
; RUN: %opt -passes=gpuad-emulate %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @k(
; CHECK: call { i64, i64 } @gpuad.emu.ptx(ptr %p)
; CHECK: call i32 @gpuad.emu.ptx1(ptr %p)
; CHECK: call i32 @gpuad.emu.ptx1(ptr %q)
define ptx_kernel void @k(ptr %p, ptr %q) {
  %a = call { i64, i64 } asm sideeffect "ld.relaxed.gpu.v2.u64 {$0, $1}, [$2];", "=l,=l,l,~{memory}"(ptr %p)
  %b = call i32 asm sideeffect "ld.acquire.gpu.b32 $0,[$1];", "=r,l,~{memory}"(ptr %p)
  %b2 = call i32 asm sideeffect "ld.acquire.gpu.b32 $0,[$1];", "=r,l,~{memory}"(ptr %q)
  call void asm sideeffect "st.release.gpu.b32 [$0],$1;", "l,r,~{memory}"(ptr %q, i32 %b)
  %c = call float asm sideeffect "atom.add.acquire.cta.f32 $0,[$1],$2;", "=f,l,f,~{memory}"(ptr %q, float 1.0)
  %d = call i64 asm sideeffect "atom.cas.acquire.gpu.b64 $0,[$1],$2,$3;", "=l,l,l,l,~{memory}"(ptr %q, i64 1, i64 2)
  call void asm sideeffect "red.release.gpu.global.add.u32 [$0+8], 3;", "l,~{memory}"(ptr %q)
  %e = call i32 asm sideeffect "ld.global.nc.s8 $0, [$1+2];", "=r,l"(ptr %p)
  ret void
}

; CHECK: define internal { i64, i64 } @gpuad.emu.ptx(ptr %0) #[[ATTRS:[0-9]+]]
; CHECK: call void @__gpuad_emu_yield()
; CHECK: call void @__gpuad_emu_check(ptr %{{.*}}, i64 16, i32 0)
; CHECK: call i128 @__gpuad_emu_load16(

; CHECK: define internal i32 @gpuad.emu.ptx1(
; CHECK: load atomic i32, ptr %{{.*}} acquire, align 4

; CHECK: define internal void @gpuad.emu.ptx2(
; CHECK: store atomic i32 %{{.*}}, ptr %{{.*}} release, align 4

; CHECK: define internal float @gpuad.emu.ptx3(
; CHECK: atomicrmw fadd ptr %{{.*}}, float %{{.*}} acquire, align 4

; CHECK: define internal i64 @gpuad.emu.ptx4(
; CHECK: cmpxchg ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}} acquire acquire, align 8

; CHECK: define internal void @gpuad.emu.ptx5(
; CHECK: %[[AT:[0-9]+]] = getelementptr i8, ptr %0, i64 8
; CHECK: atomicrmw add ptr %[[AT]], i32 3 release, align 4

; A signed byte, sign-extended into the 32-bit register.
; CHECK: define internal i32 @gpuad.emu.ptx6(
; CHECK: %[[BYTE:[0-9]+]] = load i8, ptr %{{.*}}, align 1
; CHECK: sext i8 %{{[0-9]+}} to i32

; CHECK: attributes #[[ATTRS]] = { alwaysinline convergent nounwind }
