// The emulator's inline PTX translation, instruction by instruction: each
// kernel runs PTX (the forms CCCL and cooperative groups use, and their
// edge cases) on inputs from a hash of the thread's index, and the host
// compares every result with a reference written from the PTX ISA's
// definitions.  Natively the same asm runs on the GPU, so the references
// are checked against the hardware too.  All comparisons are exact (bits):
// integer results, and float results whose rounding the instruction
// specifies (the host reference rounds in the same mode).
//
//   bits:     bfe, bfi, bfind, prmt (all modes), lop3, shf, bmsk, szext,
//             shifts past the width, popc/clz/brev, sad, mul.hi/.wide, mad,
//             div/rem, min/max, setp with a boolean op and `p|q`, selp,
//             cvt.sat, guards and `{ .reg }` scopes;
//   floats:   add.rz, mul.rm, fma.rp, div.rn, sqrt.rn, cvt with rounding and
//             saturation (float->int, int->float, f64->f32, f16), testp,
//             copysign;
//   memory:   ld.global.nc vectors and sign-extending narrow loads,
//             ld.volatile/.relaxed/.acquire, st.cg/.release/.relaxed (a
//             16-byte pair), atom (add u32/f32/f64, cas, exch, inc, dec,
//             min, max) and red, 32-bit shared addresses (cvta.to.shared,
//             ld/st.shared, cvta back), cp.async on sm_80+;
//   warps:    shfl.sync up/down/bfly/idx with `d|p` and segments,
//             vote.sync ballot/all/any/uni, match.any/all, redux (sm_80+),
//             elect (sm_90), %laneid, %lanemask_*, bar.red.popc/and/or;
//   control:  a loop with a label and a guarded bra, exit before a barrier,
//             a spin on a flag another warp sets (ld.acquire + nanosleep),
//             %clock64 and %globaltimer that do not go back;
//   mbarriers (sm_80+): init, arrive and test_wait over two phases of one
//             barrier; on sm_90 a cp.async.bulk completing its bytes on an
//             mbarrier (arrive.expect_tx, try_wait.parity).
//
// The asm is valid PTX for both targets (ptxas accepts it); the runs are in
// kernel-tests.cmake.
// REQUIRES: cuda
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_75 -O2 -S %s -o %t.75.ptx
// RUN: %ptxas -arch=sm_75 %t.75.ptx -o %t.75.cubin
// RUN: %gpuad-cc --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -S %s -o %t.90.ptx
// RUN: %ptxas -arch=sm_90 %t.90.ptx -o %t.90.cubin

#include <cstdint>
#include <cstdio>

__host__ __device__ inline unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

constexpr int Threads = 256, Blocks = 2, N = Threads * Blocks;

// ---- bits -------------------------------------------------------------------

enum Bits {
  BfeU, BfeS, Bfi, BfindU, BfindS, BfindShift, Prmt, PrmtF4e, PrmtB4e,
  PrmtRc8, PrmtEcl, PrmtEcr, PrmtRc16, Lop3A, Lop3B, ShfLWrap, ShfRClamp,
  BmskClamp, BmskWrap, SzextS, SzextU, Shl, ShrU, ShrS, Popc, Clz, Brev, Sad,
  MulHiS, MulWideLo, MulWideHi, MadLo, DivS, RemU, MinS, MaxU, Setp, CvtSatU8,
  CvtS16, Guarded, Scopes, NumBits
};

__global__ void bits(unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = mix(t), b = mix(t + 1000), c = mix(t + 2000);
  unsigned pos = c & 0x3f, len = (c >> 8) & 0x3f;
  unsigned *o = out + t * NumBits;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(o[BfeU]) : "r"(a), "r"(pos), "r"(len));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(o[BfeS]) : "r"(a), "r"(pos), "r"(len));
  asm("bfi.b32 %0, %1, %2, %3, %4;"
      : "=r"(o[Bfi]) : "r"(a), "r"(b), "r"(pos), "r"(len));
  unsigned small = a >> (c & 31); // sometimes 0: not found
  asm("bfind.u32 %0, %1;" : "=r"(o[BfindU]) : "r"(small));
  asm("bfind.s32 %0, %1;" : "=r"(o[BfindS]) : "r"(int(b) >> (c & 31)));
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(o[BfindShift]) : "r"(small));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(o[Prmt]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(o[PrmtF4e]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(o[PrmtB4e]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(o[PrmtRc8]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(o[PrmtEcl]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(o[PrmtEcr]) : "r"(a), "r"(b), "r"(c));
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(o[PrmtRc16]) : "r"(a), "r"(b), "r"(c));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(o[Lop3A]) : "r"(a), "r"(b), "r"(c));
  asm("lop3.b32 %0, %1, %2, %3, %4;"
      : "=r"(o[Lop3B]) : "r"(a), "r"(b), "r"(c), "n"(0xe8));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(o[ShfLWrap]) : "r"(a), "r"(b), "r"(pos));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(o[ShfRClamp]) : "r"(a), "r"(b), "r"(pos));
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(o[BmskClamp]) : "r"(pos), "r"(len));
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(o[BmskWrap]) : "r"(pos), "r"(len));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(o[SzextS]) : "r"(a), "r"(pos));
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(o[SzextU]) : "r"(a), "r"(pos));
  asm("shl.b32 %0, %1, %2;" : "=r"(o[Shl]) : "r"(a), "r"(pos));
  asm("shr.u32 %0, %1, %2;" : "=r"(o[ShrU]) : "r"(a), "r"(pos));
  asm("shr.s32 %0, %1, %2;" : "=r"(o[ShrS]) : "r"(a), "r"(pos));
  asm("popc.b32 %0, %1;" : "=r"(o[Popc]) : "r"(a));
  asm("clz.b32 %0, %1;" : "=r"(o[Clz]) : "r"(small));
  asm("brev.b32 %0, %1;" : "=r"(o[Brev]) : "r"(a));
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(o[Sad]) : "r"(a), "r"(b), "r"(c));
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(o[MulHiS]) : "r"(a), "r"(b));
  unsigned long long wide;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(a), "r"(b));
  o[MulWideLo] = unsigned(wide);
  o[MulWideHi] = unsigned(wide >> 32);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(o[MadLo]) : "r"(a), "r"(b), "r"(c));
  int divisor = int(b | 1) == -1 ? 3 : int(b | 1);
  asm("div.s32 %0, %1, %2;" : "=r"(o[DivS]) : "r"(a), "r"(divisor));
  asm("rem.u32 %0, %1, %2;" : "=r"(o[RemU]) : "r"(a), "r"(b | 1));
  asm("min.s32 %0, %1, %2;" : "=r"(o[MinS]) : "r"(a), "r"(b));
  asm("max.u32 %0, %1, %2;" : "=r"(o[MaxU]) : "r"(a), "r"(b));
  asm("{ .reg .pred r, p, q;\n\t"
      "setp.ne.u32 r, %3, 0;\n\t"
      "setp.lt.and.s32 p|q, %1, %2, !r;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "@q add.u32 %0, %0, 2; }"
      : "=r"(o[Setp]) : "r"(a), "r"(b), "r"(c & 1));
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(o[CvtSatU8]) : "r"(int(a) >> 22));
  short s16;
  asm("cvt.s16.s32 %0, %1;" : "=h"(s16) : "r"(a));
  o[CvtS16] = unsigned(int(s16));
  asm("{ .reg .pred p; setp.gt.u32 p, %1, %2;\n\t"
      "mov.u32 %0, 7; @!p mov.u32 %0, 9; @p add.u32 %0, %0, %1; }"
      : "=r"(o[Guarded]) : "r"(a), "r"(b));
  // The same name in two scopes: the inner one hides the outer.
  asm("{ .reg .u32 x; mov.u32 x, %1;\n\t"
      "{ .reg .u32 x; mov.u32 x, %2; mov.u32 %0, x; }\n\t"
      "add.u32 %0, %0, x; }"
      : "=r"(o[Scopes]) : "r"(a), "r"(b));
}

// ---- floats -----------------------------------------------------------------

enum Floats {
  AddRz, MulRm, FmaRp, DivRn, SqrtRn, CvtRniS32, CvtRziS32, CvtRmiU32,
  CvtRnF32S32, CvtRmF32S32, CvtRzF32F64, CvtF16, TestpFinite, TestpNan,
  Copysign, NumFloats
};

__host__ __device__ inline float floatOf(unsigned h, int spread) {
  // Magnitudes from 2^-spread to 2^spread, either sign, sometimes inf/NaN.
  unsigned exponent = 127 - spread + (h >> 8) % (2 * spread + 1);
  unsigned bits = (h & 0x80000000u) | (exponent << 23) | (h >> 9 & 0x7fffff);
  if ((h & 0xff) == 3)
    bits = 0x7f800000u | (h & 0x80000000u); // inf
  if ((h & 0xff) == 5)
    bits = 0x7fc00000u; // NaN
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

__global__ void floats(const float *in, const double *in64, unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  unsigned *o = out + t * NumFloats;
  float r;
  asm("add.rz.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  o[AddRz] = __float_as_uint(r);
  asm("mul.rm.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  o[MulRm] = __float_as_uint(r);
  asm("fma.rp.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c));
  o[FmaRp] = __float_as_uint(r);
  asm("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  o[DivRn] = __float_as_uint(r);
  asm("sqrt.rn.f32 %0, %1;" : "=f"(r) : "f"(fabsf(a)));
  o[SqrtRn] = __float_as_uint(r);
  float big = a * 4e9f;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(o[CvtRniS32]) : "f"(big));
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(o[CvtRziS32]) : "f"(a * 1e3f));
  asm("cvt.rmi.u32.f32 %0, %1;" : "=r"(o[CvtRmiU32]) : "f"(big));
  int i = int(mix(t) | 1u);
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(r) : "r"(i));
  o[CvtRnF32S32] = __float_as_uint(r);
  asm("cvt.rm.f32.s32 %0, %1;" : "=f"(r) : "r"(i));
  o[CvtRmF32S32] = __float_as_uint(r);
  asm("cvt.rz.f32.f64 %0, %1;" : "=f"(r) : "d"(in64[t]));
  o[CvtRzF32F64] = __float_as_uint(r);
  asm("{ .reg .b16 h; cvt.rn.f16.f32 h, %1; cvt.f32.f16 %0, h; }"
      : "=f"(r) : "f"(a));
  o[CvtF16] = __float_as_uint(r);
  asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(o[TestpFinite]) : "f"(a));
  asm("{ .reg .pred p; testp.notanumber.f32 p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(o[TestpNan]) : "f"(a));
  asm("copysign.f32 %0, %1, %2;" : "=f"(r) : "f"(b), "f"(c));
  o[Copysign] = __float_as_uint(r);
}

// ---- memory -----------------------------------------------------------------

struct Memory {
  unsigned data[4 * N];         // read
  float fdata[4 * N];           // read
  unsigned pairs[2 * N];        // st.cg.v2
  unsigned long long wide[2 * N]; // st.relaxed.gpu.v2.u64
  unsigned released[N];         // st.release
  unsigned loaded[8 * N];       // what the loads saw
  unsigned counter, incs, decs, orBits, redSum, exch[N];
  int minimum;
  unsigned long long maximum;
  float fsum;
  double dsum;
  unsigned casMax;
  unsigned shared[N], asyncCopy[4 * N];
};

__global__ void memory(Memory *m) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *l = m->loaded + 8 * t;
  asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];"
               : "=r"(l[0]), "=r"(l[1]) : "l"(m->data + 4 * t));
  float f[4];
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
               : "l"(m->fdata + 4 * t));
  l[2] = __float_as_uint(f[0] + f[3]);
  asm volatile("ld.global.nc.s8 %0, [%1+2];" : "=r"(l[3]) : "l"(m->data + 4 * t));
  asm volatile("ld.volatile.global.u16 %0, [%1];" : "=h"(*(unsigned short *)&l[4])
               : "l"(m->data + 4 * t + 1));
  unsigned long long v64;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v64) : "l"(m->data + 4 * t + 2));
  l[5] = unsigned(v64 >> 32) ^ unsigned(v64);
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(l[6]) : "l"(m->data + 4 * t + 3) : "memory");
  asm volatile("st.global.cg.v2.u32 [%0], {%1, %2};"
               :: "l"(m->pairs + 2 * t), "r"(t), "r"(~t) : "memory");
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};"
               :: "l"(m->wide + 2 * t), "l"(t * 3ull), "l"(t * 5ull) : "memory");
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(m->released + t), "r"(t + 7) : "memory");

  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(&m->counter) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], 99;" : "=r"(old) : "l"(&m->incs) : "memory");
  asm volatile("atom.global.dec.u32 %0, [%1], 50;" : "=r"(old) : "l"(&m->decs) : "memory");
  asm volatile("atom.acquire.gpu.global.min.s32 %0, [%1], %2;"
               : "=r"(old) : "l"(&m->minimum), "r"(int(mix(t)) >> 4) : "memory");
  unsigned long long old64;
  asm volatile("atom.release.gpu.global.max.u64 %0, [%1], %2;"
               : "=l"(old64) : "l"(&m->maximum), "l"((unsigned long long)mix(t) << 20) : "memory");
  float oldf;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(oldf) : "l"(&m->fsum), "f"(float(t % 7)) : "memory");
  double oldd;
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(oldd) : "l"(&m->dsum), "d"(t * 0.5) : "memory");
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(m->exch + t), "r"(t * 11) : "memory");
  asm volatile("red.global.or.b32 [%0], %1;" :: "l"(&m->orBits), "r"(1u << (t % 32)) : "memory");
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" :: "l"(&m->redSum), "r"(t) : "memory");
  // A maximum by compare-and-swap.
  unsigned want = mix(t + 5) >> 1, seen = m->casMax;
  while (seen < want) {
    unsigned prior;
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(prior) : "l"(&m->casMax), "r"(seen), "r"(want) : "memory");
    if (prior == seen)
      break;
    seen = prior;
  }

  // Shared memory through 32-bit shared addresses.
  __shared__ unsigned sh[Threads];
  __shared__ unsigned stage[4 * Threads];
  unsigned long long at64;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(at64) : "l"(sh + threadIdx.x));
  unsigned at = unsigned(at64), mine;
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(at), "r"(t * t) : "memory");
  unsigned long long back;
  asm("cvta.shared.u64 %0, %1;" : "=l"(back) : "l"((unsigned long long)at));
  l[7] = back == (unsigned long long)(sh + threadIdx.x);
  asm volatile("bar.sync 0;" ::: "memory");
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(at64) : "l"(sh + (threadIdx.x ^ 1)));
  unsigned other = unsigned(at64);
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(mine) : "r"(other) : "memory");
  m->shared[t] = mine;
#if __CUDA_ARCH__ >= 800
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(at64) : "l"(stage + 4 * threadIdx.x));
  unsigned dst = unsigned(at64);
  // 16 bytes of which the first 8 come from global memory; the rest are 0.
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16, 8;\n\t"
               "cp.async.wait_all;"
               :: "r"(dst), "l"(m->data + 4 * t) : "memory");
  for (int k = 0; k < 4; ++k)
    m->asyncCopy[4 * t + k] = stage[4 * threadIdx.x + k];
#else
  (void)stage;
#endif
}

// ---- warps ------------------------------------------------------------------

enum Warps {
  Up, UpIn, Down, DownIn, Bfly, Idx, IdxIn, Ballot, All, Any, Uni, MatchAny,
  MatchAll, MatchAllP, ReduxAdd, ReduxMin, ReduxXor, Elect, ElectP, Lane,
  LtMask, LeMask, EqMask, GeMask, GtMask, Popcount, AndAll, OrAny, NumWarps
};

__global__ void warps(unsigned *out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = mix(t);
  unsigned *o = out + t * NumWarps;
  unsigned lane = threadIdx.x % 32;
  asm volatile("{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, 3, 0, 0xffffffff;\n\t"
               "selp.u32 %1, 1, 0, p; }"
               : "=r"(o[Up]), "=r"(o[UpIn]) : "r"(x));
  asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, 5, 0x1f, 0xffffffff;\n\t"
               "selp.u32 %1, 1, 0, p; }"
               : "=r"(o[Down]), "=r"(o[DownIn]) : "r"(x));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 7, 0x1f, 0xffffffff;" : "=r"(o[Bfly]) : "r"(x));
  // Segments of 8 lanes: c = ((32 - 8) << 8) | 0x1f; lane 2 + 3 * t of its
  // segment, out of range past 7.
  asm volatile("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, 0x181f, 0xffffffff;\n\t"
               "selp.u32 %1, 1, 0, p; }"
               : "=r"(o[Idx]), "=r"(o[IdxIn]) : "r"(x), "r"((2 + 3 * t) % 11));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff; }"
               : "=r"(o[Ballot]) : "r"(x % 3 == 0 ? 1 : 0));
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.all.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(o[All]) : "r"(threadIdx.x < 32 || lane != 5 ? 1 : 0));
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.any.pred q, !p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(o[Any]) : "r"(lane != 9 ? 1 : 0));
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.uni.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }"
               : "=r"(o[Uni]) : "r"(threadIdx.x < 32 ? 1 : lane % 2));
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(o[MatchAny]) : "r"(lane / 5));
  asm volatile("{ .reg .pred p; match.all.sync.b32 %0|p, %2, 0xffffffff;\n\t"
               "selp.u32 %1, 1, 0, p; }"
               : "=r"(o[MatchAll]), "=r"(o[MatchAllP]) : "r"(threadIdx.x < 32 ? 4u : lane));
#if __CUDA_ARCH__ >= 800
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(o[ReduxAdd]) : "r"(x));
  asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(o[ReduxMin]) : "r"(x));
  if (lane < 16)
    asm volatile("redux.sync.xor.b32 %0, %1, 0x0000ffff;" : "=r"(o[ReduxXor]) : "r"(x));
#endif
#if __CUDA_ARCH__ >= 900
  if (lane >= 4)
    asm volatile("{ .reg .pred p; elect.sync %0|p, 0xfffffff0;\n\t"
                 "selp.u32 %1, 1, 0, p; }"
                 : "=r"(o[Elect]), "=r"(o[ElectP]));
#endif
  asm("mov.u32 %0, %%laneid;" : "=r"(o[Lane]));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(o[LtMask]));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(o[LeMask]));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(o[EqMask]));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(o[GeMask]));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(o[GtMask]));
  asm volatile("{ .reg .pred p; setp.eq.u32 p, %1, 0;\n\t"
               "bar.red.popc.u32 %0, 0, p; }"
               : "=r"(o[Popcount]) : "r"(threadIdx.x % 5));
  asm volatile("{ .reg .pred p, q; setp.lt.u32 p, %1, 1000;\n\t"
               "bar.red.and.pred q, 0, p; selp.u32 %0, 1, 0, q; }"
               : "=r"(o[AndAll]) : "r"(threadIdx.x));
  asm volatile("{ .reg .pred p, q; setp.eq.u32 p, %1, 77;\n\t"
               "bar.red.or.pred q, 0, p; selp.u32 %0, 1, 0, q; }"
               : "=r"(o[OrAny]) : "r"(threadIdx.x));
}

// ---- control ----------------------------------------------------------------

__global__ void control(unsigned *out, unsigned *flag, unsigned long long *clocks) {
  unsigned t = threadIdx.x;
  // sum 0..t-1 by a loop of labels and a guarded branch.
  unsigned sum;
  asm("{ .reg .pred p; .reg .u32 i;\n\t"
      "mov.u32 i, 0; mov.u32 %0, 0;\n\t"
      "setp.eq.u32 p, %1, 0; @p bra Done;\n"
      "Loop:\n\t"
      "add.u32 %0, %0, i; add.u32 i, i, 1;\n\t"
      "setp.lt.u32 p, i, %1; @p bra Loop;\n"
      "Done:\n\t}"
      : "=r"(sum) : "r"(t));
  out[t] = sum;
  // Thread 0 waits for the last thread, in another warp, to raise a flag.
  if (t == 0) {
    unsigned seen = 0;
    while (!seen) {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
      if (!seen)
        asm volatile("nanosleep.u32 100;");
    }
    out[Threads + 0] = seen;
  }
  if (t == blockDim.x - 1)
    asm volatile("st.release.gpu.global.u32 [%0], 5;" :: "l"(flag) : "memory");
  unsigned long long c0, c1, g0, g1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  clocks[2 * t] = c1 - c0;
  clocks[2 * t + 1] = g1 - g0;
  // Odd threads leave; the barrier waits only for the others.
  if (t % 2)
    asm volatile("exit;");
  __syncthreads();
  out[Threads + 1 + t / 2] = t;
}

// ---- mbarriers (sm_80; the bulk copy, sm_90) ---------------------------------

__global__ void barriers(const unsigned *in, unsigned *out) {
#if __CUDA_ARCH__ >= 800
  __shared__ unsigned long long bar, bar2;
  __shared__ unsigned vals[Threads];
  __shared__ alignas(16) unsigned bulk[4];
  unsigned t = threadIdx.x;
  unsigned at = unsigned(__cvta_generic_to_shared(&bar));
  if (t == 0)
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(at), "r"(Threads) : "memory");
  __syncthreads();
  // Two phases of one barrier: each thread's write before its arrival is
  // seen by its neighbour after the wait.
  for (unsigned phase = 0; phase < 2; ++phase) {
    vals[t] = in[t] + phase;
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(at) : "memory");
    unsigned done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                   "selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(at), "l"(state) : "memory");
    out[phase * Threads + t] = vals[(t + 1) % Threads];
    __syncthreads(); // before vals is written again
  }
#endif
#if __CUDA_ARCH__ >= 900
  // A bulk copy that completes its bytes on an mbarrier of one arrival.
  unsigned at2 = unsigned(__cvta_generic_to_shared(&bar2));
  unsigned to = unsigned(__cvta_generic_to_shared(bulk));
  if (t == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;\n\t"
                 "fence.proxy.async.shared::cta;" :: "r"(at2) : "memory");
  }
  __syncthreads();
  if (t == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 16;\n\t"
                 "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%1], [%2], 16, [%0];"
                 :: "r"(at2), "r"(to), "l"(in + 8) : "memory");
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0;\n\t"
                 "selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(at2) : "memory");
  out[2 * Threads + t] = bulk[t % 4];
#endif
}

// ---- The host: references from the PTX ISA's definitions ----------------------

#include "include/devcheck.h"

#include <algorithm>
#include <cfenv>
#include <climits>

namespace {

unsigned bit(uint64_t v, int i) { return unsigned(v >> i & 1); }

unsigned refBfe(unsigned a, unsigned b, unsigned c, bool isSigned) {
  int msb = 31, pos = b & 0xff, len = c & 0xff;
  unsigned sbit = 0;
  if (isSigned && len != 0)
    sbit = bit(a, std::min(pos + len - 1, msb));
  unsigned d = 0;
  for (int i = 0; i <= msb; ++i)
    d |= ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) << i;
  return d;
}

unsigned refBfi(unsigned a, unsigned b, unsigned c, unsigned dd) {
  int msb = 31, pos = c & 0xff, len = dd & 0xff;
  unsigned f = b;
  for (int i = 0; i < len && pos + i <= msb; ++i)
    f = (f & ~(1u << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}

unsigned refBfind(unsigned a, bool isSigned, bool shiftAmount) {
  if (isSigned && int(a) < 0)
    a = ~a;
  unsigned d = 0xffffffff;
  for (int i = 31; i >= 0; --i)
    if (bit(a, i)) {
      d = i;
      break;
    }
  return shiftAmount && d != 0xffffffff ? 31 - d : d;
}

// prmt: the ISA's tables of selectors, d.b3 .. d.b0 for c[1:0] = 0..3.
unsigned refPrmt(unsigned a, unsigned b, unsigned c, const char *mode) {
  uint64_t both = uint64_t(b) << 32 | a;
  auto byteAt = [&](unsigned s) { return unsigned(both >> (8 * (s & 7)) & 0xff); };
  static const unsigned char tables[6][4][4] = {
      {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}}, // f4e
      {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}}, // ecr
      {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}}, // rc16
  };
  static const char *modes[6] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
  unsigned d = 0;
  for (int m = 0; m < 6; ++m)
    if (!std::strcmp(mode, modes[m])) {
      for (int i = 0; i < 4; ++i)
        d |= byteAt(tables[m][c & 3][3 - i]) << (8 * i);
      return d;
    }
  for (int i = 0; i < 4; ++i) {
    unsigned sel = c >> (4 * i) & 0xf, v = byteAt(sel);
    if (sel & 8)
      v = (v & 0x80) ? 0xff : 0;
    d |= v << (8 * i);
  }
  return d;
}

unsigned refLop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned d = 0;
  for (int i = 0; i < 32; ++i)
    d |= bit(lut, bit(a, i) << 2 | bit(b, i) << 1 | bit(c, i)) << i;
  return d;
}

// bmsk, as the ISA's pseudo-code states it.
unsigned refBmsk(unsigned a, unsigned b, bool clamp) {
  unsigned a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  unsigned mask0 = ~0u << a1;
  unsigned mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool overflow = sum >= 32;
  if (clamp) {
    if (a >= 32) {
      overflow = true;
      mask0 = 0;
    }
    if (b >= 32)
      overflow = true;
  }
  if (overflow)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  return mask0 & ~mask1;
}

unsigned refSzext(unsigned a, unsigned b, bool clamp, bool isSigned) {
  unsigned n = clamp ? std::min(b, 32u) : b & 0x1f;
  if (n == 0)
    return 0;
  if (n == 32)
    return a;
  unsigned field = a & ((1u << n) - 1);
  if (isSigned && bit(field, n - 1))
    field |= ~0u << n;
  return field;
}

unsigned hostBits(unsigned t, int k) {
  unsigned a = mix(t), b = mix(t + 1000), c = mix(t + 2000);
  unsigned pos = c & 0x3f, len = (c >> 8) & 0x3f, small = a >> (c & 31);
  int divisor = int(b | 1) == -1 ? 3 : int(b | 1);
  switch (k) {
  case BfeU: return refBfe(a, pos, len, false);
  case BfeS: return refBfe(a, pos, len, true);
  case Bfi: return refBfi(a, b, pos, len);
  case BfindU: return refBfind(small, false, false);
  case BfindS: return refBfind(unsigned(int(b) >> (c & 31)), true, false);
  case BfindShift: return refBfind(small, false, true);
  case Prmt: return refPrmt(a, b, c, "");
  case PrmtF4e: return refPrmt(a, b, c, "f4e");
  case PrmtB4e: return refPrmt(a, b, c, "b4e");
  case PrmtRc8: return refPrmt(a, b, c, "rc8");
  case PrmtEcl: return refPrmt(a, b, c, "ecl");
  case PrmtEcr: return refPrmt(a, b, c, "ecr");
  case PrmtRc16: return refPrmt(a, b, c, "rc16");
  case Lop3A: return refLop3(a, b, c, 0x96);
  case Lop3B: return refLop3(a, b, c, 0xe8);
  case ShfLWrap: return unsigned(((uint64_t(b) << 32 | a) << (pos & 31)) >> 32);
  case ShfRClamp: return unsigned((uint64_t(b) << 32 | a) >> std::min(pos, 32u));
  case BmskClamp: return refBmsk(pos, len, true);
  case BmskWrap: return refBmsk(pos, len, false);
  case SzextS: return refSzext(a, pos, true, true);
  case SzextU: return refSzext(a, pos, false, false);
  case Shl: return pos >= 32 ? 0 : a << pos;
  case ShrU: return pos >= 32 ? 0 : a >> pos;
  case ShrS: return unsigned(int(a) >> std::min(pos, 31u));
  case Popc: return unsigned(__builtin_popcount(a));
  case Clz: return small ? unsigned(__builtin_clz(small)) : 32;
  case Brev: {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i)
      r |= bit(a, i) << (31 - i);
    return r;
  }
  case Sad: return c + (a > b ? a - b : b - a);
  case MulHiS: return unsigned((int64_t(int(a)) * int(b)) >> 32);
  case MulWideLo: return unsigned(uint64_t(a) * b);
  case MulWideHi: return unsigned((uint64_t(a) * b) >> 32);
  case MadLo: return a * b + c;
  case DivS: return unsigned(int(a) / divisor);
  case RemU: return a % (b | 1);
  case MinS: return unsigned(std::min(int(a), int(b)));
  case MaxU: return std::max(a, b);
  case Setp: {
    bool r = c & 1, cmp = int(a) < int(b);
    return (cmp && !r ? 1 : 0) + (!cmp && !r ? 2 : 0);
  }
  case CvtSatU8: return unsigned(std::clamp(int(a) >> 22, 0, 255));
  case CvtS16: return unsigned(int(int16_t(uint16_t(a))));
  case Guarded: return a > b ? 7 + a : 9;
  case Scopes: return b + a;
  }
  return 0;
}

// ---- floats ----

template <class F> float inMode(int mode, F f) {
  std::fesetround(mode);
  volatile float r = f();
  std::fesetround(FE_TONEAREST);
  return r;
}

unsigned satInt(double v, double lo, double hi) {
  if (v != v)
    return 0;
  return v < lo ? unsigned(int64_t(lo)) : v > hi ? unsigned(int64_t(hi))
                                                 : unsigned(int64_t(v));
}

/// The expected bits of floats' result \p k (a float's, or an integer's).
unsigned hostFloat(const float *in, const double *in64, unsigned t, int k) {
  volatile float a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  volatile double d = in64[t];
  volatile int i = int(mix(t) | 1u);
  volatile float big = a * 4e9f, scaled = a * 1e3f;
  auto bits = [](float f) {
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  };
  switch (k) {
  case AddRz: return bits(inMode(FE_TOWARDZERO, [&] { return a + b; }));
  case MulRm: return bits(inMode(FE_DOWNWARD, [&] { return a * b; }));
  case FmaRp: return bits(inMode(FE_UPWARD, [&] { return std::fmaf(a, b, c); }));
  case DivRn: return bits(a / b);
  case SqrtRn: return bits(std::sqrt(std::fabs(a)));
  case CvtRniS32: return satInt(std::nearbyint(double(big)), INT_MIN, INT_MAX);
  case CvtRziS32: return satInt(std::trunc(double(scaled)), INT_MIN, INT_MAX);
  case CvtRmiU32: return satInt(std::floor(double(big)), 0, UINT_MAX);
  case CvtRnF32S32: return bits(float(i));
  case CvtRmF32S32: return bits(inMode(FE_DOWNWARD, [&] { return float(i); }));
  case CvtRzF32F64: return bits(inMode(FE_TOWARDZERO, [&] { return float(d); }));
  case CvtF16: return bits(float(_Float16(a)));
  case TestpFinite: return std::isfinite(a) ? 1 : 0;
  case TestpNan: return std::isnan(a) ? 1 : 0;
  case Copysign: return bits(std::copysign(c, b));
  }
  return 0;
}

int failures(const char *what, int i, unsigned got, unsigned want) {
  if (got == want)
    return 0;
  if (++devcheck::failures <= 10)
    std::printf("%s: FAIL %s[%d]: got 0x%08x expected 0x%08x\n",
                devcheck::fileName(), what, i, got, want);
  return 1;
}

// Bits, except that any two NaNs agree.
int floatFailures(const char *what, int i, unsigned got, unsigned want) {
  auto isNaN = [](unsigned u) { return (u & 0x7fffffff) > 0x7f800000; };
  return isNaN(got) && isNaN(want) ? 0 : failures(what, i, got, want);
}

} // namespace

int main() {
  Tol exact{"exact", 0};
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, warps));
  int arch = attributes.binaryVersion; // redux needs sm_80, elect sm_90

  std::vector<unsigned> zeros(N * 64, 0);
  unsigned *dBits = deviceCopy(zeros);
  bits<<<Blocks, Threads>>>(dBits);
  CHECK(cudaGetLastError());
  std::vector<unsigned> got = hostCopy(dBits, N * NumBits);
  for (unsigned t = 0; t < N; ++t)
    for (int k = 0; k < NumBits; ++k)
      failures("bits", int(t * NumBits + k), got[t * NumBits + k], hostBits(t, k));

  std::vector<float> in(3 * N);
  std::vector<double> in64(N);
  for (unsigned t = 0; t < N; ++t) {
    for (int k = 0; k < 3; ++k)
      in[3 * t + k] = floatOf(mix(3 * t + k), 20);
    in64[t] = double(in[3 * t]) + double(in[3 * t + 1]) * 1e-9;
  }
  unsigned *dFloats = deviceCopy(zeros);
  floats<<<Blocks, Threads>>>(deviceCopy(in), deviceCopy(in64), dFloats);
  CHECK(cudaGetLastError());
  got = hostCopy(dFloats, N * NumFloats);
  for (unsigned t = 0; t < N; ++t)
    for (int k = 0; k < NumFloats; ++k)
      floatFailures("floats", int(t * NumFloats + k), got[t * NumFloats + k],
                    hostFloat(in.data(), in64.data(), t, k));

  std::vector<Memory> start(1);
  Memory &s = start[0];
  std::memset(&s, 0, sizeof s);
  for (unsigned i = 0; i < 4 * N; ++i) {
    s.data[i] = mix(i + 7777);
    s.fdata[i] = floatOf(mix(i + 999), 10);
  }
  s.minimum = INT_MAX;
  Memory *dMemory = deviceCopy(start);
  memory<<<Blocks, Threads>>>(dMemory);
  CHECK(cudaGetLastError());
  Memory m = hostCopy(dMemory, 1)[0];
  unsigned incs = 0, decs = 0, casMax = 0, redSum = 0, fsum = 0;
  int minimum = INT_MAX;
  unsigned long long maximum = 0;
  for (unsigned t = 0; t < N; ++t) {
    const unsigned *l = m.loaded + 8 * t, *d = s.data + 4 * t;
    float sum = s.fdata[4 * t] + s.fdata[4 * t + 3];
    unsigned sumBits;
    std::memcpy(&sumBits, &sum, sizeof sumBits);
    failures("ld.v2.u32", t, l[0], d[0]);
    failures("ld.v2.u32", t, l[1], d[1]);
    floatFailures("ld.v4.f32", t, l[2], sumBits);
    failures("ld.s8", t, l[3], unsigned(int(int8_t(d[0] >> 16))));
    failures("ld.volatile.u16", t, l[4], d[1] & 0xffff);
    failures("ld.relaxed.u64", t, l[5], d[2] ^ d[3]);
    failures("ld.acquire.u32", t, l[6], d[3]);
    failures("cvta.shared", t, l[7], 1);
    failures("st.cg.v2", t, m.pairs[2 * t], t);
    failures("st.cg.v2", t, m.pairs[2 * t + 1], ~t);
    failures("st.relaxed.v2.u64", t, unsigned(m.wide[2 * t]), 3 * t);
    failures("st.relaxed.v2.u64", t, unsigned(m.wide[2 * t + 1]), 5 * t);
    failures("st.release", t, m.released[t], t + 7);
    failures("atom.exch", t, m.exch[t], t * 11);
    failures("ld/st.shared", t, m.shared[t], (t ^ 1) * (t ^ 1));
    bool async = arch >= 80;
    failures("cp.async", t, m.asyncCopy[4 * t], async ? d[0] : 0);
    failures("cp.async", t, m.asyncCopy[4 * t + 1], async ? d[1] : 0);
    failures("cp.async", t, m.asyncCopy[4 * t + 2], 0);
    failures("cp.async", t, m.asyncCopy[4 * t + 3], 0);
    incs = incs >= 99 ? 0 : incs + 1;
    decs = decs == 0 || decs > 50 ? 50 : decs - 1;
    minimum = std::min(minimum, int(mix(t)) >> 4);
    maximum = std::max(maximum, (unsigned long long)mix(t) << 20);
    casMax = std::max(casMax, mix(t + 5) >> 1);
    redSum += t;
    fsum += t % 7;
  }
  failures("atom.add.u32", 0, m.counter, N);
  failures("atom.inc", 0, m.incs, incs);
  failures("atom.dec", 0, m.decs, decs);
  failures("atom.min.s32", 0, unsigned(m.minimum), unsigned(minimum));
  failures("atom.max.u64", 0, unsigned(m.maximum >> 20), unsigned(maximum >> 20));
  // Integers and halves: exact in any order.
  failures("atom.add.f32", 0, unsigned(m.fsum), fsum);
  failures("atom.add.f64", 0, unsigned(m.dsum * 2), redSum);
  failures("red.or", 0, m.orBits, 0xffffffff);
  failures("red.add", 0, m.redSum, redSum);
  failures("atom.cas", 0, m.casMax, casMax);

  unsigned *dWarps = deviceCopy(zeros);
  warps<<<Blocks, Threads>>>(dWarps);
  CHECK(cudaGetLastError());
  got = hostCopy(dWarps, N * NumWarps);
  for (unsigned t = 0; t < N; ++t) {
    unsigned lane = t % 32, base = t - lane, tid = t % Threads;
    auto x = [&](unsigned l) { return mix(base + l); };
    unsigned idx = (lane & 0x18) | ((2 + 3 * t) % 11 & 7);
    unsigned ballot = 0, sameFifth = 0, add = 0, xorLow = 0;
    int least = INT_MAX;
    for (unsigned l = 0; l < 32; ++l) {
      ballot |= unsigned(x(l) % 3 == 0) << l;
      sameFifth |= unsigned(l / 5 == lane / 5) << l;
      add += x(l);
      least = std::min(least, int(x(l)));
      if (l < 16)
        xorLow ^= x(l);
    }
    unsigned want[NumWarps] = {
        lane >= 3 ? x(lane - 3) : x(lane), lane >= 3,
        lane + 5 <= 31 ? x(lane + 5) : x(lane), lane + 5 <= 31,
        x(lane ^ 7), x(idx), 1, ballot, tid < 32, 1, tid < 32, sameFifth,
        tid < 32 ? 0xffffffffu : 0, tid < 32,
        arch >= 80 ? add : 0, arch >= 80 ? unsigned(least) : 0,
        arch >= 80 && lane < 16 ? xorLow : 0,
        arch >= 90 && lane >= 4 ? 4u : 0, arch >= 90 && lane == 4,
        lane, (1u << lane) - 1, lane == 31 ? ~0u : (2u << lane) - 1, 1u << lane,
        ~((1u << lane) - 1), lane == 31 ? 0 : ~((2u << lane) - 1),
        (Threads + 4) / 5, 1, 1};
    for (int k = 0; k < NumWarps; ++k)
      failures("warps", int(t * NumWarps + k), got[t * NumWarps + k], want[k]);
  }

  unsigned *dControl = deviceCopy(zeros), *dFlag = deviceCopy(std::vector<unsigned>(1, 0));
  unsigned long long *dClocks =
      deviceCopy(std::vector<unsigned long long>(2 * Threads, 0));
  control<<<1, Threads>>>(dControl, dFlag, dClocks);
  CHECK(cudaGetLastError());
  got = hostCopy(dControl, 2 * Threads);
  std::vector<unsigned long long> clocks = hostCopy(dClocks, 2 * Threads);
  for (unsigned t = 0; t < Threads; ++t) {
    failures("loop", t, got[t], t * (t - 1) / 2);
    if (t % 2 == 0)
      failures("exit", t, got[Threads + 1 + t / 2], t);
    failures("clock64", t, clocks[2 * t] >> 63, 0);
    failures("globaltimer", t, clocks[2 * t + 1] >> 63, 0);
  }
  failures("spin", 0, got[Threads], 5);

  std::vector<unsigned> input(Threads);
  for (unsigned t = 0; t < Threads; ++t)
    input[t] = mix(t + 31);
  unsigned *dBarriers = deviceCopy(zeros);
  barriers<<<1, Threads>>>(deviceCopy(input), dBarriers);
  CHECK(cudaGetLastError());
  got = hostCopy(dBarriers, 3 * Threads);
  for (unsigned t = 0; t < Threads; ++t) {
    for (unsigned phase = 0; phase < 2; ++phase)
      failures("mbarrier", int(phase * Threads + t), got[phase * Threads + t],
               arch >= 80 ? input[(t + 1) % Threads] + phase : 0);
    failures("cp.async.bulk", int(t), got[2 * Threads + t],
             arch >= 90 ? input[8 + t % 4] : 0);
  }

  return finish("bits, floats, memory, warps, control and mbarriers vs the PTX ISA's "
                "definitions, 512 threads",
                {&exact});
}
