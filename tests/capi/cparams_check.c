/* capi_cparams_check ZEST_SO LIBZSTD_SO
 *
 * The match finder's parameters (ZSTD_c_windowLog, hashLog, chainLog,
 * searchLog, minMatch, targetLength, strategy), zest_zstd against the system
 * libzstd, both loaded into this process: the same parameter sets on both
 * contexts, then for each input
 *   - ZSTD_CCtx_getParameter gives the same value on both;
 *   - ZSTD_compress2 and ZSTD_compressStream2 (size unknown) succeed on
 *     both, libzstd decodes every frame to the input, and the windows the
 *     frame headers declare are the same (the window set, fitted to the
 *     input as libzstd fits it);
 *   - changes in the middle of a streamed frame are taken by both, apply
 *     from the next frame, and a windowLog change is refused by both.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZEST_TEST_DLOPEN
#include "test_support.h"

/* libzstd's API, which both libraries share. */
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
enum {
    c_level = 100, c_windowLog = 101, c_hashLog = 102, c_chainLog = 103, c_searchLog = 104, c_minMatch = 105,
    c_targetLength = 106, c_strategy = 107, c_contentSizeFlag = 200, c_checksumFlag = 201
};
enum { e_continue = 0, e_end = 2 };
enum { reset_session = 1, reset_parameters = 2 };
enum { err_stage_wrong = 60 };

typedef struct {
    const char* path;
    void* handle;
    unsigned (*isError)(size_t);
    int (*getErrorCode)(size_t);
    const char* (*getErrorName)(size_t);
    void* (*createCCtx)(void);
    size_t (*freeCCtx)(void*);
    size_t (*setC)(void*, int, int);
    size_t (*getC)(const void*, int, int*);
    size_t (*resetC)(void*, int);
    size_t (*compress2)(void*, void*, size_t, const void*, size_t);
    size_t (*compressStream2)(void*, out_buffer_t*, in_buffer_t*, int);
    size_t (*compressBound)(size_t);
    size_t (*decompress)(void*, size_t, const void*, size_t);
} lib_t;

static int failures = 0;

#define FAIL(...)                             \
    do {                                      \
        fprintf(stderr, __VA_ARGS__);         \
        fputc('\n', stderr);                  \
        failures++;                           \
    } while (0)

static void load(lib_t* l, const char* path) {
    l->path = path;
    l->handle = open_library(path);
    LOAD(l, isError, "ZSTD_isError");
    LOAD(l, getErrorCode, "ZSTD_getErrorCode");
    LOAD(l, getErrorName, "ZSTD_getErrorName");
    LOAD(l, createCCtx, "ZSTD_createCCtx");
    LOAD(l, freeCCtx, "ZSTD_freeCCtx");
    LOAD(l, setC, "ZSTD_CCtx_setParameter");
    LOAD(l, getC, "ZSTD_CCtx_getParameter");
    LOAD(l, resetC, "ZSTD_CCtx_reset");
    LOAD(l, compress2, "ZSTD_compress2");
    LOAD(l, compressStream2, "ZSTD_compressStream2");
    LOAD(l, compressBound, "ZSTD_compressBound");
    LOAD(l, decompress, "ZSTD_decompress");
}

/* Text-like data with repeats near and far, from a seed. */
static void fill(unsigned char* p, size_t n, uint32_t seed) {
    static const char* words[] = {"zest ", "frame ", "block ", "literal ", "match ", "offset ",
                                  "window ", "huffman ", "entropy ", "sequence\n", "{\"id\": ", "}, "};
    uint32_t s = seed * 2654435761u + 1;
    size_t i = 0;
    while (i < n) {
        s = s * 1664525u + 1013904223u;
        if ((s >> 24) < 6 && i > 70000) { /* a copy from far back */
            size_t from = (s >> 4) % (i - 65536), k = 200 + (s >> 20) % 800;
            for (size_t j = 0; j < k && i < n; j++) p[i++] = p[from + j];
        } else if ((s >> 24) < 12) { /* noise */
            size_t k = (s >> 8) % 48;
            for (size_t j = 0; j < k && i < n; j++) {
                s = s * 1664525u + 1013904223u;
                p[i++] = (unsigned char)(s >> 24);
            }
        } else {
            const char* w = words[(s >> 16) % 12];
            for (size_t j = 0; w[j] && i < n; j++) p[i++] = (unsigned char)w[j];
        }
    }
}

/* The window a frame header declares (single-segment frames: their size). */
static unsigned long long header_window(const unsigned char* f, size_t n) {
    if (n < 6) return 0;
    unsigned fhd = f[4];
    if (fhd & 0x20) { /* single segment: the content size */
        unsigned fcs = fhd >> 6, bytes = fcs == 0 ? 1 : fcs == 1 ? 2 : fcs == 2 ? 4 : 8;
        unsigned long long v = 0;
        for (unsigned i = 0; i < bytes && 5 + i < n; i++) v |= (unsigned long long)f[5 + i] << (8 * i);
        return fcs == 1 ? v + 256 : v;
    }
    unsigned wd = f[5];
    unsigned long long base = 1ULL << (10 + (wd >> 3));
    return base + (base / 8) * (wd & 7);
}

/* One parameter set: ids and values, ended by id 0. */
typedef struct {
    const char* name;
    int level;
    int p[8][2];
} param_set;

static const param_set sets[] = {
    {"level 3", 3, {{0, 0}}},
    {"fast", 3, {{c_strategy, 1}, {0, 0}}},
    {"dfast", 1, {{c_strategy, 2}, {0, 0}}},
    {"greedy", 3, {{c_strategy, 3}, {0, 0}}},
    {"lazy", 3, {{c_strategy, 4}, {0, 0}}},
    {"lazy2", 5, {{c_strategy, 5}, {0, 0}}},
    {"btlazy2", 5, {{c_strategy, 6}, {0, 0}}},
    {"btopt", 3, {{c_strategy, 7}, {0, 0}}},
    {"btultra2", 3, {{c_strategy, 9}, {0, 0}}},
    {"window 20", 1, {{c_windowLog, 20}, {0, 0}}},
    {"window 12", 3, {{c_windowLog, 12}, {0, 0}}},
    {"window 23, level 19", 19, {{c_windowLog, 23}, {0, 0}}},
    {"small tables", 3, {{c_hashLog, 12}, {c_chainLog, 12}, {c_searchLog, 2}, {0, 0}}},
    {"least tables", 3, {{c_hashLog, 6}, {c_chainLog, 6}, {c_searchLog, 1}, {c_minMatch, 3}, {0, 0}}},
    {"large tables, small window", 3, {{c_hashLog, 24}, {c_chainLog, 24}, {c_windowLog, 14}, {0, 0}}},
    {"fast, minMatch 7", 3, {{c_strategy, 1}, {c_minMatch, 7}, {0, 0}}},
    {"fast, targetLength 100", 3, {{c_strategy, 1}, {c_targetLength, 100}, {0, 0}}},
    {"level -5, dfast", -5, {{c_strategy, 2}, {0, 0}}},
    {"level 19, greedy", 19, {{c_strategy, 3}, {c_targetLength, 8}, {0, 0}}},
    {"all of them", 3,
     {{c_windowLog, 18}, {c_hashLog, 17}, {c_chainLog, 16}, {c_searchLog, 4}, {c_minMatch, 5}, {c_targetLength, 16},
      {c_strategy, 5}, {0, 0}}},
};
static const int all_ids[] = {c_level, c_windowLog, c_hashLog, c_chainLog, c_searchLog, c_minMatch, c_targetLength,
                              c_strategy};

static int apply(const lib_t* l, void* cc, const param_set* s, int content_size) {
    size_t r = l->resetC(cc, reset_parameters);
    if (!l->isError(r)) r = l->setC(cc, c_level, s->level);
    if (!l->isError(r)) r = l->setC(cc, c_contentSizeFlag, content_size);
    if (!l->isError(r)) r = l->setC(cc, c_checksumFlag, 1);
    for (int i = 0; !l->isError(r) && s->p[i][0]; i++) r = l->setC(cc, s->p[i][0], s->p[i][1]);
    if (l->isError(r)) {
        FAIL("%s: %s: setParameter: %s", l->path, s->name, l->getErrorName(r));
        return 0;
    }
    return 1;
}

static void compare_get(const lib_t* z, void* zc, const lib_t* r, void* rc, const char* what) {
    for (size_t i = 0; i < sizeof all_ids / sizeof *all_ids; i++) {
        int zv = -1, rv = -1;
        size_t a = z->getC(zc, all_ids[i], &zv), b = r->getC(rc, all_ids[i], &rv);
        if (z->isError(a) || r->isError(b) || zv != rv)
            FAIL("%s: getParameter(%d): zest %d (%s), libzstd %d (%s)", what, all_ids[i], zv,
                 z->isError(a) ? z->getErrorName(a) : "ok", rv, r->isError(b) ? r->getErrorName(b) : "ok");
    }
}

/* libzstd (the reference's decoder) must give `src` back from `frame`. */
static void expect_decodes(const lib_t* r, const unsigned char* frame, size_t n, const unsigned char* src,
                           size_t size, unsigned char* back, const char* what) {
    size_t d = r->decompress(back, size + 1, frame, n);
    if (r->isError(d) || d != size || (size && memcmp(back, src, size) != 0))
        FAIL("%s: libzstd decodes %s (%zu of %zu bytes)", what, r->isError(d) ? r->getErrorName(d) : "other bytes",
             r->isError(d) ? 0 : d, size);
}

/* One frame streamed in 4 KiB pieces with no size given; returns its size. */
static size_t stream_frame(const lib_t* l, void* cc, const unsigned char* src, size_t size, unsigned char* dst,
                           size_t cap) {
    out_buffer_t out = {dst, cap, 0};
    in_buffer_t in = {src, 0, 0};
    size_t r;
    while (in.pos < size) {
        in.size = in.pos + 4096 < size ? in.pos + 4096 : size;
        r = l->compressStream2(cc, &out, &in, e_continue);
        if (l->isError(r)) return r;
    }
    do {
        r = l->compressStream2(cc, &out, &in, e_end);
        if (l->isError(r)) return r;
    } while (r != 0);
    return out.pos;
}

static void check_sets(const lib_t* z, const lib_t* r, const unsigned char* data, size_t max) {
    static const size_t sizes[] = {0, 1, 1000, 70000, 300000, 2500000};
    void* zc = z->createCCtx();
    void* rc = r->createCCtx();
    size_t cap = r->compressBound(max) + 1024;
    unsigned char* zf = malloc(cap);
    unsigned char* rf = malloc(cap);
    unsigned char* back = malloc(max + 1);
    char what[256];
    if (!zc || !rc || !zf || !rf || !back) exit(2);
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        const param_set* s = &sets[i];
        for (int content_size = 0; content_size <= 1; content_size++) {
            if (!apply(z, zc, s, content_size) || !apply(r, rc, s, content_size)) continue;
            snprintf(what, sizeof what, "%s, content size %d", s->name, content_size);
            compare_get(z, zc, r, rc, what);
            for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                size_t size = sizes[k];
                snprintf(what, sizeof what, "%s, content size %d, %zu bytes", s->name, content_size, size);
                size_t zn = z->compress2(zc, zf, cap, data, size), rn = r->compress2(rc, rf, cap, data, size);
                if (z->isError(zn) || r->isError(rn)) {
                    FAIL("%s: compress2: zest %s, libzstd %s", what, z->isError(zn) ? z->getErrorName(zn) : "ok",
                         r->isError(rn) ? r->getErrorName(rn) : "ok");
                    continue;
                }
                expect_decodes(r, zf, zn, data, size, back, what);
                if (header_window(zf, zn) != header_window(rf, rn))
                    FAIL("%s: compress2 window: zest %llu, libzstd %llu", what, header_window(zf, zn),
                         header_window(rf, rn));
                /* Streamed with no size given (inputs up to 300 KB, for
                 * time): the window set, or the level's, not fitted. */
                if (size > 300000) continue;
                zn = stream_frame(z, zc, data, size, zf, cap);
                rn = stream_frame(r, rc, data, size, rf, cap);
                if (z->isError(zn) || r->isError(rn)) {
                    FAIL("%s: compressStream2: zest %s, libzstd %s", what,
                         z->isError(zn) ? z->getErrorName(zn) : "ok", r->isError(rn) ? r->getErrorName(rn) : "ok");
                    continue;
                }
                expect_decodes(r, zf, zn, data, size, back, what);
                if (header_window(zf, zn) != header_window(rf, rn))
                    FAIL("%s: stream window: zest %llu, libzstd %llu", what, header_window(zf, zn),
                         header_window(rf, rn));
            }
        }
    }
    z->freeCCtx(zc);
    r->freeCCtx(rc);
    free(zf);
    free(rf);
    free(back);
}

/* Mid-frame: the match finder's parameters are taken (for the next frame),
 * the window is refused; both frames decode. */
static void check_mid_frame(const lib_t* z, const lib_t* r, const unsigned char* data, size_t size) {
    const lib_t* libs[2] = {z, r};
    void* cc[2];
    unsigned long long windows[2][2];
    size_t cap = r->compressBound(size) + 1024;
    unsigned char* f = malloc(cap);
    unsigned char* back = malloc(size + 1);
    if (!f || !back) exit(2);
    for (int i = 0; i < 2; i++) {
        const lib_t* l = libs[i];
        cc[i] = l->createCCtx();
        l->setC(cc[i], c_contentSizeFlag, 0);
        l->setC(cc[i], c_level, 1);
        out_buffer_t out = {f, cap, 0};
        in_buffer_t in = {data, size / 2, 0};
        size_t rc = l->compressStream2(cc[i], &out, &in, e_continue);
        if (l->isError(rc)) FAIL("%s: first half: %s", l->path, l->getErrorName(rc));
        static const int ids[][2] = {{c_strategy, 4}, {c_hashLog, 16}, {c_chainLog, 17}, {c_searchLog, 3},
                                     {c_minMatch, 5}, {c_targetLength, 12}, {c_level, 7}};
        for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
            size_t v = l->setC(cc[i], ids[k][0], ids[k][1]);
            if (l->isError(v) || v != (size_t)ids[k][1])
                FAIL("%s: parameter %d = %d mid-frame: %s", l->path, ids[k][0], ids[k][1],
                     l->isError(v) ? l->getErrorName(v) : "another value");
        }
        size_t w = l->setC(cc[i], c_windowLog, 20);
        if (!l->isError(w) || l->getErrorCode(w) != err_stage_wrong)
            FAIL("%s: windowLog mid-frame: %s", l->path, l->isError(w) ? l->getErrorName(w) : "taken");
        in.size = size;
        do {
            rc = l->compressStream2(cc[i], &out, &in, e_end);
        } while (!l->isError(rc) && rc != 0);
        if (l->isError(rc)) FAIL("%s: frame end: %s", l->path, l->getErrorName(rc));
        expect_decodes(r, f, out.pos, data, size, back, l->path);
        windows[i][0] = header_window(f, out.pos);
        /* The next frame has the new parameters (level 7's window). */
        size_t n = stream_frame(l, cc[i], data, size, f, cap);
        if (l->isError(n)) {
            FAIL("%s: second frame: %s", l->path, l->getErrorName(n));
            continue;
        }
        expect_decodes(r, f, n, data, size, back, l->path);
        windows[i][1] = header_window(f, n);
    }
    compare_get(z, cc[0], r, cc[1], "after mid-frame changes");
    if (windows[0][0] != windows[1][0] || windows[0][1] != windows[1][1])
        FAIL("mid-frame: windows zest %llu, %llu; libzstd %llu, %llu", windows[0][0], windows[0][1], windows[1][0],
             windows[1][1]);
    z->freeCCtx(cc[0]);
    r->freeCCtx(cc[1]);
    free(f);
    free(back);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ZEST_SO LIBZSTD_SO\n", argv[0]);
        return 2;
    }
    lib_t z, r;
    load(&z, argv[1]);
    load(&r, argv[2]);
    if (z.compress2 == r.compress2) {
        fprintf(stderr, "both paths give the same library\n");
        return 2;
    }
    size_t max = 2500000;
    unsigned char* data = malloc(max);
    if (!data) return 2;
    fill(data, max, 19);
    check_sets(&z, &r, data, max);
    check_mid_frame(&z, &r, data, 400000);
    free(data);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
