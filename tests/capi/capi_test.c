/* Tests of the zstd C API, written against libzstd's documented behaviour.
 * The same source is built against zest's zstd.h + zest_zstd and against the
 * system's zstd.h + libzstd; both builds must pass.
 *
 *   capi_test                 run all checks
 *   capi_test write DIR       also write DIR/sample.raw and frames of it (*.zst)
 *   capi_test verify DIR      decode every DIR/ref*.zst and compare with DIR/sample.raw
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_CCtx_getParameter */
#include <zstd.h>
#include <zstd_errors.h>

static int failures = 0;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            failures++;                                                         \
        }                                                                       \
    } while (0)

/* A result must not be an error; prints its name when it is. */
#define CHECK_OK(r, what) CHECK(!ZSTD_isError(r), "%s: %s", what, ZSTD_getErrorName(r))
/* A result must be the given error. */
#define CHECK_ERR(r, code, what)                                                               \
    CHECK(ZSTD_isError(r) && ZSTD_getErrorCode(r) == (code), "%s: expected error %d (%s), got %s %zu (%s)", \
          what, (int)(code), ZSTD_getErrorString(code), ZSTD_isError(r) ? "error" : "value",              \
          ZSTD_isError(r) ? (size_t)ZSTD_getErrorCode(r) : r, ZSTD_getErrorName(r))

static void* xmalloc(size_t n) {
    void* p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Compressible test data: words from a small vocabulary, numbers, and a
 * stretch of noise, from a fixed seed. */
static void fill(unsigned char* p, size_t n, uint32_t seed) {
    static const char* words[] = {"zest ", "frame ", "block ", "literal ", "match ", "offset ",
                                  "window ", "huffman ", "entropy ", "sequence\n"};
    uint32_t s = seed * 2654435761u + 1;
    size_t i = 0;
    while (i < n) {
        s = s * 1664525u + 1013904223u;
        if ((s >> 24) < 8) { /* noise */
            size_t k = (s >> 8) % 64;
            for (size_t j = 0; j < k && i < n; j++) {
                s = s * 1664525u + 1013904223u;
                p[i++] = (unsigned char)(s >> 24);
            }
        } else {
            const char* w = words[(s >> 16) % 10];
            for (size_t j = 0; w[j] && i < n; j++) p[i++] = (unsigned char)w[j];
        }
    }
}

/* Window size declared by a frame header (single-segment frames: the content size). */
static unsigned long long header_window(const unsigned char* f, size_t n) {
    if (n < 6) return 0;
    unsigned fhd = f[4];
    if (fhd & 0x20) return ZSTD_getFrameContentSize(f, n);
    unsigned wd = f[5];
    unsigned long long base = 1ULL << (10 + (wd >> 3));
    return base + (base / 8) * (wd & 7);
}

/* Streams `src` through a fresh DStream, in chunks of `in_step` and with an
 * output buffer of `out_step`. Returns the decoded size or (size_t)-1, and
 * *last the last return value (0 when the data ended on a frame end). */
static size_t stream_decode(const void* src, size_t n, void* dst, size_t cap, size_t in_step, size_t out_step,
                            size_t* last, int window_log_max) {
    ZSTD_DStream* ds = ZSTD_createDStream();
    size_t r = 0, produced = 0;
    if (!ds) return (size_t)-1;
    ZSTD_initDStream(ds);
    if (window_log_max) {
        r = ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, window_log_max);
        if (ZSTD_isError(r)) goto done;
    }
    ZSTD_inBuffer in = {src, 0, 0};
    while (1) {
        in.size = in.pos + in_step < n ? in.pos + in_step : n;
        size_t room = cap - produced < out_step ? cap - produced : out_step;
        ZSTD_outBuffer out = {(char*)dst + produced, room, 0};
        r = ZSTD_decompressStream(ds, &out, &in);
        produced += out.pos;
        if (ZSTD_isError(r)) break;
        if (in.pos == n && out.pos < room) break; /* input used up, output not full: done */
        if (produced == cap && in.pos == n) break;
    }
done:
    if (last) *last = r;
    ZSTD_freeDStream(ds);
    return ZSTD_isError(r) ? r : produced;
}

static int same(const void* a, const void* b, size_t n) { return n == 0 || memcmp(a, b, n) == 0; }

static void test_bound_limit(void) {
    /* No bound fits a size_t from ZSTD_MAX_INPUT_SIZE on: the function says
     * so with srcSize_wrong, the macro with 0. */
    const size_t huge[] = {(size_t)ZSTD_MAX_INPUT_SIZE, (size_t)ZSTD_MAX_INPUT_SIZE + 1, (size_t)-1};
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        size_t r = ZSTD_compressBound(huge[i]);
        CHECK(ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_srcSize_wrong, "bound of %zu: %zu", huge[i], r);
        CHECK(ZSTD_COMPRESSBOUND(huge[i]) == 0, "ZSTD_COMPRESSBOUND(%zu) = %zu", huge[i],
              (size_t)ZSTD_COMPRESSBOUND(huge[i]));
    }
    /* Below it, the formula's value, whatever it is (near the limit it
     * wraps around in libzstd as well). */
    size_t below = (size_t)ZSTD_MAX_INPUT_SIZE - 1;
    CHECK(ZSTD_compressBound(below) == ZSTD_COMPRESSBOUND(below), "bound just below the limit");
}

static void test_levels(void) {
    static const size_t sizes[] = {0, 1, 100, 10000, 300000};
    static const int levels[] = {-131072, -50, -5, -1, 0, 1, 2, 3, 4, 7, 19};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        size_t n = sizes[si];
        unsigned char* src = xmalloc(n);
        fill(src, n, (uint32_t)n);
        size_t bound = ZSTD_compressBound(n);
        CHECK(bound >= n && bound == ZSTD_COMPRESSBOUND(n), "bound %zu for %zu", bound, n);
        unsigned char* c = xmalloc(bound);
        unsigned char* d = xmalloc(n + 1);
        for (size_t li = 0; li < sizeof levels / sizeof *levels; li++) {
            int level = levels[li];
            size_t cs = ZSTD_compress(c, bound, src, n, level);
            CHECK_OK(cs, "ZSTD_compress");
            if (ZSTD_isError(cs)) continue;
            CHECK(ZSTD_getFrameContentSize(c, cs) == n, "content size of level %d, size %zu: %llu", level, n,
                  ZSTD_getFrameContentSize(c, cs));
            CHECK(ZSTD_findFrameCompressedSize(c, cs) == cs, "frame size %zu vs %zu", ZSTD_findFrameCompressedSize(c, cs), cs);
            if (n >= 10000 && level >= -50) CHECK(cs < n / 2, "level %d did not compress: %zu -> %zu", level, n, cs);
            size_t ds = ZSTD_decompress(d, n + 1, c, cs);
            CHECK(ds == n && same(d, src, n), "round trip at level %d, size %zu: got %zu (%s)", level, n, ds,
                  ZSTD_getErrorName(ds));
        }
        free(src);
        free(c);
        free(d);
    }
    /* The highest level, once. */
    size_t n = 100000;
    unsigned char* src = xmalloc(n);
    unsigned char* c = xmalloc(ZSTD_compressBound(n));
    unsigned char* d = xmalloc(n);
    fill(src, n, 9);
    size_t cs = ZSTD_compress(c, ZSTD_compressBound(n), src, n, ZSTD_maxCLevel());
    CHECK_OK(cs, "max level");
    size_t ds = ZSTD_decompress(d, n, c, cs);
    CHECK(ds == n && same(d, src, n), "round trip at max level: %zu", ds);
    free(src);
    free(c);
    free(d);
}

static size_t drive(ZSTD_CCtx* cc, ZSTD_inBuffer* in, unsigned char* dst, size_t cap, size_t* pos, size_t out_step,
                    ZSTD_EndDirective op);

static void test_contexts(void) {
    size_t n = 200000;
    unsigned char* src = xmalloc(n);
    size_t bound = ZSTD_compressBound(n);
    unsigned char* c = xmalloc(bound);
    unsigned char* d = xmalloc(n);
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    ZSTD_DCtx* dc = ZSTD_createDCtx();
    CHECK(cc && dc, "contexts");
    if (!cc || !dc) return;
    for (int i = 0; i < 4; i++) {
        fill(src, n, 100 + i);
        size_t cs = ZSTD_compressCCtx(cc, c, bound, src, n, i == 3 ? -3 : i * 3);
        CHECK_OK(cs, "ZSTD_compressCCtx");
        size_t ds = ZSTD_decompressDCtx(dc, d, n, c, cs);
        CHECK(ds == n && same(d, src, n), "DCtx round trip %d: %zu (%s)", i, ds, ZSTD_getErrorName(ds));
    }
    CHECK(ZSTD_sizeof_CCtx(cc) > 0, "sizeof CCtx");
    CHECK(ZSTD_sizeof_DCtx(dc) > 0, "sizeof DCtx");

    /* compressCCtx ignores sticky parameters. */
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1), "set checksum");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0), "set content size flag");
    size_t cs = ZSTD_compressCCtx(cc, c, bound, src, n, 1);
    CHECK_OK(cs, "compressCCtx with sticky params");
    CHECK(ZSTD_getFrameContentSize(c, cs) == n, "compressCCtx declares the size");
    CHECK((c[4] & 0x04) == 0, "compressCCtx writes no checksum");

    /* compress2: checksum on, content size off. */
    cs = ZSTD_compress2(cc, c, bound, src, n);
    CHECK_OK(cs, "compress2");
    CHECK(ZSTD_getFrameContentSize(c, cs) == ZSTD_CONTENTSIZE_UNKNOWN, "content size off: %llu",
          ZSTD_getFrameContentSize(c, cs));
    CHECK((c[4] & 0x04) != 0, "checksum flag in the frame header");
    CHECK(ZSTD_findFrameCompressedSize(c, cs) == cs, "frame size with checksum");
    size_t ds = ZSTD_decompressDCtx(dc, d, n, c, cs);
    CHECK(ds == n && same(d, src, n), "compress2 round trip: %zu", ds);
    c[cs - 1] ^= 0x5a; /* damage the checksum */
    ds = ZSTD_decompressDCtx(dc, d, n, c, cs);
    CHECK_ERR(ds, ZSTD_error_checksum_wrong, "damaged checksum");

    /* Window log: the header declares it. */
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 12) == 12, "set window log");
    cs = ZSTD_compress2(cc, c, bound, src, n);
    CHECK_OK(cs, "compress2 windowLog 12");
    CHECK(header_window(c, cs) == 4096, "window %llu", header_window(c, cs));
    size_t last = 0;
    ds = stream_decode(c, cs, d, n, 1000, 1000, &last, 12);
    CHECK(ds == n && last == 0 && same(d, src, n), "window 12 under windowLogMax 12: %zu (%s)", ds, ZSTD_getErrorName(ds));
    ds = stream_decode(c, cs, d, n, 1000, 1000, &last, 11);
    CHECK_ERR(ds, ZSTD_error_frameParameter_windowTooLarge, "window 12 under windowLogMax 11");
    ds = ZSTD_decompressDCtx(dc, d, n, c, cs);
    CHECK(ds == n, "one-shot ignores windowLogMax");

    /* Parameter values and errors. */
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 100) == (size_t)ZSTD_maxCLevel(), "level clamped");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 5) == 5, "level 5");
    CHECK_ERR(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 5), ZSTD_error_parameter_outOfBound, "windowLog 5");
    CHECK_ERR(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 40), ZSTD_error_parameter_outOfBound, "windowLog 40");
    CHECK_ERR(ZSTD_CCtx_setParameter(cc, (ZSTD_cParameter)999, 1), ZSTD_error_parameter_unsupported, "param 999");
    CHECK_ERR(ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 5), ZSTD_error_parameter_outOfBound, "windowLogMax 5");
    CHECK_ERR(ZSTD_DCtx_setParameter(dc, (ZSTD_dParameter)999, 1), ZSTD_error_parameter_unsupported, "dparam 999");
    CHECK_OK(ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 0), "windowLogMax 0 (default)");
    CHECK_OK(ZSTD_DCtx_reset(dc, ZSTD_reset_session_and_parameters), "DCtx reset");

    /* Workers: taken up to the bound getBounds reports, clamped beyond it
     * (libzstd built with threads, as Debian's; zest takes the same range and
     * compresses on one thread). Frames made "with workers" decode. */
    ZSTD_bounds wb = ZSTD_cParam_getBounds(ZSTD_c_nbWorkers);
    CHECK(!ZSTD_isError(wb.error) && wb.lowerBound == 0 && wb.upperBound >= 2, "nbWorkers bounds %d..%d (%s)",
          wb.lowerBound, wb.upperBound, ZSTD_getErrorName(wb.error));
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, 0) == 0, "nbWorkers 0");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, wb.upperBound + 1) == (size_t)wb.upperBound,
          "nbWorkers beyond the bound is clamped");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, -1) == 0, "nbWorkers -1 is clamped to 0");
    size_t w = ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, 2);
    CHECK(w == 2, "nbWorkers 2: %s", ZSTD_getErrorName(w));
    cs = ZSTD_compress2(cc, c, bound, src, n);
    CHECK_OK(cs, "compress2 with 2 workers");
    ds = ZSTD_decompressDCtx(dc, d, n, c, cs);
    CHECK(ds == n && same(d, src, n), "frame of compress2 with 2 workers decodes: %zu (%s)", ds, ZSTD_getErrorName(ds));
    {
        ZSTD_inBuffer win = {src, n, 0};
        size_t wpos = 0;
        size_t wr = drive(cc, &win, c, bound, &wpos, 4096, ZSTD_e_continue);
        if (!ZSTD_isError(wr)) wr = drive(cc, &win, c, bound, &wpos, 4096, ZSTD_e_end);
        CHECK(wr == 0, "streamed with 2 workers: %s", ZSTD_getErrorName(wr));
        ds = ZSTD_decompress(d, n, c, wpos);
        CHECK(ds == n && same(d, src, n), "frame streamed with 2 workers decodes: %zu (%s)", ds, ZSTD_getErrorName(ds));
    }
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, 0), "nbWorkers back to 0");

    /* Reset of parameters: back to no checksum, size declared, default level. */
    CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_parameters), "reset parameters");
    cs = ZSTD_compress2(cc, c, bound, src, n);
    CHECK_OK(cs, "compress2 after reset");
    CHECK(ZSTD_getFrameContentSize(c, cs) == n && (c[4] & 0x04) == 0, "defaults after reset");

    ZSTD_freeCCtx(cc);
    ZSTD_freeDCtx(dc);
    CHECK(ZSTD_freeCCtx(NULL) == 0 && ZSTD_freeDCtx(NULL) == 0, "free NULL");
    free(src);
    free(c);
    free(d);
}

/* Runs one compressStream2 directive to completion with a tiny output step. */
static size_t drive(ZSTD_CCtx* cc, ZSTD_inBuffer* in, unsigned char* dst, size_t cap, size_t* pos, size_t out_step,
                    ZSTD_EndDirective op) {
    size_t r;
    int guard = 0;
    do {
        size_t room = cap - *pos < out_step ? cap - *pos : out_step;
        ZSTD_outBuffer out = {dst + *pos, room, 0};
        r = ZSTD_compressStream2(cc, &out, in, op);
        *pos += out.pos;
        if (ZSTD_isError(r)) return r;
        if (++guard > 10000000) return (size_t)-1;
    } while (op == ZSTD_e_continue ? in->pos < in->size : r != 0);
    return r;
}

static void test_stream_compress(void) {
    size_t n = 400000;
    unsigned char* src = xmalloc(n);
    fill(src, n, 7);
    size_t cap = ZSTD_compressBound(n) + 1000;
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n);
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3), "level");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1), "checksum");

    size_t pos = 0, half = n / 2 + 123, r;
    ZSTD_inBuffer in = {src, 0, 0};
    /* Continue in 1000-byte pieces to the middle, through 64-byte outputs. */
    while (in.pos < half) {
        in.size = in.pos + 1000 < half ? in.pos + 1000 : half;
        r = drive(cc, &in, c, cap, &pos, 64, ZSTD_e_continue);
        CHECK_OK(r, "continue");
        if (ZSTD_isError(r)) goto out;
    }
    /* Only the level and the match finder's parameters may change mid-frame
     * (for the next frame). */
    CHECK_ERR(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 20), ZSTD_error_stage_wrong, "windowLog mid-frame");
    CHECK_ERR(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0), ZSTD_error_stage_wrong, "checksumFlag mid-frame");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_strategy, ZSTD_lazy) == ZSTD_lazy, "strategy mid-frame");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_hashLog, 15) == 15, "hashLog mid-frame");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_strategy, 0) == 0, "strategy back to the level's mid-frame");
    CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_hashLog, 0) == 0, "hashLog back to the level's mid-frame");
    CHECK_ERR(ZSTD_CCtx_setPledgedSrcSize(cc, 5), ZSTD_error_stage_wrong, "pledge mid-frame");
    CHECK_ERR(ZSTD_CCtx_reset(cc, ZSTD_reset_parameters), ZSTD_error_stage_wrong, "reset parameters mid-frame");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3), "level mid-frame");
    r = drive(cc, &in, c, cap, &pos, 64, ZSTD_e_flush);
    CHECK(r == 0, "flush: %s", ZSTD_getErrorName(r));
    {
        /* Everything so far decodes from the partial frame. */
        size_t last = 0;
        size_t got = stream_decode(c, pos, d, n, 4096, 4096, &last, 0);
        CHECK(got == half && same(d, src, half), "flushed prefix decodes: %zu of %zu (%s)", got, half,
              ZSTD_getErrorName(got));
        CHECK(!ZSTD_isError(last) && last != 0, "frame not finished yet: %zu", last);
    }
    in.size = n;
    r = drive(cc, &in, c, cap, &pos, 64, ZSTD_e_continue);
    CHECK_OK(r, "continue 2");
    r = drive(cc, &in, c, cap, &pos, 64, ZSTD_e_end);
    CHECK(r == 0, "end: %s", ZSTD_getErrorName(r));
    CHECK(ZSTD_getFrameContentSize(c, pos) == ZSTD_CONTENTSIZE_UNKNOWN, "no pledge: size unknown, got %llu",
          ZSTD_getFrameContentSize(c, pos));
    CHECK(ZSTD_findFrameCompressedSize(c, pos) == pos, "whole frame: %zu vs %zu", ZSTD_findFrameCompressedSize(c, pos), pos);
    {
        size_t got = ZSTD_decompress(d, n, c, pos);
        CHECK(got == n && same(d, src, n), "streamed frame decodes: %zu (%s)", got, ZSTD_getErrorName(got));
    }

    /* Pledged size, right: declared in the header. */
    CHECK_OK(ZSTD_CCtx_setPledgedSrcSize(cc, n), "pledge");
    pos = 0;
    in.pos = 0;
    in.size = n;
    r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_continue);
    CHECK_OK(r, "pledged continue");
    r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_end);
    CHECK(r == 0, "pledged end: %s", ZSTD_getErrorName(r));
    CHECK(ZSTD_getFrameContentSize(c, pos) == n, "pledged size declared: %llu", ZSTD_getFrameContentSize(c, pos));
    CHECK(ZSTD_decompress(d, n, c, pos) == n && same(d, src, n), "pledged frame decodes");

    /* Pledged size, too large: the frame cannot end. */
    CHECK_OK(ZSTD_CCtx_setPledgedSrcSize(cc, n + 1), "pledge n+1");
    pos = 0;
    in.pos = 0;
    /* (not ending at once: libzstd takes an end on the first call as the size) */
    r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_continue);
    if (!ZSTD_isError(r)) r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_end);
    CHECK_ERR(r, ZSTD_error_srcSize_wrong, "pledged n+1, gave n");
    CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_session_only), "reset after error");

    /* Pledged size, too small. */
    CHECK_OK(ZSTD_CCtx_setPledgedSrcSize(cc, n - 1), "pledge n-1");
    pos = 0;
    in.pos = 0;
    /* (not ending at once: libzstd takes an end on the first call as the size) */
    r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_continue);
    if (!ZSTD_isError(r)) r = drive(cc, &in, c, cap, &pos, 1000, ZSTD_e_end);
    CHECK_ERR(r, ZSTD_error_srcSize_wrong, "pledged n-1, gave n");
    CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_session_only), "reset after error");

    /* The pledge went with the reset: a plain frame works again. */
    pos = 0;
    in.pos = 0;
    r = drive(cc, &in, c, cap, &pos, 100000, ZSTD_e_end);
    CHECK(r == 0, "frame after reset: %s", ZSTD_getErrorName(r));
    CHECK(ZSTD_decompress(d, n, c, pos) == n && same(d, src, n), "frame after reset decodes");

    /* A frame begun and ended in one call declares its size. */
    pos = 0;
    in.pos = 0;
    r = drive(cc, &in, c, cap, &pos, cap, ZSTD_e_end);
    CHECK(r == 0, "single end call: %s", ZSTD_getErrorName(r));
    CHECK(ZSTD_getFrameContentSize(c, pos) == n, "single end call declares the size: %llu",
          ZSTD_getFrameContentSize(c, pos));
    CHECK(ZSTD_decompress(d, n, c, pos) == n && same(d, src, n), "single end call decodes");

    /* Legacy calls. */
    {
        ZSTD_CStream* cs = ZSTD_createCStream();
        CHECK_OK(ZSTD_initCStream(cs, 1), "initCStream");
        size_t p = 0;
        ZSTD_inBuffer li = {src, 0, 0};
        while (li.pos < n) {
            li.size = li.pos + 5000 < n ? li.pos + 5000 : n;
            ZSTD_outBuffer out = {c + p, cap - p, 0};
            size_t h = ZSTD_compressStream(cs, &out, &li);
            p += out.pos;
            CHECK_OK(h, "compressStream");
            if (ZSTD_isError(h)) break;
        }
        size_t f;
        do {
            ZSTD_outBuffer out = {c + p, 10 < cap - p ? 10 : cap - p, 0};
            f = ZSTD_flushStream(cs, &out);
            p += out.pos;
        } while (!ZSTD_isError(f) && f != 0);
        CHECK(f == 0, "flushStream: %s", ZSTD_getErrorName(f));
        size_t e;
        do {
            ZSTD_outBuffer out = {c + p, 10 < cap - p ? 10 : cap - p, 0};
            e = ZSTD_endStream(cs, &out);
            p += out.pos;
        } while (!ZSTD_isError(e) && e != 0);
        CHECK(e == 0, "endStream: %s", ZSTD_getErrorName(e));
        size_t got = ZSTD_decompress(d, n, c, p);
        CHECK(got == n && same(d, src, n), "legacy stream decodes: %zu", got);
        CHECK(ZSTD_sizeof_CStream(cs) > 0, "sizeof CStream");
        ZSTD_freeCStream(cs);
    }
out:
    ZSTD_freeCCtx(cc);
    free(src);
    free(c);
    free(d);
}

static void test_stream_decompress_and_concat(void) {
    size_t n1 = 150000, n2 = 3000;
    unsigned char* src = xmalloc(n1 + n2);
    fill(src, n1 + n2, 11);
    size_t cap = ZSTD_compressBound(n1) + ZSTD_compressBound(n2) + 100;
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n1 + n2 + 10);
    size_t a = ZSTD_compress(c, cap, src, n1, 3);
    CHECK_OK(a, "frame 1");
    /* A skippable frame of 7 bytes between the two. */
    static const unsigned char skip[] = {0x53, 0x2A, 0x4D, 0x18, 7, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7};
    memcpy(c + a, skip, sizeof skip);
    size_t b = ZSTD_compress(c + a + sizeof skip, cap - a - sizeof skip, src + n1, n2, -1);
    CHECK_OK(b, "frame 2");
    size_t total = a + sizeof skip + b;

    CHECK(ZSTD_findFrameCompressedSize(c, total) == a, "first frame size");
    CHECK(ZSTD_findFrameCompressedSize(c + a, total - a) == sizeof skip, "skippable frame size");
    CHECK(ZSTD_getFrameContentSize(c + a, total - a) == 0, "skippable content size is 0: %llu",
          ZSTD_getFrameContentSize(c + a, total - a));
    size_t got = ZSTD_decompress(d, n1 + n2 + 10, c, total);
    CHECK(got == n1 + n2 && same(d, src, n1 + n2), "one-shot decodes all frames: %zu (%s)", got, ZSTD_getErrorName(got));

    /* One byte of input at a time, 17 bytes of output at a time. */
    ZSTD_DStream* ds = ZSTD_createDStream();
    CHECK(ZSTD_initDStream(ds) > 0, "initDStream hint");
    ZSTD_inBuffer in = {c, 0, 0};
    size_t produced = 0, ends = 0, r = 1;
    while (in.pos < total || r != 0) {
        if (in.size < total && in.pos == in.size) in.size++;
        ZSTD_outBuffer out = {d + produced, 17, 0};
        r = ZSTD_decompressStream(ds, &out, &in);
        produced += out.pos;
        if (ZSTD_isError(r)) break;
        if (r == 0) ends++;
        if (produced > n1 + n2) break;
    }
    CHECK_OK(r, "byte-wise decompressStream");
    CHECK(produced == n1 + n2 && same(d, src, n1 + n2), "byte-wise stream: %zu of %zu", produced, n1 + n2);
    CHECK(ends == 3, "three frame ends reported: %zu", ends);
    CHECK(ZSTD_sizeof_DStream(ds) > 0, "sizeof DStream");

    /* The window limit cannot change mid-frame. */
    CHECK_OK(ZSTD_DCtx_reset(ds, ZSTD_reset_session_only), "DStream reset");
    {
        ZSTD_inBuffer part = {c, 100, 0};
        ZSTD_outBuffer o = {d, n1, 0};
        size_t h = ZSTD_decompressStream(ds, &o, &part);
        CHECK(!ZSTD_isError(h) && h != 0, "partial frame: %s", ZSTD_getErrorName(h));
        CHECK_ERR(ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, 20), ZSTD_error_stage_wrong, "windowLogMax mid-frame");
        CHECK_ERR(ZSTD_DCtx_reset(ds, ZSTD_reset_parameters), ZSTD_error_stage_wrong, "DCtx reset parameters mid-frame");
        CHECK_OK(ZSTD_DCtx_reset(ds, ZSTD_reset_session_only), "DStream reset");
        CHECK_OK(ZSTD_DCtx_setParameter(ds, ZSTD_d_windowLogMax, 20), "windowLogMax between frames");
    }

    /* Truncated stream: no error, just a request for more. */
    CHECK_OK(ZSTD_DCtx_reset(ds, ZSTD_reset_session_only), "DStream reset");
    size_t last = 0;
    got = stream_decode(c, a - 10, d, n1, 1000, 1000, &last, 0);
    CHECK(!ZSTD_isError(got) && last != 0 && !ZSTD_isError(last), "truncated frame asks for more: %zu", last);
    ZSTD_freeDStream(ds);
    free(src);
    free(c);
    free(d);
}

static void test_errors(void) {
    size_t n = 20000;
    unsigned char* src = xmalloc(n);
    fill(src, n, 3);
    size_t cap = ZSTD_compressBound(n);
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n);
    size_t r = ZSTD_compress(c, 10, src, n, 1);
    CHECK_ERR(r, ZSTD_error_dstSize_tooSmall, "compress into 10 bytes");
    r = ZSTD_compress(NULL, 0, src, n, 1);
    CHECK_ERR(r, ZSTD_error_dstSize_tooSmall, "compress into nothing");
    size_t cs = ZSTD_compress(c, cap, src, n, 1);
    CHECK_OK(cs, "compress");
    r = ZSTD_decompress(d, n - 1, c, cs);
    CHECK_ERR(r, ZSTD_error_dstSize_tooSmall, "decompress into n-1 bytes");
    r = ZSTD_decompress(d, n, c, cs - 1);
    CHECK_ERR(r, ZSTD_error_srcSize_wrong, "truncated frame");
    CHECK_ERR(ZSTD_findFrameCompressedSize(c, cs - 1), ZSTD_error_srcSize_wrong, "size of truncated frame");

    unsigned char bad[32];
    memcpy(bad, c, sizeof bad);
    bad[0] ^= 1;
    CHECK_ERR(ZSTD_decompress(d, n, bad, sizeof bad), ZSTD_error_prefix_unknown, "bad magic");
    CHECK_ERR(ZSTD_findFrameCompressedSize(bad, sizeof bad), ZSTD_error_prefix_unknown, "size with bad magic");
    CHECK(ZSTD_getFrameContentSize(bad, sizeof bad) == ZSTD_CONTENTSIZE_ERROR, "content size with bad magic");
    CHECK(ZSTD_getFrameContentSize(c, 3) == ZSTD_CONTENTSIZE_ERROR, "content size of 3 bytes");

    /* A block of the reserved type 3. */
    static const unsigned char reserved[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x2F, 0x00, 0x00, 1, 2, 3, 4, 5};
    CHECK(ZSTD_getFrameContentSize(reserved, sizeof reserved) == 5, "tiny header");
    CHECK_ERR(ZSTD_decompress(d, n, reserved, sizeof reserved), ZSTD_error_corruption_detected, "reserved block type");

    /* Damage anywhere: an error or wrong bytes, never a crash. Damage in
     * the declared size is always caught. */
    for (size_t i = 4; i < cs; i += 7) {
        memcpy(d, c, cs);
        d[i] ^= 0xA5;
        unsigned char* out = xmalloc(n + 100);
        (void)ZSTD_decompress(out, n + 100, d, cs);
        free(out);
    }
    {
        unsigned char* e = xmalloc(cs);
        unsigned char* out = xmalloc(n + 100);
        memcpy(e, c, cs);
        /* First byte of the content size field (FHD, then window or FCS). */
        size_t fcs_at = (e[4] & 0x20) ? 5 : 6;
        e[fcs_at] ^= 0x01;
        r = ZSTD_decompress(out, n + 100, e, cs);
        CHECK(ZSTD_isError(r), "declared size changed by one: %zu", r);
        free(e);
        free(out);
    }
    /* Error names. */
    CHECK(strcmp(ZSTD_getErrorName(r), ZSTD_getErrorName(0)) != 0, "names differ");
    CHECK(ZSTD_getErrorCode(0) == ZSTD_error_no_error && !ZSTD_isError(0), "0 is no error");
    CHECK(ZSTD_isError((size_t)0 - ZSTD_error_dstSize_tooSmall), "error value");
    free(src);
    free(c);
    free(d);
}

static void test_large_window(void) {
    /* 1 MiB, window 2^20, size not declared: a DStream limited to 2^19 refuses it. */
    size_t n = 1 << 20;
    unsigned char* src = xmalloc(n);
    fill(src, n, 5);
    size_t cap = ZSTD_compressBound(n);
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n);
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 20), "windowLog 20");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0), "no content size");
    size_t cs = ZSTD_compress2(cc, c, cap, src, n);
    CHECK_OK(cs, "compress2");
    CHECK(header_window(c, cs) == n, "window %llu", header_window(c, cs));
    size_t last;
    size_t got = stream_decode(c, cs, d, n, 65536, 65536, &last, 19);
    CHECK_ERR(got, ZSTD_error_frameParameter_windowTooLarge, "window 2^20 over limit 2^19");
    got = stream_decode(c, cs, d, n, 65536, 65536, &last, 20);
    CHECK(got == n && last == 0 && same(d, src, n), "window 2^20 under limit 2^20: %zu", got);
    got = stream_decode(c, cs, d, n, 65536, 65536, &last, 0);
    CHECK(got == n && last == 0, "default limit");
    ZSTD_freeCCtx(cc);
    free(src);
    free(c);
    free(d);
}

static void test_misc(void) {
    CHECK(ZSTD_versionNumber() == ZSTD_VERSION_NUMBER, "version %u vs header %u", ZSTD_versionNumber(),
          (unsigned)ZSTD_VERSION_NUMBER);
    CHECK(ZSTD_versionNumber() / 10000 == 1 && ZSTD_versionNumber() / 100 % 100 == 5, "1.5.x: %u", ZSTD_versionNumber());
    CHECK(ZSTD_versionString() && ZSTD_versionString()[0], "version string");
    printf("version: %s (%u)\n", ZSTD_versionString(), ZSTD_versionNumber());
    CHECK(ZSTD_maxCLevel() == 22, "max level %d", ZSTD_maxCLevel());
    CHECK(ZSTD_defaultCLevel() == 3, "default level %d", ZSTD_defaultCLevel());
    CHECK(ZSTD_minCLevel() < 0, "min level %d", ZSTD_minCLevel());
    ZSTD_bounds b = ZSTD_cParam_getBounds(ZSTD_c_compressionLevel);
    CHECK(!ZSTD_isError(b.error) && b.lowerBound == ZSTD_minCLevel() && b.upperBound == ZSTD_maxCLevel(),
          "level bounds %d..%d", b.lowerBound, b.upperBound);
    b = ZSTD_cParam_getBounds(ZSTD_c_windowLog);
    CHECK(!ZSTD_isError(b.error) && b.lowerBound == 10 && b.upperBound == (sizeof(size_t) == 8 ? 31 : 30),
          "windowLog bounds %d..%d", b.lowerBound, b.upperBound);
    b = ZSTD_cParam_getBounds(ZSTD_c_checksumFlag);
    CHECK(!ZSTD_isError(b.error) && b.lowerBound == 0 && b.upperBound == 1, "checksum bounds");
    b = ZSTD_cParam_getBounds(ZSTD_c_contentSizeFlag);
    CHECK(!ZSTD_isError(b.error) && b.lowerBound == 0 && b.upperBound == 1, "content size bounds");
    b = ZSTD_cParam_getBounds((ZSTD_cParameter)999);
    CHECK(ZSTD_isError(b.error) && ZSTD_getErrorCode(b.error) == ZSTD_error_parameter_unsupported, "bounds of 999");
    CHECK(ZSTD_CStreamInSize() > 0 && ZSTD_CStreamOutSize() >= ZSTD_compressBound(ZSTD_BLOCKSIZE_MAX),
          "CStream sizes %zu %zu", ZSTD_CStreamInSize(), ZSTD_CStreamOutSize());
    CHECK(ZSTD_DStreamInSize() >= ZSTD_BLOCKSIZE_MAX && ZSTD_DStreamOutSize() >= ZSTD_BLOCKSIZE_MAX, "DStream sizes");
    CHECK(ZSTD_compressBound(0) > 0, "bound of 0");
    CHECK(ZSTD_getFrameContentSize(NULL, 0) == ZSTD_CONTENTSIZE_ERROR, "content size of nothing");
    {
        /* A frame written without a size (stream ended at once with no pledge
         * declares 0 or nothing; either way it decodes to nothing). */
        unsigned char f[64];
        size_t r = ZSTD_compress(f, sizeof f, "", 0, 1);
        CHECK_OK(r, "empty frame");
        CHECK(ZSTD_getFrameContentSize(f, r) == 0, "empty frame declares 0");
        CHECK(ZSTD_decompress(f + 32, 16, f, r) == 0, "empty frame decodes to 0 bytes");
    }
}

/* Every parameter of the stable API that setParameter takes has bounds; a
 * value within them is never out of bounds, one beyond them is clamped or
 * refused (zstd.h: "depending on parameter"). The exact values are checked
 * against libzstd by capi_bounds_check. */
static void test_parameter_bounds(void) {
    static const ZSTD_cParameter params[] = {
        ZSTD_c_compressionLevel, ZSTD_c_windowLog, ZSTD_c_hashLog, ZSTD_c_chainLog, ZSTD_c_searchLog,
        ZSTD_c_minMatch, ZSTD_c_targetLength, ZSTD_c_strategy, ZSTD_c_enableLongDistanceMatching,
        ZSTD_c_ldmHashLog, ZSTD_c_ldmMinMatch, ZSTD_c_ldmBucketSizeLog, ZSTD_c_ldmHashRateLog,
        ZSTD_c_contentSizeFlag, ZSTD_c_checksumFlag, ZSTD_c_dictIDFlag, ZSTD_c_nbWorkers, ZSTD_c_jobSize,
        ZSTD_c_overlapLog};
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    for (size_t i = 0; i < sizeof params / sizeof *params; i++) {
        ZSTD_cParameter p = params[i];
        size_t r = ZSTD_CCtx_setParameter(cc, p, 0);
        CHECK_OK(r, "setParameter(0) of a stable parameter");
        if (ZSTD_isError(r)) continue;
        ZSTD_bounds b = ZSTD_cParam_getBounds(p);
        CHECK(!ZSTD_isError(b.error) && b.lowerBound <= b.upperBound, "bounds of parameter %d: %d..%d (%s)", (int)p,
              b.lowerBound, b.upperBound, ZSTD_getErrorName(b.error));
        if (ZSTD_isError(b.error)) continue;
        r = ZSTD_CCtx_setParameter(cc, p, b.lowerBound);
        CHECK(ZSTD_getErrorCode(r) != ZSTD_error_parameter_outOfBound, "parameter %d at its lower bound", (int)p);
        r = ZSTD_CCtx_setParameter(cc, p, b.upperBound);
        CHECK(ZSTD_getErrorCode(r) != ZSTD_error_parameter_outOfBound, "parameter %d at its upper bound", (int)p);
        if (b.upperBound < 0x7fffffff) {
            r = ZSTD_CCtx_setParameter(cc, p, b.upperBound + 1);
            CHECK(ZSTD_isError(r) || r <= (size_t)b.upperBound, "parameter %d beyond its upper bound: %zu", (int)p, r);
        }
        CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_parameters), "reset parameters");
    }
    ZSTD_freeCCtx(cc);
}

/* The match finder's and long-distance matching's parameters: taken within
 * their bounds, refused beyond them, reported by getParameter, reset with
 * the parameters; frames written with them decode. */
static void test_match_parameters(void) {
    static const struct {
        ZSTD_cParameter p;
        int value, too_low, too_high;
    } cases[] = {
        {ZSTD_c_windowLog, 18, 9, 32},    {ZSTD_c_hashLog, 14, 5, 31},   {ZSTD_c_chainLog, 13, 5, 31},
        {ZSTD_c_searchLog, 3, -1, 31},    {ZSTD_c_minMatch, 6, 2, 8},    {ZSTD_c_targetLength, 24, -1, 131073},
        {ZSTD_c_strategy, ZSTD_lazy2, -1, 10},
        /* long-distance matching (ZSTD_ps_enable) and its parameters */
        {ZSTD_c_enableLongDistanceMatching, 1, -1, 3}, {ZSTD_c_ldmHashLog, 16, 5, 31},
        {ZSTD_c_ldmMinMatch, 32, 3, 4097},              {ZSTD_c_ldmBucketSizeLog, 4, -1, 9},
        {ZSTD_c_ldmHashRateLog, 5, -1, 26},
    };
    size_t n = 300000;
    unsigned char* src = xmalloc(n);
    fill(src, n, 21);
    size_t cap = ZSTD_compressBound(n);
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n);
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int v = -1;
        CHECK_OK(ZSTD_CCtx_getParameter(cc, cases[i].p, &v), "getParameter");
        CHECK(v == 0, "parameter %d starts at 0 (from the level): %d", (int)cases[i].p, v);
        CHECK(ZSTD_CCtx_setParameter(cc, cases[i].p, cases[i].value) == (size_t)cases[i].value, "parameter %d = %d",
              (int)cases[i].p, cases[i].value);
        CHECK_ERR(ZSTD_CCtx_setParameter(cc, cases[i].p, cases[i].too_low), ZSTD_error_parameter_outOfBound,
                  "below the bounds");
        CHECK_ERR(ZSTD_CCtx_setParameter(cc, cases[i].p, cases[i].too_high), ZSTD_error_parameter_outOfBound,
                  "beyond the bounds");
        CHECK_OK(ZSTD_CCtx_getParameter(cc, cases[i].p, &v), "getParameter");
        CHECK(v == cases[i].value, "parameter %d keeps %d after refusals: %d", (int)cases[i].p, cases[i].value, v);
    }
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0), "no content size");
    size_t r = ZSTD_compress2(cc, c, cap, src, n);
    CHECK_OK(r, "compress2 with every match parameter set");
    if (!ZSTD_isError(r)) {
        CHECK(header_window(c, r) == 1u << 18, "window 2^18: %llu", header_window(c, r));
        size_t got = ZSTD_decompress(d, n, c, r);
        CHECK(got == n && same(d, src, n), "decodes: %s", ZSTD_getErrorName(got));
    }
    /* Every strategy, forced at level 1, decodes. */
    for (int st = ZSTD_fast; st <= ZSTD_btultra2; st++) {
        CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_parameters), "reset parameters");
        CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1), "level 1");
        CHECK(ZSTD_CCtx_setParameter(cc, ZSTD_c_strategy, st) == (size_t)st, "strategy %d", st);
        r = ZSTD_compress2(cc, c, cap, src, n);
        CHECK_OK(r, "compress2 with a strategy");
        size_t got = ZSTD_isError(r) ? r : ZSTD_decompress(d, n, c, r);
        CHECK(got == n && same(d, src, n), "strategy %d decodes: %s", st, ZSTD_getErrorName(got));
    }
    CHECK_OK(ZSTD_CCtx_reset(cc, ZSTD_reset_parameters), "reset parameters");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int v = -1;
        CHECK_OK(ZSTD_CCtx_getParameter(cc, cases[i].p, &v), "getParameter");
        CHECK(v == 0, "parameter %d reset to 0: %d", (int)cases[i].p, v);
    }
    ZSTD_freeCCtx(cc);
    free(src);
    free(c);
    free(d);
}

/* What libzstd 1.5.4 does where zstd.h says nothing: a reset directive that
 * is none of the three is no error and does nothing; of two invalid buffers
 * (pos > size), decompressStream names the input, compressStream2 the
 * output. */
static void test_edge_cases(void) {
    size_t n = 100000;
    unsigned char* src = xmalloc(n);
    fill(src, n, 13);
    size_t cap = ZSTD_compressBound(n);
    unsigned char* c = xmalloc(cap);
    unsigned char* d = xmalloc(n);
    static const int bad_directives[] = {0, 4, 5, 7, -1};

    ZSTD_CCtx* cc = ZSTD_createCCtx();
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1), "checksum");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0), "no content size");
    CHECK_OK(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 17), "windowLog 17");
    size_t pos = 0;
    ZSTD_inBuffer in = {src, n / 2, 0};
    size_t r = drive(cc, &in, c, cap, &pos, 4096, ZSTD_e_continue);
    CHECK_OK(r, "first half");
    for (size_t i = 0; i < sizeof bad_directives / sizeof *bad_directives; i++) {
        r = ZSTD_CCtx_reset(cc, (ZSTD_ResetDirective)bad_directives[i]);
        CHECK(r == 0, "CCtx_reset(%d) mid-frame: %s", bad_directives[i], ZSTD_getErrorName(r));
    }
    /* The frame went on, with its parameters. */
    in.size = n;
    r = drive(cc, &in, c, cap, &pos, 4096, ZSTD_e_continue);
    if (!ZSTD_isError(r)) r = drive(cc, &in, c, cap, &pos, 4096, ZSTD_e_end);
    CHECK(r == 0, "frame after invalid resets: %s", ZSTD_getErrorName(r));
    CHECK(pos > 4 && (c[4] & 0x04) != 0, "checksum still on");
    CHECK(ZSTD_getFrameContentSize(c, pos) == ZSTD_CONTENTSIZE_UNKNOWN, "content size still off");
    size_t got = ZSTD_decompress(d, n, c, pos);
    CHECK(got == n && same(d, src, n), "frame across invalid resets decodes: %zu (%s)", got, ZSTD_getErrorName(got));
    size_t frame_size = pos;

    /* Invalid buffers, compression: output first, input alone. */
    {
        unsigned char ob[16];
        ZSTD_inBuffer bi = {src, 4, 5};
        ZSTD_outBuffer bo = {ob, 4, 5};
        CHECK_ERR(ZSTD_compressStream2(cc, &bo, &bi, ZSTD_e_continue), ZSTD_error_dstSize_tooSmall,
                  "compressStream2, both buffers invalid");
        ZSTD_outBuffer good = {ob, sizeof ob, 0};
        CHECK_ERR(ZSTD_compressStream2(cc, &good, &bi, ZSTD_e_continue), ZSTD_error_srcSize_wrong,
                  "compressStream2, input invalid");
        ZSTD_inBuffer none = {src, 0, 0};
        CHECK_ERR(ZSTD_compressStream2(cc, &bo, &none, ZSTD_e_continue), ZSTD_error_dstSize_tooSmall,
                  "compressStream2, output invalid");
    }
    ZSTD_freeCCtx(cc);

    ZSTD_DCtx* dc = ZSTD_createDCtx();
    CHECK_OK(ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 20), "windowLogMax 20");
    ZSTD_inBuffer din = {c, frame_size / 2, 0};
    ZSTD_outBuffer dout = {d, n, 0};
    r = ZSTD_decompressStream(dc, &dout, &din);
    CHECK(!ZSTD_isError(r) && r != 0, "first half of the frame: %s", ZSTD_getErrorName(r));
    for (size_t i = 0; i < sizeof bad_directives / sizeof *bad_directives; i++) {
        size_t rr = ZSTD_DCtx_reset(dc, (ZSTD_ResetDirective)bad_directives[i]);
        CHECK(rr == 0, "DCtx_reset(%d) mid-frame: %s", bad_directives[i], ZSTD_getErrorName(rr));
    }
    din.size = frame_size;
    while (!ZSTD_isError(r) && r != 0 && dout.pos < dout.size) r = ZSTD_decompressStream(dc, &dout, &din);
    CHECK(r == 0 && dout.pos == n && same(d, src, n), "decoding went on after invalid resets: %zu (%s)", dout.pos,
          ZSTD_getErrorName(r));
    /* The limit (2^10 < the frame's 2^17 window) stays through a reset with
     * another directive. */
    CHECK_OK(ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 10), "windowLogMax 10");
    CHECK_OK(ZSTD_DCtx_reset(dc, (ZSTD_ResetDirective)4), "DCtx_reset(4)");
    din.pos = 0;
    dout.pos = 0;
    r = ZSTD_decompressStream(dc, &dout, &din);
    CHECK_ERR(r, ZSTD_error_frameParameter_windowTooLarge, "windowLogMax kept through DCtx_reset(4)");

    /* Invalid buffers, decompression: input first, output alone. */
    {
        unsigned char ob[16];
        ZSTD_DCtx* fresh = ZSTD_createDCtx();
        ZSTD_inBuffer bi = {c, 4, 5};
        ZSTD_outBuffer bo = {ob, 4, 5};
        CHECK_ERR(ZSTD_decompressStream(fresh, &bo, &bi), ZSTD_error_srcSize_wrong,
                  "decompressStream, both buffers invalid");
        ZSTD_outBuffer good = {ob, sizeof ob, 0};
        CHECK_ERR(ZSTD_decompressStream(fresh, &good, &bi), ZSTD_error_srcSize_wrong, "decompressStream, input invalid");
        ZSTD_inBuffer gi = {c, 4, 0};
        CHECK_ERR(ZSTD_decompressStream(fresh, &bo, &gi), ZSTD_error_dstSize_tooSmall,
                  "decompressStream, output invalid");
        ZSTD_freeDCtx(fresh);
    }
    ZSTD_freeDCtx(dc);
    free(src);
    free(c);
    free(d);
}

static int write_file(const char* dir, const char* name, const void* p, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static unsigned char* read_file(const char* path, size_t* n) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    unsigned char* p = xmalloc(cap);
    size_t k;
    while ((k = fread(p + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            cap *= 2;
            p = realloc(p, cap);
            if (!p) exit(2);
        }
    }
    fclose(f);
    *n = len;
    return p;
}

#define SAMPLE_SIZE 700000

/* Frames of the sample, written by this build of the library, for the
 * system `zstd` to decode. */
static int write_frames(const char* dir) {
    size_t n = SAMPLE_SIZE;
    unsigned char* src = xmalloc(n);
    fill(src, n, 42);
    size_t cap = ZSTD_compressBound(n) + 1000;
    unsigned char* c = xmalloc(cap);
    if (write_file(dir, "sample.raw", src, n)) return -1;
    static const int levels[] = {-7, 1, 3, 9, 19};
    char name[64];
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        size_t cs = ZSTD_compress(c, cap, src, n, levels[i]);
        CHECK_OK(cs, "compress for file");
        snprintf(name, sizeof name, "out_level%d.zst", levels[i]);
        if (!ZSTD_isError(cs) && write_file(dir, name, c, cs)) return -1;
    }
    ZSTD_CCtx* cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 17);
    size_t cs = ZSTD_compress2(cc, c, cap, src, n);
    CHECK_OK(cs, "compress2 for file");
    if (!ZSTD_isError(cs) && write_file(dir, "out_checksum_w17.zst", c, cs)) return -1;
    /* A streamed frame with flushes. */
    size_t pos = 0;
    ZSTD_inBuffer in = {src, 0, 0};
    while (in.pos < n) {
        in.size = in.pos + 33333 < n ? in.pos + 33333 : n;
        size_t r = drive(cc, &in, c, cap, &pos, 777, ZSTD_e_continue);
        if (!ZSTD_isError(r)) r = drive(cc, &in, c, cap, &pos, 777, ZSTD_e_flush);
        CHECK_OK(r, "stream for file");
        if (ZSTD_isError(r)) return -1;
    }
    size_t r = drive(cc, &in, c, cap, &pos, 777, ZSTD_e_end);
    CHECK(r == 0, "end for file: %s", ZSTD_getErrorName(r));
    if (write_file(dir, "out_stream.zst", c, pos)) return -1;
    ZSTD_freeCCtx(cc);
    free(src);
    free(c);
    return 0;
}

/* Decodes the frames the system `zstd` wrote (DIR/ref*.zst, listed on the
 * command line) with this build, one-shot and streaming. */
static void verify_frames(const char* dir, int argc, char** argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/sample.raw", dir);
    size_t n = 0;
    unsigned char* raw = read_file(path, &n);
    CHECK(raw != NULL, "read %s", path);
    if (!raw) return;
    unsigned char* d = xmalloc(n + 1);
    for (int i = 0; i < argc; i++) {
        size_t cs = 0;
        unsigned char* c = read_file(argv[i], &cs);
        CHECK(c != NULL, "read %s", argv[i]);
        if (!c) continue;
        size_t got = ZSTD_decompress(d, n + 1, c, cs);
        CHECK(got == n && same(d, raw, n), "%s one-shot: %zu (%s)", argv[i], got, ZSTD_getErrorName(got));
        size_t last = 1;
        got = stream_decode(c, cs, d, n + 1, 4099, 8191, &last, 31);
        CHECK(got == n && last == 0 && same(d, raw, n), "%s streamed: %zu (%s)", argv[i], got, ZSTD_getErrorName(got));
        printf("decoded %s\n", argv[i]);
        free(c);
    }
    free(raw);
    free(d);
}

int main(int argc, char** argv) {
    if (argc >= 3 && strcmp(argv[1], "write") == 0) {
        if (write_frames(argv[2])) return 1;
    } else if (argc >= 3 && strcmp(argv[1], "verify") == 0) {
        verify_frames(argv[2], argc - 3, argv + 3);
    } else {
        test_misc();
        test_bound_limit();
        test_levels();
        test_contexts();
        test_stream_compress();
        test_stream_decompress_and_concat();
        test_errors();
        test_large_window();
        test_parameter_bounds();
        test_match_parameters();
        test_edge_cases();
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
