// __enzyme_virtualreverse, as Enzyme's programs use it to build shadows that
// hold function pointers: the shadow of a struct's callback field, and the
// vptr of a shadow object (C++ virtual calls through the primal object).
// gpuad dispatches calls through pointers on the primal pointer, so the
// shadow of a function (or vtable) is itself; the derivatives must come out
// right with the shadows built this way.  Checked against the analytic
// derivative and forward mode.  At -O0 the vptr given is the one loaded from
// the shadow object at run time (Enzyme needs -O2 there, where it folds to
// the constant vtable).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 && %t.O3
// RUN: llvm-nm %t.O2 | FileCheck %s --check-prefix=SYM
// SYM-NOT: __enzyme

#include <gpuad/gpuad.h>
#include <revcheck.h>

template <typename T> T __enzyme_virtualreverse(T);

struct Callback {
  double (*fn)(double);
  double val;
};

double square(double x) { return x * x; }
double through(Callback *s) { return s->fn(s->val) * s->val; } // val^3

struct Object {
  virtual double eval(double v) = 0;
  double val;
};
struct Scaled : Object {
  double eval(double v) override { return val * v * v; }
};
struct Shifted : Object {
  double eval(double v) override { return val + v; }
};
double eval(Object &o, double v) { return o.eval(v); }

int main() {
  Callback s{square, 3.0}, ds{};
  ds.fn = __enzyme_virtualreverse(&square);
  ds.val = 0;
  __enzyme_autodiff<void>((void *)through, enzyme_dup, &s, &ds);
  check_close("callback field, d/dval val^3", ds.val, 27.0, 0, 0);
  Callback ts{square, 1.0};
  ts.fn = __enzyme_virtualreverse(&square);
  double t = __enzyme_fwddiff<double>((void *)through, enzyme_dup, &s, &ts);
  check_close("callback field, forward", t, 27.0, 0, 0);

  Object *o = new Scaled(), *d_o = new Scaled();
  o->val = 2;
  *(void **)d_o = __enzyme_virtualreverse(*(void **)d_o);
  d_o->val = 0;
  double dv = __enzyme_autodiff<double>((void *)eval, enzyme_dup, o, d_o,
                                        enzyme_out, 10.0);
  check_close("vtable shadow, d/dv val v^2", dv, 2 * 2 * 10.0, 0, 0);
  check_close("vtable shadow, d/dval val v^2", d_o->val, 100.0, 0, 0);
  Object *p = new Shifted(), *d_p = new Shifted();
  p->val = 2;
  *(void **)d_p = __enzyme_virtualreverse(*(void **)d_p);
  d_p->val = 0;
  dv = __enzyme_autodiff<double>((void *)eval, enzyme_dup, p, d_p, enzyme_out,
                                 10.0);
  check_close("vtable shadow, d/dv val + v", dv, 1.0, 0, 0);
  check_close("vtable shadow, d/dval val + v", d_p->val, 1.0, 0, 0);
  delete o;
  delete d_o;
  delete p;
  delete d_p;
  return gradcheck_exit();
}
