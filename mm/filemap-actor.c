/*
 * do_generic_mapping_read_actor() (mm/filemap.h): the read path of
 * mm/filemap-read.h compiled with FILEMAP_READ_ACTOR, handing each piece of
 * data to an actor where do_generic_mapping_read() copies it into the
 * caller's buffer. A translation unit of its own so that filemap.c's compiled
 * code is what it is without it (the compiler inlines helpers by how many
 * callers they have). Host-buildable.
 */
#define FILEMAP_READ_ACTOR
#include "mm/filemap-read.h"
