/**
 * mmm/import_dot.h: the DOT readers (Graphviz's cgraph), a module of their
 * own, built when cgraph is found (MMM_HAVE_DOT).  Hand them to
 * mmm_program_read_file through mmm_import_options:
 *
 *   io.dot_reader = mmm_dot_read;
 *   io.cuda_dot_reader = mmm_cuda_dot_read;
 *
 * mmm_dot_read: a DOT task graph, one task per node, its cost from the
 * attribute opt->cost_attr ("size" when NULL, as SimGrid and DAGGEN write
 * it), one dependency per edge.
 *
 * mmm_cuda_dot_read: the output of cudaGraphDebugDotPrint (verbose): a
 * kernel node becomes a kernel of grid-size blocks of block-size threads
 * with its dynamic shared memory; memset and memcpy nodes become kernels of
 * one block of one thread whose cost is their traffic; costs per kernel
 * name come from opt->costs_file (CSV: name,work,span,reads,writes per
 * thread), else placeholders (work = span = 1 per thread), with a note.
 *
 * cgraph keeps global state: do not call these from two threads at once.
 */
#ifndef MMM_IMPORT_DOT_H
#define MMM_IMPORT_DOT_H

#include "mmm/export.h"
#include "mmm/import.h"

#ifdef __cplusplus
extern "C" {
#endif

MMM_API int mmm_dot_read(mmm_program **out, const char *buf, size_t len,
                         const char *name, const mmm_import_options *opt,
                         mmm_import_report *rep, mmm_error *err);
MMM_API int mmm_cuda_dot_read(mmm_program **out, const char *buf, size_t len,
                              const char *name, const mmm_import_options *opt,
                              mmm_import_report *rep, mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
