// Two of Enzyme's markers beyond the common ones:
//  - enzyme_dupnoneedv, stride, x, base: as enzyme_dupv (lane v's shadow at
//    base + v*stride bytes), the primal result not needed;
//  - enzyme_not_overwritten before an argument of a split request: a promise
//    gpuad does not need (it assumes the memory may change), accepted.
// Forward mode at width 2 and split reverse mode, against the analytic
// derivative of f(x) = x0^2 x1 + sin(x1), and each other (dot product).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <math.h>

extern int enzyme_dupnoneedv, enzyme_not_overwritten;

typedef struct {
  double d[2];
} Vec2;
Vec2 __enzyme_fwddiff_w2(void *, ...);
typedef struct {
  void *tape;
  double primal;
} Aug;
Aug __enzyme_augmentfwd_aug(void *, ...);

double f(double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }

int main(void) {
  double x[2] = {0.6, -0.3};
  double grad[2] = {2 * x[0] * x[1], x[0] * x[0] + cos(x[1])};
  // The two unit directions, 24 bytes apart in one buffer.
  double dirs[6] = {1, 0, 0, 0, 1, 0};
  Vec2 t = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dupnoneedv,
                               (long)(3 * sizeof(double)), x, dirs);
  check_close("dupnoneedv lane 0", t.d[0], grad[0], GC_RTOL_D, GC_ATOL_D);
  check_close("dupnoneedv lane 1", t.d[1], grad[1], GC_RTOL_D, GC_ATOL_D);

  double dx[2] = {0, 0};
  Aug a = __enzyme_augmentfwd_aug((void *)f, enzyme_not_overwritten,
                                  enzyme_dup, x, dx);
  __enzyme_reverse((void *)f, enzyme_not_overwritten, enzyme_dup, x, dx, 1.0,
                   a.tape);
  check_close("split with not_overwritten, primal", a.primal, f(x), 0, 0);
  check_close("split with not_overwritten, d/dx0", dx[0], grad[0], GC_RTOL_D,
              GC_ATOL_D);
  check_close("split with not_overwritten, d/dx1", dx[1], grad[1], GC_RTOL_D,
              GC_ATOL_D);
  // <J e_k, 1> = <e_k, J^T 1>
  check_close("<J e0, 1> = <e0, J^T 1>", t.d[0], dx[0], GC_RTOL_DOT,
              GC_ATOL_DOT);
  check_close("<J e1, 1> = <e1, J^T 1>", t.d[1], dx[1], GC_RTOL_DOT,
              GC_ATOL_DOT);
  return gradcheck_exit();
}
