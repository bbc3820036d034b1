// std::bind with std::placeholders::_1, as boost's odeint binds a stepper's
// member function: the placeholder is an empty class, a one-byte global the
// bound object's memory is merged with.  A byte holds no derivative, so it
// is its own shadow, not a global that "carries derivatives".  Reverse and forward mode against central differences and
// each other, at -O0 to -O3.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#include <functional>
#include <math.h>

struct System {
  double k;
  double step(double x) const { return x * sin(k) + k * k; }
};

double integrate(double k) {
  System s{k};
  auto step = std::bind(&System::step, std::cref(s), std::placeholders::_1);
  double x = 1.0;
  for (int i = 0; i < 4; ++i)
    x = step(x) * 0.5;
  return x;
}

int main(void) {
  double k = 0.7;
  double d = __enzyme_autodiff<double>((void *)integrate, k);
  check_close("std::bind reverse vs fd", d, gc_fd(integrate, k), GC_RTOL_D,
              GC_ATOL_D);
  double t = __enzyme_fwddiff<double>((void *)integrate, k, 1.0);
  check_close("std::bind forward vs reverse", t, d, GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  return gradcheck_exit();
}
