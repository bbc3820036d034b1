/*===- Mpi.c - Tangents and adjoints of MPI's communication ---------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* Blocking point-to-point calls and the collectives (runtime/Mpi.h). */

#include "Mpi.h"
#include "MpiData.h"

void gpuad_mpi_send_tangent(const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm,
                            const void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  void *made;
  MPI_Send(orZeros(dbuf, count, type, &made), count, type, dest, tag, comm);
  free(made);
}

void gpuad_mpi_send_adjoint(const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm, void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  void *got = block(count, type);
  MPI_Recv(got, count, type, dest, tag, comm, MPI_STATUS_IGNORE);
  if (dbuf)
    add(got, dbuf, count, type, comm);
  free(got);
}

void gpuad_mpi_recv_tangent(void *buf, int count, MPI_Datatype type,
                            int source, int tag, MPI_Comm comm,
                            MPI_Status *status, void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  peerOf(&source, &tag, status, 0, "MPI_Recv");
  void *into = dbuf ? dbuf : block(count, type);
  MPI_Recv(into, count, type, source, tag, comm, MPI_STATUS_IGNORE);
  if (!dbuf)
    free(into);
}

void gpuad_mpi_recv_adjoint(void *buf, int count, MPI_Datatype type,
                            int source, int tag, MPI_Comm comm,
                            MPI_Status *status, void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  peerOf(&source, &tag, status, 1, "MPI_Recv");
  void *made;
  MPI_Send(orZeros(dbuf, count, type, &made), count, type, source, tag, comm);
  free(made);
  if (dbuf)
    zero(dbuf, count, type, comm);
}

/* Both directions of a Sendrecv's derivative in one call (a part whose
   datatype holds no floats moves nothing: count 0 at both ends). */
void gpuad_mpi_sendrecv_tangent(const void *sbuf, int scount,
                                MPI_Datatype stype, int dest, int stag,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int source, int rtag, MPI_Comm comm,
                                MPI_Status *status, const void *dsbuf,
                                void *drbuf) {
  (void)sbuf, (void)rbuf;
  int sends = carries(stype), receives = carries(rtype);
  if (!sends && !receives)
    return;
  if (receives)
    peerOf(&source, &rtag, status, 0, "MPI_Sendrecv");
  void *made;
  const void *out = orZeros(dsbuf, scount, stype, &made);
  void *into = drbuf ? drbuf : block(rcount, rtype);
  MPI_Sendrecv(out, sends ? scount : 0, stype, dest, stag, into,
               receives ? rcount : 0, rtype, source, rtag, comm,
               MPI_STATUS_IGNORE);
  free(made);
  if (!drbuf)
    free(into);
}

void gpuad_mpi_sendrecv_adjoint(const void *sbuf, int scount,
                                MPI_Datatype stype, int dest, int stag,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int source, int rtag, MPI_Comm comm,
                                MPI_Status *status, void *dsbuf, void *drbuf) {
  (void)sbuf, (void)rbuf;
  int sends = carries(stype), receives = carries(rtype);
  if (!sends && !receives)
    return;
  if (receives)
    peerOf(&source, &rtag, status, 1, "MPI_Sendrecv");
  /* The received part's adjoint goes back to its source; the sent part's
     comes back from its destination. */
  void *made;
  const void *out = orZeros(drbuf, rcount, rtype, &made);
  void *got = block(scount, stype);
  MPI_Sendrecv(out, receives ? rcount : 0, rtype, source, rtag, got,
               sends ? scount : 0, stype, dest, stag, comm, MPI_STATUS_IGNORE);
  free(made);
  if (drbuf && receives)
    zero(drbuf, rcount, rtype, comm);
  if (dsbuf && sends)
    add(got, dsbuf, scount, stype, comm);
  free(got);
}

void gpuad_mpi_bcast_tangent(void *buf, int count, MPI_Datatype type,
                             int root, MPI_Comm comm, void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  void *into = dbuf ? dbuf : block(count, type);
  MPI_Bcast(into, count, type, root, comm);
  if (!dbuf)
    free(into);
}

void gpuad_mpi_bcast_adjoint(void *buf, int count, MPI_Datatype type,
                             int root, MPI_Comm comm, void *dbuf) {
  (void)buf;
  if (!carries(type))
    return;
  /* Every copy's adjoint, summed onto the root's. */
  void *made, *sum = block(count, type);
  MPI_Reduce(orZeros(dbuf, count, type, &made), sum, count, type, MPI_SUM,
             root, comm);
  free(made);
  if (dbuf) {
    zero(dbuf, count, type, comm);
    if (rankIn(comm) == root)
      add(sum, dbuf, count, type, comm);
  }
  free(sum);
}

/* MAX and MIN: each element's derivative is the one of the contribution
   that won (the lowest rank among equals).  Which this rank won, as a mask
   of `count` ints (null for a sum); `result` is on every rank (Reduce's is
   broadcast first). */
static int *winners(const void *contribution, const void *result, int count,
                    MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const char *routine) {
  if (op == MPI_SUM)
    return NULL;
  if (op != MPI_MAX && op != MPI_MIN)
    gpuad_fail("%s with an operation other than MPI_SUM, MPI_MAX or MPI_MIN on "
         "floats in differentiated code",
         routine);
  if (type != MPI_DOUBLE && type != MPI_FLOAT)
    gpuad_fail("%s with MPI_MAX or MPI_MIN on a datatype other than MPI_DOUBLE or "
         "MPI_FLOAT in differentiated code",
         routine);
  if (contribution == MPI_IN_PLACE)
    gpuad_fail("%s in place with MPI_MAX or MPI_MIN in differentiated code: its "
         "contribution is gone when the winner is decided",
         routine);
  int rank = rankIn(comm);
  int *mine = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
  int *mask = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
  for (int k = 0; k < count; ++k) {
    int won = type == MPI_DOUBLE
                  ? ((const double *)contribution)[k] ==
                        ((const double *)result)[k]
                  : ((const float *)contribution)[k] ==
                        ((const float *)result)[k];
    mine[k] = won ? rank : 0x7fffffff;
  }
  MPI_Allreduce(mine, mask, count, MPI_INT, MPI_MIN, comm);
  for (int k = 0; k < count; ++k)
    mask[k] = mask[k] == rank;
  free(mine);
  return mask;
}

/* The elements of `from` this rank won, the others zero. */
static void *masked(const void *from, const int *mask, int count,
                    MPI_Datatype type) {
  void *to = block(count, type);
  if (from)
    for (int k = 0; k < count; ++k)
      if (mask[k]) {
        if (type == MPI_DOUBLE)
          ((double *)to)[k] = ((const double *)from)[k];
        else
          ((float *)to)[k] = ((const float *)from)[k];
      }
  return to;
}

/* Reduce's result on every rank. */
static void *everywhere(const void *rbuf, int count, MPI_Datatype type,
                        int root, MPI_Comm comm) {
  void *all = block(count, type);
  if (rankIn(comm) == root)
    add(rbuf, all, count, type, comm);
  MPI_Bcast(all, count, type, root, comm);
  return all;
}

void *gpuad_mpi_reduce_record(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm) {
  if (!carries(type) || op == MPI_SUM)
    return NULL;
  void *all = everywhere(rbuf, count, type, root, comm);
  int *mask = winners(sbuf, all, count, type, op, comm, "MPI_Reduce");
  free(all);
  return mask;
}

void *gpuad_mpi_allreduce_record(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op,
                                 MPI_Comm comm) {
  if (!carries(type) || op == MPI_SUM)
    return NULL;
  return winners(sbuf, rbuf, count, type, op, comm, "MPI_Allreduce");
}

void gpuad_mpi_reduce_tangent(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm, const void *dsbuf, void *drbuf) {
  if (!carries(type))
    return;
  int *mask = gpuad_mpi_reduce_record(sbuf, rbuf, count, type, op, root, comm);
  int atRoot = rankIn(comm) == root;
  void *made = NULL, *into = drbuf;
  if (atRoot && !drbuf)
    into = block(count, type);
  const void *out = mask ? (made = masked(dsbuf, mask, count, type))
                    : atRoot && sbuf == MPI_IN_PLACE
                        ? MPI_IN_PLACE
                        : orZeros(dsbuf, count, type, &made);
  MPI_Reduce(out, into, count, type, MPI_SUM, root, comm);
  free(made);
  free(mask);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_reduce_adjoint(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm, void *dsbuf, void *drbuf,
                              void *record) {
  (void)rbuf, (void)op;
  if (!carries(type))
    return;
  int atRoot = rankIn(comm) == root;
  /* The result's adjoint, from the root to every contribution (to the
     winner's, for MAX and MIN). */
  void *result = block(count, type);
  if (atRoot && drbuf) {
    add(drbuf, result, count, type, comm);
    zero(drbuf, count, type, comm);
  }
  MPI_Bcast(result, count, type, root, comm);
  if (record) {
    void *won = masked(result, record, count, type);
    free(result);
    result = won;
  }
  void *into = atRoot && sbuf == MPI_IN_PLACE ? drbuf : dsbuf;
  if (into)
    add(result, into, count, type, comm);
  free(result);
}

void gpuad_mpi_allreduce_tangent(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 const void *dsbuf, void *drbuf) {
  if (!carries(type))
    return;
  int *mask = gpuad_mpi_allreduce_record(sbuf, rbuf, count, type, op, comm);
  void *made = NULL, *into = drbuf ? drbuf : block(count, type);
  const void *out = mask ? (made = masked(dsbuf, mask, count, type))
                    : sbuf == MPI_IN_PLACE
                        ? MPI_IN_PLACE
                        : orZeros(dsbuf, count, type, &made);
  MPI_Allreduce(out, into, count, type, MPI_SUM, comm);
  free(made);
  free(mask);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_allreduce_adjoint(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 void *dsbuf, void *drbuf, void *record) {
  (void)rbuf, (void)op;
  if (!carries(type))
    return;
  void *made, *sum = block(count, type);
  MPI_Allreduce(orZeros(drbuf, count, type, &made), sum, count, type, MPI_SUM,
                comm);
  free(made);
  if (drbuf)
    zero(drbuf, count, type, comm);
  if (record) {
    void *won = masked(sum, record, count, type);
    free(sum);
    sum = won;
  }
  void *into = sbuf == MPI_IN_PLACE ? drbuf : dsbuf;
  if (into)
    add(sum, into, count, type, comm);
  free(sum);
}

void gpuad_mpi_gather_tangent(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm,
                              const void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Gather");
  int atRoot = rankIn(comm) == root;
  void *made, *into = drbuf;
  if (atRoot && !drbuf)
    into = block(rcount * sizeOf(comm), rtype);
  MPI_Gather(orZeros(dsbuf, scount, stype, &made), scount, stype, into,
             rcount, rtype, root, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_gather_adjoint(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm,
                              void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Gather");
  int atRoot = rankIn(comm) == root, ranks = sizeOf(comm);
  void *made = NULL;
  const void *out = atRoot ? orZeros(drbuf, rcount * ranks, rtype, &made) : 0;
  void *got = block(scount, stype);
  MPI_Scatter(out, rcount, rtype, got, scount, stype, root, comm);
  free(made);
  if (atRoot && drbuf)
    zero(drbuf, rcount * ranks, rtype, comm);
  if (dsbuf)
    add(got, dsbuf, scount, stype, comm);
  free(got);
}

void gpuad_mpi_scatter_tangent(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               const void *dsbuf, void *drbuf) {
  (void)sbuf;
  if (!carries(rtype))
    return;
  requireBuffer(rbuf, "MPI_Scatter");
  int atRoot = rankIn(comm) == root;
  void *made = NULL;
  const void *out =
      atRoot ? orZeros(dsbuf, scount * sizeOf(comm), stype, &made) : 0;
  void *into = drbuf ? drbuf : block(rcount, rtype);
  MPI_Scatter(out, scount, stype, into, rcount, rtype, root, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_scatter_adjoint(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               void *dsbuf, void *drbuf) {
  (void)sbuf;
  if (!carries(rtype))
    return;
  requireBuffer(rbuf, "MPI_Scatter");
  int atRoot = rankIn(comm) == root, ranks = sizeOf(comm);
  void *made, *got = atRoot ? block(scount * ranks, stype) : NULL;
  MPI_Gather(orZeros(drbuf, rcount, rtype, &made), rcount, rtype, got, scount,
             stype, root, comm);
  free(made);
  if (drbuf)
    zero(drbuf, rcount, rtype, comm);
  if (atRoot && dsbuf)
    add(got, dsbuf, scount * ranks, stype, comm);
  free(got);
}

void gpuad_mpi_allgather_tangent(const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm,
                                 const void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Allgather");
  void *made, *into = drbuf ? drbuf : block(rcount * sizeOf(comm), rtype);
  MPI_Allgather(orZeros(dsbuf, scount, stype, &made), scount, stype, into,
                rcount, rtype, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_allgather_adjoint(const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm,
                                 void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Allgather");
  int ranks = sizeOf(comm);
  /* This rank's block of every copy, summed. */
  void *made, *sum = block(rcount, rtype);
  MPI_Reduce_scatter_block(orZeros(drbuf, rcount * ranks, rtype, &made), sum,
                           rcount, rtype, MPI_SUM, comm);
  free(made);
  if (drbuf)
    zero(drbuf, rcount * ranks, rtype, comm);
  if (dsbuf) {
    void *laid = relayout(sum, rcount, rtype, scount, stype, comm);
    add(laid, dsbuf, scount, stype, comm);
    free(laid);
  }
  free(sum);
}

void gpuad_mpi_alltoall_tangent(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                const void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Alltoall");
  int ranks = sizeOf(comm);
  void *made, *into = drbuf ? drbuf : block(rcount * ranks, rtype);
  MPI_Alltoall(orZeros(dsbuf, scount * ranks, stype, &made), scount, stype,
               into, rcount, rtype, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_alltoall_adjoint(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Alltoall");
  int ranks = sizeOf(comm);
  void *made, *got = block(scount * ranks, stype);
  MPI_Alltoall(orZeros(drbuf, rcount * ranks, rtype, &made), rcount, rtype,
               got, scount, stype, comm);
  free(made);
  if (drbuf)
    zero(drbuf, rcount * ranks, rtype, comm);
  if (dsbuf)
    add(got, dsbuf, scount * ranks, stype, comm);
  free(got);
}

/* ---- The v forms: a count and a displacement per rank ----------------- */

/* `buf` + `displ` elements of `type` (its extent). */
static char *at(const void *buf, int displ, MPI_Datatype type) {
  MPI_Aint lb, extent;
  MPI_Type_get_extent(type, &lb, &extent);
  return (char *)buf + (MPI_Aint)displ * extent;
}

/* The elements the blocks of every rank reach: a block that size. */
static int span(const int *counts, const int *displs, int ranks) {
  int end = 0;
  for (int r = 0; r < ranks; ++r)
    if (counts[r] > 0 && displs[r] + counts[r] > end)
      end = displs[r] + counts[r];
  return end;
}

/* Reverse mode: the counts and displacements as they were at the call
   (significant at the root only for Gatherv and Scatterv), for the adjoint
   (its `record`). */
static int *copyCounts(const int *counts, const int *displs, MPI_Comm comm) {
  int ranks = sizeOf(comm);
  int *copy = malloc(sizeof(int) * 2 * (size_t)ranks);
  for (int r = 0; r < ranks; ++r) {
    copy[r] = counts[r];
    copy[ranks + r] = displs[r];
  }
  return copy;
}

void *gpuad_mpi_gatherv_record(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm) {
  (void)sbuf, (void)scount, (void)stype, (void)rbuf, (void)rtype;
  return rankIn(comm) == root ? copyCounts(rcounts, displs, comm) : NULL;
}

void *gpuad_mpi_scatterv_record(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm) {
  (void)sbuf, (void)stype, (void)rbuf, (void)rcount, (void)rtype;
  return rankIn(comm) == root ? copyCounts(scounts, displs, comm) : NULL;
}

void *gpuad_mpi_allgatherv_record(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm) {
  (void)sbuf, (void)scount, (void)stype, (void)rbuf, (void)rtype;
  return copyCounts(rcounts, displs, comm);
}

void gpuad_mpi_gatherv_tangent(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               const void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Gatherv");
  int atRoot = rankIn(comm) == root;
  void *made, *into = drbuf;
  if (atRoot && !drbuf)
    into = block(span(rcounts, displs, sizeOf(comm)), rtype);
  MPI_Gatherv(orZeros(dsbuf, scount, stype, &made), scount, stype, into,
              rcounts, displs, rtype, root, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_gatherv_adjoint(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               void *dsbuf, void *drbuf, void *record) {
  (void)rbuf;
  if (record) {
    rcounts = record;
    displs = rcounts + sizeOf(comm);
  }
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Gatherv");
  int atRoot = rankIn(comm) == root, ranks = sizeOf(comm);
  void *made = NULL;
  const void *out =
      atRoot ? orZeros(drbuf, span(rcounts, displs, ranks), rtype, &made) : 0;
  void *got = block(scount, stype);
  MPI_Scatterv(out, rcounts, displs, rtype, got, scount, stype, root, comm);
  free(made);
  if (atRoot && drbuf)
    for (int r = 0; r < ranks; ++r)
      zero(at(drbuf, displs[r], rtype), rcounts[r], rtype, comm);
  if (dsbuf)
    add(got, dsbuf, scount, stype, comm);
  free(got);
}

void gpuad_mpi_scatterv_tangent(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm, const void *dsbuf,
                                void *drbuf) {
  (void)sbuf;
  if (!carries(rtype))
    return;
  requireBuffer(rbuf, "MPI_Scatterv");
  int atRoot = rankIn(comm) == root;
  void *made = NULL;
  const void *out =
      atRoot ? orZeros(dsbuf, span(scounts, displs, sizeOf(comm)), stype, &made)
             : 0;
  void *into = drbuf ? drbuf : block(rcount, rtype);
  MPI_Scatterv(out, scounts, displs, stype, into, rcount, rtype, root, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_scatterv_adjoint(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm, void *dsbuf,
                                void *drbuf, void *record) {
  (void)sbuf;
  if (record) {
    scounts = record;
    displs = scounts + sizeOf(comm);
  }
  if (!carries(rtype))
    return;
  requireBuffer(rbuf, "MPI_Scatterv");
  int atRoot = rankIn(comm) == root, ranks = sizeOf(comm);
  void *made,
      *got = atRoot ? block(span(scounts, displs, ranks), stype) : NULL;
  MPI_Gatherv(orZeros(drbuf, rcount, rtype, &made), rcount, rtype, got,
              scounts, displs, stype, root, comm);
  free(made);
  if (drbuf)
    zero(drbuf, rcount, rtype, comm);
  if (atRoot && dsbuf)
    for (int r = 0; r < ranks; ++r)
      add(at(got, displs[r], stype), at(dsbuf, displs[r], stype), scounts[r],
          stype, comm);
  free(got);
}

void gpuad_mpi_allgatherv_tangent(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm,
                                  const void *dsbuf, void *drbuf) {
  (void)rbuf;
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Allgatherv");
  void *made, *into = drbuf ? drbuf
                             : block(span(rcounts, displs, sizeOf(comm)),
                                     rtype);
  MPI_Allgatherv(orZeros(dsbuf, scount, stype, &made), scount, stype, into,
                 rcounts, displs, rtype, comm);
  free(made);
  if (into != drbuf)
    free(into);
}

void gpuad_mpi_allgatherv_adjoint(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm,
                                  void *dsbuf, void *drbuf, void *record) {
  (void)rbuf;
  rcounts = record;
  displs = rcounts + sizeOf(comm);
  if (!carries(stype))
    return;
  requireBuffer(sbuf, "MPI_Allgatherv");
  if (floating(rtype) != rtype)
    gpuad_fail("MPI_Allgatherv with a derived datatype in differentiated code");
  int ranks = sizeOf(comm), me = rankIn(comm);
  int all = span(rcounts, displs, ranks);
  /* Every copy's adjoint, summed; this rank's block of it. */
  void *made, *sum = block(all, rtype);
  MPI_Allreduce(orZeros(drbuf, all, rtype, &made), sum, all, rtype, MPI_SUM,
                comm);
  free(made);
  if (drbuf)
    for (int r = 0; r < ranks; ++r)
      zero(at(drbuf, displs[r], rtype), rcounts[r], rtype, comm);
  if (dsbuf) {
    void *laid = relayout(at(sum, displs[me], rtype), rcounts[me], rtype,
                          scount, stype, comm);
    add(laid, dsbuf, scount, stype, comm);
    free(laid);
  }
  free(sum);
}
