; Inline PTX of threads and warps becomes the NVVM intrinsic CUDA would
; have used, so it runs on the emulator's scheduler as the intrinsic does:
; shfl.sync (with its `d|p` predicate), vote.sync, match, redux, special
; registers (%laneid, %lanemask_*, %clock64, %reserved_smem_offset_*),
; bar.sync, nanosleep (a yield) and exit.
; RUN: %opt -passes=gpuad-emulate %s -S | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; The reserved array is laid out with the static shared data (1 KiB).
; CHECK: @emu.module = internal constant {{.*}} i64 1024, i32 0 }

define ptx_kernel void @k(ptr %out, i32 %v) {
  %s = call i32 asm sideeffect "{ .reg .u32 r0; .reg .pred p; shfl.sync.up.b32 r0|p, $1, 1, 0, -1; @p add.u32 r0, r0, $1; mov.u32 $0, r0; }", "=r,r"(i32 %v)
  store i32 %s, ptr %out
  %b = call i32 asm "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.ballot.sync.b32 $0, p, 0xffffffff; }", "=r,r"(i32 %v)
  store i32 %b, ptr %out
  %m = call i32 asm "match.any.sync.b64 $0, $1, $2;", "=r,l,r"(i64 7, i32 -1)
  store i32 %m, ptr %out
  %r = call i32 asm "redux.sync.max.s32 $0, $1, $2;", "=r,r,r"(i32 %v, i32 -1)
  store i32 %r, ptr %out
  %lt = call i32 asm "mov.u32 $0, %lanemask_lt;", "=r"()
  store i32 %lt, ptr %out
  %c = call i64 asm sideeffect "mov.u64 $0, %clock64;", "=l"()
  store i64 %c, ptr %out
  %smem = call i64 asm "{ .reg .u32 start; .reg .u64 extended; mov.u32 start, %reserved_smem_offset_1; cvt.u64.u32 extended, start; cvta.shared.u64 $0, extended; }", "=l"()
  store i64 %smem, ptr %out
  call void asm sideeffect "bar.sync 0;", "~{memory}"()
  call void asm sideeffect "nanosleep.u32 $0;", "r"(i32 100)
  call void asm sideeffect "exit;", ""()
  ret void
}

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx(
; CHECK: %[[S:[0-9]+]] = call i32 @__gpuad_emu_shfl(i32 1, i32 -1,
; CHECK: %[[IN:[0-9]+]] = call i32 @__gpuad_emu_shfl_in_range(i32 1, i32 1, i32 0)
; CHECK: br i1 %{{[0-9]+}}, label %ptx.guarded, label %ptx.join

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx1(
; CHECK: call i32 @__gpuad_emu_vote(i32 3, i32 -1, i32 %{{[0-9]+}})

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx2(
; CHECK: call i32 @__gpuad_emu_match(i32 0, i32 %{{[0-9]+}}, i64 %{{[0-9]+}})

; CHECK-LABEL: define internal i32 @gpuad.emu.ptx3(
; CHECK: call i32 @__gpuad_emu_redux(i32 2, i32 %{{[0-9]+}}, i32 %{{[0-9]+}})

; lanemask_lt: (1 << lane) - 1.
; CHECK-LABEL: define internal i32 @gpuad.emu.ptx4(
; CHECK: %[[LANE:[0-9]+]] = call i32 @__gpuad_emu_laneid()
; CHECK: %[[EQ:[0-9]+]] = shl i32 1, %[[LANE]]
; CHECK: sub i32 %[[EQ]], 1

; CHECK-LABEL: define internal i64 @gpuad.emu.ptx5(
; CHECK: call i64 @__gpuad_emu_clock64()

; The reserved shared memory is a __shared__ array of the module's: an
; offset from the block's shared base, widened in the shared window.
; CHECK-LABEL: define internal i64 @gpuad.emu.ptx6(
; CHECK: call ptr @llvm.threadlocal.address.p0(ptr @__gpuad_emu_thread)
; CHECK: and i64 %{{[0-9]+}}, -4294967296

; CHECK-LABEL: define internal void @gpuad.emu.ptx7(
; CHECK: call void @__gpuad_emu_syncthreads(i32

; CHECK-LABEL: define internal void @gpuad.emu.ptx8(
; CHECK: call void @__gpuad_emu_yield()

; CHECK-LABEL: define internal void @gpuad.emu.ptx9(
; CHECK: call void @__gpuad_emu_exit()

