//===- Launch.cpp - Running a kernel's blocks and threads -----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A launch runs its blocks one after the other.  A block's threads run
///   - as fibers on the calling OS thread (GPUAD_EMU_SCHEDULE=ordered, the
///     default: thread order; =shuffled: an order shuffled per launch, from
///     GPUAD_EMU_SEED), switching only where they wait for each other; or
///   - as OS threads, truly at the same time (=concurrent), so a missing
///     atomic shows up as a wrong result or a sanitizer report.
/// A barrier releases when every thread of the block that has not exited
/// has arrived, at the same barrier: threads waiting at different
/// __syncthreads calls are a divergent barrier, and threads waiting for
/// each other forever (a barrier against a warp operation) a deadlock --
/// both errors naming the kernel, not hangs.  Warp shuffles and votes wait
/// for the lanes named in their mask that have not exited.
//===----------------------------------------------------------------------===//

#include "FiberSanitizer.h"
#include "Runtime.h"

#include <cxxabi.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern "C" void gpuad_emu_switch(void **From, void *To);
extern "C" void gpuad_emu_fiber_start();

__thread gpuad_emu_thread_t __gpuad_emu_thread;

namespace gpuad::emu {
namespace {

enum class Schedule { Ordered, Shuffled, Concurrent };

Schedule scheduleFromEnv() {
  const char *S = getenv("GPUAD_EMU_SCHEDULE");
  if (!S || !strcmp(S, "ordered"))
    return Schedule::Ordered;
  if (!strcmp(S, "shuffled"))
    return Schedule::Shuffled;
  if (!strcmp(S, "concurrent"))
    return Schedule::Concurrent;
  fprintf(stderr,
          "gpuad-emu: unknown GPUAD_EMU_SCHEDULE '%s' (ordered, "
          "shuffled, concurrent)\n",
          S);
  exit(2);
}

size_t stackBytes() {
  const char *S = getenv("GPUAD_EMU_STACK_KB");
  size_t KB = S ? strtoul(S, nullptr, 10) : 256;
  return (KB ? KB : 256) * 1024;
}

enum class Wait { Running, Barrier, Warp, Done };

struct Block;

/// One GPU thread.
struct Thread {
  gpuad_emu_thread_t Regs{};
  uint32_t Linear = 0; // linear index in the block
  uint32_t Lane = 0, WarpIndex = 0;
  Wait State = Wait::Running;
  uint32_t WaitGen = 0;      // generation of the barrier waited for
  int64_t WarpResult = 0;    // this lane's result of its last warp operation
  void *SP = nullptr;        // fibers: saved stack pointer
  void *FakeStack = nullptr; // fibers: ASan's fake stack while switched out
  char *StackLo = nullptr, *StackHi = nullptr;
  void *OuterFrame = nullptr; // runThreadBody's frame: the walk stops there
  Block *Owner = nullptr;
  jmp_buf Exit; // PTX exit returns here, to runThreadBody
};

/// Where a lane is in the program: the return addresses of its call chain,
/// outermost first (device code and the runtime keep frame pointers).
using ProgramPoint = std::vector<uintptr_t>;

/// Lanes meeting in one shuffle or vote.  NVPTX names them with a mask:
/// lanes with disjoint masks (the halves of a diverged warp) meet
/// separately.  An AMDGPU wavefront has no masks: the lanes that reach the
/// same program point are its active lanes, the others having diverged.
struct Gathering {
  uint64_t Arrived = 0, Mask = 0;
  bool ByPoint = false; // AMDGPU, and NVPTX's activemask: lanes that meet
  ProgramPoint Where;   //   at this program point
  int32_t Kind = 0, C = 0;
  int64_t In[64] = {}, Arg[64] = {};
};

/// A warp: its live lanes and the warp operations gathering now.
struct WarpSync {
  uint64_t Live = 0; // lanes that have not exited
  std::vector<Gathering> Open;
};

/// The threads of one block and what they wait on.
struct Block {
  std::vector<Thread> Threads;
  std::vector<WarpSync> Warps;
  uint32_t WarpSize = 32;
  uint32_t Live = 0;
  // The barrier being gathered.
  uint32_t Arrived = 0, BarrierSite = 0, BarrierGen = 0;
  int32_t ReduceOp = -1, ReduceAcc = 0, ReduceResult[2] = {};
  bool Concurrent = false;
  std::mutex M;
  std::condition_variable CV;
};

thread_local Thread *Current = nullptr;
thread_local void *SchedulerSP = nullptr;
// The scheduler's stack and ASan fake stack, for switches back to it.
thread_local void *SchedulerFakeStack = nullptr;
thread_local const void *SchedulerBottom = nullptr;
thread_local size_t SchedulerSize = 0;
std::string CurrentKernel;
/// The running launch's AMDGPU hidden arguments and dispatch packet.
const void *CurrentImplicit = nullptr, *CurrentDispatch = nullptr;

[[noreturn]] void deadlock(Block &B);

/// Whether every thread that has not exited waits (OS threads: nobody is
/// left to release them; fibers find this in the scheduler).
bool allWaiting(const Block &B) {
  for (const Thread &T : B.Threads)
    if (T.State == Wait::Running)
      return false;
  return B.Live > 0;
}

/// Switches from fiber \p T to the scheduler until it resumes \p T.
void switchToScheduler(Thread &T) {
  beforeStackSwitch(&T.FakeStack, SchedulerBottom, SchedulerSize);
  gpuad_emu_switch(&T.SP, SchedulerSP);
  afterStackSwitch(T.FakeStack, &SchedulerBottom, &SchedulerSize);
  __gpuad_emu_thread = T.Regs;
}

/// Gives up the OS thread until the scheduler resumes this fiber (fibers)
/// or waits until the state changes (OS threads, lock held).
void waitUntilReleased(Thread &T, std::unique_lock<std::mutex> *Lock) {
  if (!T.Owner->Concurrent) {
    switchToScheduler(T);
    return;
  }
  if (allWaiting(*T.Owner))
    deadlock(*T.Owner);
  T.Owner->CV.wait(*Lock, [&] { return T.State == Wait::Running; });
}

void releaseBarrier(Block &B) {
  if (B.ReduceOp >= 0)
    B.ReduceResult[B.BarrierGen & 1] = B.ReduceAcc;
  ++B.BarrierGen;
  B.Arrived = 0;
  B.ReduceOp = -1;
  B.ReduceAcc = 0;
  for (Thread &T : B.Threads)
    if (T.State == Wait::Barrier)
      T.State = Wait::Running;
  if (B.Concurrent)
    B.CV.notify_all();
}

/// Finishes the warp operation gathering in \p G (all its live lanes have
/// arrived): each lane's result, then the waiting lanes run again.
void completeWarpOp(Block &B, uint32_t WarpIndex, const Gathering &G);

/// NVPTX: whether all the live lanes of \p G's mask have arrived.
bool maskComplete(const WarpSync &W, const Gathering &G) {
  uint64_t Expected = G.Mask & W.Live;
  return G.Arrived && (G.Arrived & Expected) == Expected;
}

/// AMDGPU: the gathering to complete now, or null.  Without masks, the
/// active lanes of an operation are those that reach it before the
/// wavefront can go no further: when every live lane waits (at an
/// operation or a barrier), the operation earliest in the program (lowest
/// code address, outermost frame first) runs with the lanes that reached
/// it.  Earliest first stands in for the hardware's reconvergence: lanes
/// still inside an `if` finish it before the lanes waiting after it go on
/// without them.
Gathering *stalledWaveOp(Block &B, WarpSync &W) {
  uint32_t WarpIndex = uint32_t(&W - B.Warps.data());
  for (uint32_t L = 0; L < B.WarpSize; ++L)
    if ((W.Live >> L & 1) &&
        B.Threads[WarpIndex * B.WarpSize + L].State == Wait::Running)
      return nullptr;
  Gathering *First = nullptr;
  for (Gathering &G : W.Open)
    if (G.ByPoint && (!First || G.Where < First->Where))
      First = &G;
  return First;
}

/// Completes the gatherings of warp \p WarpIndex that can complete.
void completeReadyWarpOps(Block &B, uint32_t WarpIndex) {
  WarpSync &W = B.Warps[WarpIndex];
  auto Complete = [&](Gathering *G) {
    Gathering Done = *G;
    W.Open.erase(W.Open.begin() + (G - W.Open.data()));
    completeWarpOp(B, WarpIndex, Done);
  };
  for (size_t I = 0; I < W.Open.size();) {
    if (!W.Open[I].ByPoint && maskComplete(W, W.Open[I]))
      Complete(&W.Open[I]);
    else
      ++I;
  }
  if (Gathering *G = stalledWaveOp(B, W))
    Complete(G);
}

void threadExited(Thread &T) {
  Block &B = *T.Owner;
  T.State = Wait::Done;
  --B.Live;
  B.Warps[T.WarpIndex].Live &= ~(uint64_t(1) << T.Lane);
  if (B.Arrived && B.Arrived == B.Live)
    releaseBarrier(B);
  completeReadyWarpOps(B, T.WarpIndex);
  if (B.Concurrent && allWaiting(B))
    deadlock(B);
}

/// Locks the block's state in concurrent mode (a no-op for fibers).
struct BlockLock {
  std::unique_lock<std::mutex> L;
  explicit BlockLock(Block &B) {
    if (B.Concurrent)
      L = std::unique_lock<std::mutex>(B.M);
  }
};

[[noreturn]] void divergent(Block &B, uint32_t Site, Thread &T) {
  char Buf[256];
  snprintf(Buf, sizeof Buf,
           "divergent __syncthreads: thread (%u,%u,%u) waits at barrier %u "
           "while others of its block wait at barrier %u",
           T.Regs.tid[0], T.Regs.tid[1], T.Regs.tid[2], Site, B.BarrierSite);
  fatal(Buf);
}

void barrier(uint32_t Site, int32_t Op, int32_t Pred) {
  Thread &T = *Current;
  Block &B = *T.Owner;
  BlockLock Lock(B);
  if (B.Arrived == 0) {
    B.BarrierSite = Site;
    B.ReduceOp = Op;
  } else if (Site != B.BarrierSite) {
    divergent(B, Site, T);
  }
  if (Op == 0)
    B.ReduceAcc = B.Arrived == 0 ? (Pred != 0) : (B.ReduceAcc && Pred);
  else if (Op == 1)
    B.ReduceAcc = B.ReduceAcc || Pred;
  else if (Op == 2)
    B.ReduceAcc += Pred != 0;
  ++B.Arrived;
  T.WaitGen = B.BarrierGen;
  if (B.Arrived == B.Live) {
    releaseBarrier(B);
    return;
  }
  T.State = Wait::Barrier;
  // Operations gathering by program point no longer wait for it.
  completeReadyWarpOps(B, T.WarpIndex);
  waitUntilReleased(T, B.Concurrent ? &Lock.L : nullptr);
}

/// The source lane of a shuffle, as PTX's shfl defines it; -1 if out of
/// range (the lane keeps its own value).
int shuffleSource(int Kind, int Lane, int B, int C, int WarpSize) {
  int SegMask = (C >> 8) & 0x1f, Clamp = C & 0x1f;
  if (WarpSize == 64) { // AMDGPU: whole wavefront, no segments
    SegMask = 0;
    Clamp = 63;
  }
  int MaxLane = (Lane & SegMask) | (Clamp & ~SegMask);
  int MinLane = Lane & SegMask;
  int J;
  bool Valid;
  switch (Kind) {
  case 0:
    J = MinLane | (B & ~SegMask & (WarpSize - 1));
    Valid = J <= MaxLane;
    break;
  case 1:
    J = Lane - B;
    Valid = J >= MaxLane;
    break;
  case 2:
    J = Lane + B;
    Valid = J <= MaxLane;
    break;
  default:
    J = Lane ^ B;
    Valid = J <= MaxLane;
    break;
  }
  return Valid && J >= 0 && J < WarpSize ? J : -1;
}

enum WarpKind {
  ShflIdx = 0,
  ShflUp = 1,
  ShflDown = 2,
  ShflXor = 3,
  Vote = 4,
  Bpermute = 5,
  MatchAny = 6,
  MatchAll = 7,
  Redux = 8
};

/// match.any/all (each lane: the lanes with its value) and redux (each
/// lane: the reduction of all values, by the operation in Arg).
void matchOrReduce(const Gathering &G, int64_t *Out, uint32_t WarpSize) {
  uint64_t Arrived = G.Arrived;
  uint32_t Acc = 0;
  bool First = true;
  for (uint32_t L = 0; L < WarpSize; ++L) {
    if (!(Arrived >> L & 1))
      continue;
    uint64_t Same = 0;
    for (uint32_t M = 0; M < WarpSize; ++M)
      if ((Arrived >> M & 1) && G.In[M] == G.In[L])
        Same |= uint64_t(1) << M;
    Out[L] = G.Kind == MatchAny ? Same : Same == Arrived ? Arrived : 0;
    uint32_t V = uint32_t(G.In[L]);
    auto S = [](uint32_t X) { return int32_t(X); };
    switch (First ? -1 : G.Arg[L]) {
    case -1:
      Acc = V;
      break;
    case 0:
      Acc += V;
      break;
    case 1:
      Acc = S(V) < S(Acc) ? V : Acc;
      break;
    case 2:
      Acc = S(V) > S(Acc) ? V : Acc;
      break;
    case 3:
      Acc = V < Acc ? V : Acc;
      break;
    case 4:
      Acc = V > Acc ? V : Acc;
      break;
    case 5:
      Acc &= V;
      break;
    case 6:
      Acc |= V;
      break;
    default:
      Acc ^= V;
      break;
    }
    First = false;
  }
  if (G.Kind == Redux)
    for (uint32_t L = 0; L < WarpSize; ++L)
      Out[L] = int32_t(Acc);
}

void completeWarpOp(Block &B, uint32_t WarpIndex, const Gathering &G) {
  int64_t Out[64];
  uint64_t Arrived = G.Arrived;
  if (G.Kind >= MatchAny) {
    matchOrReduce(G, Out, B.WarpSize);
  } else if (G.Kind <= ShflXor || G.Kind == Bpermute) {
    for (uint32_t L = 0; L < B.WarpSize; ++L) {
      if (!(Arrived >> L & 1))
        continue;
      int Src = G.Kind == Bpermute
                    ? int((uint64_t(G.Arg[L]) / 4) % B.WarpSize)
                    : shuffleSource(G.Kind, L, int(G.Arg[L]), G.C, B.WarpSize);
      Out[L] = Src >= 0 && (Arrived >> Src & 1) ? G.In[Src] : G.In[L];
    }
  } else {
    uint64_t Ballot = 0;
    for (uint32_t L = 0; L < B.WarpSize; ++L)
      if ((Arrived >> L & 1) && G.In[L])
        Ballot |= uint64_t(1) << L;
    for (uint32_t L = 0; L < B.WarpSize; ++L)
      if (Arrived >> L & 1) {
        switch (G.Arg[L]) {
        case 0:
          Out[L] = Ballot == Arrived;
          break; // all
        case 1:
          Out[L] = Ballot != 0;
          break; // any
        case 2:
          Out[L] = Ballot == 0 || Ballot == Arrived;
          break; // uni
        default:
          Out[L] = int64_t(Ballot);
          break; // ballot
        }
      }
  }
  for (uint32_t L = 0; L < B.WarpSize; ++L) {
    if (!(Arrived >> L & 1))
      continue;
    Thread &T = B.Threads[WarpIndex * B.WarpSize + L];
    T.WarpResult = Out[L];
    if (T.State == Wait::Warp)
      T.State = Wait::Running;
  }
  if (B.Concurrent)
    B.CV.notify_all();
}

/// The calling lane's program point: the frame-pointer chain on its stack.
__attribute__((noinline)) ProgramPoint programPoint(const Thread &T) {
  ProgramPoint Chain;
  auto *Frame = static_cast<uintptr_t *>(__builtin_frame_address(0));
  // Only the frames between here and runThreadBody's: those are device
  // code and the runtime, built with frame pointers.
  auto Inside = [&](const uintptr_t *P) {
    return reinterpret_cast<const char *>(P) >= T.StackLo &&
           static_cast<const void *>(P) < T.OuterFrame;
  };
  while (Frame && Inside(Frame) && Chain.size() < 256) {
    Chain.push_back(Frame[1]);
    auto *Next = reinterpret_cast<uintptr_t *>(Frame[0]);
    if (Next <= Frame) // frames grow towards higher addresses
      break;
    Frame = Next;
  }
  std::reverse(Chain.begin(), Chain.end());
  return Chain;
}

int64_t warpOp(int Kind, uint64_t Mask, int64_t Value, int64_t Arg, int32_t C,
               bool ByPoint) {
  Thread &T = *Current;
  Block &B = *T.Owner;
  BlockLock Lock(B);
  WarpSync &W = B.Warps[T.WarpIndex];
  uint64_t Full =
      B.WarpSize == 64 ? ~uint64_t(0) : (uint64_t(1) << B.WarpSize) - 1;
  Mask &= Full;
  Mask |= uint64_t(1) << T.Lane; // a lane always takes part
  ProgramPoint Where;
  if (ByPoint)
    Where = programPoint(T);
  auto Open =
      std::find_if(W.Open.begin(), W.Open.end(), [&](const Gathering &G) {
        return G.ByPoint == ByPoint &&
               (ByPoint ? G.Where == Where : G.Mask == Mask);
      });
  if (Open == W.Open.end()) {
    W.Open.emplace_back();
    Open = W.Open.end() - 1;
    Open->Mask = Mask;
    Open->ByPoint = ByPoint;
    Open->Where = std::move(Where);
    Open->Kind = Kind;
    Open->C = C;
  } else if (Open->Kind != Kind) {
    fatal("lanes of one warp-operation mask meet at different operations "
          "(a shuffle and a vote, or shuffles of different kinds)");
  }
  Open->In[T.Lane] = Value;
  Open->Arg[T.Lane] = Arg;
  Open->Arrived |= uint64_t(1) << T.Lane;
  T.State = Wait::Warp;
  completeReadyWarpOps(B, T.WarpIndex);
  if (T.State == Wait::Warp)
    waitUntilReleased(T, B.Concurrent ? &Lock.L : nullptr);
  return T.WarpResult;
}

/// Fiber stacks, reused from launch to launch.
struct StackPool {
  std::vector<std::pair<char *, size_t>> Free;
  std::pair<char *, size_t> get(size_t Bytes) {
    for (size_t I = 0; I < Free.size(); ++I)
      if (Free[I].second == Bytes) {
        auto S = Free[I];
        Free.erase(Free.begin() + I);
        return S;
      }
    void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED) {
      perror("gpuad-emu: mmap of a thread stack");
      exit(2);
    }
    // The lowest page traps a stack overflow instead of corrupting memory.
    mprotect(P, 4096, PROT_NONE);
    return {static_cast<char *>(P), Bytes};
  }
  void put(std::pair<char *, size_t> S) { Free.push_back(S); }
};
StackPool &stacks() {
  static StackPool P;
  return P;
}

const KernelInfo *Running = nullptr;
void **RunningArgs = nullptr;
uint64_t CurrentSharedBytes = 0, CurrentDynamicShared = 0;

__attribute__((noinline)) void runThreadBody(Thread &T) {
  T.OuterFrame = __builtin_frame_address(0);
  Current = &T;
  __gpuad_emu_thread = T.Regs;
  if (setjmp(T.Exit) == 0)
    Running->Launch(RunningArgs);
}

} // namespace

extern "C" [[noreturn]] void gpuad_emu_fiber_main(Thread *T) {
  afterStackSwitch(nullptr, &SchedulerBottom, &SchedulerSize);
  runThreadBody(*T);
  threadExited(*T);
  beforeStackSwitch(nullptr, SchedulerBottom, SchedulerSize); // never back
  gpuad_emu_switch(&T->SP, SchedulerSP);
  abort(); // never resumed
}

namespace {

void prepareFiber(Thread &T, std::pair<char *, size_t> Stack) {
  T.StackLo = Stack.first + 4096;
  T.StackHi = Stack.first + Stack.second;
  unpoisonStack(T.StackLo, size_t(T.StackHi - T.StackLo));
  auto *SP = reinterpret_cast<void **>(reinterpret_cast<uintptr_t>(T.StackHi) &
                                       ~uintptr_t(15));
  *--SP = nullptr;                                          // alignment
  *--SP = reinterpret_cast<void *>(&gpuad_emu_fiber_start); // "return" here
  *--SP = nullptr;                                          // rbp
  *--SP = nullptr;                                          // rbx
  *--SP = &T;                                               // r12: the thread
  *--SP = nullptr;                                          // r13
  *--SP = nullptr;                                          // r14
  *--SP = nullptr;                                          // r15
  T.SP = SP;
}

void deadlock(Block &B) {
  // Where the waiting threads are: how many at each kind of wait, and the
  // first of them.
  std::string Msg = "threads wait for each other forever:";
  for (Wait Kind : {Wait::Barrier, Wait::Warp}) {
    unsigned Count = 0;
    const Thread *First = nullptr;
    for (const Thread &T : B.Threads)
      if (T.State == Kind && Count++ == 0)
        First = &T;
    if (!Count)
      continue;
    char Buf[160];
    snprintf(Buf, sizeof Buf,
             " %u thread(s) at %s, the first thread (%u,%u,%u);", Count,
             Kind == Wait::Barrier ? "__syncthreads" : "a warp operation",
             First->Regs.tid[0], First->Regs.tid[1], First->Regs.tid[2]);
    Msg += Buf;
  }
  fatal(Msg + " (a barrier not every thread reaches, or a warp operation "
              "whose mask names lanes that wait elsewhere)");
}

void runFibers(Block &B, const std::vector<uint32_t> &Order) {
  size_t Bytes = stackBytes();
  std::vector<std::pair<char *, size_t>> Stacks;
  for (Thread &T : B.Threads) {
    Stacks.push_back(stacks().get(Bytes));
    prepareFiber(T, Stacks.back());
  }
  while (B.Live) {
    bool Progress = false;
    for (uint32_t I : Order) {
      Thread &T = B.Threads[I];
      if (T.State != Wait::Running)
        continue;
      Current = &T;
      __gpuad_emu_thread = T.Regs;
      beforeStackSwitch(&SchedulerFakeStack, T.StackLo,
                        size_t(T.StackHi - T.StackLo));
      gpuad_emu_switch(&SchedulerSP, T.SP);
      afterStackSwitch(SchedulerFakeStack, nullptr, nullptr);
      Progress = true;
    }
    if (!Progress)
      deadlock(B);
  }
  Current = nullptr;
  for (auto &S : Stacks)
    stacks().put(S);
}

void runConcurrent(Block &B) {
  std::vector<std::thread> OS;
  for (Thread &T : B.Threads)
    OS.emplace_back([&T] {
      pthread_attr_t A;
      if (!pthread_getattr_np(pthread_self(), &A)) {
        void *Lo;
        size_t Size;
        pthread_attr_getstack(&A, &Lo, &Size);
        T.StackLo = static_cast<char *>(Lo);
        T.StackHi = T.StackLo + Size;
        pthread_attr_destroy(&A);
      }
      runThreadBody(T);
      std::lock_guard<std::mutex> G(T.Owner->M);
      threadExited(T);
    });
  for (std::thread &T : OS)
    T.join();
}

uint64_t launchCount = 0;

} // namespace

const std::string &currentKernel() { return CurrentKernel; }

bool launch(const KernelInfo &K, Dim3 Grid, Dim3 Block_, void **Args,
            size_t DynamicShared) {
  uint64_t Threads = uint64_t(Block_.x) * Block_.y * Block_.z;
  if (Threads == 0 || Threads > 1024 || Grid.x == 0 || Grid.y == 0 ||
      Grid.z == 0)
    return false;
  Schedule S = scheduleFromEnv();
  uint32_t WarpSize = K.Module ? K.Module->warp_size : 32;
  uint64_t SharedBytes =
      (K.Module ? K.Module->static_shared_bytes : 0) + DynamicShared;
  // Aligned to its power-of-two size, so it never crosses a 4 GiB boundary:
  // 32-bit shared addresses (inline PTX) are its addresses' low halves.
  size_t SharedAlign = 64;
  while (SharedAlign < SharedBytes)
    SharedAlign <<= 1;
  std::unique_ptr<unsigned char, void (*)(void *)> Shared(
      static_cast<unsigned char *>(aligned_alloc(SharedAlign, SharedAlign)),
      free);
  CurrentSharedBytes = SharedBytes;
  CurrentDynamicShared = DynamicShared;
  // Implicit kernel arguments (AMDGPU, code object v5's 256 bytes): block
  // counts, block sizes, the dynamic LDS size (at 120).
  uint32_t Implicit[64] = {};
  Implicit[30] = uint32_t(DynamicShared);
  Implicit[0] = Grid.x;
  Implicit[1] = Grid.y;
  Implicit[2] = Grid.z;
  auto *Sizes = reinterpret_cast<uint16_t *>(&Implicit[3]);
  Sizes[0] = Block_.x;
  Sizes[1] = Block_.y;
  Sizes[2] = Block_.z;
  Sizes[3] = Block_.x; // remainders: whole groups only
  Sizes[4] = Block_.y;
  Sizes[5] = Block_.z;
  // The dispatch packet (code object v4): sizes at 4, grid at 12.
  uint32_t Dispatch[16] = {};
  auto *DSizes = reinterpret_cast<uint16_t *>(&Dispatch[1]);
  DSizes[0] = Block_.x;
  DSizes[1] = Block_.y;
  DSizes[2] = Block_.z;
  Dispatch[3] = Grid.x * Block_.x;
  Dispatch[4] = Grid.y * Block_.y;
  Dispatch[5] = Grid.z * Block_.z;

  CurrentImplicit = Implicit;
  CurrentDispatch = Dispatch;

  std::mt19937_64 Rng(getenv("GPUAD_EMU_SEED")
                          ? strtoull(getenv("GPUAD_EMU_SEED"), nullptr, 10)
                          : 0x9e3779b97f4a7c15ull + launchCount);
  ++launchCount;
  CurrentKernel = K.Name;
  Running = &K;
  RunningArgs = Args;
  for (uint32_t BZ = 0; BZ < Grid.z; ++BZ)
    for (uint32_t BY = 0; BY < Grid.y; ++BY)
      for (uint32_t BX = 0; BX < Grid.x; ++BX) {
        Block B;
        B.WarpSize = WarpSize;
        B.Concurrent = S == Schedule::Concurrent;
        B.Threads.resize(Threads);
        B.Warps.resize((Threads + WarpSize - 1) / WarpSize);
        memset(Shared.get(), 0xcd, SharedAlign); // uninitialised shared
        for (uint32_t I = 0; I < Threads; ++I) {
          Thread &T = B.Threads[I];
          T.Owner = &B;
          T.Linear = I;
          T.Lane = I % WarpSize;
          T.WarpIndex = I / WarpSize;
          B.Warps[T.WarpIndex].Live |= uint64_t(1) << T.Lane;
          T.Regs.tid[0] = I % Block_.x;
          T.Regs.tid[1] = I / Block_.x % Block_.y;
          T.Regs.tid[2] = I / (Block_.x * Block_.y);
          T.Regs.ntid[0] = Block_.x;
          T.Regs.ntid[1] = Block_.y;
          T.Regs.ntid[2] = Block_.z;
          T.Regs.ctaid[0] = BX;
          T.Regs.ctaid[1] = BY;
          T.Regs.ctaid[2] = BZ;
          T.Regs.nctaid[0] = Grid.x;
          T.Regs.nctaid[1] = Grid.y;
          T.Regs.nctaid[2] = Grid.z;
          T.Regs.shared = Shared.get();
          T.Regs.implicit_args = Implicit;
          T.Regs.dispatch = Dispatch;
        }
        B.Live = Threads;
        if (B.Concurrent) {
          runConcurrent(B);
          continue;
        }
        std::vector<uint32_t> Order(Threads);
        for (uint32_t I = 0; I < Threads; ++I)
          Order[I] = I;
        if (S == Schedule::Shuffled)
          std::shuffle(Order.begin(), Order.end(), Rng);
        runFibers(B, Order);
      }
  Running = nullptr;
  CurrentKernel.clear();
  return true;
}

/// Whether [P, P+Bytes) is the current thread's stack (for memory checks),
/// or a frame ASan moved off it.
bool onThreadStack(const void *P, uint64_t Bytes) {
  if (!Current)
    return false;
  auto *C = static_cast<const char *>(P);
  return (C >= Current->StackLo && C + Bytes <= Current->StackHi) ||
         (onFakeStack(C) && onFakeStack(C + Bytes - 1));
}

/// Whether [P, P+Bytes) is in the current block's shared memory.
bool inBlockShared(const void *P, uint64_t Bytes) {
  if (!Current)
    return false;
  auto *C = static_cast<const char *>(P);
  auto *S = static_cast<const char *>(Current->Regs.shared);
  return C >= S && C + Bytes <= S + CurrentSharedBytes;
}

/// The kernel's source name (demangled) for messages.
static std::string kernelDisplayName(const std::string &Symbol) {
  int Status = 0;
  char *Plain = abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !Plain)
    return Symbol;
  std::string Name = Plain;
  free(Plain);
  return Name;
}

bool inLaunchArguments(const void *P, uint64_t Bytes) {
  auto Within = [&](const void *Base) {
    auto *C = static_cast<const char *>(P),
         *B = static_cast<const char *>(Base);
    return Base && C >= B && C + Bytes <= B + 64 * sizeof(uint32_t);
  };
  return Within(CurrentImplicit) || Within(CurrentDispatch);
}

[[noreturn]] void fatal(const std::string &Msg) {
  fflush(stdout);
  std::string Kernel = kernelDisplayName(CurrentKernel);
  if (Current)
    fprintf(stderr,
            "gpuad-emu: error in kernel '%s', block (%u,%u,%u), thread "
            "(%u,%u,%u): %s\n",
            Kernel.c_str(), Current->Regs.ctaid[0], Current->Regs.ctaid[1],
            Current->Regs.ctaid[2], Current->Regs.tid[0], Current->Regs.tid[1],
            Current->Regs.tid[2], Msg.c_str());
  else if (!CurrentKernel.empty())
    fprintf(stderr, "gpuad-emu: error in kernel '%s': %s\n", Kernel.c_str(),
            Msg.c_str());
  else
    fprintf(stderr, "gpuad-emu: error: %s\n", Msg.c_str());
  _exit(1);
}

} // namespace gpuad::emu

using namespace gpuad::emu;

extern "C" {

void __gpuad_emu_syncthreads(uint32_t Site) { barrier(Site, -1, 0); }

int32_t __gpuad_emu_syncthreads_reduce(uint32_t Site, int32_t Op,
                                       int32_t Pred) {
  Thread &T = *Current;
  barrier(Site, Op, Pred);
  return T.Owner->ReduceResult[T.WaitGen & 1];
}

int32_t __gpuad_emu_shfl(int32_t Mode, uint32_t Mask, int32_t Value,
                         int32_t LaneOrDelta, int32_t C) {
  return int32_t(warpOp(Mode, Mask, uint32_t(Value), LaneOrDelta, C, false));
}

int32_t __gpuad_emu_shfl_in_range(int32_t Mode, int32_t LaneOrDelta,
                                  int32_t C) {
  Thread &T = *Current;
  return shuffleSource(Mode, T.Lane, LaneOrDelta, C, T.Owner->WarpSize) >= 0;
}

uint32_t __gpuad_emu_vote(int32_t Op, uint32_t Mask, int32_t Pred) {
  return uint32_t(warpOp(Vote, Mask, Pred != 0, Op, 0, false));
}

uint64_t __gpuad_emu_vote64(int32_t Op, int32_t Pred) {
  return uint64_t(warpOp(Vote, ~uint64_t(0), Pred != 0, Op, 0, true));
}

uint32_t __gpuad_emu_activemask(void) {
  // The lanes executing here together: a ballot of the lanes that reach
  // this program point (lanes that diverged elsewhere are not active).
  return uint32_t(warpOp(Vote, ~uint64_t(0), 1, 3, 0, true));
}

uint32_t __gpuad_emu_laneid(void) { return Current ? Current->Lane : 0; }

uint32_t __gpuad_emu_match(int32_t All, uint32_t Mask, int64_t Value) {
  return uint32_t(warpOp(All ? MatchAll : MatchAny, Mask, Value, 0, 0, false));
}

int32_t __gpuad_emu_redux(int32_t Op, uint32_t Mask, int32_t Value) {
  return int32_t(warpOp(Redux, Mask, Value, Op, 0, false));
}

void __gpuad_emu_yield(void) {
  Thread *T = Current;
  if (!T)
    return;
  if (T->Owner->Concurrent) {
    std::this_thread::yield();
    return;
  }
  // Still running: the scheduler resumes it after the others' turns.
  switchToScheduler(*T);
}

void __gpuad_emu_exit(void) {
  if (!Current)
    fatal("PTX exit outside a kernel");
  longjmp(Current->Exit, 1);
}

uint64_t __gpuad_emu_clock64(void) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

uint32_t __gpuad_emu_shared_bytes(void) { return uint32_t(CurrentSharedBytes); }

/// PTX %dynamic_smem_size: the running launch's dynamic shared bytes.
uint32_t __gpuad_emu_dynamic_shared_bytes(void) {
  return uint32_t(CurrentDynamicShared);
}

int32_t __gpuad_emu_bpermute(int32_t Addr, int32_t Value) {
  return int32_t(
      warpOp(Bpermute, ~uint64_t(0), uint32_t(Value), Addr, 0, true));
}

} // extern "C"
