/* --output written through temporary files (see output.h). */
#include "output.h"

#include "matgen.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int out_max_names(const cli_opts *o, const char **what) {
    static const struct {
        const char *routine, *what;
        int max;
    } table[] = {
        {"gemm", "C.npy", 1},         {"potrf", "L.npy", 1},     {"potrs", "X.npy", 1},
        {"posv", "X.npy", 1},         {"getrf", "LU.npy[,ipiv.npy]", 2},
        {"getrs", "X.npy", 1},        {"gesv", "X.npy", 1},      {"gesv_rbt", "X.npy", 1},
        {"syevd", "W.npy[,Z.npy] (Z with --jobz V)", 2},
        {"heevd", "W.npy[,Z.npy] (Z with --jobz V)", 2},
        {"stedc", "nothing", 0},      {"sterf", "nothing", 0},   {"hpl", "X.npy", 1},
    };
    for (size_t i = 0; o->routine && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].routine, o->routine) == 0) {
            *what = table[i].what;
            bool eig = table[i].max == 2 && o->routine[0] != 'g';
            return eig && o->jobz != 'V' ? 1 : table[i].max;
        }
    *what = "nothing";
    return 0;
}

bool out_same_file(const char *path, const char *other) {
    struct stat a, b;
    if (stat(path, &a) == 0 && stat(other, &b) == 0) return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    return strcmp(path, other) == 0;
}

/* A 1-D little-endian .npy of len real or complex elements. */
static int write_vector(const char *path, hyla_dtype t, int64_t len, const void *data) {
    static const char *const descr[4] = {"<f4", "<f8", "<c8", "<c16"};
    char head[128];
    int n = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld,), }",
                     descr[t], (long long)len);
    /* magic (6) + version (2) + length (2) + dict, padded to 64 bytes, '\n' last */
    size_t hlen = ((size_t)(10 + n + 1) + 63) / 64 * 64 - 10;
    memset(head + n, ' ', hlen - 1 - (size_t)n);
    head[hlen - 1] = '\n';
    const unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                                   (unsigned char)(hlen >> 8)};
    FILE *f = fopen(path, "wb");
    if (!f) return HYLA_ERR_IO;
    size_t bytes = (size_t)len * dtype_size(t);
    int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(head, 1, hlen, f) == hlen &&
             (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
    if (fclose(f) != 0) ok = 0;
    return ok ? 0 : HYLA_ERR_IO;
}

/* A new empty file next to path ("DIR/.BASE.XXXXXX"), with the mode a new
 * file gets; its name in tmp (malloc'ed), or NULL. */
static char *make_temp(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t len = strlen(path);
    char *tmp = malloc(len + 9);
    if (!tmp) return NULL;
    memcpy(tmp, path, dir);
    tmp[dir] = '.';
    memcpy(tmp + dir + 1, path + dir, len - dir);
    memcpy(tmp + len + 1, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || close(fd) != 0) {
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    return tmp;
}

/* Where --output's name leads: a symbolic link is followed (the file it
 * names is written, the link stays), and the file found there is classed:
 * none yet or a regular file one may write (replaced through a temporary
 * file), another kind (a character device such as /dev/null, a FIFO, a
 * socket: written into as it is), or one hyla refuses (a directory, a
 * regular file without write permission for this user or with no write
 * bit at all: never renamed over; a link to nowhere). The followed name
 * goes to real (PATH_MAX). Returns 0, or -1 with the reason printed. */
enum { OUT_REPLACE = 0, OUT_INTO = 1 };
static int out_target(const char *path, char *real, int *how) {
    struct stat st;
    snprintf(real, PATH_MAX, "%s", path);
    *how = OUT_REPLACE;
    if (lstat(path, &st) != 0) return 0; /* a new file (a missing directory fails later) */
    if (S_ISLNK(st.st_mode)) {
        if (!realpath(path, real)) {
            fprintf(stderr, "hyla: cannot write %s: a symbolic link to nothing (%s)\n", path,
                    strerror(errno));
            return -1;
        }
        if (stat(real, &st) != 0) return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "hyla: cannot write %s: it is a directory\n", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *how = OUT_INTO;
        return 0;
    }
    if (access(real, W_OK) != 0 || !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH))) {
        fprintf(stderr,
                "hyla: cannot write %s: the file is read-only (mode %04o); hyla does not replace "
                "it: make it writable or name another file\n",
                path, (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

static int write_item(const out_item *it, const char *path) {
    return it->vector ? write_vector(path, it->dtype, it->rows, it->data)
                      : hyla_npy_write(path, it->dtype, it->rows, it->cols, it->data, it->ld);
}

int out_write(const cli_opts *o, int count, const out_item *items) {
    char *tmp[CLI_MAX_OUTPUTS] = {0};
    char real[CLI_MAX_OUTPUTS][PATH_MAX];
    int how[CLI_MAX_OUTPUTS];
    int rc = 0, i;
    for (i = 0; i < count; i++)
        if (out_target(o->outputs[i], real[i], &how[i]) != 0) {
            if (count > 1) fputs("hyla: no --output file was written\n", stderr);
            return HYLA_ERR_IO;
        }
    /* the files to replace into temporary ones next to them first */
    for (i = 0; i < count && !rc; i++) {
        const out_item *it = &items[i];
        const char *path = o->outputs[i];
        if (how[i] != OUT_REPLACE) continue;
        if (!(tmp[i] = make_temp(real[i]))) {
            fprintf(stderr, "hyla: cannot write %s: cannot create a temporary file next to it: %s\n",
                    path, strerror(errno));
            rc = HYLA_ERR_IO;
            break;
        }
        rc = write_item(it, tmp[i]);
        if (rc) fprintf(stderr, "hyla: cannot write %s: %s\n", path, hyla_strerror(rc));
    }
    /* then the devices and FIFOs, written into as they are */
    for (i = 0; i < count && !rc; i++)
        if (how[i] == OUT_INTO && (rc = write_item(&items[i], real[i])) != 0)
            fprintf(stderr, "hyla: cannot write %s: %s\n", o->outputs[i], hyla_strerror(rc));
    /* every file written: rename them all; else remove the temporary ones */
    for (i = 0; i < count && !rc; i++)
        if (tmp[i] && rename(tmp[i], real[i]) != 0) {
            fprintf(stderr, "hyla: cannot write %s: %s\n", o->outputs[i], strerror(errno));
            rc = HYLA_ERR_IO;
        } else {
            free(tmp[i]);
            tmp[i] = NULL;
        }
    for (i = 0; i < count; i++) {
        if (tmp[i]) unlink(tmp[i]);
        free(tmp[i]);
    }
    if (rc && count > 1) fputs("hyla: no --output file was written\n", stderr);
    return rc;
}
