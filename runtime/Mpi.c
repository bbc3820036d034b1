/*===- Mpi.c - Tangents and adjoints of MPI's communication ---------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Mpi.h"
#include "Require.h"

#include <stdio.h>
#include <stdlib.h>

static int isFloat(MPI_Datatype named) {
  return named == MPI_DOUBLE || named == MPI_FLOAT ||
         named == MPI_LONG_DOUBLE || named == MPI_C_DOUBLE_COMPLEX ||
         named == MPI_C_FLOAT_COMPLEX || named == MPI_C_LONG_DOUBLE_COMPLEX;
}

/* The predefined datatypes `type` is made of: the float one (`*basic`; two
   different ones: `*mixed`), and whether it has others (`*other`). */
static void walk(MPI_Datatype type, MPI_Datatype *basic, int *mixed,
                 int *other) {
  if (type == MPI_DOUBLE_INT || type == MPI_FLOAT_INT ||
      type == MPI_LONG_DOUBLE_INT)
    gpuad_fail("an MPI message of float-and-index pairs (MPI_DOUBLE_INT, for "
         "MAXLOC/MINLOC) in differentiated code: gpuad does not move its "
         "derivative");
  int ints, addresses, types, combiner;
  MPI_Type_get_envelope(type, &ints, &addresses, &types, &combiner);
  if (combiner == MPI_COMBINER_NAMED) {
    if (!isFloat(type))
      *other = 1;
    else if (*basic == MPI_DATATYPE_NULL)
      *basic = type;
    else if (*basic != type)
      *mixed = 1;
    return;
  }
  int *i = malloc(sizeof(int) * (size_t)(ints + 1));
  MPI_Aint *a = malloc(sizeof(MPI_Aint) * (size_t)(addresses + 1));
  MPI_Datatype *t = malloc(sizeof(MPI_Datatype) * (size_t)(types + 1));
  MPI_Type_get_contents(type, ints, addresses, types, i, a, t);
  for (int k = 0; k < types; ++k) {
    walk(t[k], basic, mixed, other);
    int ni, na, nt, c;
    MPI_Type_get_envelope(t[k], &ni, &na, &nt, &c);
    if (c != MPI_COMBINER_NAMED)
      MPI_Type_free(&t[k]);
  }
  free(i);
  free(a);
  free(t);
}

/* The floating-point type `type`'s elements are (complex included), or
   MPI_DATATYPE_NULL where it holds none.  A datatype that mixes floats
   with other data, or two precisions, stops the program: gpuad does not
   move its derivative. */
static MPI_Datatype floating(MPI_Datatype type) {
  if (isFloat(type))
    return type;
  MPI_Datatype basic = MPI_DATATYPE_NULL;
  int mixed = 0, other = 0;
  walk(type, &basic, &mixed, &other);
  if (basic != MPI_DATATYPE_NULL && (mixed || other))
    gpuad_fail("an MPI datatype mixing floats with other data or another "
         "precision in differentiated code: send the floats of one "
         "precision in a message of their own");
  return basic;
}

/* A zeroed block laid out as `count` elements of `type`. */
static void *block(int count, MPI_Datatype type) {
  MPI_Aint lb, extent, true_lb, true_extent;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  if (true_lb < 0)
    gpuad_fail("an MPI datatype with a negative lower bound in differentiated "
         "code");
  size_t bytes =
      count > 0 ? (size_t)(true_lb + true_extent + (count - 1) * extent) : 0;
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p)
    gpuad_fail("out of memory for an MPI message's derivative (%zu bytes)", bytes);
  return p;
}

/* Sets the elements of `count` x `type` at `buf` to zero (only those the
   datatype covers): unpacks a packed block of zeros there. */
static void zero(void *buf, int count, MPI_Datatype type, MPI_Comm comm) {
  int bytes, position = 0;
  MPI_Pack_size(count, type, comm, &bytes);
  void *zeros = calloc(1, bytes ? (size_t)bytes : 1);
  MPI_Unpack(zeros, bytes, &position, buf, count, type, comm);
  free(zeros);
}

/* Whether messages of `type` carry derivatives. */
static int carries(MPI_Datatype type) {
  return floating(type) != MPI_DATATYPE_NULL;
}

/* to[k] += from[k] for n elements of the predefined float type `basic`. */
static void addElements(const void *from, void *to, long n,
                        MPI_Datatype basic) {
  if (basic == MPI_C_DOUBLE_COMPLEX || basic == MPI_C_FLOAT_COMPLEX ||
      basic == MPI_C_LONG_DOUBLE_COMPLEX) {
    n *= 2;
    basic = basic == MPI_C_DOUBLE_COMPLEX  ? MPI_DOUBLE
            : basic == MPI_C_FLOAT_COMPLEX ? MPI_FLOAT
                                           : MPI_LONG_DOUBLE;
  }
  if (basic == MPI_DOUBLE)
    for (long k = 0; k < n; ++k)
      ((double *)to)[k] += ((const double *)from)[k];
  else if (basic == MPI_FLOAT)
    for (long k = 0; k < n; ++k)
      ((float *)to)[k] += ((const float *)from)[k];
  else
    for (long k = 0; k < n; ++k)
      ((long double *)to)[k] += ((const long double *)from)[k];
}

/* to += from, element by element, both laid out as `count` x `type`: a
   derived datatype's elements are packed, added and unpacked. */
static void add(const void *from, void *to, int count, MPI_Datatype type,
                MPI_Comm comm) {
  MPI_Datatype basic = floating(type);
  int size;
  MPI_Type_size(basic, &size);
  if (basic == type) {
    addElements(from, to, count, basic);
    return;
  }
  int bytes, at_from = 0, at_to = 0, read = 0;
  MPI_Pack_size(count, type, comm, &bytes);
  char *a = malloc(bytes ? (size_t)bytes : 1);
  char *b = malloc(bytes ? (size_t)bytes : 1);
  MPI_Pack(from, count, type, a, bytes, &at_from, comm);
  MPI_Pack(to, count, type, b, bytes, &at_to, comm);
  addElements(a, b, at_to / size, basic);
  MPI_Unpack(b, at_to, &read, to, count, type, comm);
  free(a);
  free(b);
}

/* `from` (count_from x type_from) laid out as count_to x type_to: the same
   elements in another datatype's layout. */
static void *relayout(const void *from, int count_from, MPI_Datatype type_from,
                      int count_to, MPI_Datatype type_to, MPI_Comm comm) {
  int bytes, position = 0;
  MPI_Pack_size(count_from, type_from, comm, &bytes);
  void *packed = malloc(bytes ? (size_t)bytes : 1);
  MPI_Pack(from, count_from, type_from, packed, bytes, &position, comm);
  void *to = block(count_to, type_to);
  int read = 0;
  MPI_Unpack(packed, position, &read, to, count_to, type_to, comm);
  free(packed);
  return to;
}

static void requireBuffer(const void *buf, const char *routine) {
  if (buf == MPI_IN_PLACE)
    gpuad_fail("%s with MPI_IN_PLACE in differentiated code: gpuad differentiates "
         "its in-place form only for MPI_Reduce and MPI_Allreduce",
         routine);
}

/* The peer and tag a receive's derivative uses: its own, or, for a
   wildcard, what the receive got (forward mode reads its status). */
static void peerOf(int *source, int *tag, const MPI_Status *status,
                   int reverse, const char *routine) {
  if (*source != MPI_ANY_SOURCE && *tag != MPI_ANY_TAG)
    return;
  if (reverse || status == MPI_STATUS_IGNORE)
    gpuad_fail("%s from MPI_ANY_SOURCE or with MPI_ANY_TAG in differentiated code: "
         "%s; name the source and the tag",
         routine,
         reverse ? "the reverse sweep cannot tell where the adjoint goes"
                 : "its status is ignored, so the tangent's sender is "
                   "unknown");
  *source = status->MPI_SOURCE;
  *tag = status->MPI_TAG;
}

static int rankIn(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

static int sizeOf(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

/* A shadow, or zeros in its place (freed by `release`). */
static const void *orZeros(const void *shadow, int count, MPI_Datatype type,
                           void **made) {
  *made = shadow ? NULL : block(count, type);
  return shadow ? shadow : *made;
}

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

/* ---- Non-blocking communication ------------------------------------------ */

typedef struct Record {
  int send; /* Isend (1) or Irecv (0) */
  int carries;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
  void *dbuf;
  void *got;            /* reverse mode: the adjoint received */
  void *zeros;          /* zeros sent where the buffer has no shadow */
  MPI_Request derived;  /* the tangent's or the adjoint's request */
  struct Record *next;  /* in the table of posted requests */
  MPI_Request primal;
} Record;

/* Posted requests not yet completed, by request (a short list: requests in
   flight at once). */
static Record *posted;

static Record *take(MPI_Request request) {
  for (Record **at = &posted; *at; at = &(*at)->next)
    if ((*at)->primal == request) {
      Record *r = *at;
      *at = r->next;
      r->next = NULL;
      return r;
    }
  return NULL;
}

static Record *post(int send, void *dbuf, int count, MPI_Datatype type,
                    int peer, int tag, MPI_Comm comm, MPI_Request *request) {
  Record *r = calloc(1, sizeof(Record));
  if (!r)
    gpuad_fail("out of memory for a non-blocking MPI call's derivative");
  r->send = send;
  r->carries = carries(type);
  r->count = count;
  r->type = type;
  r->peer = peer;
  r->tag = tag;
  r->comm = comm;
  r->dbuf = dbuf;
  r->derived = MPI_REQUEST_NULL;
  r->primal = *request;
  if (r->carries && !send && (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG))
    gpuad_fail("MPI_Irecv from MPI_ANY_SOURCE or with MPI_ANY_TAG in "
         "differentiated code: name the source and the tag");
  r->next = posted;
  posted = r;
  return r;
}

void gpuad_mpi_isend_tangent(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, const void *dbuf) {
  (void)buf;
  Record *r = post(1, (void *)dbuf, count, type, dest, tag, comm, request);
  if (!r->carries)
    return;
  if (!dbuf)
    r->zeros = block(count, type);
  MPI_Isend(dbuf ? dbuf : r->zeros, count, type, dest, tag, comm, &r->derived);
}

void gpuad_mpi_irecv_tangent(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  Record *r = post(0, dbuf, count, type, source, tag, comm, request);
  if (!r->carries)
    return;
  if (!dbuf)
    r->zeros = block(count, type); /* received into and dropped */
  MPI_Irecv(dbuf ? dbuf : r->zeros, count, type, source, tag, comm,
            &r->derived);
}

void *gpuad_mpi_isend_record(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  return post(1, dbuf, count, type, dest, tag, comm, request);
}

void *gpuad_mpi_irecv_record(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  return post(0, dbuf, count, type, source, tag, comm, request);
}

typedef struct Completion {
  int count;
  Record **records;
  MPI_Request *requests; /* as they were before the completion */
} Completion;

void *gpuad_mpi_completion_begin(int count, MPI_Request *requests) {
  Completion *c = calloc(1, sizeof(Completion));
  c->count = count;
  c->records = calloc((size_t)(count > 0 ? count : 1), sizeof(Record *));
  c->requests = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
  for (int k = 0; k < count; ++k)
    c->requests[k] = requests[k];
  return c;
}

static void release(Completion *c) {
  free(c->records);
  free(c->requests);
  free(c);
}

void *gpuad_mpi_completion_end(void *completion, const int *flag,
                               int reverse) {
  Completion *c = completion;
  for (int k = 0; k < c->count && (!flag || *flag); ++k) {
    Record *r = c->requests[k] == MPI_REQUEST_NULL ? NULL
                                                   : take(c->requests[k]);
    if (reverse) {
      c->records[k] = r;
      continue;
    }
    /* Forward mode: the tangent completes with the primal. */
    if (r && r->derived != MPI_REQUEST_NULL)
      MPI_Wait(&r->derived, MPI_STATUS_IGNORE);
    if (r) {
      free(r->zeros);
      free(r);
    }
  }
  if (reverse)
    return c;
  release(c);
  return NULL;
}

void gpuad_mpi_completion_adjoint(void *completion) {
  Completion *c = completion;
  for (int k = 0; k < c->count; ++k) {
    Record *r = c->records[k];
    if (!r || !r->carries)
      continue;
    if (r->send) {
      r->got = block(r->count, r->type);
      MPI_Irecv(r->got, r->count, r->type, r->peer, r->tag, r->comm,
                &r->derived);
    } else {
      if (!r->dbuf)
        r->zeros = block(r->count, r->type);
      MPI_Isend(r->dbuf ? r->dbuf : r->zeros, r->count, r->type, r->peer,
                r->tag, r->comm, &r->derived);
    }
  }
  release(c);
}

void gpuad_mpi_post_adjoint(void *record) {
  Record *r = record;
  if (r->carries) {
    if (r->derived == MPI_REQUEST_NULL)
      gpuad_fail("a non-blocking MPI operation in differentiated code that was "
           "never completed (MPI_Wait, MPI_Waitall, MPI_Test)");
    MPI_Wait(&r->derived, MPI_STATUS_IGNORE);
    if (r->send && r->dbuf)
      add(r->got, r->dbuf, r->count, r->type, r->comm);
    if (!r->send && r->dbuf)
      zero(r->dbuf, r->count, r->type, r->comm);
  }
  free(r->got);
  free(r->zeros);
  free(r);
}
