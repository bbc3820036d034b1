// __enzyme_batch: a function evaluated for W lanes in one call, as Enzyme's
// batch mode is written: every parameter vectored by default (W values),
// enzyme_vector and enzyme_scalar explicitly, enzyme_buffer (one pointer and
// a byte stride), enzyme_width anywhere in the list; results in a struct,
// an array, a vector type and through an sret slot (a 64-byte struct), and
// a void function writing through each lane's pointer.  Batching a function
// that itself asks for a derivative gives W gradients in one call; they are
// checked against central finite differences and against single requests.
// Every batched value is compared with the function called lane by lane
// (exactly: the same operations).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: llvm-nm %t.O2 | FileCheck %s --check-prefix=SYM
// SYM-NOT: __enzyme

#include <gpuad/gpuad.h>
#include <gradcheck.h>

#include <math.h>

struct Vec4 {
  double v[4];
};
struct Vec8 {
  double v[8];
};
typedef double Double4 __attribute__((ext_vector_type(4)));

// Enzyme's form (a C-variadic declaration per result type) and gpuad.h's
// template, __enzyme_batch<Ret>.
extern Vec4 __enzyme_batch_4(...);
extern Vec8 __enzyme_batch_8(...);
extern Double4 __enzyme_batch_vec(...);
extern void __enzyme_batch_void(...);

double bump(double x, double scale) { return scale * x * exp(-x * x); }

// Each lane's record: its own pointer, or one buffer with a stride.
struct Record {
  double x, y, res;
  int tag;
};
void multiply(Record *r) { r->res = r->x * r->y + r->tag; }

double dbump(double x, double scale) {
  return __enzyme_autodiff((void *)bump, enzyme_out, x, enzyme_const, scale);
}

static void expect_lanes(const char *name, const double *got,
                         const double *want, int n) {
  char label[96];
  for (int i = 0; i < n; ++i) {
    snprintf(label, sizeof label, "%s lane %d", name, i);
    check_close(label, got[i], want[i], 0, 0);
  }
}

int main() {
  const double xs[8] = {0.1, -0.4, 0.9, 1.3, -1.7, 0.25, 2.0, -0.05};
  double want[8];

  // Default (vectored) and explicit markers, the width first or last.
  for (int i = 0; i < 4; ++i)
    want[i] = bump(xs[i], 1.5);
  Vec4 a = __enzyme_batch_4((void *)bump, enzyme_width, 4, xs[0], xs[1], xs[2],
                          xs[3], enzyme_scalar, 1.5);
  expect_lanes("default vector, scalar scale", a.v, want, 4);
  Vec4 b = __enzyme_batch<Vec4>((void *)bump, enzyme_vector, xs[0], xs[1], xs[2],
                          xs[3], enzyme_vector, 1.5, 1.5, 1.5, 1.5,
                          enzyme_width, 4);
  expect_lanes("enzyme_vector, width last", b.v, want, 4);
  Double4 c = __enzyme_batch_vec((void *)bump, enzyme_width, 4, xs[0], xs[1],
                                 xs[2], xs[3], enzyme_scalar, 1.5);
  double cv[4] = {c[0], c[1], c[2], c[3]};
  expect_lanes("vector result", cv, want, 4);

  // Width 8 through an sret slot.
  for (int i = 0; i < 8; ++i)
    want[i] = bump(xs[i], -0.5);
  Vec8 d = __enzyme_batch_8((void *)bump, enzyme_width, 8, xs[0], xs[1],
                            xs[2], xs[3], xs[4], xs[5], xs[6], xs[7],
                            enzyme_scalar, -0.5);
  expect_lanes("width 8, sret", d.v, want, 8);

  // A void function writing through each lane's pointer, and the same
  // records as one buffer with a stride.
  Record recs[4] = {{9, 10, 0, 0}, {33, 21, 0, 1}, {9.9, 1, 0, 2},
                    {0.314, 1, 0, 3}};
  double wantRes[4], gotRes[4];
  for (int i = 0; i < 4; ++i)
    wantRes[i] = recs[i].x * recs[i].y + recs[i].tag;
  __enzyme_batch_void((void *)multiply, enzyme_width, 4, &recs[0], &recs[1],
                      &recs[2], &recs[3]);
  for (int i = 0; i < 4; ++i)
    gotRes[i] = recs[i].res, recs[i].res = 0;
  expect_lanes("void, one pointer per lane", gotRes, wantRes, 4);
  __enzyme_batch_void((void *)multiply, enzyme_width, 4, enzyme_buffer,
                      (long)sizeof(Record), recs);
  for (int i = 0; i < 4; ++i)
    gotRes[i] = recs[i].res;
  expect_lanes("void, enzyme_buffer", gotRes, wantRes, 4);

  // Four gradients in one call: against single requests (exactly) and
  // central differences.
  Vec4 g = __enzyme_batch<Vec4>((void *)dbump, enzyme_width, 4, xs[0], xs[1], xs[2],
                          xs[3], enzyme_scalar, 1.5);
  for (int i = 0; i < 4; ++i)
    want[i] = dbump(xs[i], 1.5);
  expect_lanes("batched gradient vs single", g.v, want, 4);
  for (int i = 0; i < 4; ++i) {
    double h = gc_step_d(xs[i]);
    double fd = (bump(xs[i] + h, 1.5) - bump(xs[i] - h, 1.5)) / (2 * h);
    char label[64];
    snprintf(label, sizeof label, "batched gradient lane %d fd", i);
    check_close(label, g.v[i], fd, GC_RTOL_D, GC_ATOL_D);
  }
  return gradcheck_exit();
}
