// Structs that hold pointers to active data (array views): the shadow struct
// holds the shadow pointers.  Reading through a view, writing through an
// output view, copying a view by assignment, a linked list of nodes whose
// values are active, and a view built inside the function from arguments.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

struct view { double *data; int n; int stride; };

/* Weighted sum of squares through a strided view. */
double view_norm2(const struct view *v) {
  double s = 0.0;
  for (int i = 0; i < v->n; ++i) {
    double e = v->data[i * v->stride];
    s += e * e * (1.0 + i);
  }
  return s;
}

/* out->data[i] = exp(in->data[i]) * k, with a local copy of the views. */
void view_map(const struct view *in, const struct view *out, double k) {
  struct view a = *in, b = *out;
  for (int i = 0; i < a.n; ++i)
    b.data[i * b.stride] = exp(a.data[i * a.stride]) * k;
}

/* A view built inside from raw arguments, then passed to a noinline helper. */
__attribute__((noinline)) double view_sum_cubes(struct view v) {
  double s = 0.0;
  for (int i = 0; i < v.n; ++i)
    s += v.data[i * v.stride] * v.data[i * v.stride] * v.data[i * v.stride];
  return s;
}
double built_view(double *x, int n) {
  struct view v = {x, n / 2, 2};
  return view_sum_cubes(v) + x[1];
}

struct node { double value; struct node *next; };
/* Horner over a linked list: ((v0 t + v1) t + v2) ... */
double list_horner(const struct node *head, double t) {
  double s = 0.0;
  for (const struct node *p = head; p; p = p->next)
    s = s * t + p->value;
  return s;
}

int main(void) {
  char nm[96];
  double x[8] = {0.5, -1.0, 1.5, 0.25, -0.75, 2.0, 1.25, -0.5};
  double dx[8] = {1.0, 0.5, -1.0, 2.0, 0.0, 0.25, -0.5, 1.5};
  struct view v = {x, 4, 2}, dv = {dx, 4, 2};
  double d = __enzyme_fwddiff((void *)view_norm2, enzyme_dup, &v, &dv);
  double want = 0.0;
  for (int i = 0; i < 4; ++i)
    want += 2.0 * x[2 * i] * dx[2 * i] * (1.0 + i);
  check_close("view_norm2 exact", d, want, 1e-14, 1e-15);

  double y[4] = {0}, dy[4] = {9, 9, 9, 9};
  struct view out = {y, 4, 1}, dout = {dy, 4, 1};
  __enzyme_fwddiff((void *)view_map, enzyme_dup, &v, &dv, enzyme_dup, &out, &dout, enzyme_dup, 0.5,
                   2.0);
  for (int i = 0; i < 4; ++i) {
    snprintf(nm, sizeof nm, "view_map dy[%d] exact", i);
    check_close(nm, dy[i], exp(x[2 * i]) * (dx[2 * i] * 0.5 + 2.0), 1e-14, 1e-15);
  }
  check_close("view_map primal y[2]", y[2], exp(x[4]) * 0.5, 1e-15, 0.0);

  d = __enzyme_fwddiff((void *)built_view, enzyme_dup, x, dx, 8);
  want = dx[1];
  for (int i = 0; i < 4; ++i)
    want += 3.0 * x[2 * i] * x[2 * i] * dx[2 * i];
  check_close("built_view exact", d, want, 1e-14, 1e-15);

  struct node nodes[4], dnodes[4];
  for (int i = 0; i < 4; ++i) {
    nodes[i].value = x[i];
    nodes[i].next = i < 3 ? &nodes[i + 1] : NULL;
    dnodes[i].value = dx[i];
    dnodes[i].next = i < 3 ? &dnodes[i + 1] : NULL;
  }
  double t = 0.8;
  d = __enzyme_fwddiff((void *)list_horner, enzyme_dup, nodes, dnodes, enzyme_dup, t, 0.5);
  want = ((dx[0] * t + dx[1]) * t + dx[2]) * t + dx[3] +
         0.5 * (3 * x[0] * t * t + 2 * x[1] * t + x[2]);
  check_close("list_horner exact", d, want, 1e-14, 1e-15);
  return gradcheck_exit();
}
