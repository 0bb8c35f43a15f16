/* Tests of the .npy reader and writer (src/io/npy.c): round trips, hand-made
 * files in every supported layout, malformed files, argument checks and
 * allocation failures. Prints one line per failed check and a summary. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, rmdir */
#include "hyla.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;
static char tmpdir[64];

#define CHECK(cond, ...)                                      \
    do {                                                      \
        if (cond) {                                           \
            passed++;                                         \
        } else {                                              \
            failed++;                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);       \
            printf(__VA_ARGS__);                              \
            printf("\n");                                     \
        }                                                     \
    } while (0)

static const size_t elem_size[4] = {4, 8, 8, 16};

/* Names of the temporary files, for removal at the end. */
static char made[128][128];
static int nmade;

static const char *tmp_path(const char *name) {
    for (int i = 0; i < nmade; i++)
        if (strcmp(strrchr(made[i], '/') + 1, name) == 0) return made[i];
    if (nmade == (int)(sizeof made / sizeof made[0])) {
        printf("too many temporary files\n");
        exit(1);
    }
    snprintf(made[nmade], sizeof made[0], "%s/%s", tmpdir, name);
    return made[nmade++];
}

static void write_bytes(const char *path, const void *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n || fclose(f) != 0) {
        printf("cannot write %s\n", path);
        exit(1);
    }
}

/* Writes a .npy file: magic, version major.0, header length (2 bytes for
 * major 1, else 4), the header exactly as given, then n data bytes. */
static const char *make_npy(const char *name, int major, const char *header,
                            const void *data, size_t n) {
    size_t hlen = strlen(header), lb = major == 1 ? 2 : 4;
    size_t total = 8 + lb + hlen + n;
    unsigned char *buf = malloc(total);
    if (!buf) exit(1);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 0; i < lb; i++) buf[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(buf + 8 + lb, header, hlen);
    if (n) memcpy(buf + 8 + lb + hlen, data, n);
    const char *path = tmp_path(name);
    write_bytes(path, buf, total);
    free(buf);
    return path;
}

/* Reverses the bytes of each w-byte word of buf (to make big-endian data). */
static void to_big_endian(void *buf, size_t bytes, size_t w) {
    unsigned char *b = buf;
    for (size_t i = 0; i < bytes; i += w)
        for (size_t k = 0; k < w / 2; k++) {
            unsigned char t = b[i + k];
            b[i + k] = b[i + w - 1 - k];
            b[i + w - 1 - k] = t;
        }
}

/* ------------------------------------------------------------ round trips */

static void fill(void *a, hyla_dtype t, int64_t n, int seed) {
    for (int64_t i = 0; i < n; i++) {
        double v = seed * 1000.0 + (double)i + 0.25;
        switch (t) {
        case HYLA_S: ((float *)a)[i] = (float)v; break;
        case HYLA_D: ((double *)a)[i] = v; break;
        case HYLA_C: ((float *)a)[2 * i] = (float)v; ((float *)a)[2 * i + 1] = (float)-v; break;
        case HYLA_Z: ((double *)a)[2 * i] = v; ((double *)a)[2 * i + 1] = -v; break;
        }
    }
}

static void round_trip(hyla_dtype t, int64_t rows, int64_t cols, int64_t ld) {
    size_t es = elem_size[t];
    unsigned char *a = malloc((size_t)(ld * cols) * es + 1);
    if (!a) exit(1);
    fill(a, t, ld * cols, (int)t + 1);
    char name[64];
    snprintf(name, sizeof name, "rt_%d_%lldx%lld.npy", (int)t, (long long)rows, (long long)cols);
    const char *path = tmp_path(name);
    int rc = hyla_npy_write(path, t, rows, cols, a, ld);
    CHECK(rc == 0, "write dtype %d %lldx%lld ld %lld: rc %d", (int)t, (long long)rows,
          (long long)cols, (long long)ld, rc);

    /* the preamble is version 1.0 and a multiple of 64 bytes ending in '\n' */
    unsigned char pre[10];
    char head[256] = {0};
    FILE *f = fopen(path, "rb");
    int ok = f && fread(pre, 1, 10, f) == 10;
    size_t hlen = ok ? (size_t)(pre[8] | pre[9] << 8) : 0;
    ok = ok && hlen < sizeof head && fread(head, 1, hlen, f) == hlen;
    if (f) fclose(f);
    CHECK(ok && memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0 && (10 + hlen) % 64 == 0 &&
              head[hlen - 1] == '\n' && strstr(head, "'fortran_order': True"),
          "header layout of %s", name);

    hyla_npy m;
    char msg[128];
    rc = hyla_npy_read(path, &m, msg, sizeof msg);
    CHECK(rc == 0, "read back %s: rc %d (%s)", name, rc, msg);
    if (rc == 0) {
        CHECK(m.dtype == t && m.rows == rows && m.cols == cols, "shape/dtype of %s", name);
        int same = 1;
        for (int64_t j = 0; j < cols && rows > 0 && same; j++)
            same = memcmp((unsigned char *)m.data + (size_t)(j * rows) * es,
                          a + (size_t)(j * ld) * es, (size_t)rows * es) == 0;
        CHECK(same, "data of %s", name);
        CHECK((m.data == NULL) == (rows * cols == 0), "data pointer of %s", name);
    }
    hyla_npy_free(&m);
    CHECK(m.data == NULL && m.rows == 0 && m.cols == 0, "hyla_npy_free zeroes");
    free(a);
}

static void test_round_trips(void) {
    for (int t = HYLA_S; t <= HYLA_Z; t++) {
        round_trip((hyla_dtype)t, 0, 3, 2);
        round_trip((hyla_dtype)t, 1, 1, 3);
        round_trip((hyla_dtype)t, 5, 7, 9);
        round_trip((hyla_dtype)t, 6, 4, 6); /* contiguous */
    }
    /* an empty matrix may be passed with data NULL */
    const char *path = tmp_path("empty.npy");
    CHECK(hyla_npy_write(path, HYLA_D, 3, 0, NULL, 3) == 0, "write 3x0 with data NULL");
    hyla_npy m;
    CHECK(hyla_npy_read(path, &m, NULL, 0) == 0 && m.rows == 3 && m.cols == 0 && !m.data,
          "read 3x0");
    hyla_npy_free(&m);
}

/* ------------------------------------------------------------ hand-made files */

/* Reads path and compares with the expected column-major data. */
static void expect_matrix(const char *path, hyla_dtype t, int64_t rows, int64_t cols,
                          const void *want, const char *what) {
    hyla_npy m;
    char msg[128];
    int rc = hyla_npy_read(path, &m, msg, sizeof msg);
    CHECK(rc == 0, "%s: rc %d (%s)", what, rc, msg);
    if (rc != 0) return;
    CHECK(m.dtype == t && m.rows == rows && m.cols == cols,
          "%s: got dtype %d %lldx%lld", what, (int)m.dtype, (long long)m.rows, (long long)m.cols);
    if (m.dtype == t && m.rows == rows && m.cols == cols)
        CHECK(memcmp(m.data, want, (size_t)(rows * cols) * elem_size[t]) == 0, "%s: data", what);
    hyla_npy_free(&m);
}

static void test_hand_made(void) {
    /* C order 2x3 <f8, header as NumPy writes it (padded, '\n') */
    double c_rows[6] = {1, 2, 3, 4, 5, 6};
    double c_cols[6] = {1, 4, 2, 5, 3, 6};
    expect_matrix(make_npy("c.npy", 1,
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"
                           "                 \n",
                           c_rows, sizeof c_rows),
                  HYLA_D, 2, 3, c_cols, "C order <f8");

    /* Fortran order 2x3 <f4 */
    float fcol[6] = {1, 2, 3, 4, 5, 6};
    expect_matrix(make_npy("f.npy", 1,
                           "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n",
                           fcol, sizeof fcol),
                  HYLA_S, 2, 3, fcol, "Fortran order <f4");

    /* C order 2x3 <f4 */
    float c4_rows[6] = {1, 2, 3, 4, 5, 6}, c4_cols[6] = {1, 4, 2, 5, 3, 6};
    expect_matrix(make_npy("c4.npy", 1,
                           "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n",
                           c4_rows, sizeof c4_rows),
                  HYLA_S, 2, 3, c4_cols, "C order <f4");

    /* big-endian >f8, C order 3x2 */
    double be[6] = {1.5, -2, 3, 4e10, -5e-3, 6};
    double be_cols[6] = {1.5, 3, -5e-3, -2, 4e10, 6};
    to_big_endian(be, sizeof be, 8);
    expect_matrix(make_npy("be_f8.npy", 1,
                           "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2), }\n",
                           be, sizeof be),
                  HYLA_D, 3, 2, be_cols, "big-endian >f8");

    /* big-endian >c16, C order 2x2: each component swapped on its own */
    double z[8] = {1, -1, 2, -2, 3, -3, 4, -4}; /* rows (1-i, 2-2i), (3-3i, 4-4i) */
    double z_cols[8] = {1, -1, 3, -3, 2, -2, 4, -4};
    to_big_endian(z, sizeof z, 8);
    expect_matrix(make_npy("be_c16.npy", 1,
                           "{'descr': '>c16', 'fortran_order': False, 'shape': (2, 2), }\n",
                           z, sizeof z),
                  HYLA_Z, 2, 2, z_cols, "big-endian >c16");

    /* big-endian >c8 and >f4, Fortran order */
    float c8[4] = {1, 2, 3, 4}, c8_be[4] = {1, 2, 3, 4};
    to_big_endian(c8_be, sizeof c8_be, 4);
    expect_matrix(make_npy("be_c8.npy", 1,
                           "{'descr': '>c8', 'fortran_order': True, 'shape': (2, 1), }\n",
                           c8_be, sizeof c8_be),
                  HYLA_C, 2, 1, c8, "big-endian >c8");
    expect_matrix(make_npy("be_f4.npy", 1,
                           "{'descr': '>f4', 'fortran_order': True, 'shape': (2, 2), }\n",
                           c8_be, sizeof c8_be),
                  HYLA_S, 2, 2, c8, "big-endian >f4");

    /* 1-D (4,) reads as 4x1 */
    double v[4] = {7, 8, 9, 10};
    expect_matrix(make_npy("1d.npy", 1,
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }\n",
                           v, sizeof v),
                  HYLA_D, 4, 1, v, "1-D (4,)");

    /* version 2.0 and 3.0 headers (4-byte length) */
    expect_matrix(make_npy("v2.npy", 2,
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n",
                           c_rows, sizeof c_rows),
                  HYLA_D, 2, 3, c_cols, "version 2.0");
    expect_matrix(make_npy("v3.npy", 3,
                           "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }\n",
                           c_cols, sizeof c_cols),
                  HYLA_D, 2, 3, c_cols, "version 3.0");

    /* keys in another order, odd white space, double quotes, '=' byte order */
    float cx[4] = {1, 2, 3, 4};
    expect_matrix(make_npy("order.npy", 1,
                           "{ \"shape\"\t:(\n2 ,1 , ) ,'fortran_order' :False,\r\n"
                           "  'descr':'=c8'  }   \n",
                           cx, sizeof cx),
                  HYLA_C, 2, 1, cx, "keys reordered, odd white space");
    /* no trailing comma anywhere, no padding; trailing data after the array */
    double extra[7] = {1, 4, 2, 5, 3, 6, 99};
    expect_matrix(make_npy("trail.npy", 1,
                           "{'fortran_order':True,'shape':(2,3),'descr':'<f8'}",
                           extra, sizeof extra),
                  HYLA_D, 2, 3, c_cols, "trailing data allowed");
    /* Python 2 long literals */
    expect_matrix(make_npy("long.npy", 1,
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 3L), }\n",
                           c_rows, sizeof c_rows),
                  HYLA_D, 2, 3, c_cols, "shape (2L, 3L)");
}

/* Large files: reads span several chunks, C order through row blocks. */
static void test_large(void) {
    const int64_t n = 1500; /* 18 MB: more than one 16 MiB chunk */
    size_t count = (size_t)(n * n);
    double *rowmajor = malloc(count * sizeof(double));
    double *want = malloc(count * sizeof(double));
    if (!rowmajor || !want) exit(1);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            rowmajor[i * n + j] = (double)(i * n + j);
            want[i + j * n] = (double)(i * n + j);
        }
    to_big_endian(rowmajor, count * sizeof(double), 8);
    expect_matrix(make_npy("big_c.npy", 1,
                           "{'descr': '>f8', 'fortran_order': False, 'shape': (1500, 1500), }\n",
                           rowmajor, count * sizeof(double)),
                  HYLA_D, n, n, want, "large C order >f8");
    expect_matrix(make_npy("big_f.npy", 1,
                           "{'descr': '<f8', 'fortran_order': True, 'shape': (1500, 1500), }\n",
                           want, count * sizeof(double)),
                  HYLA_D, n, n, want, "large Fortran order <f8");
    /* one C-order row longer than a chunk, in a 2-row matrix */
    const int64_t wide = 2200000; /* 17.6 MB per row */
    double *w = malloc(2 * (size_t)wide * sizeof(double));
    double *wcols = malloc(2 * (size_t)wide * sizeof(double));
    if (!w || !wcols) exit(1);
    for (int64_t j = 0; j < wide; j++) {
        w[j] = (double)j;
        w[wide + j] = -(double)j;
        wcols[2 * j] = (double)j;
        wcols[2 * j + 1] = -(double)j;
    }
    expect_matrix(make_npy("wide.npy", 1,
                           "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2200000), }\n",
                           w, 2 * (size_t)wide * sizeof(double)),
                  HYLA_D, 2, wide, wcols, "C order, rows longer than a chunk");
    free(w);
    free(wcols);
    free(rowmajor);
    free(want);
}

/* Reads a .npy file through a FIFO, which cannot seek: the size of the
 * data is then unknown up front and truncation shows only while reading. */
static void read_from_pipe(const char *name, const void *bytes, size_t n, int want,
                           const void *want_data, const char *what) {
    const char *path = tmp_path(name);
    if (mkfifo(path, 0600) != 0) {
        CHECK(0, "%s: mkfifo failed", what);
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { /* child: feed the file through the pipe */
        FILE *f = fopen(path, "wb");
        int ok = f && fwrite(bytes, 1, n, f) == n;
        if (f) fclose(f);
        _exit(ok ? 0 : 1);
    }
    hyla_npy m;
    char msg[128];
    int rc = pid > 0 ? hyla_npy_read(path, &m, msg, sizeof msg) : -999;
    CHECK(rc == want, "%s: rc %d, want %d", what, rc, want);
    if (rc == 0) CHECK(m.rows == 2 && m.cols == 3 && memcmp(m.data, want_data, 48) == 0,
                       "%s: data", what);
    else CHECK(m.data == NULL, "%s: data not NULL", what);
    hyla_npy_free(&m);
    if (pid > 0) waitpid(pid, NULL, 0);
}

static void test_pipes(void) {
    const char *header = "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }\n";
    double rows[6] = {1, 2, 3, 4, 5, 6}, cols[6] = {1, 4, 2, 5, 3, 6};
    to_big_endian(rows, sizeof rows, 8);
    unsigned char file[10 + 64 + 48];
    size_t hlen = strlen(header);
    memcpy(file, "\x93NUMPY\x01\x00", 8);
    file[8] = (unsigned char)hlen;
    file[9] = 0;
    memcpy(file + 10, header, hlen);
    memcpy(file + 10 + hlen, rows, sizeof rows);
    size_t n = 10 + hlen + sizeof rows;
    read_from_pipe("pipe_ok.npy", file, n, 0, cols, "read from a pipe");
    read_from_pipe("pipe_short.npy", file, n - 3, HYLA_ERR_FORMAT, NULL,
                   "truncated data from a pipe");
}

/* ------------------------------------------------------------ malformed files */

static void expect_error(const char *path, int want, const char *what) {
    hyla_npy m;
    memset(&m, 0x5a, sizeof m); /* must be zeroed on failure */
    char msg[128] = "";
    int rc = hyla_npy_read(path, &m, msg, sizeof msg);
    CHECK(rc == want, "%s: rc %d, want %d (%s)", what, rc, want, msg);
    CHECK(m.data == NULL && m.rows == 0 && m.cols == 0, "%s: *out not zeroed", what);
    CHECK(msg[0] != '\0', "%s: no message", what);
    if (rc == 0) hyla_npy_free(&m);
}

static void expect_bad_header(const char *name, const char *header, const char *what) {
    double d[64] = {0};
    expect_error(make_npy(name, 1, header, d, sizeof d), HYLA_ERR_FORMAT, what);
}

/* A well-formed file of a dtype or rank hyla does not take. */
static void expect_unsupported(const char *name, const char *header, const char *what) {
    double d[64] = {0};
    expect_error(make_npy(name, 1, header, d, sizeof d), HYLA_ERR_UNSUPPORTED, what);
}

static void test_malformed(void) {
    double d[6] = {0};
    const char *good = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n";

    /* bad magic */
    const char *p = make_npy("magic.npy", 1, good, d, sizeof d);
    FILE *f = fopen(p, "r+b");
    if (!f || fputc('X', f) == EOF || fclose(f) != 0) exit(1);
    expect_error(p, HYLA_ERR_FORMAT, "bad magic");

    /* truncated: inside the preamble, inside the length, no header at all */
    write_bytes(tmp_path("short.npy"), "\x93NUM", 4);
    expect_error(tmp_path("short.npy"), HYLA_ERR_FORMAT, "file shorter than the preamble");
    write_bytes(tmp_path("trunc_len.npy"), "\x93NUMPY\x02\x00\x10\x00", 10);
    expect_error(tmp_path("trunc_len.npy"), HYLA_ERR_FORMAT, "truncated header length");
    write_bytes(tmp_path("empty_file.npy"), "", 0);
    expect_error(tmp_path("empty_file.npy"), HYLA_ERR_FORMAT, "empty file");

    /* header cut short inside the file: declared length past EOF */
    unsigned char cut[40];
    memcpy(cut, "\x93NUMPY\x01\x00\x46\x00", 10);
    memcpy(cut + 10, good, 30);
    write_bytes(tmp_path("trunc_head.npy"), cut, sizeof cut);
    expect_error(tmp_path("trunc_head.npy"), HYLA_ERR_FORMAT, "truncated header");
    memcpy(cut, "\x93NUMPY\x02\x00\xff\xff\x0f\x00", 12); /* 1 MiB - 1, past EOF */
    write_bytes(tmp_path("past_eof.npy"), cut, sizeof cut);
    expect_error(tmp_path("past_eof.npy"), HYLA_ERR_FORMAT, "header length beyond EOF");
    memcpy(cut, "\x93NUMPY\x02\x00\xff\xff\xff\xff", 12); /* 4 GiB */
    write_bytes(tmp_path("huge_len.npy"), cut, sizeof cut);
    expect_error(tmp_path("huge_len.npy"), HYLA_ERR_FORMAT, "4 GiB header length");

    expect_error(make_npy("v4.npy", 4, good, d, sizeof d), HYLA_ERR_FORMAT, "version 4.0");
    expect_error(make_npy("trunc_data.npy", 1, good, d, sizeof d - 1), HYLA_ERR_FORMAT,
                 "truncated data");
    expect_error(make_npy("trunc_data_f.npy", 1,
                          "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", d,
                          sizeof d - 8),
                 HYLA_ERR_FORMAT, "truncated data, Fortran order");

    expect_unsupported("i4.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
                      "dtype <i4");
    expect_unsupported("pipe.npy", "{'descr': '|f8', 'fortran_order': False, 'shape': (2, 3), }",
                      "dtype |f8");
    expect_unsupported("f2.npy", "{'descr': '<f16', 'fortran_order': False, 'shape': (2, 3), }",
                      "dtype <f16");
    expect_unsupported("3d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3, 1), }",
                      "3-D shape");
    expect_unsupported("0d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
                      "0-d shape");
    expect_bad_header("noshape.npy", "{'descr': '<f8', 'fortran_order': False, }",
                      "missing shape");
    expect_bad_header("nodescr.npy", "{'fortran_order': False, 'shape': (2, 3)}",
                      "missing descr");
    expect_bad_header("noorder.npy", "{'descr': '<f8', 'shape': (2, 3)}",
                      "missing fortran_order");
    expect_bad_header("garbage.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, x), }",
                      "garbage in shape");
    expect_bad_header("nocomma.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2 3), }",
                      "shape without comma");
    expect_bad_header("open.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3",
                      "unterminated shape");
    expect_bad_header("neg.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 3), }",
                      "negative dimension");
    expect_bad_header("big.npy",
                      "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999, 1), }",
                      "dimension overflows int64");
    expect_bad_header("ovf.npy",
                      "{'descr': '<c16', 'fortran_order': False, 'shape': (4294967296, 1073741824), }",
                      "rows*cols*size overflows");
    expect_bad_header("huge.npy",
                      "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                      "huge shape in a small file");
    expect_bad_header("bool.npy", "{'descr': '<f8', 'fortran_order': Falsey, 'shape': (2, 3), }",
                      "fortran_order not a bool");
    expect_bad_header("dup.npy",
                      "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}",
                      "repeated key");
    expect_bad_header("extra.npy",
                      "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'x': 1}",
                      "unknown key");
    expect_bad_header("after.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)} x",
                      "garbage after dict");
    expect_bad_header("descrint.npy", "{'descr': 8, 'fortran_order': False, 'shape': (2, 3)}",
                      "descr not a string");
    expect_bad_header("nocolon.npy", "{'descr' '<f8', 'fortran_order': False, 'shape': (2, 3)}",
                      "key without colon");
    expect_bad_header("notdict.npy", "['descr', '<f8']", "header not a dict");
    expect_bad_header("nul.npy", "", "empty header");

    expect_error(tmp_path("does_not_exist.npy"), HYLA_ERR_IO, "nonexistent file");
}

/* ------------------------------------------------------------ arguments */

static void test_arguments(void) {
    hyla_npy m;
    double a[4] = {1, 2, 3, 4};
    const char *path = tmp_path("args.npy");
    char msg[4];

    CHECK(hyla_npy_read(NULL, &m, NULL, 0) == -1 && m.data == NULL, "read path NULL");
    CHECK(hyla_npy_read(path, NULL, NULL, 0) == -2, "read out NULL");
    CHECK(hyla_npy_write(NULL, HYLA_D, 2, 2, a, 2) == -1, "write path NULL");
    CHECK(hyla_npy_write(path, (hyla_dtype)7, 2, 2, a, 2) == -2, "write bad dtype");
    CHECK(hyla_npy_write(path, (hyla_dtype)-1, 2, 2, a, 2) == -2, "write negative dtype");
    CHECK(hyla_npy_write(path, HYLA_D, -1, 2, a, 2) == -3, "write rows < 0");
    CHECK(hyla_npy_write(path, HYLA_D, 2, -1, a, 2) == -4, "write cols < 0");
    CHECK(hyla_npy_write(path, HYLA_D, 2, 2, NULL, 2) == -5, "write data NULL");
    CHECK(hyla_npy_write(path, HYLA_D, 2, 2, a, 1) == -6, "write ld < rows");
    CHECK(hyla_npy_write(path, HYLA_D, 0, 2, a, 0) == -6, "write ld < 1");
    CHECK(hyla_npy_write(tmp_path("no_such_dir/x.npy"), HYLA_D, 2, 2, a, 2) == HYLA_ERR_IO,
          "write into a missing directory");

    /* the message is cut to err_len and NUL-terminated */
    memset(msg, 'x', sizeof msg);
    CHECK(hyla_npy_read(tmp_path("does_not_exist.npy"), &m, msg, sizeof msg) == HYLA_ERR_IO &&
              strlen(msg) == sizeof msg - 1,
          "err_msg truncated and terminated");
    hyla_npy_free(NULL);
    hyla_npy_free(&m); /* zeroed by the failed read */
}

/* ------------------------------------------------------------ allocation failures */

static void test_alloc_failures(const char *path, const char *what) {
    int64_t before, after;
    int k, rc = -1;
    for (k = 1; k <= 100; k++) {
        hyla_npy m;
        hyla_debug_alloc_stats(&before, NULL);
        hyla_debug_fail_alloc(k);
        rc = hyla_npy_read(path, &m, NULL, 0);
        hyla_debug_fail_alloc(0);
        hyla_debug_alloc_stats(&after, NULL);
        if (rc == 0) {
            hyla_npy_free(&m);
            break;
        }
        CHECK(rc == HYLA_ERR_NO_MEMORY, "%s: failing allocation %d: rc %d", what, k, rc);
        CHECK(m.data == NULL, "%s: failing allocation %d: data not NULL", what, k);
        CHECK(after == before, "%s: failing allocation %d: %lld allocations leaked", what, k,
              (long long)(after - before));
    }
    CHECK(rc == 0 && k > 1, "%s: read never succeeded or never failed (k = %d)", what, k);
}

int main(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hyla_npy_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        printf("npy: cannot create a temporary directory\n");
        return 1;
    }
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);

    test_round_trips();
    test_hand_made();
    test_large();
    test_malformed();
    test_pipes();
    test_arguments();
    test_alloc_failures(tmp_path("c.npy"), "C order");
    test_alloc_failures(tmp_path("f.npy"), "Fortran order");

    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "%lld allocations leaked overall", (long long)(live1 - live0));

    for (int i = 0; i < nmade; i++) remove(made[i]);
    if (rmdir(tmpdir) != 0) printf("could not remove %s\n", tmpdir);

    printf("npy: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
