// __enzyme_batch called wrongly: each mistake is an error at the call.
// RUN: not %gpuad-cc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

typedef struct {
  double v[4];
} Vec4;
typedef struct {
  double v[3];
} Vec3;
extern int enzyme_width, enzyme_scalar, enzyme_vector, enzyme_buffer,
    enzyme_dup;
Vec4 __enzyme_batch(void *, ...);
Vec3 __enzyme_batch_three(void *, ...);

double sq(double x, double k) { return k * x * x; }

double use(double x) {
  double s = 0;
  // CHECK: error: gpuad: __enzyme_batch: too few arguments: argument 1 of 'sq' needs 4 value(s) (one per lane)
  s += __enzyme_batch((void *)sq, enzyme_width, 4, x, x).v[0];
  // CHECK: error: gpuad: __enzyme_batch: marker 'enzyme_dup' is not one of __enzyme_batch's (enzyme_scalar, enzyme_vector, enzyme_buffer, enzyme_width)
  s += __enzyme_batch((void *)sq, enzyme_width, 4, enzyme_dup, x, x).v[0];
  // CHECK: error: gpuad: __enzyme_batch: enzyme_width needs a compile-time constant between 1 and 64
  s += __enzyme_batch((void *)sq, enzyme_width, (int)x, x, x).v[0];
  // CHECK: error: gpuad: __enzyme_batch: too many arguments: 'sq' takes 2 parameter(s); extra value 'double 2.000000e+00'
  s += __enzyme_batch((void *)sq, enzyme_width, 4, x, x, x, x, enzyme_scalar,
                      1.0, 2.0).v[0];
  // CHECK: error: gpuad: __enzyme_batch: the call declares its result as {{.*}}[3 x double] }, but 'sq' at width 4 returns 4 value(s) of type double (declare a struct, array or vector of them)
  s += __enzyme_batch_three((void *)sq, enzyme_width, 4, x, x, x, x,
                            enzyme_scalar, 1.0).v[0];
  // CHECK: error: gpuad: __enzyme_batch: enzyme_buffer takes an integer byte stride and a pointer, for a pointer parameter (argument 1 of 'sq')
  s += __enzyme_batch((void *)sq, enzyme_width, 4, enzyme_buffer, 8L, &x,
                      enzyme_scalar, 1.0).v[0];
  return s;
}
