/* workers_check: compression with ZSTD_c_nbWorkers as zstd's users write it:
 * ZSTD_compress2, the streaming loop of the reference's
 * examples/streaming_compression.c (ZSTD_e_continue until a chunk is taken,
 * then ZSTD_e_end until 0), and the same loop flushing every few chunks.
 * Built against zest's zstd.h and against libzstd, which must pass the same:
 * for each way, the frame is the same for every nbWorkers from 1 to 4
 * (libzstd promises it too), and every frame decodes to the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

static int failures = 0;
#define CHECK(cond, ...)                                \
    do {                                                \
        if (!(cond)) {                                  \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);               \
            fprintf(stderr, "\n");                      \
            ++failures;                                 \
        }                                               \
    } while (0)

/* Text-like input with repeats near and far. */
static unsigned char* make_input(size_t n) {
    static const char* words[] = {"zstd ", "frame ", "block ", "window ", "match ", "literal ", "offset ", "job "};
    unsigned char* p = (unsigned char*)malloc(n);
    unsigned long long x = 88172645463325252ull;
    size_t i = 0;
    if (!p) return NULL;
    while (i < n) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if ((x & 15) == 0 && i > 100000) {
            const size_t back = 1000 + (size_t)(x >> 20) % 90000, len = 50 + (size_t)(x >> 40) % 400;
            size_t k;
            for (k = 0; k < len && i < n; ++k, ++i) p[i] = p[i - back];
        } else {
            const char* w = words[(x >> 8) & 7];
            size_t k;
            for (k = 0; w[k] && i < n; ++k, ++i) p[i] = (unsigned char)w[k];
        }
    }
    return p;
}

static void set_up(ZSTD_CCtx* c, int workers) {
    size_t r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
    CHECK(!ZSTD_isError(r), "level: %s", ZSTD_getErrorName(r));
    r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    CHECK(!ZSTD_isError(r), "checksum: %s", ZSTD_getErrorName(r));
    r = ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, workers);
    CHECK(!ZSTD_isError(r), "nbWorkers %d: %s", workers, ZSTD_getErrorName(r));
    r = ZSTD_CCtx_setParameter(c, ZSTD_c_jobSize, 512 << 10);
    CHECK(!ZSTD_isError(r), "jobSize: %s", ZSTD_getErrorName(r));
}

/* The streaming loop; flush_every 0: never. Returns the frame's size. */
static size_t stream(ZSTD_CCtx* c, const unsigned char* in, size_t n, unsigned char* out, size_t cap,
                     int flush_every) {
    const size_t chunk = 100000;
    unsigned char buf[65536];
    size_t pos = 0, written = 0;
    int chunks = 0;
    for (;;) {
        const size_t take = n - pos < chunk ? n - pos : chunk;
        const int last = pos + take == n;
        const int flush = !last && flush_every && ++chunks % flush_every == 0;
        const ZSTD_EndDirective mode = last ? ZSTD_e_end : flush ? ZSTD_e_flush : ZSTD_e_continue;
        ZSTD_inBuffer input = {in + pos, take, 0};
        int finished;
        do {
            ZSTD_outBuffer output = {buf, sizeof buf, 0};
            const size_t remaining = ZSTD_compressStream2(c, &output, &input, mode);
            if (ZSTD_isError(remaining)) {
                CHECK(0, "compressStream2: %s", ZSTD_getErrorName(remaining));
                return 0;
            }
            if (written + output.pos > cap) {
                CHECK(0, "frame larger than its bound");
                return 0;
            }
            memcpy(out + written, buf, output.pos);
            written += output.pos;
            finished = mode == ZSTD_e_continue ? input.pos == input.size : remaining == 0;
        } while (!finished);
        pos += take;
        if (last) return written;
    }
}

static void expect_decodes(const unsigned char* frame, size_t size, const unsigned char* in, size_t n,
                           unsigned char* back, const char* what, int workers) {
    const size_t r = ZSTD_decompress(back, n + 1, frame, size);
    CHECK(!ZSTD_isError(r) && r == n && memcmp(back, in, n) == 0, "%s, %d workers: %s", what, workers,
          ZSTD_isError(r) ? ZSTD_getErrorName(r) : "wrong bytes");
}

int main(void) {
    const size_t n = (6u << 20) + 12345;
    unsigned char* in = make_input(n);
    const size_t cap = ZSTD_compressBound(n);
    unsigned char* first[3] = {malloc(cap), malloc(cap), malloc(cap)};
    size_t first_size[3] = {0, 0, 0};
    unsigned char* frame = malloc(cap);
    unsigned char* back = malloc(n + 1);
    static const char* ways[3] = {"ZSTD_compress2", "streaming loop", "streaming loop with flushes"};
    int w, way;
    if (!in || !first[0] || !first[1] || !first[2] || !frame || !back) return 2;
    alarm(600); /* a hang fails the test */
    for (w = 1; w <= 4; ++w) {
        for (way = 0; way < 3; ++way) {
            ZSTD_CCtx* c = ZSTD_createCCtx();
            size_t size;
            set_up(c, w);
            if (way == 0) {
                size = ZSTD_compress2(c, frame, cap, in, n);
                CHECK(!ZSTD_isError(size), "compress2: %s", ZSTD_getErrorName(size));
                if (ZSTD_isError(size)) size = 0;
            } else {
                size = stream(c, in, n, frame, cap, way == 2 ? 7 : 0);
            }
            ZSTD_freeCCtx(c);
            expect_decodes(frame, size, in, n, back, ways[way], w);
            if (w == 1) {
                memcpy(first[way], frame, size);
                first_size[way] = size;
            } else {
                CHECK(size == first_size[way] && memcmp(frame, first[way], size) == 0,
                      "%s: %d workers write another frame than 1 (%zu and %zu bytes)", ways[way], w, size,
                      first_size[way]);
            }
        }
    }
    {
        /* A dictionary loaded once and referenced by each context (its
         * content: the input's first 64 KiB, which the first job then
         * finds): the same frame for every worker count, smaller than
         * without it, decoded with it. */
        ZSTD_CDict* cd = ZSTD_createCDict(in, 64 << 10, 3);
        ZSTD_DCtx* d = ZSTD_createDCtx();
        size_t dict_first = 0;
        CHECK(cd && d, "createCDict or createDCtx");
        for (w = 1; cd && d && w <= 3; ++w) {
            for (way = 0; way < 2; ++way) {
                ZSTD_CCtx* c = ZSTD_createCCtx();
                size_t size, r;
                set_up(c, w);
                r = ZSTD_CCtx_refCDict(c, cd);
                CHECK(!ZSTD_isError(r), "refCDict: %s", ZSTD_getErrorName(r));
                if (way == 0) {
                    size = ZSTD_compress2(c, frame, cap, in, n);
                    CHECK(!ZSTD_isError(size), "compress2 with a dictionary: %s", ZSTD_getErrorName(size));
                    if (ZSTD_isError(size)) size = 0;
                } else {
                    size = stream(c, in, n, frame, cap, 0);
                }
                ZSTD_freeCCtx(c);
                r = ZSTD_decompress_usingDict(d, back, n + 1, frame, size, in, 64 << 10);
                CHECK(!ZSTD_isError(r) && r == n && memcmp(back, in, n) == 0, "%s with a dictionary, %d workers: %s",
                      ways[way], w, ZSTD_isError(r) ? ZSTD_getErrorName(r) : "wrong bytes");
                CHECK(size < first_size[way], "%s: %zu bytes with a dictionary, %zu without", ways[way], size,
                      first_size[way]);
                if (way == 0 && w == 1) {
                    memcpy(first[2], frame, size);
                    dict_first = size;
                } else if (way == 0) {
                    CHECK(size == dict_first && memcmp(frame, first[2], size) == 0,
                          "with a dictionary, %d workers write another frame than 1", w);
                }
            }
        }
        ZSTD_freeCDict(cd);
        ZSTD_freeDCtx(d);
    }
    printf("%s: %s (frames of %zu, %zu and %zu bytes)\n", ZSTD_versionString(),
           failures ? "FAILED" : "same frames for 1 to 4 workers", first_size[0], first_size[1], first_size[2]);
    free(in);
    free(first[0]);
    free(first[1]);
    free(first[2]);
    free(frame);
    free(back);
    return failures ? 1 : 0;
}
