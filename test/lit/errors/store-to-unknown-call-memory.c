// A pointer returned by a function whose body is in another file: gpuad
// cannot give its memory a shadow.  An active value stored there and read
// back would lose its derivative; it is an error naming the store (before,
// d/dx was silently 0).  Storing through it values without derivatives is
// fine.
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %gpuad-cc -O2 -c -DCONSTANT_ONLY %s -o /dev/null
// CHECK: store-to-unknown-call-memory.c:{{[0-9]+}}:{{[0-9]+}}: error: gpuad: an active value is stored to memory gpuad cannot give a shadow ('{{.*}}call ptr @buffer(){{.*}}', from code it cannot see into), and may be read back

double *buffer(void); // defined elsewhere

double __enzyme_autodiff(void *, ...);

double f(double x) {
#ifdef CONSTANT_ONLY
  buffer()[0] = 2.0;
#else
  buffer()[0] = x * x;
#endif
  return buffer()[0] * x;
}

double df(double x) { return __enzyme_autodiff((void *)f, x); }
