// The other ways to call __enzyme_batch, __enzyme_call_inactive and
// __enzyme_virtualreverse wrongly, and a function-like attribute on a
// function whose type is not the named function's: each an error at the
// call (or the function), never ignored.
// RUN: not %gpuad-cc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

#include <stdio.h>

typedef struct {
  double v[4];
} Vec4;
typedef struct {
  double v[8];
} Big;
extern int enzyme_width, enzyme_scalar;
Vec4 __enzyme_batch_none();
Vec4 __enzyme_batch(void *, ...);
double __enzyme_call_inactive(double, ...);
double __enzyme_call_inactive_ok(void *, ...);
Big __enzyme_call_inactive_big(void *, ...);
int __enzyme_call_inactive_int(void *, ...);
void *__enzyme_virtualreverse(double);

double sq(double x) { return x * x; }
double sum(int n, ...) { return n; }
Big big(double x) {
  Big b = {{x}};
  return b;
}

// CHECK-DAG: error: gpuad: 'like' does not have the type of 'log1p' (floating-point operands and result, 1 parameters)
__attribute__((noinline, enzyme_function_like("log1p"))) double
like(double a, double b) {
  return a * b;
}

double use(double x, double (*fp)(double), double *p) {
  double s = like(x, x);
  // CHECK-DAG: error: gpuad: __enzyme_batch: no function to evaluate
  s += __enzyme_batch_none().v[0];
  // CHECK-DAG: error: gpuad: __enzyme_batch: cannot tell which function to evaluate from '{{.*}}'; pass the function itself
  s += __enzyme_batch((void *)fp, enzyme_width, 4, x, x, x, x).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_batch: cannot batch variadic function 'sum'
  s += __enzyme_batch((void *)sum, enzyme_width, 4, 1, 2, 3, 4).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_batch: enzyme_width is given twice
  s += __enzyme_batch((void *)sq, enzyme_width, 4, enzyme_width, 4, x, x, x,
                      x).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_batch: expected a value for argument 1 of 'sq', found a marker
  s += __enzyme_batch((void *)sq, enzyme_width, 4, x, x, enzyme_scalar, x,
                      x).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_batch: argument 1 of 'sq' has type ptr, expected double
  s += __enzyme_batch((void *)sq, enzyme_width, 4, p, p, p, p).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_call_inactive takes the function to call first
  s += __enzyme_call_inactive(x, x);
  // CHECK-DAG: error: gpuad: __enzyme_call_inactive: a result returned through memory, or an invoke, is not supported
  s += __enzyme_call_inactive_big((void *)big, x).v[0];
  // CHECK-DAG: error: gpuad: __enzyme_call_inactive: 'sq' returns double, but the call declares i32
  s += __enzyme_call_inactive_int((void *)sq, x);
  // CHECK-DAG: error: gpuad: __enzyme_virtualreverse takes one pointer (a function or a vtable) and returns a pointer; got 'double {{.*}}'
  s += ((double (*)(double))__enzyme_virtualreverse(x))(x);
  return s + __enzyme_call_inactive_ok((void *)sq, x);
}
