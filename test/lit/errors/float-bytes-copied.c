// A double copied byte by byte (an unsigned char loop, as at -O0) into a
// double that is read back: forward mode copies the tangent's bytes too, but
// reverse mode cannot move an adjoint through a byte of a double, so it is an
// error naming the store instead of a silent zero.  (Above -O0 the loop
// becomes one double copy and is differentiated; HIP's device memcpy, which
// is such a loop, is differentiated as memcpy.)
// RUN: not %gpuad-cc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %gpuad-cc -O0 -DFORWARD_ONLY -c %s -o /dev/null
// CHECK: float-bytes-copied.c:{{[0-9]+}}:{{[0-9]+}}: error: gpuad: cannot differentiate 'store i8 {{.*}}': it stores part of a float's bits, and reverse mode cannot move an adjoint through part of a float (copy whole values, or use memcpy)

double sin(double);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double f(double *x) {
  double w, t = x[0] * x[1];
  unsigned char *d = (unsigned char *)&w;
  const unsigned char *s = (const unsigned char *)&t;
  for (int i = 0; i < 8; ++i)
    d[i] = s[i];
  return sin(w);
}

double df(double *x, double *dx) {
#ifdef FORWARD_ONLY
  return __enzyme_fwddiff((void *)f, x, dx);
#else
  return __enzyme_autodiff((void *)f, x, dx);
#endif
}
