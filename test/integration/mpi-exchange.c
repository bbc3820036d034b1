// Reverse and forward mode through MPI, on 1 to 4 real processes: a halo
// exchange with MPI_Sendrecv (contiguous, and a column as a vector
// datatype) and with MPI_Isend/MPI_Irecv/MPI_Waitall, a shift completed by
// MPI_Test and MPI_Wait, a ring of blocking MPI_Send/MPI_Recv, MPI_Allreduce,
// MPI_Reduce then MPI_Bcast (in place), the maxima and minima of
// MPI_Allreduce and MPI_Reduce, MPI_Gather then MPI_Scatter, their v forms
// and MPI_Allgatherv, a communicator from MPI_Comm_split, single precision,
// MPI_Allgather, MPI_Alltoall and MPI_Barrier.  Each function is
// `void f(double *x, double *y, int n, MPI_Comm comm)` on a rank's block of
// one global problem.  For the sum over ranks of <w, y>, the gradient is
// checked against central differences of the whole run and against forward
// mode (dot-product test), and (but for Alltoall, whose problem changes with
// the rank count) against the same function run on rank 0 alone
// (MPI_COMM_SELF) on the whole problem: the distributed gradient must agree
// with it to 1e-12, summation order aside.
// REQUIRES: mpi
// RUN: %gpuad-cc -O0 %itest-flags %mpi-flags %s -o %t.O0 -lm
// RUN: %mpirun -np 1 %t.O0 && %mpirun -np 3 %t.O0
// RUN: %gpuad-cc -O2 %itest-flags %mpi-flags %s -o %t.O2 -lm
// RUN: %mpirun -np 2 %t.O2 && %mpirun -np 4 %t.O2

#include <gpuad/gpuad.h>
#include <mpi.h>
#include <revcheck.h>

static int rankOf(MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  return r;
}
static int sizeOf(MPI_Comm comm) {
  int s;
  MPI_Comm_size(comm, &s);
  return s;
}

/* A periodic three-point stencil: each block gets its neighbours' edge
   values (ghosts) by MPI_Sendrecv. */
void halo(double *x, double *y, int n, MPI_Comm comm) {
  int r = rankOf(comm), p = sizeOf(comm);
  int left = (r + p - 1) % p, right = (r + 1) % p;
  double lo, hi;
  MPI_Sendrecv(&x[n - 1], 1, MPI_DOUBLE, right, 0, &lo, 1, MPI_DOUBLE, left,
               0, comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, left, 1, &hi, 1, MPI_DOUBLE, right, 1,
               comm, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i) {
    double a = i ? x[i - 1] : lo, b = i < n - 1 ? x[i + 1] : hi;
    y[i] = a - 2 * x[i] + b + 0.1 * x[i] * x[i] * x[i];
  }
}

/* The same halo by non-blocking calls, completed together. */
void halo_nonblocking(double *x, double *y, int n, MPI_Comm comm) {
  int r = rankOf(comm), p = sizeOf(comm);
  int left = (r + p - 1) % p, right = (r + 1) % p;
  double lo, hi;
  MPI_Request requests[4];
  MPI_Irecv(&lo, 1, MPI_DOUBLE, left, 0, comm, &requests[0]);
  MPI_Irecv(&hi, 1, MPI_DOUBLE, right, 1, comm, &requests[1]);
  MPI_Isend(&x[n - 1], 1, MPI_DOUBLE, right, 0, comm, &requests[2]);
  MPI_Isend(&x[0], 1, MPI_DOUBLE, left, 1, comm, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  for (int i = 0; i < n; ++i) {
    double a = i ? x[i - 1] : lo, b = i < n - 1 ? x[i + 1] : hi;
    y[i] = a - 2 * x[i] + b + 0.1 * x[i] * x[i] * x[i];
  }
}

/* The block to the right neighbour: received by polling MPI_Test, sent
   synchronously (MPI_Issend) and completed with MPI_Wait. */
void shift_test(double *x, double *y, int n, MPI_Comm comm) {
  int r = rankOf(comm), p = sizeOf(comm), done = 0;
  double *got = malloc(sizeof(double) * n), *squares = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    squares[i] = x[i] * x[i];
  MPI_Request in, out;
  MPI_Irecv(got, n, MPI_DOUBLE, (r + p - 1) % p, 5, comm, &in);
  MPI_Issend(squares, n, MPI_DOUBLE, (r + 1) % p, 5, comm, &out);
  while (!done)
    MPI_Test(&in, &done, MPI_STATUS_IGNORE);
  MPI_Wait(&out, MPI_STATUS_IGNORE);
  for (int i = 0; i < n; ++i)
    y[i] = got[i] * x[i] + squares[i];
  free(got);
  free(squares);
}

/* The block as rows of two; its second column goes to the right neighbour
   as a vector datatype. */
void column(double *x, double *y, int n, MPI_Comm comm) {
  int r = rankOf(comm), p = sizeOf(comm), rows = n / 2;
  MPI_Datatype col;
  MPI_Type_vector(rows, 1, 2, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double *got = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    got[i] = 0;
  MPI_Sendrecv(&x[1], 1, col, (r + 1) % p, 2, &got[0], 1, col,
               (r + p - 1) % p, 2, comm, MPI_STATUS_IGNORE);
  for (int i = 0; i < rows; ++i) {
    y[2 * i] = got[2 * i] * x[2 * i];
    y[2 * i + 1] = sin(x[2 * i + 1]);
  }
  free(got);
  MPI_Type_free(&col);
}

/* Blocking sends around a ring (even ranks send first, synchronously; with
   one rank, the message to itself needs the standard send). */
void ring(double *x, double *y, int n, MPI_Comm comm) {
  int r = rankOf(comm), p = sizeOf(comm);
  double *got = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * x[i];
  if (r % 2 == 0) {
    if (p > 1)
      MPI_Ssend(y, n, MPI_DOUBLE, (r + 1) % p, 3, comm);
    else
      MPI_Send(y, n, MPI_DOUBLE, 0, 3, comm);
    MPI_Recv(got, n, MPI_DOUBLE, (r + p - 1) % p, 3, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(got, n, MPI_DOUBLE, (r + p - 1) % p, 3, comm, MPI_STATUS_IGNORE);
    MPI_Send(y, n, MPI_DOUBLE, (r + 1) % p, 3, comm);
  }
  for (int i = 0; i < n; ++i)
    y[i] = got[i] * x[i];
  free(got);
}

void allreduce(double *x, double *y, int n, MPI_Comm comm) {
  double s = 0, total;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Barrier(comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * total;
}

/* The largest and the smallest element of the whole vector (MPI_MAX and
   MPI_MIN: the derivative goes to the element that won). */
void extremes(double *x, double *y, int n, MPI_Comm comm) {
  double local[2] = {-1e300, 1e300}, global[2];
  for (int i = 0; i < n; ++i) {
    local[0] = fmax(local[0], x[i] * x[i]);
    local[1] = fmin(local[1], x[i]);
  }
  MPI_Allreduce(&local[0], &global[0], 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&local[1], &global[1], 1, MPI_DOUBLE, MPI_MIN, comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * global[0] + global[1];
}

/* Position by position, the largest over the ranks, on rank 0. */
void positionwise(double *x, double *y, int n, MPI_Comm comm) {
  double *top = malloc(sizeof(double) * n);
  MPI_Reduce(x, top, n, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Bcast(top, n, MPI_DOUBLE, 0, comm);
  for (int i = 0; i < n; ++i)
    y[i] = top[i] * top[i] + x[i];
  free(top);
}

/* A sum onto rank 0 (in place there), broadcast back. */
void reduce_bcast(double *x, double *y, int n, MPI_Comm comm) {
  double s[2] = {0, 0};
  for (int i = 0; i < n; ++i) {
    s[0] += sin(x[i]);
    s[1] += x[i] * x[i];
  }
  if (rankOf(comm) == 0)
    MPI_Reduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, 0, comm);
  else
    MPI_Reduce(s, NULL, 2, MPI_DOUBLE, MPI_SUM, 0, comm);
  MPI_Bcast(s, 2, MPI_DOUBLE, 0, comm);
  for (int i = 0; i < n; ++i)
    y[i] = s[0] * x[i] + s[1];
}

/* The whole vector on rank 0, reversed and multiplied there, scattered. */
void gather_scatter(double *x, double *y, int n, MPI_Comm comm) {
  int p = sizeOf(comm), all = n * p;
  double *whole = malloc(sizeof(double) * all);
  double *out = malloc(sizeof(double) * all);
  MPI_Gather(x, n, MPI_DOUBLE, whole, n, MPI_DOUBLE, 0, comm);
  if (rankOf(comm) == 0)
    for (int j = 0; j < all; ++j)
      out[j] = whole[j] * whole[all - 1 - j];
  MPI_Scatter(out, n, MPI_DOUBLE, y, n, MPI_DOUBLE, 0, comm);
  free(whole);
  free(out);
}

void allgather(double *x, double *y, int n, MPI_Comm comm) {
  int p = sizeOf(comm), all = n * p, first = n * rankOf(comm);
  double *whole = malloc(sizeof(double) * all);
  MPI_Allgather(x, n, MPI_DOUBLE, whole, n, MPI_DOUBLE, comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * whole[(first + i + 1) % all] + whole[all - 1 - first - i];
  free(whole);
}

/* Element k of the block goes to rank k % p. */
void alltoall(double *x, double *y, int n, MPI_Comm comm) {
  int p = sizeOf(comm);
  double *out = malloc(sizeof(double) * p), *got = malloc(sizeof(double) * p);
  for (int k = 0; k < p; ++k)
    out[k] = x[k % n] * x[k % n];
  MPI_Alltoall(out, 1, MPI_DOUBLE, got, 1, MPI_DOUBLE, comm);
  for (int i = 0; i < n; ++i)
    y[i] = got[i % p] * x[i];
  free(out);
  free(got);
}

/* Blocks of one or two elements per rank, at gaps, onto rank 0 and back
   (MPI_Gatherv, MPI_Scatterv); the counts are freed before the reverse
   sweep runs. */
void gatherv_scatterv(double *x, double *y, int n, MPI_Comm comm) {
  int p = sizeOf(comm), r = rankOf(comm);
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  for (int q = 0; q < p; ++q) {
    counts[q] = q % 2 + 1;
    displs[q] = 3 * q;
  }
  double part[2], *all = calloc(3 * p, sizeof(double));
  for (int i = 0; i < counts[r]; ++i)
    part[i] = x[i] * x[i];
  MPI_Gatherv(part, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              comm);
  if (r == 0)
    for (int q = 0; q < p; ++q)
      for (int i = 0; i < counts[q]; ++i)
        all[displs[q] + i] *= 1 + all[displs[(q + 1) % p]];
  MPI_Scatterv(all, counts, displs, MPI_DOUBLE, part, counts[r], MPI_DOUBLE, 0,
               comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] + (i < counts[r] ? part[i] : 0);
  free(counts);
  free(displs);
  free(all);
}

/* Every rank's first one or two elements, on every rank (MPI_Allgatherv). */
void allgatherv(double *x, double *y, int n, MPI_Comm comm) {
  int p = sizeOf(comm), r = rankOf(comm);
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  for (int q = 0; q < p; ++q) {
    counts[q] = q % 2 + 1;
    displs[q] = 2 * q;
  }
  double *all = calloc(2 * p, sizeof(double));
  MPI_Allgatherv(x, counts[r], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
                 comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * all[(i + r) % (2 * p)] + sin(all[0]);
  free(counts);
  free(displs);
  free(all);
}

/* A sum within the even and within the odd ranks: a communicator made and
   freed inside. */
void split(double *x, double *y, int n, MPI_Comm comm) {
  MPI_Comm half;
  MPI_Comm_split(comm, rankOf(comm) % 2, 0, &half);
  double s = 0, total;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  MPI_Allreduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, half);
  MPI_Comm_free(&half);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * total;
}

/* allreduce's sum in single precision. */
void allreduce_float(double *x, double *y, int n, MPI_Comm comm) {
  float s = 0, total;
  for (int i = 0; i < n; ++i)
    s += (float)(x[i] * x[i]);
  MPI_Allreduce(&s, &total, 1, MPI_FLOAT, MPI_SUM, comm);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * total;
}

enum { N = 24 };

/* Global direction values: the same element whatever the decomposition. */
static double x0At(int g) { return 0.6 + 0.3 * sin(0.7 * g); }
static double vAt(int g) { return sin(1.3 * g + 0.2); }
static double wAt(int g) { return cos(0.9 * g + 0.4); }

static double allSum(double v) {
  double t;
  MPI_Allreduce(&v, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

/* The run's sum over ranks of <w, y(x0 + t v)>. */
#define WEIGHTED(fn, t, n, first, out)                                        \
  do {                                                                         \
    double *xs_ = malloc(sizeof(double) * n), *ys_ = calloc(n, 8);             \
    for (int i = 0; i < n; ++i)                                                \
      xs_[i] = x0At(first + i) + (t) * vAt(first + i);                         \
    fn(xs_, ys_, n, MPI_COMM_WORLD);                                           \
    double s_ = 0;                                                             \
    for (int i = 0; i < n; ++i)                                                \
      s_ += wAt(first + i) * ys_[i];                                           \
    out = allSum(s_);                                                          \
    free(xs_), free(ys_);                                                      \
  } while (0)

/* The gradient of fn on `n` elements from `first`, over `comm`. */
#define GRADIENT(fn, n, first, comm, dx)                                       \
  do {                                                                         \
    double *x_ = malloc(sizeof(double) * n), *y_ = calloc(n, 8);               \
    double *dy_ = malloc(sizeof(double) * n);                                  \
    for (int i = 0; i < n; ++i) {                                              \
      x_[i] = x0At(first + i);                                                 \
      dy_[i] = wAt(first + i);                                                 \
      dx[i] = 0;                                                               \
    }                                                                          \
    __enzyme_autodiff((void *)fn, enzyme_dup, x_, dx, enzyme_dup, y_, dy_,     \
                      enzyme_const, n, enzyme_const, comm);                    \
    free(x_), free(y_), free(dy_);                                             \
  } while (0)

#define CHECK(fn, same_problem)                                                \
  do {                                                                         \
    int p_ = sizeOf(MPI_COMM_WORLD), r_ = rankOf(MPI_COMM_WORLD);              \
    int n_ = N / p_, first_ = n_ * r_;                                         \
    double *dx_ = malloc(sizeof(double) * n_);                                 \
    GRADIENT(fn, n_, first_, MPI_COMM_WORLD, dx_);                             \
    double rev_ = 0;                                                           \
    for (int i = 0; i < n_; ++i)                                               \
      rev_ += dx_[i] * vAt(first_ + i);                                        \
    rev_ = allSum(rev_);                                                       \
    /* Forward mode along v. */                                                \
    double *x_ = malloc(sizeof(double) * n_), *t_ = malloc(sizeof(double) * n_); \
    double *y_ = calloc(n_, 8), *j_ = calloc(n_, 8);                           \
    for (int i = 0; i < n_; ++i) {                                             \
      x_[i] = x0At(first_ + i);                                                \
      t_[i] = vAt(first_ + i);                                                 \
    }                                                                          \
    __enzyme_fwddiff((void *)fn, enzyme_dup, x_, t_, enzyme_dup, y_, j_,       \
                     enzyme_const, n_, enzyme_const, MPI_COMM_WORLD);          \
    double fwd_ = 0;                                                           \
    for (int i = 0; i < n_; ++i)                                               \
      fwd_ += wAt(first_ + i) * j_[i];                                         \
    fwd_ = allSum(fwd_);                                                       \
    double h_ = 1e-6, fp_, fm_;                                                \
    WEIGHTED(fn, h_, n_, first_, fp_);                                         \
    WEIGHTED(fn, -h_, n_, first_, fm_);                                        \
    /* The whole problem on rank 0 alone. */                                   \
    double *whole_ = r_ == 0 ? malloc(sizeof(double) * N) : NULL;              \
    MPI_Gather(dx_, n_, MPI_DOUBLE, whole_, n_, MPI_DOUBLE, 0,                 \
               MPI_COMM_WORLD);                                                \
    if (r_ == 0) {                                                             \
      check_close(#fn " <J^T w, v> fd", rev_, (fp_ - fm_) / (2 * h_),          \
                  GC_RTOL_D, GC_ATOL_D);                                       \
      check_close(#fn " <J v, w> = <v, J^T w>", fwd_, rev_, GC_RTOL_DOT,       \
                  GC_ATOL_DOT);                                                \
      if (same_problem) {                                                      \
        double *serial_ = malloc(sizeof(double) * N);                          \
        GRADIENT(fn, N, 0, MPI_COMM_SELF, serial_);                            \
        for (int g = 0; g < N; ++g) {                                          \
          char label_[96];                                                     \
          snprintf(label_, sizeof label_, "%s on %d ranks [%d] = on one", #fn, \
                   p_, g);                                                     \
          check_close(label_, whole_[g], serial_[g], 1e-12, 1e-14);            \
        }                                                                      \
        free(serial_);                                                         \
      }                                                                        \
    }                                                                          \
    free(dx_), free(x_), free(t_), free(y_), free(j_), free(whole_);           \
  } while (0)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (N % sizeOf(MPI_COMM_WORLD)) {
    fprintf(stderr, "run on 1, 2, 3 or 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  CHECK(halo, 1);
  CHECK(halo_nonblocking, 1);
  CHECK(shift_test, 0);
  CHECK(column, 0);
  CHECK(ring, 0);
  CHECK(allreduce, 1);
  CHECK(reduce_bcast, 1);
  CHECK(extremes, 1);
  CHECK(positionwise, 0);
  CHECK(gather_scatter, 1);
  CHECK(allgather, 1);
  CHECK(alltoall, 0);
  CHECK(gatherv_scatterv, 0);
  CHECK(allgatherv, 0);
  CHECK(split, 0);
  {
    /* Single precision (central differences would see its rounding): the
       gradient against the double one's. */
    int p_ = sizeOf(MPI_COMM_WORLD), r_ = rankOf(MPI_COMM_WORLD);
    int n_ = N / p_, first_ = n_ * r_;
    double *d_ = malloc(sizeof(double) * n_), *f_ = malloc(sizeof(double) * n_);
    GRADIENT(allreduce, n_, first_, MPI_COMM_WORLD, d_);
    GRADIENT(allreduce_float, n_, first_, MPI_COMM_WORLD, f_);
    if (r_ == 0)
      for (int i = 0; i < n_; ++i)
        check_close("allreduce_float = allreduce (rank 0)", f_[i], d_[i], 1e-5,
                    1e-6);
    free(d_), free(f_);
  }
  int status = rankOf(MPI_COMM_WORLD) == 0 ? gradcheck_exit() : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
