/* stream_diff ZEST_SO LIBZSTD_SO DIR
 *
 * ZSTD_decompressStream, zest_zstd against libzstd, call for call: both
 * shared libraries are loaded into this process (RTLD_LOCAL, so each keeps
 * its own ZSTD_* symbols), given the same input and output buffers, and
 * after every call must agree on the bytes written, on input.pos, on whether
 * the call failed (and with which error code) and on whether it returned 0 (a frame ended and all of it
 * was handed out). Since both then see the same next call, any difference in
 * how input is consumed shows at the first call where it happens.
 *
 * Two ways of calling: the client loop (a chunk of the file, called until
 * its pos reaches its size) and a sliding input (each call gets the bytes
 * from the first unconsumed one; at the end, empty input until the frame
 * ends or nothing moves). Cases and their classes come from DIR/manifest
 * (stream_cases); buffer sizes go from 1 byte to 1 MiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZEST_TEST_DLOPEN
#define ZEST_TEST_STREAMS
#include "test_support.h"

typedef struct {
    const void* src;
    size_t size;
    size_t pos;
} in_buffer_t;
typedef struct {
    void* dst;
    size_t size;
    size_t pos;
} out_buffer_t;

typedef struct {
    const char* path;
    void* handle;
    unsigned (*isError)(size_t);
    const char* (*getErrorName)(size_t);
    int (*getErrorCode)(size_t);
    void* (*createDCtx)(void);
    size_t (*freeDCtx)(void*);
    size_t (*decompressStream)(void*, out_buffer_t*, in_buffer_t*);
    size_t (*dstreamInSize)(void);
    size_t (*dstreamOutSize)(void);
} lib_t;

static void load(lib_t* l, const char* path) {
    l->path = path;
    l->handle = open_library(path);
    LOAD(l, isError, "ZSTD_isError");
    LOAD(l, getErrorName, "ZSTD_getErrorName");
    LOAD(l, getErrorCode, "ZSTD_getErrorCode");
    LOAD(l, createDCtx, "ZSTD_createDCtx");
    LOAD(l, freeDCtx, "ZSTD_freeDCtx");
    LOAD(l, decompressStream, "ZSTD_decompressStream");
    LOAD(l, dstreamInSize, "ZSTD_DStreamInSize");
    LOAD(l, dstreamOutSize, "ZSTD_DStreamOutSize");
}

static unsigned long long all_calls = 0; /* calls made to each library */

typedef struct {
    const lib_t *z, *r;
    void *zd, *rd;
    unsigned char *zbuf, *rbuf;
    unsigned long long calls;
    size_t last;      /* last return value (both agree on its being 0) */
    size_t produced;  /* bytes written so far */
    const unsigned char* expected;
    size_t expected_size;
    int failed;       /* the libraries disagreed, or wrote wrong bytes */
    const char* name;
    int style;
    pattern_t p;
} run_t;

/* One call to each library with the same buffers: `n` bytes at src, from
 * *pos. Returns 1 when both succeeded and agree (*pos is then the new
 * input position, *written what each wrote), 0 when both failed alike, -1
 * on any difference. */
static int call_both(run_t* s, const unsigned char* src, size_t n, size_t* pos, size_t at, size_t* written) {
    const size_t out_size = pick(s->p.out);
    in_buffer_t zi = {src, n, *pos}, ri = {src, n, *pos};
    out_buffer_t zo = {s->zbuf, out_size, 0}, ro = {s->rbuf, out_size, 0};
    const size_t zr = s->z->decompressStream(s->zd, &zo, &zi);
    const size_t rr = s->r->decompressStream(s->rd, &ro, &ri);
    const int ze = (int)s->z->isError(zr), re = (int)s->r->isError(rr);
    ++s->calls;
    ++all_calls;
    if (ze != re || (ze && s->z->getErrorCode(zr) != s->r->getErrorCode(rr)) || (!ze && ((zr == 0) != (rr == 0))) ||
        zi.pos != ri.pos || zo.pos != ro.pos ||
        memcmp(s->zbuf, s->rbuf, zo.pos) != 0) {
        fprintf(stderr,
                "  FAIL %s, %s, reads of %zu, output of %zu (0: random): call %llu (input at byte %zu, %zu bytes "
                "offered, output room %zu):\n"
                "    zest:    returned %s %zu, input.pos %zu, output.pos %zu\n"
                "    libzstd: returned %s %zu, input.pos %zu, output.pos %zu%s\n",
                s->name, s->style ? "sliding input" : "client loop", s->p.in, s->p.out, s->calls, at, n - *pos,
                out_size, ze ? s->z->getErrorName(zr) : "", ze ? 0 : zr, zi.pos, zo.pos,
                re ? s->r->getErrorName(rr) : "", re ? 0 : rr, ri.pos, ro.pos,
                zo.pos == ro.pos && memcmp(s->zbuf, s->rbuf, zo.pos) != 0 ? " (bytes differ)" : "");
        s->failed = 1;
        return -1;
    }
    if (ze) return 0;
    if (s->produced + zo.pos > s->expected_size || memcmp(s->expected + s->produced, s->zbuf, zo.pos) != 0) {
        fprintf(stderr, "  FAIL %s: both libraries wrote other bytes than the input's at %zu\n", s->name,
                s->produced);
        s->failed = 1;
        return -1;
    }
    s->produced += zo.pos;
    s->last = zr;
    *pos = zi.pos;
    *written = zo.pos;
    return 1;
}

/* A fresh context from each library and their output buffers. */
static void begin_run(run_t* s, const lib_t* z, const lib_t* r, const char* name, const unsigned char* expected,
                      size_t expected_size, pattern_t p, int style) {
    memset(s, 0, sizeof *s);
    s->z = z;
    s->r = r;
    s->name = name;
    s->style = style;
    s->p = p;
    s->expected = expected;
    s->expected_size = expected_size;
    s->zd = z->createDCtx();
    s->rd = r->createDCtx();
    s->zbuf = (unsigned char*)malloc(p.out ? p.out : 300);
    s->rbuf = (unsigned char*)malloc(p.out ? p.out : 300);
    if (!s->zd || !s->rd || !s->zbuf || !s->rbuf) {
        fprintf(stderr, "cannot set up\n");
        exit(2);
    }
}

/* Frees what begin_run() made; returns whether the run failed. */
static int end_run(run_t* s) {
    free(s->zbuf);
    free(s->rbuf);
    s->z->freeDCtx(s->zd);
    s->r->freeDCtx(s->rd);
    return s->failed;
}

static int run_case(const lib_t* z, const lib_t* r, const char* name, const unsigned char* data, size_t size,
                    const unsigned char* expected, size_t expected_size, pattern_t p, int style) {
    run_t s;
    size_t at = 0, written = 0;
    int rc = 1;
    begin_run(&s, z, r, name, expected, expected_size, p, style);
    if (style == 0) {
        /* The client loop: a chunk at a time, called until its pos reaches its size. */
        while (at < size && rc == 1) {
            const size_t want = pick(p.in), n = want < size - at ? want : size - at;
            size_t pos = 0;
            while (pos < n && (rc = call_both(&s, data + at, n, &pos, at + pos, &written)) == 1) {}
            at += n;
        }
    } else {
        /* Sliding input: each call starts at the first unconsumed byte; once all
         * is consumed, empty input until a frame ends or nothing moves. */
        for (;;) {
            const size_t want = pick(p.in), n = want < size - at ? want : size - at;
            size_t pos = 0;
            rc = call_both(&s, data + at, n, &pos, at, &written);
            if (rc != 1) break;
            at += pos;
            if (at == size && (s.last == 0 || (pos == 0 && written == 0))) break;
        }
    }
    if (!s.failed && rc == 1 && (s.last != 0 || s.produced != expected_size)) {
        fprintf(stderr, "  FAIL %s, %s, reads of %zu, output of %zu: both ended with %zu of %zu bytes, last return %zu\n",
                name, style ? "sliding input" : "client loop", p.in, p.out, s.produced, expected_size, s.last);
        s.failed = 1;
    }
    if (!s.failed && rc == 0) {
        fprintf(stderr, "  FAIL %s: both libraries reported an error on a valid case\n", name);
        s.failed = 1;
    }
    return end_run(&s);
}

/* A stream cut short: all but the last byte, offered sliding, then empty
 * input call after call. Both libraries must hand out the same bytes and
 * then, after the same number of calls that move nothing, report the same
 * failure (libzstd gives up after 16 such calls rather than let a caller
 * loop forever). */
static int run_stalled(const lib_t* z, const lib_t* r, const char* name, const unsigned char* data, size_t size,
                       const unsigned char* expected, size_t expected_size, pattern_t p) {
    run_t s;
    size_t at = 0, written = 0;
    long call;
    int errors = 0;
    begin_run(&s, z, r, name, expected, expected_size, p, 1);
    --size;
    while (at < size && !s.failed) {
        const size_t want = pick(p.in), n = want < size - at ? want : size - at;
        size_t pos = 0;
        if (call_both(&s, data + at, n, &pos, at, &written) != 1) break;
        at += pos;
    }
    /* Pending output comes out first (at worst a byte a call), then the stalls. */
    for (call = 0; (size_t)call < expected_size + 64 && !s.failed && errors < 3; ++call) {
        size_t pos = 0;
        errors += call_both(&s, data + at, 0, &pos, at, &written) == 0;
    }
    if (!s.failed && errors == 0) {
        fprintf(stderr, "  FAIL %s cut short: calls without input and no error from either library\n", name);
        s.failed = 1;
    }
    return end_run(&s);
}

int main(int argc, char** argv) {
    lib_t z, r;
    pattern_t patterns[32];
    size_t npatterns;
    char manifest[4096], name[256], cls[32];
    FILE* m;
    int failures = 0, runs = 0;
    if (argc != 4) {
        fprintf(stderr, "usage: stream_diff ZEST_SO LIBZSTD_SO DIR\n");
        return 2;
    }
    load(&z, argv[1]);
    load(&r, argv[2]);
    npatterns = stream_patterns(patterns, r.dstreamInSize(), r.dstreamOutSize());
    snprintf(manifest, sizeof manifest, "%s/manifest", argv[3]);
    m = fopen(manifest, "r");
    if (!m) {
        fprintf(stderr, "cannot read %s\n", manifest);
        return 2;
    }
    while (next_case(m, name, cls)) {
        size_t size = 0, expected_size = 0, i;
        unsigned char* data = read_case_file(argv[3], name, "zst", &size);
        unsigned char* expected = read_case_file(argv[3], name, "raw", &expected_size);
        int style;
        for (i = 0; i < npatterns; ++i) {
            if (!pattern_runs_on(&patterns[i], cls)) continue;
            for (style = 0; style < 2; ++style) {
                ++runs;
                rng_state = 1 + i;
                failures += run_case(&z, &r, name, data, size, expected, expected_size, patterns[i], style);
            }
            if (strcmp(cls, "large") != 0 && size > 0) {
                ++runs;
                rng_state = 1 + i;
                failures += run_stalled(&z, &r, name, data, size, expected, expected_size, patterns[i]);
            }
        }
        free(data);
        free(expected);
    }
    fclose(m);
    if (runs == 0) {
        fprintf(stderr, "no cases in %s\n", manifest);
        return 1;
    }
    printf("%d of %d runs: zest and libzstd agreed on every call (%llu calls each)\n", runs - failures, runs, all_calls);
    return failures ? 1 : 0;
}
