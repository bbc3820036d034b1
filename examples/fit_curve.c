/* Fits y = a * exp(-b t) + c to samples by gradient descent.  The gradient
 * of the squared error with respect to the three parameters comes from
 * __enzyme_autodiff; it is checked against central differences first. */
#include <gpuad/gpuad.h>
#include <math.h>
#include <stdio.h>

#define SAMPLES 64

static double loss(const double *p, const double *t, const double *y, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    double r = p[0] * exp(-p[1] * t[i]) + p[2] - y[i];
    sum += r * r;
  }
  return sum / n;
}

static void gradient(double *p, double *dp, const double *t, const double *y,
                     int n) {
  dp[0] = dp[1] = dp[2] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp, enzyme_const, t,
                    enzyme_const, y, n);
}

int main(void) {
  double t[SAMPLES], y[SAMPLES];
  for (int i = 0; i < SAMPLES; ++i) {
    t[i] = 0.1 * i;
    y[i] = 2.0 * exp(-0.7 * t[i]) + 0.5 + 0.01 * sin(17.0 * i);
  }

  /* The gradient against central differences. */
  double p[3] = {1.0, 0.3, 0.0}, dp[3];
  gradient(p, dp, t, y, SAMPLES);
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    double h = 1e-6, saved = p[k];
    p[k] = saved + h;
    double up = loss(p, t, y, SAMPLES);
    p[k] = saved - h;
    double down = loss(p, t, y, SAMPLES);
    p[k] = saved;
    double fd = (up - down) / (2 * h);
    double err = fabs(dp[k] - fd) / fmax(1.0, fabs(fd));
    worst = fmax(worst, err);
    printf("d loss/d p%d = %+.9f  (central difference %+.9f)\n", k, dp[k], fd);
  }
  if (worst > 1e-6) {
    printf("FAIL: gradient differs from central differences by %.2e\n", worst);
    return 1;
  }

  /* Gradient descent. */
  double start = loss(p, t, y, SAMPLES);
  for (int step = 0; step < 20000; ++step) {
    gradient(p, dp, t, y, SAMPLES);
    for (int k = 0; k < 3; ++k)
      p[k] -= 0.2 * dp[k];
  }
  double end = loss(p, t, y, SAMPLES);
  printf("fit: a = %.4f, b = %.4f, c = %.4f; loss %.3g -> %.3g\n", p[0], p[1],
         p[2], start, end);
  if (!(end < 1e-3 * start) || fabs(p[0] - 2.0) > 0.05 ||
      fabs(p[1] - 0.7) > 0.05 || fabs(p[2] - 0.5) > 0.05) {
    printf("FAIL: the fit did not converge to (2, 0.7, 0.5)\n");
    return 1;
  }
  printf("ok\n");
  return 0;
}
