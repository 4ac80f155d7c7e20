/* program_xml.c: an evaluated program written as mmm's XML (what
 * `mmm convert` writes): parameters and constraints as their texts, each
 * kernel with its evaluated values, the edges.  The file is replaced
 * atomically. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/import_internal.h"
#include "base/outfile.h"
#include "base/text.h"

static void num(FILE *f, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.17g", v);
}

static void write_class(FILE *f, const mmm_class_val *c)
{
    fputs(" work=\"", f);
    num(f, c->work);
    fputs("\" span=\"", f);
    num(f, c->span);
    fputs("\" reads=\"", f);
    num(f, c->reads);
    fputs("\" writes=\"", f);
    num(f, c->writes);
    fputc('"', f);
    if (c->shared != 0) {
        fputs(" shared=\"", f);
        num(f, c->shared);
        fputc('"', f);
    }
    if (c->access == MMM_ACCESS_IRREGULAR)
        fputs(" access=\"irregular\"", f);
}

int mmm_program_write_xml(FILE *f, const mmm_instance *inst,
                          const char *comment, mmm_error *err)
{
    if (!f || !inst)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_program_write_xml: missing argument");
    if (!inst->classes)
        return mmm_error_set(err, MMM_EINVAL, inst->program->file, 0,
                             "mmm_program_write_xml: the instance keeps no "
                             "class values (MMM_INSTANCE_NO_CLASSES)");
    const mmm_program *p = inst->program;
    size_t k, i;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    if (comment && *comment) {
        fputs("<!--\n", f);
        mmm__fput_xml_comment(f, comment);
        fputs("\n", f);
    }
    if (comment && *comment)
        fputs("-->\n", f);
    fputs("<program name=\"", f);
    mmm__fput_xml(f, p->name ? p->name : "");
    fputs("\">\n", f);
    if (p->description && *p->description) {
        fputs("  <description>", f);
        mmm__fput_xml(f, p->description);
        fputs("</description>\n", f);
    }
    for (i = 0; i < p->nparams; i++) {
        const mmm_param *pa = &p->params[i];
        if (pa->from_machine)
            continue;
        fputs("  <param name=\"", f);
        mmm__fput_xml(f, pa->name);
        fputs("\" value=\"", f);
        mmm__fput_xml(f, pa->value_text ? pa->value_text : "0");
        fputc('"', f);
        if (pa->min_text) {
            fputs(" min=\"", f);
            mmm__fput_xml(f, pa->min_text);
            fputc('"', f);
        }
        if (pa->max_text) {
            fputs(" max=\"", f);
            mmm__fput_xml(f, pa->max_text);
            fputc('"', f);
        }
        fputs("/>\n", f);
    }
    for (i = 0; i < p->nconstraints; i++) {
        fputs("  <constraint test=\"", f);
        mmm__fput_xml(f, p->constraints[i].text);
        fputs("\"/>\n", f);
    }
    for (k = 0; k < p->nkernels; k++) {
        const mmm_kernel *ke = &p->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        const mmm_class_val *c = &inst->classes[ke->first_class];
        if (mmm_kernel_copy(p, k) != MMM_COPY_NONE) {
            fputs("  <copy id=\"", f);
            mmm__fput_xml(f, ke->id);
            fprintf(f, "\" kind=\"%s\" bytes=\"%lld\"",
                    mmm_copy_kind_name(mmm_kernel_copy(p, k)),
                    (long long)mmm_instance_copy_bytes(inst, k));
            if (kv->repeat != 1)
                fprintf(f, " repeat=\"%lld\"", (long long)kv->repeat);
            fputs("/>\n", f);
            continue;
        }
        if (ke->uses_index)
            return mmm_error_set(err, MMM_EINVAL, p->file, ke->line,
                                 "kernel '%s' uses its index '%s': its "
                                 "launches differ, and only evaluated values "
                                 "are written",
                                 ke->id, ke->index);
        fputs("  <kernel id=\"", f);
        mmm__fput_xml(f, ke->id);
        fputc('"', f);
        if (mmm_kernel_type(p, k)) {
            fputs(" type=\"", f);
            mmm__fput_xml(f, mmm_kernel_type(p, k));
            fputc('"', f);
        }
        if (kv->repeat != 1)
            fprintf(f, " repeat=\"%lld\"", (long long)kv->repeat);
        if (ke->nclasses == 1) {
            fprintf(f, " blocks=\"%lld\"", (long long)c->count);
            if (c->threads)
                fprintf(f, " threads=\"%lld\"", (long long)c->threads);
            write_class(f, c);
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n", f);
        for (i = 0; i < ke->nclasses; i++) {
            fprintf(f, "    <blocks count=\"%lld\"", (long long)c[i].count);
            if (c[i].threads)
                fprintf(f, " threads=\"%lld\"", (long long)c[i].threads);
            write_class(f, &c[i]);
            fputs("/>\n", f);
        }
        fputs("  </kernel>\n", f);
    }
    for (i = 0; i < p->nedges; i++) {
        fputs("  <edge from=\"", f);
        mmm__fput_xml(f, p->kernels[p->edges[i].from].id);
        fputs("\" to=\"", f);
        mmm__fput_xml(f, p->kernels[p->edges[i].to].id);
        fputs("\"/>\n", f);
    }
    fputs("</program>\n", f);
    return ferror(f) ? mmm_error_set(err, MMM_EIO, NULL, 0, "cannot write")
                     : 0;
}

int mmm_program_save_xml(const char *path, const mmm_instance *inst,
                         const char *comment, mmm_error *err)
{
    mmm__outfile of;
    int r = mmm__outfile_open(&of, path, err);
    if (r < 0)
        return r;
    if ((r = mmm_program_write_xml(of.fp, inst, comment, err)) < 0) {
        mmm__outfile_abort(&of);
        return r;
    }
    return mmm__outfile_commit(&of, err);
}

