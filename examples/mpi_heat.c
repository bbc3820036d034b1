// A domain-decomposed solver differentiated whole, one request per rank.
//
// The heat equation on a rod of N cells, split across the ranks: each rank
// steps its own cells, exchanging its edge values with its neighbours
// (MPI_Sendrecv, ghost cells), and the misfit to a target profile is summed
// over the ranks with MPI_Allreduce.  Every rank calls __enzyme_autodiff on
// the same function; each gets the gradient for its own cells of the
// initial field, and its share of the gradient for the diffusion
// coefficient k (summed over the ranks afterwards).  The loss is seeded on
// rank 0 only: it is the same number on every rank.
//
//   gpuad-cc -O2 $(mpicc -showme:compile) mpi_heat.c -o mpi_heat \
//       $(mpicc -showme:link)          (or: OMPI_CC=gpuad-cc mpicc ...)
//   mpirun -np 4 ./mpi_heat            (--bench: time primal and gradient)
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

enum { N = 4096, STEPS = 200 };

/* STEPS explicit steps of u_t = k u_xx on this rank's n cells (insulated
   ends), then the misfit to `target`, summed over the ranks into *loss. */
void simulate(double *u, double *next, double k, const double *target,
              double *loss, int n, MPI_Comm comm) {
  int rank, ranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int right = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int t = 0; t < STEPS; ++t) {
    double lo = u[0], hi = u[n - 1]; /* the rod's ends: no flux */
    MPI_Sendrecv(&u[n - 1], 1, MPI_DOUBLE, right, 0, &lo, 1, MPI_DOUBLE, left,
                 0, comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[0], 1, MPI_DOUBLE, left, 1, &hi, 1, MPI_DOUBLE, right, 1,
                 comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; ++i) {
      double a = i > 0 ? u[i - 1] : lo, b = i < n - 1 ? u[i + 1] : hi;
      next[i] = u[i] + k * (a - 2 * u[i] + b);
    }
    memcpy(u, next, sizeof(double) * (size_t)n);
  }
  double local = 0;
  for (int i = 0; i < n; ++i)
    local += (u[i] - target[i]) * (u[i] - target[i]);
  MPI_Allreduce(&local, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
}

typedef struct {
  int n, first, rank;
  double k;
  double *u0, *u, *next, *target, *du, *dnext;
} Problem;

static double primal(Problem *p, double k, const double *u0) {
  double loss;
  memcpy(p->u, u0, sizeof(double) * (size_t)p->n);
  simulate(p->u, p->next, k, p->target, &loss, p->n, MPI_COMM_WORLD);
  return loss;
}

/* d loss / d k (summed over the ranks) and d loss / d u0 (this rank's). */
static double gradient(Problem *p) {
  double loss, dloss = p->rank == 0 ? 1.0 : 0.0;
  memcpy(p->u, p->u0, sizeof(double) * (size_t)p->n);
  memset(p->du, 0, sizeof(double) * (size_t)p->n);
  memset(p->dnext, 0, sizeof(double) * (size_t)p->n);
  double dk = __enzyme_autodiff(
      (void *)simulate, enzyme_dup, p->u, p->du, enzyme_dup, p->next, p->dnext,
      enzyme_out, p->k, enzyme_const, p->target, enzyme_dup, &loss, &dloss,
      enzyme_const, p->n, enzyme_const, MPI_COMM_WORLD);
  double total;
  MPI_Allreduce(&dk, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

static double now(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime();
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int ranks;
  Problem p = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (N % ranks) {
    if (p.rank == 0)
      fprintf(stderr, "run on a number of ranks that divides %d\n", N);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  p.n = N / ranks;
  p.first = p.rank * p.n;
  p.k = 0.2;
  double **bufs[] = {&p.u0, &p.u, &p.next, &p.target, &p.du, &p.dnext};
  for (int b = 0; b < 6; ++b)
    *bufs[b] = calloc((size_t)p.n, sizeof(double));
  for (int i = 0; i < p.n; ++i) {
    double x = (p.first + i + 0.5) / N;
    p.u0[i] = exp(-200 * (x - 0.4) * (x - 0.4));
    p.target[i] = 0.5 * exp(-100 * (x - 0.55) * (x - 0.55));
  }

  double dk = gradient(&p);
  // Central differences: for k, and for one cell of u0 (on its owner).
  double h = 1e-6;
  double fd_k =
      (primal(&p, p.k + h, p.u0) - primal(&p, p.k - h, p.u0)) / (2 * h);
  int cell = N / 3, owner = cell / p.n;
  double *bumped = malloc(sizeof(double) * (size_t)p.n);
  double fd_u[2];
  for (int s = 0; s < 2; ++s) {
    memcpy(bumped, p.u0, sizeof(double) * (size_t)p.n);
    if (p.rank == owner)
      bumped[cell - p.first] += s ? -h : h;
    fd_u[s] = primal(&p, p.k, bumped);
  }
  double du_cell = p.rank == owner ? p.du[cell - p.first] : 0, du_all;
  MPI_Allreduce(&du_cell, &du_all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double fd_cell = (fd_u[0] - fd_u[1]) / (2 * h);
  double err_k = fabs(dk - fd_k) / fabs(fd_k);
  double err_u = fabs(du_all - fd_cell) / fabs(fd_cell);
  int ok = err_k < 1e-6 && err_u < 1e-6;
  if (p.rank == 0) {
    printf("heat on %d cells, %d steps, %d rank(s): loss %.10f\n", N, STEPS,
           ranks, primal(&p, p.k, p.u0));
    printf("  d loss / d k     = %.10e   central difference %.10e   rel "
           "err %.1e\n",
           dk, fd_k, err_k);
    printf("  d loss / d u0[%d] = %.10e   central difference %.10e   rel "
           "err %.1e\n",
           cell, du_all, fd_cell, err_u);
    printf("gradient check: %s\n", ok ? "PASS" : "FAIL");
  } else {
    primal(&p, p.k, p.u0);
  }

  if (argc > 1 && !strcmp(argv[1], "--bench")) {
    // Best of 5: primal and gradient alternately, all ranks together.
    double best[2] = {1e30, 1e30};
    for (int rep = 0; rep < 5; ++rep) {
      double t0 = now();
      primal(&p, p.k, p.u0);
      double t1 = now();
      gradient(&p);
      double t2 = now();
      best[0] = fmin(best[0], t1 - t0);
      best[1] = fmin(best[1], t2 - t1);
    }
    if (p.rank == 0)
      printf("%-24s %-16s %10.3f ms %10.3f ms %8.2fx\n", "mpi_heat",
             ranks == 1   ? "1 rank"
             : ranks == 2 ? "2 ranks"
                          : "4 ranks",
             best[0] * 1e3, best[1] * 1e3, best[1] / best[0]);
  }
  for (int b = 0; b < 6; ++b)
    free(*bufs[b]);
  free(bumped);
  MPI_Finalize();
  return ok ? 0 : 1;
}
