// OpenMP constructs gpuad does not differentiate are errors naming the
// construct and its runtime call, at the construct: tasks (their bodies run
// out of sight), ordered.
// REQUIRES: openmp
// RUN: not %gpuad-cc -fopenmp -g -O1 -c %s -o /dev/null 2>&1 | FileCheck %s

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void tasks(double *x, int n) {
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; ++i) {
    // CHECK: openmp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: gpuad: cannot differentiate the OpenMP construct 'task' (its runtime call '__kmpc_omp_task_alloc')
#pragma omp task
    x[i] *= x[i];
  }
}

void ordered(double *x, int n) {
#pragma omp parallel for ordered
  for (int i = 1; i < n; ++i) {
    // CHECK: openmp-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: gpuad: cannot differentiate the OpenMP construct 'ordered' (its runtime call '__kmpc_ordered')
#pragma omp ordered
    x[i] += x[i - 1] * x[i];
  }
}

void grad(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)tasks, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)ordered, enzyme_dup, x, dx, enzyme_const, n);
}
