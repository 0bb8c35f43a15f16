/* NumPy .npy files: reading (format versions 1.0, 2.0, 3.0) and writing.
 *
 * File layout: the magic "\x93NUMPY", a major and a minor version byte, the
 * header length (little-endian; 2 bytes for 1.0, 4 bytes for 2.0 and 3.0),
 * then the header, a Python dict literal such as
 *     {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and ended by '\n', then the raw array data. */
#include "core/internal.h"
#include <stdarg.h>
#include <string.h>

/* The writer stores native data as little-endian ('<' in descr) and the
 * reader treats '=' (native) as '<': both assume a little-endian host. GCC
 * and Clang let us check this at compile time. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "src/io/npy.c assumes a little-endian host"
#endif

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Data is read in pieces of at most this many bytes (a multiple of 16, so a
 * piece never splits a float component that needs byte swapping). */
#define NPY_CHUNK ((size_t)1 << 24)

/* Headers longer than this are rejected rather than allocated: a corrupt
 * 4-byte length could otherwise ask for 4 GiB. NumPy's own default limit
 * (max_header_size) is 10000 bytes. */
#define NPY_MAX_HEADER ((uint32_t)1 << 20)

/* Copies a formatted reason into msg (if there is room) and returns code. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int npy_fail(char *msg, size_t len, int code, const char *fmt, ...) {
    if (msg && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, len, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* ------------------------------------------------------------ header parsing */

/* A cursor over the header bytes; the header is not NUL-terminated. */
typedef struct {
    const char *p, *end;
} npy_cursor;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void skip_space(npy_cursor *c) {
    while (c->p < c->end && is_space(*c->p)) c->p++;
}

/* Skips white space, then consumes ch if it is next. Returns 1 if consumed. */
static int accept(npy_cursor *c, char ch) {
    skip_space(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* Parses a quoted Python string ('...' or "...", no escapes) into buf.
 * Returns 0, or -1 if there is none or it does not fit buf. */
static int parse_string(npy_cursor *c, char *buf, size_t cap) {
    skip_space(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return -1;
    char quote = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != quote) {
        if (n + 1 >= cap) return -1;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end) return -1;
    c->p++; /* closing quote */
    buf[n] = '\0';
    return 0;
}

/* Parses the Python literal True or False. Returns 0, or -1. */
static int parse_bool(npy_cursor *c, int *value) {
    skip_space(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
        *value = 1;
        c->p += 4;
    } else if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
        *value = 0;
        c->p += 5;
    } else {
        return -1;
    }
    /* reject identifiers that merely start with True/False */
    if (c->p < c->end && (*c->p == '_' || (*c->p >= '0' && *c->p <= '9') ||
                          (*c->p >= 'a' && *c->p <= 'z') || (*c->p >= 'A' && *c->p <= 'Z')))
        return -1;
    return 0;
}

/* Parses the shape tuple "(d0, d1, ...)", trailing comma allowed. Stores the
 * rank and the first two dimensions. Returns 0 or HYLA_ERR_FORMAT. */
static int parse_shape(npy_cursor *c, int *rank, int64_t dims[2], char *msg, size_t len) {
    if (!accept(c, '(')) return npy_fail(msg, len, HYLA_ERR_FORMAT, "shape is not a tuple");
    *rank = 0;
    while (!accept(c, ')')) {
        if (*rank > 0 && !accept(c, ','))
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "garbage in shape");
        if (accept(c, ')')) break; /* trailing comma, as in "(3,)" */
        skip_space(c);
        if (c->p < c->end && *c->p == '-')
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "negative dimension in shape");
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "garbage in shape");
        int64_t d = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            int digit = *c->p++ - '0';
            if (d > (INT64_MAX - digit) / 10)
                return npy_fail(msg, len, HYLA_ERR_FORMAT, "dimension too large");
            d = 10 * d + digit;
        }
        /* files written by NumPy under Python 2 may say "3L" */
        if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
        if (*rank < 2) dims[*rank] = d;
        (*rank)++;
    }
    return 0;
}

typedef struct {
    hyla_dtype dtype;
    int swap;          /* data is big-endian: swap each float component */
    int fortran_order;
    int64_t rows, cols;
} npy_layout;

/* Maps a descr string to a dtype. Returns 0 or HYLA_ERR_UNSUPPORTED (a
 * dtype hyla does not compute in). */
static int parse_descr(const char *descr, npy_layout *lay, char *msg, size_t len) {
    static const struct {
        const char *name;
        hyla_dtype dtype;
    } types[] = {{"f4", HYLA_S}, {"f8", HYLA_D}, {"c8", HYLA_C}, {"c16", HYLA_Z}};
    char order = descr[0];
    if (order == '<' || order == '=' || order == '>') {
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            if (strcmp(descr + 1, types[i].name) == 0) {
                lay->dtype = types[i].dtype;
                lay->swap = order == '>';
                return 0;
            }
        }
    }
    return npy_fail(msg, len, HYLA_ERR_UNSUPPORTED,
                    "unsupported dtype '%s' (hyla takes <f4, <f8, <c8, <c16 and their > forms)", descr);
}

/* Parses the header dict. Every one of the three keys must appear exactly
 * once, in any order; others are rejected as NumPy does. */
static int parse_header(const char *text, size_t n, npy_layout *lay, char *msg, size_t len) {
    npy_cursor c = {text, text + n};
    int have_descr = 0, have_order = 0, have_shape = 0, rank = 0, rc;
    int64_t dims[2] = {0, 0};
    char key[16], descr[16];

    if (!accept(&c, '{')) return npy_fail(msg, len, HYLA_ERR_FORMAT, "header is not a dict");
    while (!accept(&c, '}')) {
        if (parse_string(&c, key, sizeof key) != 0 || !accept(&c, ':'))
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "malformed header dict");
        if (strcmp(key, "descr") == 0 && !have_descr) {
            have_descr = 1;
            if (parse_string(&c, descr, sizeof descr) != 0)
                return npy_fail(msg, len, HYLA_ERR_FORMAT, "unsupported descr");
            if ((rc = parse_descr(descr, lay, msg, len)) != 0) return rc;
        } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
            have_order = 1;
            if (parse_bool(&c, &lay->fortran_order) != 0)
                return npy_fail(msg, len, HYLA_ERR_FORMAT, "fortran_order is not True/False");
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            have_shape = 1;
            if ((rc = parse_shape(&c, &rank, dims, msg, len)) != 0) return rc;
        } else {
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "unexpected or repeated key '%s'", key);
        }
        if (!accept(&c, ',')) {
            if (!accept(&c, '}')) return npy_fail(msg, len, HYLA_ERR_FORMAT, "malformed header dict");
            break;
        }
    }
    skip_space(&c);
    if (c.p != c.end) return npy_fail(msg, len, HYLA_ERR_FORMAT, "garbage after header dict");
    if (!have_descr || !have_order || !have_shape)
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "header lacks '%s'",
                        !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
    if (rank == 0) return npy_fail(msg, len, HYLA_ERR_UNSUPPORTED, "0-d arrays are not supported");
    if (rank > 2)
        return npy_fail(msg, len, HYLA_ERR_UNSUPPORTED, "arrays of rank %d are not supported", rank);
    lay->rows = dims[0];
    lay->cols = rank == 2 ? dims[1] : 1;
    return 0;
}

/* ------------------------------------------------------------ data */

static uint32_t bswap32(uint32_t x) {
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

static uint64_t bswap64(uint64_t x) {
    return ((uint64_t)bswap32((uint32_t)x) << 32) | bswap32((uint32_t)(x >> 32));
}

/* Reverses the bytes of each unit-byte component (unit 4 or 8) of buf. */
static void swap_components(unsigned char *buf, size_t bytes, size_t unit) {
    if (unit == 4) {
        for (size_t i = 0; i < bytes; i += 4) {
            uint32_t v;
            memcpy(&v, buf + i, 4);
            v = bswap32(v);
            memcpy(buf + i, &v, 4);
        }
    } else {
        for (size_t i = 0; i < bytes; i += 8) {
            uint64_t v;
            memcpy(&v, buf + i, 8);
            v = bswap64(v);
            memcpy(buf + i, &v, 8);
        }
    }
}

/* Reads exactly bytes bytes into buf, in pieces, swapping each component of
 * unit bytes when unit > 0. Returns 0, HYLA_ERR_IO or HYLA_ERR_FORMAT. */
static int read_data(FILE *f, unsigned char *buf, size_t bytes, size_t unit, char *msg, size_t len) {
    while (bytes > 0) {
        size_t piece = HYLA_MIN(bytes, NPY_CHUNK);
        size_t got = fread(buf, 1, piece, f);
        if (got != piece) {
            if (ferror(f)) return npy_fail(msg, len, HYLA_ERR_IO, "read error");
            return npy_fail(msg, len, HYLA_ERR_FORMAT, "file is truncated (data too short)");
        }
        if (unit > 0) swap_components(buf, piece, unit);
        buf += piece;
        bytes -= piece;
    }
    return 0;
}

/* Copies nb rows of a row-major block (row i0 + r, column j at src[r*cols + j])
 * into the column-major dst (leading dimension rows). es is a constant at
 * each call site, so the element copies compile to plain moves. */
static inline void scatter_rows(unsigned char *dst, int64_t rows, int64_t cols, int64_t i0,
                                const unsigned char *src, int64_t nb, size_t es) {
    for (int64_t j = 0; j < cols; j++) {
        unsigned char *d = dst + ((size_t)j * (size_t)rows + (size_t)i0) * es;
        const unsigned char *s = src + (size_t)j * es;
        for (int64_t r = 0; r < nb; r++) memcpy(d + (size_t)r * es, s + (size_t)(r * cols) * es, es);
    }
}

/* Reads C-order data (rows x cols, row-major) into the column-major dst,
 * a block of whole rows at a time through a bounded buffer. */
static int read_c_order(FILE *f, unsigned char *dst, const npy_layout *lay, size_t unit,
                        char *msg, size_t len) {
    size_t es = hyla_dtype_size(lay->dtype);
    size_t row_bytes = (size_t)lay->cols * es;
    int64_t block = (int64_t)HYLA_MAX(NPY_CHUNK / row_bytes, 1);
    block = HYLA_MIN(block, lay->rows);
    unsigned char *tmp = hyla_malloc((size_t)block * row_bytes);
    if (!tmp) return npy_fail(msg, len, HYLA_ERR_NO_MEMORY, "out of memory");
    int rc = 0;
    for (int64_t i0 = 0; i0 < lay->rows; i0 += block) {
        int64_t nb = HYLA_MIN(block, lay->rows - i0);
        rc = read_data(f, tmp, (size_t)nb * row_bytes, unit, msg, len);
        if (rc != 0) break;
        switch (es) {
        case 4: scatter_rows(dst, lay->rows, lay->cols, i0, tmp, nb, 4); break;
        case 8: scatter_rows(dst, lay->rows, lay->cols, i0, tmp, nb, 8); break;
        default: scatter_rows(dst, lay->rows, lay->cols, i0, tmp, nb, 16); break;
        }
    }
    hyla_free(tmp);
    return rc;
}

/* ------------------------------------------------------------ read */

/* Decodes a little-endian unsigned integer of n bytes. */
static uint32_t le_uint(const unsigned char *b, int n) {
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}

/* Sets *left to the number of bytes from the current position to the end of
 * f, or to -1 when the stream cannot tell (not seekable, or too large for
 * ftell's long); the position is kept. Returns 0 or HYLA_ERR_IO. */
static int bytes_left(FILE *f, long long *left) {
    *left = -1;
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0) return 0;
    long end = ftell(f);
    if (fseek(f, here, SEEK_SET) != 0) return HYLA_ERR_IO;
    if (end >= here) *left = (long long)end - here;
    return 0;
}

/* Reads the preamble and header of an open file and fills *lay. */
static int read_header(FILE *f, npy_layout *lay, char *msg, size_t len) {
    unsigned char pre[12];
    if (fread(pre, 1, 8, f) != 8) {
        if (ferror(f)) return npy_fail(msg, len, HYLA_ERR_IO, "read error");
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "not a .npy file (too short)");
    }
    if (memcmp(pre, npy_magic, sizeof npy_magic) != 0)
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "not a .npy file (bad magic)");
    int major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0)
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "unsupported .npy version %d.%d", major, minor);
    /* 3.0 differs from 2.0 only in allowing utf-8 in the header, which the
     * three keys we accept never contain. */
    int len_bytes = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, (size_t)len_bytes, f) != (size_t)len_bytes) {
        if (ferror(f)) return npy_fail(msg, len, HYLA_ERR_IO, "read error");
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "truncated header");
    }
    uint32_t hlen = le_uint(pre + 8, len_bytes);
    if (hlen > NPY_MAX_HEADER)
        return npy_fail(msg, len, HYLA_ERR_FORMAT, "header too long (%lu bytes)", (unsigned long)hlen);
    char *text = hyla_malloc(hlen);
    if (!text) return npy_fail(msg, len, HYLA_ERR_NO_MEMORY, "out of memory");
    int rc;
    if (fread(text, 1, hlen, f) != hlen) {
        rc = ferror(f) ? npy_fail(msg, len, HYLA_ERR_IO, "read error")
                       : npy_fail(msg, len, HYLA_ERR_FORMAT, "header length past end of file");
    } else {
        rc = parse_header(text, hlen, lay, msg, len);
    }
    hyla_free(text);
    return rc;
}

int hyla_npy_read(const char *path, hyla_npy *out, char *err_msg, size_t err_len) {
    if (out) memset(out, 0, sizeof *out);
    if (err_msg && err_len > 0) err_msg[0] = '\0';
    if (!path) return npy_fail(err_msg, err_len, -1, "path is NULL");
    if (!out) return npy_fail(err_msg, err_len, -2, "out is NULL");

    FILE *f = fopen(path, "rb");
    if (!f) return npy_fail(err_msg, err_len, HYLA_ERR_IO, "cannot open file");

    npy_layout lay = {HYLA_S, 0, 0, 0, 0};
    unsigned char *data = NULL;
    int rc = read_header(f, &lay, err_msg, err_len);
    if (rc != 0) goto cleanup;

    /* rows * cols * element size must fit both int64_t and size_t */
    size_t es = hyla_dtype_size(lay.dtype);
    uint64_t max_count = HYLA_MIN((uint64_t)INT64_MAX, (uint64_t)SIZE_MAX) / es;
    if (lay.rows != 0 && (uint64_t)lay.cols > max_count / (uint64_t)lay.rows) {
        rc = npy_fail(err_msg, err_len, HYLA_ERR_FORMAT, "array too large");
        goto cleanup;
    }
    size_t bytes = (size_t)lay.rows * (size_t)lay.cols * es;

    /* Catch a truncated file before allocating for it, so that a corrupt
     * shape cannot ask for a huge buffer; read_data still checks every read
     * for streams whose size is unknown. */
    long long left;
    if (bytes_left(f, &left) != 0) {
        rc = npy_fail(err_msg, err_len, HYLA_ERR_IO, "cannot seek in file");
        goto cleanup;
    }
    if (left >= 0 && (unsigned long long)left < bytes) {
        rc = npy_fail(err_msg, err_len, HYLA_ERR_FORMAT,
                      "file is truncated (%llu data bytes needed, %lld present)",
                      (unsigned long long)bytes, left);
        goto cleanup;
    }

    /* An empty array reads with data NULL. */
    if (bytes > 0) {
        data = hyla_malloc(bytes);
        if (!data) {
            rc = npy_fail(err_msg, err_len, HYLA_ERR_NO_MEMORY, "out of memory");
            goto cleanup;
        }
        /* complex numbers swap each of their two float components */
        size_t unit = lay.swap ? (lay.dtype == HYLA_S || lay.dtype == HYLA_C ? 4 : 8) : 0;
        /* a single row or column is stored the same in both orders */
        if (lay.fortran_order || lay.rows == 1 || lay.cols == 1)
            rc = read_data(f, data, bytes, unit, err_msg, err_len);
        else
            rc = read_c_order(f, data, &lay, unit, err_msg, err_len);
    }

cleanup:
    fclose(f); /* read-only: a close failure loses nothing */
    if (rc != 0) {
        hyla_free(data);
        return rc;
    }
    out->dtype = lay.dtype;
    out->rows = lay.rows;
    out->cols = lay.cols;
    out->data = data;
    return 0;
}

/* ------------------------------------------------------------ write */

int hyla_npy_write(const char *path, hyla_dtype dtype, int64_t rows, int64_t cols,
                   const void *data, int64_t ld) {
    static const char *const descr[4] = {"<f4", "<f8", "<c8", "<c16"};
    if (!path) return -1;
    if ((int)dtype < HYLA_S || (int)dtype > HYLA_Z) return -2;
    if (rows < 0) return -3;
    if (cols < 0) return -4;
    if (!data && rows > 0 && cols > 0) return -5;
    if (ld < HYLA_MAX(1, rows)) return -6;

    /* Version 1.0 preamble (magic, version, 2-byte header length) and the
     * dict, padded with spaces and ended by '\n' so that preamble + header is
     * a multiple of 64 bytes. With two int64 dimensions the dict is at most
     * about 100 bytes, so the header is at most 118 bytes: it always fits
     * head[] and never needs version 2.0 (needed past 65535 bytes). */
    char head[128];
    int n = snprintf(head, sizeof head,
                     "{'descr': '%s', 'fortran_order': True, 'shape': (%lld, %lld), }",
                     descr[dtype], (long long)rows, (long long)cols);
    size_t dict_len = (size_t)n;
    size_t hlen = HYLA_CEILDIV(10 + dict_len + 1, 64) * 64 - 10;
    memset(head + dict_len, ' ', hlen - 1 - dict_len);
    head[hlen - 1] = '\n';
    unsigned char pre[10];
    memcpy(pre, npy_magic, sizeof npy_magic);
    pre[6] = 1; /* version 1.0 */
    pre[7] = 0;
    pre[8] = (unsigned char)(hlen & 0xff);
    pre[9] = (unsigned char)(hlen >> 8);

    FILE *f = fopen(path, "wb");
    if (!f) return HYLA_ERR_IO;
    int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(head, 1, hlen, f) == hlen;

    size_t es = hyla_dtype_size(dtype);
    const unsigned char *src = data;
    if (rows > 0 && cols > 0) {
        if (ld == rows) { /* contiguous: one write */
            size_t bytes = (size_t)rows * (size_t)cols * es;
            ok = ok && fwrite(src, 1, bytes, f) == bytes;
        } else {
            size_t col_bytes = (size_t)rows * es;
            for (int64_t j = 0; j < cols && ok; j++)
                ok = fwrite(src + (size_t)j * (size_t)ld * es, 1, col_bytes, f) == col_bytes;
        }
    }
    /* fclose flushes the buffered tail: its failure is a write failure */
    if (fclose(f) != 0) ok = 0;
    return ok ? 0 : HYLA_ERR_IO;
}

void hyla_npy_free(hyla_npy *npy) {
    if (!npy) return;
    hyla_free(npy->data);
    memset(npy, 0, sizeof *npy);
}
