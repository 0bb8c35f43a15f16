/* The option table (include/hyla_options.h) against what it must agree with:
 * the hyla_option enum of include/hyla.h (every enum value has one line, and
 * no line lacks its enum value), the options table of docs/OPTIONS.md (row by
 * row), and the library: each option's range, default and environment
 * variable. `test_options --rows` prints the docs/OPTIONS.md rows the table gives. */
#include "harness.h"
#include "hyla.h"
#include "hyla_options.h"

#include <regex.h>
#include <stdint.h>
#include <string.h>

static const struct {
    const char *id, *flag, *values, *help;
    int value; /* HYLA_OPT_<ID> */
    int64_t min, max, def;
} table[] = {
#define X(id, flag, values, lo, hi, def, help) {#id, flag, values, help, HYLA_OPT_##id, lo, hi, def},
    HYLA_OPTIONS(X)
#undef X
};
enum { NOPT = sizeof table / sizeof table[0] };

/* The docs/OPTIONS.md row of option i: the table's cells, '|' escaped. */
static void readme_row(int i, char *row, size_t len) {
    char values[128], range[64];
    size_t n = 0;
    for (const char *p = table[i].values; *p && n + 3 < sizeof values; p++) {
        if (*p == '|') values[n++] = '\\';
        values[n++] = *p;
    }
    values[n] = '\0';
    if (table[i].max == INT64_MAX) snprintf(range, sizeof range, ">= %lld", (long long)table[i].min);
    else snprintf(range, sizeof range, "%lld .. %lld", (long long)table[i].min, (long long)table[i].max);
    snprintf(row, len, "| `HYLA_OPT_%s` | `HYLA_%s` | `%s%s%s` | %s | %lld | %s |", table[i].id,
             table[i].id, table[i].flag, *values ? " " : "", values, range, (long long)table[i].def,
             table[i].help);
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

static int find_id(const char *id, size_t len) {
    for (int i = 0; i < NOPT; i++)
        if (strlen(table[i].id) == len && strncmp(table[i].id, id, len) == 0) return i;
    return -1;
}

static void test_enum(void) {
    char *h = read_text(HYLA_SOURCE_DIR "/include/hyla.h");
    CHECK(h != NULL, "read include/hyla.h");
    if (!h) return;
    regex_t re;
    regcomp(&re, "^[ \t]*HYLA_OPT_([A-Z0-9_]+) = ([0-9]+),?$", REG_EXTENDED | REG_NEWLINE);
    int seen[NOPT] = {0}, count = 0;
    regmatch_t m[3];
    for (const char *p = h; regexec(&re, p, 3, m, 0) == 0; p += m[0].rm_eo) {
        int i = find_id(p + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
        CHECK(i >= 0, "HYLA_OPT_%.*s of hyla.h has a line in hyla_options.h",
              (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
        if (i < 0) continue;
        CHECK(table[i].value == atoi(p + m[2].rm_so), "HYLA_OPT_%s: one value", table[i].id);
        seen[i]++;
        count++;
    }
    for (int i = 0; i < NOPT; i++) CHECK(seen[i] == 1, "HYLA_OPT_%s once in hyla.h", table[i].id);
    CHECK(count == NOPT, "hyla.h has %d options, the table %d", count, (int)NOPT);
    regfree(&re);
    free(h);
}

static void test_readme(void) {
    char *md = read_text(HYLA_SOURCE_DIR "/docs/OPTIONS.md");
    CHECK(md != NULL, "read docs/OPTIONS.md");
    if (!md) return;
    int i = 0;
    for (char *line = strtok(md, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| `HYLA_OPT_", 12) != 0) continue;
        char want[512];
        if (i < NOPT) readme_row(i, want, sizeof want);
        CHECK(i < NOPT && strcmp(line, want) == 0, "docs/OPTIONS.md row %d\n  is:     %s\n  should: %s", i + 1,
              line, i < NOPT ? want : "(no such option)");
        i++;
    }
    CHECK(i == NOPT, "docs/OPTIONS.md has %d option rows, the table %d", i, (int)NOPT);
    free(md);
}

static void test_library(void) {
    hyla_t *h = NULL;
    CHECK(hyla_create(&h, test_devices()) == 0, "create");
    for (int i = 0; i < NOPT; i++) {
        hyla_option o = (hyla_option)table[i].value;
        int64_t v = -7;
        CHECK(hyla_get_option(h, o, &v) == 0 && v == table[i].def, "%s: default %lld", table[i].id,
              (long long)v);
        CHECK(hyla_set_option(h, o, table[i].min) == 0 && hyla_set_option(h, o, table[i].max) == 0,
              "%s: range ends accepted", table[i].id);
        CHECK(hyla_set_option(h, o, table[i].min - 1) == -3, "%s: below range refused", table[i].id);
        if (table[i].max < INT64_MAX)
            CHECK(hyla_set_option(h, o, table[i].max + 1) == -3, "%s: above range refused", table[i].id);
        CHECK(hyla_set_option(h, o, table[i].def) == 0, "%s: default restored", table[i].id);
    }
    CHECK(hyla_set_option(h, HYLA_OPT_LU_PANEL, 5) == -3 && hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 1) == -3,
          "values inside the range that hyla.h refuses");
    CHECK(hyla_set_option(h, (hyla_option)999, 0) == -2, "unknown option");
    hyla_destroy(&h);

    setenv("HYLA_EIG_KD", "48", 1);
    setenv("HYLA_GEMM_CPU_SHARE", "250", 1);
    int64_t kd = 0, share = 0;
    CHECK(hyla_create(&h, test_devices()) == 0 && hyla_get_option(h, HYLA_OPT_EIG_KD, &kd) == 0 &&
              kd == 48 && hyla_get_option(h, HYLA_OPT_GEMM_CPU_SHARE, &share) == 0 && share == 250,
          "environment: kd %lld, cpu share %lld", (long long)kd, (long long)share);
    hyla_destroy(&h);
    const char *bad[] = {"abc", "48x", "70000", "99999999999999999999"};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        setenv("HYLA_EIG_KD", bad[b], 1);
        int rc = hyla_create(&h, test_devices());
        CHECK(rc == HYLA_ERR_INVALID && h == NULL, "HYLA_EIG_KD=%s refused (%d)", bad[b], rc);
    }
    unsetenv("HYLA_EIG_KD");
    unsetenv("HYLA_GEMM_CPU_SHARE");
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--rows") == 0) {
        for (int i = 0; i < NOPT; i++) {
            char row[512];
            readme_row(i, row, sizeof row);
            puts(row);
        }
        return 0;
    }
    test_enum();
    test_readme();
    test_library();
    return summary("options");
}
