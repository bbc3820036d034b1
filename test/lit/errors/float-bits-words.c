// A double split into two 32-bit words and joined again by a noinline
// function: its derivative would be lost, so it is an error naming the value
// where the bits leave the differentiated data, at -O0 (the helper calls that
// convert the bits are not inlined) and at -O2.
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: not %gpuad-cc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O2
// O0: float-bits-words.c:{{[0-9]+}}:{{[0-9]+}}: error: gpuad: cannot differentiate '{{.*}} = call i64 @to_bits({{.*}})': this integer may hold the bits of a floating-point value that carries a derivative
// O2: float-bits-words.c:{{[0-9]+}}:{{[0-9]+}}: error: gpuad: cannot differentiate '{{.*}} = lshr i64 {{.*}}, 32': it computes with the bits of a floating-point value

#include <stdint.h>
#include <string.h>
double __enzyme_fwddiff(void *, ...);
static uint64_t to_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double from_bits(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
__attribute__((noinline)) uint64_t join(uint32_t hi, uint32_t lo) {
  return ((uint64_t)hi << 32) | lo;
}
double words(double x) {
  uint64_t b = to_bits(x * x);
  uint32_t hi = b >> 32, lo = (uint32_t)b;
  return from_bits(join(hi, lo));
}
double dwords(double x) { return __enzyme_fwddiff((void *)words, x, 1.0); }
