// A copy of more bytes than the record the types describe, of memory not
// known to repeat (pointers a noinline helper was given): the bytes beyond
// may hold floats nobody typed.  A constant length is an error naming the
// copy; a length known only at run time stops the derivative there with a
// message, and runs where it stays within the record.
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: %gpuad-cc -O0 -DRUNTIME_LENGTH %s -o %t -lm
// RUN: %t 1
// RUN: not --crash %t 3 2>&1 | FileCheck %s --check-prefix=RUNTIME
// CONST: copy-beyond-known-record.c:{{[0-9]+}}:{{[0-9]+}}: error: gpuad: cannot differentiate 'call void @llvm.memcpy{{.*}}': it copies 48 bytes of records whose types are known for 16 bytes only (copy the fields, or use a loop)
// RUNTIME: gpuad: the copy 'call void @llvm.memcpy{{.*}}' reached bytes of unknown type; its derivative would be wrong

#include <stdlib.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);

struct P {
  long id;
  double d;
};

#ifdef RUNTIME_LENGTH
__attribute__((noinline)) void copy(struct P *dst, const struct P *src,
                                    int n) {
  memcpy(dst, src, n * sizeof(struct P));
}
#else
__attribute__((noinline)) void copy(struct P *dst, const struct P *src,
                                    int n) {
  memcpy(dst, src, 3 * sizeof(struct P));
}
#endif

double f(double x, int n) {
  struct P a[3], b[3];
  for (int k = 0; k < 3; ++k) {
    a[k].id = k;
    a[k].d = x * (k + 1);
  }
  copy(b, a, n);
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += b[k].d * b[k].d;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1;
  double d = __enzyme_autodiff((void *)f, 1.5, n);
  return d == 2 * 1.5 ? 0 : 1;
}
