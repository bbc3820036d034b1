/*===- MpiData.h - What MPI's derivatives do with a message's data -*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * The runtime's MPI files share these: whether a datatype carries
 * derivatives, blocks laid out as a datatype, zeroing and adding through
 * any datatype (derived ones by packing), and the checks on what a call is
 * given.  Internal to runtime/Mpi*.c.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_MPIDATA_H
#define GPUAD_RUNTIME_MPIDATA_H

#include "Require.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static inline int isFloat(MPI_Datatype named) {
  return named == MPI_DOUBLE || named == MPI_FLOAT ||
         named == MPI_LONG_DOUBLE || named == MPI_C_DOUBLE_COMPLEX ||
         named == MPI_C_FLOAT_COMPLEX || named == MPI_C_LONG_DOUBLE_COMPLEX;
}

/* The predefined datatypes `type` is made of: the float one (`*basic`; two
   different ones: `*mixed`), and whether it has others (`*other`). */
static inline void walk(MPI_Datatype type, MPI_Datatype *basic, int *mixed,
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
static inline MPI_Datatype floating(MPI_Datatype type) {
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
static inline void *block(int count, MPI_Datatype type) {
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
static inline void zero(void *buf, int count, MPI_Datatype type, MPI_Comm comm) {
  int bytes, position = 0;
  MPI_Pack_size(count, type, comm, &bytes);
  void *zeros = calloc(1, bytes ? (size_t)bytes : 1);
  MPI_Unpack(zeros, bytes, &position, buf, count, type, comm);
  free(zeros);
}

/* Whether messages of `type` carry derivatives. */
static inline int carries(MPI_Datatype type) {
  return floating(type) != MPI_DATATYPE_NULL;
}

/* to[k] += from[k] for n elements of the predefined float type `basic`. */
static inline void addElements(const void *from, void *to, long n,
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
static inline void add(const void *from, void *to, int count, MPI_Datatype type,
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
static inline void *relayout(const void *from, int count_from, MPI_Datatype type_from,
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

static inline void requireBuffer(const void *buf, const char *routine) {
  if (buf == MPI_IN_PLACE)
    gpuad_fail("%s with MPI_IN_PLACE in differentiated code: gpuad differentiates "
         "its in-place form only for MPI_Reduce and MPI_Allreduce",
         routine);
}

/* The peer and tag a receive's derivative uses: its own, or, for a
   wildcard, what the receive got (forward mode reads its status). */
static inline void peerOf(int *source, int *tag, const MPI_Status *status,
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

static inline int rankIn(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

static inline int sizeOf(MPI_Comm comm) {
  int size;
  MPI_Comm_size(comm, &size);
  return size;
}

/* A shadow, or zeros in its place (freed by `release`). */
static inline const void *orZeros(const void *shadow, int count, MPI_Datatype type,
                           void **made) {
  *made = shadow ? NULL : block(count, type);
  return shadow ? shadow : *made;
}

#endif /* GPUAD_RUNTIME_MPIDATA_H */
