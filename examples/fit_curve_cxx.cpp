// The fit of fit_curve.c written with Enzyme's C++ interface: the residual
// of one sample is a function of the three parameters (Active: their
// adjoints come back in a tuple) and of the sample (Const).  The gradient is
// checked against forward mode (one direction per parameter) and central
// differences before the descent.
#include <enzyme/enzyme>

#include <cmath>
#include <cstdio>
#include <vector>

static double squared_residual(double a, double b, double c, double t,
                               double y) {
  double r = a * std::exp(-b * t) + c - y;
  return r * r;
}

struct Samples {
  std::vector<double> t, y;
  double loss(const double p[3]) const {
    double sum = 0;
    for (size_t i = 0; i < t.size(); ++i)
      sum += squared_residual(p[0], p[1], p[2], t[i], y[i]);
    return sum / t.size();
  }
  // Reverse mode: all three partial derivatives from one call per sample.
  void gradient(const double p[3], double g[3]) const {
    g[0] = g[1] = g[2] = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      auto [adjoints] = enzyme::autodiff<enzyme::Reverse>(
          squared_residual, enzyme::Active{p[0]}, enzyme::Active{p[1]},
          enzyme::Active{p[2]}, enzyme::Const{t[i]}, enzyme::Const{y[i]});
      auto [da, db, dc] = adjoints;
      g[0] += da / t.size();
      g[1] += db / t.size();
      g[2] += dc / t.size();
    }
  }
  // Forward mode: the derivative in one direction.
  double directional(const double p[3], const double v[3]) const {
    double sum = 0;
    for (size_t i = 0; i < t.size(); ++i)
      sum += enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
          squared_residual, enzyme::Duplicated{p[0], v[0]},
          enzyme::Duplicated{p[1], v[1]}, enzyme::Duplicated{p[2], v[2]},
          enzyme::Const{t[i]}, enzyme::Const{y[i]}));
    return sum / t.size();
  }
};

int main() {
  Samples s;
  for (int i = 0; i < 64; ++i) {
    s.t.push_back(0.1 * i);
    s.y.push_back(2.0 * std::exp(-0.7 * 0.1 * i) + 0.5 +
                  0.01 * std::sin(17.0 * i));
  }
  double p[3] = {1.0, 0.3, 0.0}, g[3];
  s.gradient(p, g);
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    double e[3] = {0, 0, 0};
    e[k] = 1;
    double forward = s.directional(p, e);
    double h = 1e-6, saved = p[k];
    p[k] = saved + h;
    double up = s.loss(p);
    p[k] = saved - h;
    double down = s.loss(p);
    p[k] = saved;
    double fd = (up - down) / (2 * h);
    worst = std::fmax(worst, std::fabs(g[k] - forward));
    worst =
        std::fmax(worst, std::fabs(g[k] - fd) / std::fmax(1.0, std::fabs(fd)));
    std::printf("d loss/d p%d = %+.9f  (forward mode %+.9f, central difference "
                "%+.9f)\n",
                k, g[k], forward, fd);
  }
  if (worst > 1e-6) {
    std::printf("FAIL: gradients disagree by %.2e\n", worst);
    return 1;
  }
  double start = s.loss(p);
  for (int step = 0; step < 20000; ++step) {
    s.gradient(p, g);
    for (int k = 0; k < 3; ++k)
      p[k] -= 0.2 * g[k];
  }
  double end = s.loss(p);
  std::printf("fit: a = %.4f, b = %.4f, c = %.4f; loss %.3g -> %.3g\n", p[0],
              p[1], p[2], start, end);
  if (!(end < 1e-3 * start) || std::fabs(p[0] - 2.0) > 0.05 ||
      std::fabs(p[1] - 0.7) > 0.05 || std::fabs(p[2] - 0.5) > 0.05) {
    std::printf("FAIL: the fit did not converge to (2, 0.7, 0.5)\n");
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
