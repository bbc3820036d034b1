// A global table of pointers to objects (Shape *), read in the
// differentiated function.  Objects without active data leave the table
// inactive: it needs no shadow.  Objects the function writes active data
// into get shadow globals, and the table's shadow points at them (its
// initializer is the shadow of the table's).  Reverse mode against finite
// differences, forward mode by the dot-product test, width 2 against single
// runs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <cstring>

#define N 6

struct Shape {
  int kind;
  double scale;
  double area(double r) const { return kind == 0 ? scale * r * r : scale * r; }
};

static Shape circle{0, 3.14159}, segment{1, 2.0};
Shape *shapes[2] = {&circle, &segment};

// The shapes only hold constants.
double table(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += shapes[i % 2]->area(x[i]);
  return s;
}
GC_SCALAR_OF_ARRAY(table)

Shape square{0, 1.0}, ring{1, 1.0};
Shape *scaled[2] = {&square, &ring};

// The function sets the shapes' scales from x, then reads them through the
// table.  The scales it leaves behind are outputs too: their shadows seed
// their adjoints in reverse mode, so each run starts from zero shadows.
extern Shape square_shadow, ring_shadow, square_shadow_1, ring_shadow_1;
static void zeroShadows() {
  square_shadow.scale = ring_shadow.scale = 0.0;
  square_shadow_1.scale = ring_shadow_1.scale = 0.0;
}

double rescaled(double *x, int n) {
  scaled[0]->scale = std::exp(0.1 * x[0]);
  scaled[1]->scale = x[1] * x[1];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += scaled[i % 2]->area(x[i]);
  return s;
}
GC_SCALAR_OF_ARRAY(rescaled)

int main() {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(table, x, N);
  double xs[N], g[N] = {0}, v[N], t[N], one = 1.0;
  double lanes[2 * N] = {0}, singles[2 * N];
  int n = N;
  memcpy(xs, x, sizeof x);
  zeroShadows();
  __enzyme_autodiff((void *)rescaled, enzyme_dup, xs, g, N);
  gc_check_vjp("rescaled", rescaled_vec, x, N, 1, &n, &one, g);
  gc_direction(v, N, 1);
  memcpy(t, v, sizeof t);
  zeroShadows();
  double jv = __enzyme_fwddiff<double>((void *)rescaled, enzyme_dup, xs, t, N);
  gc_check_dot("rescaled", v, g, N, &jv, &one, 1);
  zeroShadows();
  __enzyme_autodiff((void *)rescaled, enzyme_width, 2, enzyme_dupv,
                    (int)sizeof x, xs, lanes, N);
  memcpy(singles, g, sizeof g);
  memcpy(singles + N, g, sizeof g);
  gc_check_lanes("rescaled width 2", lanes, singles, N, 2);
  return gradcheck_exit();
}
