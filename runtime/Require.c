/*===- Require.c - Conditions a derivative checks when it runs ------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Require.h"

#include <stdio.h>
#include <stdlib.h>

void gpuad_require(int ok, const char *message) {
  if (ok)
    return;
  fprintf(stderr, "gpuad: %s\n", message);
  abort();
}
