// enzyme::autodiff<Forward> (include/enzyme/enzyme): scalars, pointers,
// references, classes by value (split into registers and in memory), a
// returned class (in registers and through sret), const arguments, function
// objects, width 2 (BatchDuplicated), ForwardWithPrimal and the return
// activities.  Tangents are compared with analytic values (GC_RTOL_EXACT),
// central differences (fd, GC_RTOL_D; floats GC_RTOL_F) and, for width 2,
// with two single runs (GC_RTOL_LANES).
// RUN: %gpuad-cc -std=c++17 -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -std=c++17 -O2 %itest-flags %s -o %t.O2 && %t.O2

#include <enzyme/enzyme>

#include "cxxapi.h"

#include <type_traits>

using enzyme::BatchDuplicated;
using enzyme::Const;
using enzyme::Duplicated;
using enzyme::DuplicatedNoNeed;
using enzyme::Forward;
using enzyme::ForwardWithPrimal;
using enzyme::get;

static void scalars() {
  double x = 0.7;
  double t = get<0>(enzyme::autodiff<Forward>(wave, Duplicated{x, 1.0}));
  check_close("wave'", t, dwave(x), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("wave' fd", t, fd([&](double h) { return wave(x + h); }),
              GC_RTOL_D, GC_ATOL_D);
  auto [p, t2] = enzyme::autodiff<ForwardWithPrimal>(wave, Duplicated{x, 2.0});
  check_close("wave primal", p, wave(x), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("wave' * 2", t2, 2 * dwave(x), GC_RTOL_EXACT, GC_ATOL_EXACT);

  // Two inputs and a Const integer: each partial, then a direction.
  double y = -1.3;
  double dx = get<0>(enzyme::autodiff<Forward>(mix, Duplicated{x, 1.0},
                                               Duplicated{y, 0.0}, Const{3}));
  double dy = get<0>(enzyme::autodiff<Forward>(mix, Duplicated{x, 0.0},
                                               Duplicated{y, 1.0}, Const{3}));
  check_close("mix d/dx", dx, 6 * x * y, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("mix d/dy", dy, 3 * x * x - std::sin(y), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  double dv = get<0>(enzyme::autodiff<Forward>(mix, DuplicatedNoNeed{x, 0.5},
                                               Duplicated{y, -2.0}, Const{3}));
  check_close("mix along (0.5, -2)", dv, 0.5 * dx - 2 * dy, GC_RTOL_EXACT,
              GC_ATOL_EXACT);

  // float.
  float xf = 0.7f;
  float tf = get<0>(enzyme::autodiff<Forward>(wavef, Duplicated{xf, 1.0f}));
  check_close("wavef' fd", tf, gc_fdf(wavef, xf), GC_RTOL_F, GC_ATOL_F);
  check_close("wavef'", tf, dwave(xf), GC_RTOL_EXACTF, GC_ATOL_EXACTF);
}

static void pointers_and_references() {
  // Pointers: dot(a, b) along (da, db).
  const int n = 5;
  double a[n], b[n], da[n], db[n];
  gc_direction(a, n, 1);
  gc_direction(b, n, 2);
  gc_direction(da, n, 3);
  gc_direction(db, n, 4);
  double t = get<0>(
      enzyme::autodiff<Forward>(dot, Duplicated<const double *>{a, da},
                                Duplicated<const double *>{b, db}, Const{n}));
  check_close("dot tangent fd", t, fd([&](double h) {
                double ah[n], bh[n];
                for (int i = 0; i < n; ++i) {
                  ah[i] = a[i] + h * da[i];
                  bh[i] = b[i] + h * db[i];
                }
                return dot(ah, bh, n);
              }),
              GC_RTOL_D, GC_ATOL_D);

  // A void function: the tangent of its output lands in the shadow.
  double out[n], dout[n];
  auto none = enzyme::autodiff<Forward>(
      square_into, DuplicatedNoNeed{out, dout},
      Duplicated<const double *>{a, da}, Duplicated{1.5, 0.25}, Const{n});
  static_assert(std::tuple_size_v<decltype(none)> == 0);
  for (int i = 0; i < n; ++i)
    check_close("square_into tangent", dout[i],
                0.25 * a[i] * a[i] + 3 * a[i] * da[i], GC_RTOL_EXACT,
                GC_ATOL_EXACT);

  // References: const (a tangent passed by reference) and in place.
  double x = 0.6, y = -0.8;
  double tn = get<0>(
      enzyme::autodiff<Forward>(norm2, Duplicated<const double &>{x, 0.3},
                                Duplicated<const double &>{y, 1.0}));
  check_close("norm2 tangent", tn, (0.3 * x + y) / norm2(x, y), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  // A value wrapper for a const reference parameter works too.
  double tn2 = get<0>(
      enzyme::autodiff<Forward>(norm2, Duplicated{x, 0.3}, Duplicated{y, 1.0}));
  check_close("norm2 tangent (values)", tn2, tn, 0, 0);
  // Pointers for reference parameters, as Enzyme's C++ API takes them.
  double tx = 0.3, ty = 1.0;
  double tn3 = get<0>(enzyme::autodiff<Forward>(
      norm2, Duplicated<double *>{&x, &tx}, Duplicated<double *>{&y, &ty}));
  check_close("norm2 tangent (pointers)", tn3, tn, 0, 0);
  double tn4 = get<0>(enzyme::autodiff<Forward>(
      norm2, Duplicated<double *>{&x, &tx}, Const<const double *>{&y}));
  check_close("norm2 tangent (pointer, Const pointer)", tn4,
              0.3 * x / norm2(x, y), GC_RTOL_EXACT, GC_ATOL_EXACT);
  double rx = x, ry = y, drx = 1.0, dry = 0.5, th = 0.4;
  enzyme::autodiff<Forward>(rotate, Duplicated<double &>{rx, drx},
                            Duplicated<double &>{ry, dry}, Duplicated{th, 2.0});
  auto rotated = [&](double h, int k) {
    double u = x + h, v = y + 0.5 * h;
    rotate(u, v, th + 2 * h);
    return k ? v : u;
  };
  check_close("rotate x", rx, rotated(0, 0), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("rotate dx fd", drx, fd([&](double h) { return rotated(h, 0); }),
              GC_RTOL_D, GC_ATOL_D);
  check_close("rotate dy fd", dry, fd([&](double h) { return rotated(h, 1); }),
              GC_RTOL_D, GC_ATOL_D);

  // A pointer to classes.
  V3 v[2] = {{0.5, 1.5, -0.5}, {2.0, -1.0, 0.25}};
  V3 dv[2] = {{1, 0, 0.5}, {0, -1, 1}};
  double ts = get<0>(enzyme::autodiff<Forward>(
      sum_sq, Duplicated<const V3 *>{v, dv}, Const{2}));
  check_close("sum_sq tangent fd", ts, fd([&](double h) {
                V3 w[2] = {v[0] + h * dv[0], v[1] + h * dv[1]};
                return sum_sq(w, 2);
              }),
              GC_RTOL_D, GC_ATOL_D);
}

static void classes() {
  // Classes by value: V3 in memory, V2 in two registers, Mixed constant.
  V3 a{0.3, -1.2, 0.8}, b{1.1, 0.4, -0.6}, da{1, 0.5, -1}, db{0, 2, 0.5};
  double t = get<0>(enzyme::autodiff<Forward>(cross_norm, Duplicated{a, da},
                                              Duplicated{b, db}));
  check_close("cross_norm tangent fd", t,
              fd([&](double h) { return cross_norm(a + h * da, b + h * db); }),
              GC_RTOL_D, GC_ATOL_D);
  V2 p{0.8, 0.6}, dp{-0.5, 1.0};
  Mixed m{1.5, 2};
  double tw =
      get<0>(enzyme::autodiff<Forward>(weigh, Duplicated{p, dp}, Const{m}));
  check_close("weigh tangent", tw, 3.0 * (p.x * dp.y - p.y * dp.x), 1e-12,
              1e-14);

  // Returned classes: V2 in registers, V3 through an sret slot.
  double r = 1.3, th = 0.7;
  auto [pp, tp] = enzyme::autodiff<ForwardWithPrimal>(polar, Duplicated{r, 0.5},
                                                      Duplicated{th, -1.0});
  check_close("polar primal x", pp.x, r * std::cos(th), GC_RTOL_EXACT, 0);
  check_close("polar tangent x", tp.x, 0.5 * std::cos(th) + r * std::sin(th),
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("polar tangent y", tp.y, 0.5 * std::sin(th) - r * std::cos(th),
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  V3 ts = get<0>(
      enzyme::autodiff<Forward>(spin, Duplicated{a, da}, Duplicated{th, 0.5}));
  auto spun = [&](double h) { return spin(a + h * da, th + 0.5 * h); };
  check_close("spin tangent x fd", ts.x,
              fd([&](double h) { return spun(h).x; }), GC_RTOL_D, GC_ATOL_D);
  check_close("spin tangent y fd", ts.y,
              fd([&](double h) { return spun(h).y; }), GC_RTOL_D, GC_ATOL_D);
  check_close("spin tangent z fd", ts.z,
              fd([&](double h) { return spun(h).z; }), GC_RTOL_D, GC_ATOL_D);
}

static void width2() {
  // Both partials of mix in one call, against the single runs.
  double x = 0.7, y = -1.3;
  auto [lanes] =
      enzyme::autodiff<Forward>(mix, BatchDuplicated{x, 1.0, 0.0},
                                BatchDuplicated{y, 0.0, 1.0}, Const{3});
  static_assert(std::is_same_v<decltype(lanes), std::array<double, 2>>);
  double single[2] = {
      get<0>(enzyme::autodiff<Forward>(mix, Duplicated{x, 1.0},
                                       Duplicated{y, 0.0}, Const{3})),
      get<0>(enzyme::autodiff<Forward>(mix, Duplicated{x, 0.0},
                                       Duplicated{y, 1.0}, Const{3}))};
  gc_check_lanes("mix width 2", lanes.data(), single, 1, 2);

  // Pointer shadows, and a returned class with its primal.
  const int n = 4;
  double a[n], b[n], da0[n], da1[n], zero[n] = {0, 0, 0, 0};
  gc_direction(a, n, 5);
  gc_direction(b, n, 6);
  gc_direction(da0, n, 7);
  gc_direction(da1, n, 8);
  auto [dl] = enzyme::autodiff<Forward>(
      dot, BatchDuplicated<const double *, 2>{a, da0, da1},
      BatchDuplicated<const double *, 2>{b, zero, zero}, Const{n});
  double ds[2] = {get<0>(enzyme::autodiff<Forward>(
                      dot, Duplicated<const double *>{a, da0},
                      Duplicated<const double *>{b, zero}, Const{n})),
                  get<0>(enzyme::autodiff<Forward>(
                      dot, Duplicated<const double *>{a, da1},
                      Duplicated<const double *>{b, zero}, Const{n}))};
  gc_check_lanes("dot width 2", dl.data(), ds, 1, 2);

  V3 v{0.3, -1.2, 0.8}, dv0{1, 0, 0}, dv1{0, 1, 1};
  auto [primal, tl] = enzyme::autodiff<ForwardWithPrimal>(
      spin, BatchDuplicated{v, dv0, dv1}, BatchDuplicated{0.7, 0.0, 1.0});
  V3 s0 = get<0>(enzyme::autodiff<Forward>(spin, Duplicated{v, dv0},
                                           Duplicated{0.7, 0.0}));
  V3 s1 = get<0>(enzyme::autodiff<Forward>(spin, Duplicated{v, dv1},
                                           Duplicated{0.7, 1.0}));
  check_close("spin width 2 primal", primal.z, spin(v, 0.7).z, 0, 0);
  double got[6] = {tl[0].x, tl[0].y, tl[0].z, tl[1].x, tl[1].y, tl[1].z};
  double want[6] = {s0.x, s0.y, s0.z, s1.x, s1.y, s1.z};
  gc_check_lanes("spin width 2", got, want, 3, 2);
}

static void objects_and_return_activities() {
  Quadratic q{2.0, -0.5};
  double x = 1.2, y = 0.4;
  double t = get<0>(enzyme::autodiff<Forward>(q, Duplicated{x, 1.0}, Const{y}));
  check_close("function object", t, 4 * x - 0.5 * y, GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  double k = 3;
  auto lambda = [&k](double u, const double *w) { return k * u * u * w[1]; };
  double w[2] = {0.5, -2.0}, dw[2] = {0, 1};
  double tl = get<0>(enzyme::autodiff<Forward>(
      lambda, Duplicated{x, 0.5}, Duplicated<const double *>{w, dw}));
  check_close("lambda", tl, k * (2 * x * 0.5 * w[1] + x * x * dw[1]),
              GC_RTOL_EXACT, GC_ATOL_EXACT);

  // Return activities (Enzyme's second template argument).
  auto c = enzyme::autodiff<Forward, Const<double>>(wave, Duplicated{x, 1.0});
  static_assert(std::tuple_size_v<decltype(c)> == 1);
  check_close("Const return: the primal", get<0>(c), wave(x), 0, 0);
  auto d =
      enzyme::autodiff<Forward, Duplicated<double>>(wave, Duplicated{x, 1.0});
  check_close("Duplicated return: primal", get<0>(d), wave(x), 0, 0);
  check_close("Duplicated return: tangent", get<1>(d), dwave(x), GC_RTOL_EXACT,
              GC_ATOL_EXACT);

  // The gpuad:: names.
  double g = gpuad::get<0>(
      gpuad::autodiff<gpuad::Forward>(wave, gpuad::Duplicated{x, 1.0}));
  check_close("gpuad::autodiff", g, dwave(x), GC_RTOL_EXACT, GC_ATOL_EXACT);
}

int main() {
  scalars();
  pointers_and_references();
  classes();
  width2();
  objects_and_return_activities();
  return gradcheck_exit();
}
