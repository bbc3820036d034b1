// __enzyme_batch and __enzyme_call_inactive called by an invoke (C++, a
// local with a destructor, declarations without noexcept): errors that say
// to call them directly; the whole pipeline then runs to an object.
// RUN: not %gpuad-cc -O0 -fverify-intermediate-code -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-DAG: error: gpuad: __enzyme_batch: an invoke of __enzyme_batch is not supported; call it
// CHECK-DAG: error: gpuad: __enzyme_call_inactive: a result returned through memory, or an invoke, is not supported
// CHECK-NOT: PLEASE submit

struct Vec4 {
  double v[4];
};
extern int enzyme_width;
Vec4 __enzyme_batch(...);
double __enzyme_call_inactive(...);

double sq(double x) { return x * x; }

struct Guard {
  ~Guard();
};

double use(double x) {
  Guard keep; // the calls below become invokes
  double s = __enzyme_batch((void *)sq, enzyme_width, 4, x, x, x, x).v[0];
  return s + __enzyme_call_inactive((void *)sq, x);
}
