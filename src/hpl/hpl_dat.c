/*
 * The netlib HPL.dat input file: 2 title lines, then one parameter (or one
 * list of parameters) per line, each followed by free text. The ranges are
 * netlib's (HPL_pdinfo); list lengths are 1 .. HYLA_HPL_MAX_PARAM.
 */
#include "hpl/hpl.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

enum { DAT_LINES = 31, DAT_LINE_MAX = 1024 };

typedef struct {
    const char *line[DAT_LINES];
    size_t len[DAT_LINES];
    char *msg;
    size_t msg_len;
} dat_text;

static int dat_error(dat_text *t, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int dat_error(dat_text *t, int line, const char *fmt, ...) {
    if (t->msg && t->msg_len) {
        int k = snprintf(t->msg, t->msg_len, "HPL.dat line %d: ", line);
        if (k >= 0 && (size_t)k < t->msg_len) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(t->msg + k, t->msg_len - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return HYLA_ERR_FORMAT;
}

/* Reads up to `count` integers from the start of line `ln` (1-based) into v.
 * Fails when fewer are there or one is out of [lo, hi]. */
static int read_ints(dat_text *t, int ln, int count, int64_t lo, int64_t hi, const char *what,
                     int64_t *v) {
    char buf[DAT_LINE_MAX];
    size_t len = t->len[ln - 1] < sizeof buf - 1 ? t->len[ln - 1] : sizeof buf - 1;
    memcpy(buf, t->line[ln - 1], len);
    buf[len] = '\0';
    const char *p = buf;
    for (int i = 0; i < count; i++) {
        while (isspace((unsigned char)*p)) p++;
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (end == p || (*end && !isspace((unsigned char)*end))) {
            if (count == 1) return dat_error(t, ln, "expected %s (an integer)", what);
            return dat_error(t, ln, "expected %d values of %s, found %d", count, what, i);
        }
        if (errno == ERANGE || x < lo || x > hi) {
            if (hi == INT64_MAX)
                return dat_error(t, ln, "%s %lld is out of range (>= %lld)", what, x, (long long)lo);
            return dat_error(t, ln, "%s %lld is out of range (%lld..%lld)", what, x, (long long)lo,
                             (long long)hi);
        }
        v[i] = x;
        p = end;
    }
    return 0;
}

static int read_int(dat_text *t, int ln, int64_t lo, int64_t hi, const char *what, int *out) {
    int64_t v;
    int rc = read_ints(t, ln, 1, lo, hi, what, &v);
    if (!rc) *out = (int)v;
    return rc;
}

/* A count line (1..HYLA_HPL_MAX_PARAM) followed by its list line. */
static int read_list(dat_text *t, int ln, int64_t lo, int64_t hi, const char *what, int *count,
                     int64_t *v) {
    char cwhat[64];
    snprintf(cwhat, sizeof cwhat, "the number of %s", what);
    int rc = read_int(t, ln, 1, HYLA_HPL_MAX_PARAM, cwhat, count);
    if (!rc) rc = read_ints(t, ln + 1, *count, lo, hi, what, v);
    return rc;
}

static int read_list_int(dat_text *t, int ln, int lo, int hi, const char *what, int *count,
                         int *v) {
    int64_t w[HYLA_HPL_MAX_PARAM];
    int rc = read_list(t, ln, lo, hi, what, count, w);
    for (int i = 0; !rc && i < *count; i++) v[i] = (int)w[i];
    return rc;
}

int hyla_hpl_dat_parse(const char *text, hyla_hpl_dat *dat, char *msg, size_t msg_len) {
    if (!text) return -1;
    if (!dat) return -2;
    if (msg && msg_len) msg[0] = '\0';
    memset(dat, 0, sizeof *dat);
    dat_text t = {.msg = msg, .msg_len = msg_len};
    const char *p = text;
    int nlines = 0;
    while (nlines < DAT_LINES && *p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        t.line[nlines] = p;
        t.len[nlines++] = len;
        p += len + (e ? 1 : 0);
    }
    if (nlines < DAT_LINES)
        return dat_error(&t, nlines + 1, "missing (the file has %d lines, HPL.dat has %d)", nlines,
                         DAT_LINES);

    /* line 3: the output file name, the first word */
    const char *s = t.line[2];
    size_t i = 0;
    while (i < t.len[2] && isspace((unsigned char)s[i])) i++;
    size_t k = 0;
    while (i < t.len[2] && !isspace((unsigned char)s[i]) && k + 1 < sizeof dat->outfile)
        dat->outfile[k++] = s[i++];
    if (k == 0) return dat_error(&t, 3, "expected the output file name");

    int rc;
    int pmap;
    int64_t ps[HYLA_HPL_MAX_PARAM];
    if ((rc = read_int(&t, 4, INT_MIN, INT_MAX, "the device out", &dat->device_out))) return rc;
    if ((rc = read_list(&t, 5, 0, INT_MAX, "problem sizes (Ns)", &dat->nn, dat->n))) return rc;
    if ((rc = read_list(&t, 7, 1, INT_MAX, "block sizes (NBs)", &dat->nnb, dat->nb))) return rc;
    if ((rc = read_int(&t, 9, 0, 1, "PMAP", &pmap))) return rc;
    dat->pmap = pmap;
    if ((rc = read_list(&t, 10, 1, INT_MAX, "process grids (Ps)", &dat->ngrid, ps))) return rc;
    for (int g = 0; g < dat->ngrid; g++) dat->p[g] = (int)ps[g];
    if ((rc = read_ints(&t, 12, dat->ngrid, 1, INT_MAX, "Qs", ps))) return rc;
    for (int g = 0; g < dat->ngrid; g++) dat->q[g] = (int)ps[g];
    {
        char buf[DAT_LINE_MAX];
        size_t len = t.len[12] < sizeof buf - 1 ? t.len[12] : sizeof buf - 1;
        memcpy(buf, t.line[12], len);
        buf[len] = '\0';
        char *end;
        errno = 0;
        dat->threshold = strtod(buf, &end);
        if (end == buf || (*end && !isspace((unsigned char)*end)) || errno == ERANGE)
            return dat_error(&t, 13, "expected the residual threshold (a real number)");
    }
    if ((rc = read_list_int(&t, 14, 0, 2, "PFACTs", &dat->npfact, dat->pfact))) return rc;
    if ((rc = read_list_int(&t, 16, 1, INT_MAX, "NBMINs", &dat->nnbmin, dat->nbmin))) return rc;
    if ((rc = read_list_int(&t, 18, 2, INT_MAX, "NDIVs", &dat->nndiv, dat->ndiv))) return rc;
    if ((rc = read_list_int(&t, 20, 0, 2, "RFACTs", &dat->nrfact, dat->rfact))) return rc;
    if ((rc = read_list_int(&t, 22, 0, 5, "BCASTs", &dat->nbcast, dat->bcast))) return rc;
    if ((rc = read_list_int(&t, 24, 0, INT_MAX, "DEPTHs", &dat->ndepth, dat->depth))) return rc;
    if ((rc = read_int(&t, 26, 0, 2, "SWAP", &dat->swap))) return rc;
    if ((rc = read_int(&t, 27, 0, INT_MAX, "the swapping threshold", &dat->swap_threshold)))
        return rc;
    if ((rc = read_int(&t, 28, 0, 1, "L1", &dat->l1_form))) return rc;
    if ((rc = read_int(&t, 29, 0, 1, "U", &dat->u_form))) return rc;
    if ((rc = read_int(&t, 30, 0, 1, "Equilibration", &dat->equil))) return rc;
    if ((rc = read_int(&t, 31, 1, INT_MAX, "the memory alignment", &dat->align))) return rc;
    return 0;
}

int hyla_hpl_dat_read(const char *path, hyla_hpl_dat *dat, char *msg, size_t msg_len) {
    if (!path) return -1;
    if (!dat) return -2;
    if (msg && msg_len) msg[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (msg && msg_len) snprintf(msg, msg_len, "%s: cannot open: %s", path, strerror(errno));
        return HYLA_ERR_IO;
    }
    /* HPL.dat is small: 31 lines of at most DAT_LINE_MAX characters are read */
    size_t cap = (size_t)DAT_LINES * DAT_LINE_MAX * 2, len = 0;
    char *text = hyla_malloc(cap + 1);
    if (!text) {
        fclose(f);
        return HYLA_ERR_NO_MEMORY;
    }
    len = fread(text, 1, cap, f);
    int err = ferror(f);
    fclose(f);
    if (err) {
        hyla_free(text);
        if (msg && msg_len) snprintf(msg, msg_len, "%s: read error", path);
        return HYLA_ERR_IO;
    }
    text[len] = '\0';
    int rc = hyla_hpl_dat_parse(text, dat, msg, msg_len);
    hyla_free(text);
    return rc;
}
