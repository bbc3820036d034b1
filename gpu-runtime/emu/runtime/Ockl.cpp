//===- Ockl.cpp - ROCm's ockl work-item functions on the host -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// HIP's device headers ask ockl for thread and block ids and sizes, wave
/// votes and device malloc, and the OpenCL builtin __atomic_work_item_fence
/// for the fences around __syncthreads.  The emulator keeps those calls (as
/// it keeps ocml's) and answers them from the running thread's state.
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <atomic>
#include <cstddef>

namespace {

uint32_t component(const uint32_t *V, uint32_t Dim) {
  return Dim < 3 ? V[Dim] : 0;
}
const gpuad_emu_thread_t &self() { return __gpuad_emu_thread; }

} // namespace

extern "C" {

size_t __ockl_get_local_id(uint32_t D) { return component(self().tid, D); }
size_t __ockl_get_group_id(uint32_t D) { return component(self().ctaid, D); }
size_t __ockl_get_local_size(uint32_t D) { return component(self().ntid, D); }
size_t __ockl_get_enqueued_local_size(uint32_t D) {
  return component(self().ntid, D);
}
size_t __ockl_get_num_groups(uint32_t D) { return component(self().nctaid, D); }
size_t __ockl_get_global_size(uint32_t D) {
  return size_t(component(self().ntid, D)) * component(self().nctaid, D);
}
size_t __ockl_get_global_id(uint32_t D) {
  return size_t(component(self().ntid, D)) * component(self().ctaid, D) +
         component(self().tid, D);
}
size_t __ockl_get_global_offset(uint32_t) { return 0; }
size_t __ockl_get_global_linear_id(void) {
  size_t X = __ockl_get_global_id(0), Y = __ockl_get_global_id(1),
         Z = __ockl_get_global_id(2);
  return (Z * __ockl_get_global_size(1) + Y) * __ockl_get_global_size(0) + X;
}
size_t __ockl_get_local_linear_id(void) {
  const gpuad_emu_thread_t &T = self();
  return (size_t(T.tid[2]) * T.ntid[1] + T.tid[1]) * T.ntid[0] + T.tid[0];
}
uint32_t __ockl_get_work_dim(void) { return 3; }

int32_t __ockl_wfany_i32(int32_t P) { return __gpuad_emu_vote64(1, P) != 0; }
int32_t __ockl_wfall_i32(int32_t P) { return __gpuad_emu_vote64(0, P) != 0; }
int32_t __ockl_wfsame_i32(int32_t P) {
  uint64_t Live = __gpuad_emu_vote64(3, 1);
  uint64_t Set = __gpuad_emu_vote64(3, P);
  return Set == 0 || Set == Live;
}
uint32_t __ockl_lane_u32(void) { return __gpuad_emu_laneid(); }
uint32_t __ockl_activelane_u32(void) {
  uint64_t Live = __gpuad_emu_vote64(3, 1);
  uint32_t Lane = __gpuad_emu_laneid();
  uint64_t Below = Lane >= 64 ? ~0ull : (uint64_t(1) << Lane) - 1;
  return uint32_t(__builtin_popcountll(Live & Below));
}

/// Twice the bytes: the device compile sized the block with AMDGPU's
/// 4-byte LDS and private pointers, which are 8 bytes on the host (a split
/// tape that holds shared-memory pointers, say).
void *__ockl_dm_alloc(uint64_t Size) { return __gpuad_emu_malloc(2 * Size); }
void __ockl_dm_dealloc(void *P) { __gpuad_emu_free(P); }

/// OpenCL's fence: the emulator's threads share one memory, so a full fence
/// is always enough.
void __atomic_work_item_fence(unsigned, int, int) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

} // extern "C"
