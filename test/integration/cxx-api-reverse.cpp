// enzyme::autodiff<Reverse> (include/enzyme/enzyme): Active scalars and
// classes by value (adjoints returned), pointers and references (adjoints
// added to the shadow), const arguments, a function returning a class (its
// return is constant, as in Enzyme), function objects, width 2, and
// ReverseWithPrimal.  Adjoints are compared with analytic values
// (GC_RTOL_EXACT), central differences (GC_RTOL_D), forward mode by the
// dot-product test <grad, v> = tangent along v (GC_RTOL_DOT) where there are
// several inputs, and single runs for width 2 (GC_RTOL_LANES).
// RUN: %gpuad-cc -std=c++17 -O0 %itest-flags %s -o %t.O0 && %t.O0
// RUN: %gpuad-cc -std=c++17 -O2 %itest-flags %s -o %t.O2 && %t.O2
// RUN: %if valgrind %{ valgrind -q --error-exitcode=99 %t.O2 > /dev/null %}

#include <enzyme/enzyme>

#include "cxxapi.h"

#include <type_traits>

using enzyme::Active;
using enzyme::BatchDuplicated;
using enzyme::Const;
using enzyme::Duplicated;
using enzyme::Forward;
using enzyme::get;
using enzyme::Reverse;
using enzyme::ReverseWithPrimal;

static double shifted(V3 a, const double *c) {
  double s = a.z;
  for (int i = 0; i < 2; ++i)
    s += c[i] * (a.x + i * a.y) * (a.x + i * a.y);
  return s;
}

static void scalars() {
  double x = 0.7, y = -1.3;
  // Enzyme's shape: tuple{tuple{adjoints...}}, the return seeded with 1.
  auto [g] = enzyme::autodiff<Reverse>(wave, Active{x});
  check_close("wave'", get<0>(g), dwave(x), GC_RTOL_EXACT, GC_ATOL_EXACT);
  auto [g2, primal] = enzyme::autodiff<ReverseWithPrimal>(wave, Active{x});
  check_close("wave' with primal", get<0>(g2), dwave(x), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("wave primal", primal, wave(x), 0, 0);

  // Two Active inputs and a Const: analytic, fd, and the dot-product test.
  auto [gm] = enzyme::autodiff<Reverse>(mix, Active{x}, Active{y}, Const{3});
  auto [gx, gy] = gm;
  check_close("mix d/dx", gx, 6 * x * y, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("mix d/dy", gy, 3 * x * x - std::sin(y), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("mix d/dy fd", gy, fd([&](double h) { return mix(x, y + h, 3); }),
              GC_RTOL_D, GC_ATOL_D);
  double v[2] = {0.4, -0.9}, grad[2] = {gx, gy};
  double jv = get<0>(enzyme::autodiff<Forward>(
      mix, enzyme::Duplicated{x, v[0]}, enzyme::Duplicated{y, v[1]}, Const{3}));
  double one = 1;
  gc_check_dot("mix", v, grad, 2, &jv, &one, 1);

  // float; Const<float> return: nothing seeded, zero adjoints.
  auto [gf] = enzyme::autodiff<Reverse>(wavef, Active{0.7f});
  check_close("wavef'", get<0>(gf), dwave(0.7f), GC_RTOL_EXACTF,
              GC_ATOL_EXACTF);
  auto [gc] = enzyme::autodiff<Reverse, Const<float>>(wavef, Active{0.7f});
  check_close("Const return: no seed", get<0>(gc), 0, 0, 0);
}

static void pointers_and_references() {
  // dot: gradients added to what the shadows held.
  const int n = 5;
  double a[n], b[n], ga[n], gb[n], v[n], w[n];
  gc_direction(a, n, 1);
  gc_direction(b, n, 2);
  for (int i = 0; i < n; ++i)
    ga[i] = gb[i] = 10.0;
  auto [none] =
      enzyme::autodiff<Reverse>(dot, Duplicated<const double *>{a, ga},
                                Duplicated<const double *>{b, gb}, Const{n});
  static_assert(std::tuple_size_v<decltype(none)> == 0);
  for (int i = 0; i < n; ++i) {
    check_close("dot d/da (added)", ga[i] - 10.0, std::tanh(b[i]), 1e-12,
                1e-12);
    check_close("dot d/db fd", gb[i] - 10.0, fd([&](double h) {
                  double bh[n];
                  for (int j = 0; j < n; ++j)
                    bh[j] = b[j] + (j == i ? h : 0);
                  return dot(a, bh, n);
                }),
                GC_RTOL_D, 1e-7);
  }

  // square_into: the seed w in out's shadow becomes J^T w in x's shadow;
  // the dot-product test against forward mode along v.
  double x[n], out[n], dout[n], dx[n] = {0}, jv[n], tout[n];
  gc_direction(x, n, 3);
  gc_direction(w, n, 4);
  gc_direction(v, n, 5);
  for (int i = 0; i < n; ++i)
    dout[i] = w[i];
  auto [gs] = enzyme::autodiff<Reverse>(square_into, Duplicated{out, dout},
                                        Duplicated<const double *>{x, dx},
                                        Active{1.5}, Const{n});
  double ws = 0;
  for (int i = 0; i < n; ++i) {
    check_close("square_into J^T w", dx[i], 3.0 * x[i] * w[i], GC_RTOL_EXACT,
                GC_ATOL_EXACT);
    ws += w[i] * x[i] * x[i];
  }
  check_close("square_into d/ds", get<0>(gs), ws, GC_RTOL_EXACT, GC_ATOL_EXACT);
  enzyme::autodiff<Forward>(square_into, Duplicated{out, tout},
                            Duplicated<const double *>{x, v},
                            Duplicated{1.5, 0.0}, Const{n});
  for (int i = 0; i < n; ++i)
    jv[i] = tout[i];
  gc_check_dot("square_into", v, dx, n, jv, w, n);

  // References: the adjoint is added to dx; Active for a const reference
  // parameter returns it.
  double p = 0.6, q = -0.8, dp = 0, dq = 0;
  enzyme::autodiff<Reverse>(norm2, Duplicated<const double &>{p, dp},
                            Duplicated<const double &>{q, dq});
  check_close("norm2 d/dp", dp, p / norm2(p, q), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("norm2 d/dq", dq, q / norm2(p, q), GC_RTOL_EXACT, GC_ATOL_EXACT);
  auto [gn] = enzyme::autodiff<Reverse>(norm2, Active{p}, Const{q});
  check_close("norm2 Active for const&", get<0>(gn), dp, GC_RTOL_EXACT, 0);
  // Pointers for reference parameters, as Enzyme's C++ API takes them: the
  // pointer is the reference's address.
  double pdp = 0, pdq = 0;
  enzyme::autodiff<Reverse>(norm2, Duplicated<double *>{&p, &pdp},
                            Const<double *>{&q});
  check_close("norm2 pointer for const& d/dp", pdp, dp, GC_RTOL_EXACT, 0);
  check_close("norm2 pointer for const&: Const's untouched", pdq, 0, 0, 0);
  double prx = p, pry = q, psx = 1, psy = 0;
  auto [gpr] =
      enzyme::autodiff<Reverse>(rotate, Duplicated<double *>{&prx, &psx},
                                Duplicated<double *>{&pry, &psy}, Active{0.4});

  // rotate in place: seeds (1, 0) on the final x, y become J^T (1, 0).
  double rx = p, ry = q, sx = 1, sy = 0;
  auto [gr] =
      enzyme::autodiff<Reverse>(rotate, Duplicated<double &>{rx, sx},
                                Duplicated<double &>{ry, sy}, Active{0.4});
  auto rot_x = [&](double u, double v2, double t) {
    rotate(u, v2, t);
    return u;
  };
  check_close("rotate d/dx", sx,
              fd([&](double h) { return rot_x(p + h, q, 0.4); }), GC_RTOL_D,
              GC_ATOL_D);
  check_close("rotate d/dy", sy,
              fd([&](double h) { return rot_x(p, q + h, 0.4); }), GC_RTOL_D,
              GC_ATOL_D);
  check_close("rotate d/dt", get<0>(gr),
              fd([&](double h) { return rot_x(p, q, 0.4 + h); }), GC_RTOL_D,
              GC_ATOL_D);
  check_close("rotate pointer for & d/dx", psx, sx, GC_RTOL_EXACT, 0);
  check_close("rotate pointer for & d/dy", psy, sy, GC_RTOL_EXACT, 0);
  check_close("rotate pointer for & d/dt", get<0>(gpr), get<0>(gr),
              GC_RTOL_EXACT, 0);

  // A pointer to classes.
  V3 c[2] = {{0.5, 1.5, -0.5}, {2.0, -1.0, 0.25}}, dc[2] = {};
  enzyme::autodiff<Reverse>(sum_sq, Duplicated<const V3 *>{c, dc}, Const{2});
  check_close("sum_sq d/dx", dc[1].x, 4.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("sum_sq d/dy", dc[0].y, -0.5, GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("sum_sq d/dz", dc[1].z, -1.0, GC_RTOL_EXACT, GC_ATOL_EXACT);
}

static void classes() {
  // Active classes: their adjoints come back as classes; checked by fd and
  // by the dot-product test against forward mode.
  V3 a{0.3, -1.2, 0.8}, b{1.1, 0.4, -0.6}, va{1, 0.5, -1}, vb{0, 2, 0.5};
  auto [g] = enzyme::autodiff<Reverse>(cross_norm, Active{a}, Active{b});
  V3 ga = get<0>(g), gb = get<1>(g);
  check_close("cross_norm d/da.x fd", ga.x, fd([&](double h) {
                return cross_norm(a + h * V3{1, 0, 0}, b);
              }),
              GC_RTOL_D, GC_ATOL_D);
  check_close("cross_norm d/db.z fd", gb.z, fd([&](double h) {
                return cross_norm(a, b + h * V3{0, 0, 1});
              }),
              GC_RTOL_D, GC_ATOL_D);
  double grad[6] = {ga.x, ga.y, ga.z, gb.x, gb.y, gb.z};
  double dir[6] = {va.x, va.y, va.z, vb.x, vb.y, vb.z}, one = 1;
  double jv = get<0>(enzyme::autodiff<Forward>(
      cross_norm, enzyme::Duplicated{a, va}, enzyme::Duplicated{b, vb}));
  gc_check_dot("cross_norm", dir, grad, 6, &jv, &one, 1);

  // V2 (two registers) Active, Mixed (with an int) Const.
  V2 p{0.8, 0.6};
  auto [gw] = enzyme::autodiff<Reverse>(weigh, Active{p}, Const{Mixed{1.5, 2}});
  V2 gp = get<0>(gw);
  double r2 = p.x * p.x + p.y * p.y;
  check_close("weigh d/dp.x", gp.x, -3.0 * p.y / r2, GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("weigh d/dp.y", gp.y, 3.0 * p.x / r2, GC_RTOL_EXACT,
              GC_ATOL_EXACT);

  // A function returning a class: reverse mode treats the return as
  // constant (Enzyme's default): the adjoints are zero, the primal returned.
  auto [gz, pol] =
      enzyme::autodiff<ReverseWithPrimal>(polar, Active{1.3}, Active{0.7});
  check_close("polar primal", pol.y, polar(1.3, 0.7).y, 0, 0);
  check_close("polar: constant return", get<0>(gz) + get<1>(gz), 0, 0, 0);
}

static void width2() {
  // Two seeds through the output's shadows: one J^T w per lane, and the
  // Active scale's adjoint per lane; against two single runs.
  const int n = 4;
  double x[n], out[n], w0[n], w1[n], dx0[n] = {0}, dx1[n] = {0};
  gc_direction(x, n, 6);
  gc_direction(w0, n, 7);
  gc_direction(w1, n, 8);
  double s0[n], s1[n];
  for (int i = 0; i < n; ++i) {
    s0[i] = w0[i];
    s1[i] = w1[i];
  }
  auto [g] = enzyme::autodiff<Reverse>(
      square_into, BatchDuplicated{out, s0, s1},
      BatchDuplicated<const double *, 2>{x, dx0, dx1}, Active{1.5}, Const{n});
  std::array<double, 2> gs = get<0>(g);
  double lanes[2 * n + 2], singles[2 * n + 2];
  for (int i = 0; i < n; ++i) {
    lanes[i] = dx0[i];
    lanes[n + i] = dx1[i];
  }
  lanes[2 * n] = gs[0];
  lanes[2 * n + 1] = gs[1];
  for (int k = 0; k < 2; ++k) {
    double seed[n], dx[n] = {0};
    for (int i = 0; i < n; ++i)
      seed[i] = k ? w1[i] : w0[i];
    auto [gk] = enzyme::autodiff<Reverse>(square_into, Duplicated{out, seed},
                                          Duplicated<const double *>{x, dx},
                                          Active{1.5}, Const{n});
    for (int i = 0; i < n; ++i)
      singles[k * n + i] = dx[i];
    singles[2 * n + k] = get<0>(gk);
  }
  gc_check_lanes("square_into width 2", lanes, singles, 2 * n + 2, 1);

  // An Active class at width 2: every lane's return is seeded with 1, so
  // both lanes of its adjoint, and of the pointer's, are the single run's.
  V3 a{0.3, -1.2, 0.8};
  double c[2] = {0.5, 2.0}, dc0[2] = {0, 0}, dc1[2] = {0, 0}, dc[2] = {0, 0};
  auto [ga] = enzyme::autodiff<Reverse>(
      shifted, Active{a}, BatchDuplicated<const double *, 2>{c, dc0, dc1});
  std::array<V3, 2> al = get<0>(ga);
  V3 a1 = get<0>(get<0>(enzyme::autodiff<Reverse>(
      shifted, Active{a}, Duplicated<const double *>{c, dc})));
  double got[10] = {al[0].x, al[0].y, al[0].z, dc0[0], dc0[1],
                    al[1].x, al[1].y, al[1].z, dc1[0], dc1[1]};
  double want[10] = {a1.x, a1.y, a1.z, dc[0], dc[1],
                     a1.x, a1.y, a1.z, dc[0], dc[1]};
  gc_check_lanes("shifted width 2", got, want, 5, 2);
}

static void objects() {
  Quadratic q{2.0, -0.5};
  auto [g] = enzyme::autodiff<Reverse>(q, Active{1.2}, Active{0.4});
  check_close("function object d/dx", get<0>(g), 4 * 1.2 - 0.5 * 0.4,
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("function object d/dy", get<1>(g), -0.5 * 1.2, GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  double k = 3, w[2] = {0.5, -2.0}, dw[2] = {0, 0};
  auto lambda = [&k](double u, const double *z) { return k * u * u * z[1]; };
  auto [gl] = enzyme::autodiff<Reverse>(lambda, Active{1.2},
                                        Duplicated<const double *>{w, dw});
  check_close("lambda d/du", get<0>(gl), k * 2 * 1.2 * w[1], GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("lambda d/dw1", dw[1], k * 1.2 * 1.2, GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  auto [gg] = gpuad::autodiff<gpuad::Reverse>(wave, gpuad::Active{0.7});
  check_close("gpuad::autodiff", gpuad::get<0>(gg), dwave(0.7), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
}

int main() {
  scalars();
  pointers_and_references();
  classes();
  width2();
  objects();
  return gradcheck_exit();
}
