/* cmd_convert.c: `mmm convert IN -o OUT.xml`: a program read from any
 * format (a task graph: STG, WfCommons, DAX, DOT, CUDA graph DOT) written
 * as mmm's XML, with a comment saying where it came from, so that it can
 * be edited and parametrized.  Kernel values are written evaluated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char convert_help[] =
    "usage: mmm convert IN -o OUT.xml [OPTIONS]\n"
    "\n"
    "Read a program in any format mmm reads (told by its content: mmm XML,\n"
    "STG, WfCommons JSON, Pegasus DAX, a DOT task graph or a CUDA graph DOT)\n"
    "and write it as mmm's XML, with a comment saying where it came from.\n"
    "Each task is a kernel of one block whose work and span are its cost.\n"
    "Kernel values are written evaluated (with -D and --machine applied).\n"
    "\n"
    "  -o, --output OUT     file to write (atomically; '-' writes to stdout)\n";

/* XML attribute/text escaping. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        case '\r': fputs("&#13;", f); break;
        default:
            if ((unsigned char)*s < 0x20)
                fputc('?', f); /* not allowed in XML 1.0 */
            else
                fputc(*s, f);
        }
    }
}

/* A comment may not hold "--": those become "- -". */
static void xml_comment_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
        if (*s == '-' && s[1] == '-')
            fputc(' ', f);
    }
    if (s[-1] == '-')
        fputc(' ', f);
}

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

typedef struct convert_units {
    const char *time_unit; /* of the costs given in seconds */
} convert_units;

static int write_xml(FILE *f, const char *in, const mmm_import_report *rep,
                     const mmm_instance *inst, const convert_units *u)
{
    const mmm_program *p = inst->program;
    size_t k, i;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n  Converted by mmm "
          MMM_VERSION " from ",
          f);
    xml_comment_text(f, in);
    fprintf(f, "\n  (%s", mmm_input_format_name(rep->format));
    if (rep->format != MMM_INPUT_MMM)
        fprintf(f, ": %zu tasks, %zu distinct edges", rep->ntasks,
                rep->nedges);
    fputs(").\n", f);
    if (rep->format == MMM_INPUT_WFCOMMONS || rep->format == MMM_INPUT_DAX)
        fprintf(f, "  Runtimes in seconds written as integers in %s.\n",
                u->time_unit);
    if (rep->format != MMM_INPUT_MMM && rep->format != MMM_INPUT_CUDA_DOT)
        fputs("  Each task is a kernel of one block: work = span = its cost, "
              "no memory traffic.\n",
              f);
    if (rep->note[0]) {
        fputs("  Note: ", f);
        xml_comment_text(f, rep->note);
        fputc('\n', f);
    }
    fputs("-->\n<program name=\"", f);
    xml_text(f, p->name ? p->name : "");
    fputs("\">\n", f);
    if (p->description && *p->description) {
        fputs("  <description>", f);
        xml_text(f, p->description);
        fputs("</description>\n", f);
    }
    for (i = 0; i < p->nparams; i++) {
        const mmm_param *pa = &p->params[i];
        if (pa->from_machine)
            continue;
        fputs("  <param name=\"", f);
        xml_text(f, pa->name);
        fputs("\" value=\"", f);
        xml_text(f, pa->value_text ? pa->value_text : "0");
        fputc('"', f);
        if (pa->min_text) {
            fputs(" min=\"", f);
            xml_text(f, pa->min_text);
            fputc('"', f);
        }
        if (pa->max_text) {
            fputs(" max=\"", f);
            xml_text(f, pa->max_text);
            fputc('"', f);
        }
        fputs("/>\n", f);
    }
    for (i = 0; i < p->nconstraints; i++) {
        fputs("  <constraint test=\"", f);
        xml_text(f, p->constraints[i].text);
        fputs("\"/>\n", f);
    }
    for (k = 0; k < p->nkernels; k++) {
        const mmm_kernel *ke = &p->kernels[k];
        const mmm_kernel_val *kv = &inst->kernels[k];
        const mmm_class_val *c = &inst->classes[ke->first_class];
        if (ke->uses_index) {
            fprintf(stderr,
                    "%s: error: kernel '%s' uses its index '%s': convert "
                    "writes evaluated values and cannot write it\n",
                    in, ke->id, ke->index);
            return -1;
        }
        fputs("  <kernel id=\"", f);
        xml_text(f, ke->id);
        fputc('"', f);
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
        xml_text(f, p->kernels[p->edges[i].from].id);
        fputs("\" to=\"", f);
        xml_text(f, p->kernels[p->edges[i].to].id);
        fputs("\"/>\n", f);
    }
    fputs("</program>\n", f);
    return 0;
}

int cmd_convert(int argc, char **argv)
{
    static const char *units[] = {"us", "s", "ms", "ns"};
    cli_common c;
    const char *file = NULL, *out = NULL;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_import_report rep;
    convert_units u;
    mmm_error err;
    int i, rc;

    cli_common_init(&c, "convert");
    for (i = 1; i < argc; i++) {
        int r, missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", convert_help);
            cli_print_common_help_except("--format");
            return CLI_OK;
        }
        if ((v = cli_option_value("-o", argc, argv, &i, &missing)) ||
            (!missing &&
             (v = cli_option_value("--output", argc, argv, &i, &missing)))) {
            out = v;
            continue;
        }
        if (missing)
            return cli_usage("convert", "option '%s' needs a value", argv[i]);
        if ((r = cli_common_option(&c, argc, argv, &i)) < 0)
            return CLI_USAGE;
        if (r > 0)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage("convert", "unknown option '%s'", argv[i]);
        if (file)
            return cli_usage("convert", "one IN only ('%s' and '%s')", file,
                             argv[i]);
        file = argv[i];
    }
    if (!file)
        return cli_usage("convert", "missing IN");
    if (!out)
        return cli_usage("convert", "missing -o OUT.xml");
    memset(&rep, 0, sizeof rep);
    if ((rc = cli_load_report(&c, file, 0, &prog, &inst, &rep)) != CLI_OK)
        return rc;
    u.time_unit = units[(unsigned)c.time_unit < 4 ? (unsigned)c.time_unit : 0];
    if (!strcmp(out, "-")) {
        rc = write_xml(stdout, file, &rep, inst, &u) < 0 || fflush(stdout)
                 ? CLI_FAIL
                 : CLI_OK;
    } else {
        mmm_outfile of;
        if (mmm_outfile_open(&of, out, &err) < 0) {
            cli_print_error(&err);
            rc = CLI_FAIL;
        } else if (write_xml(of.fp, file, &rep, inst, &u) < 0) {
            mmm_outfile_abort(&of);
            rc = CLI_FAIL;
        } else if (mmm_outfile_commit(&of, &err) < 0) {
            cli_print_error(&err);
            rc = CLI_FAIL;
        }
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
