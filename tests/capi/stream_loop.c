/* stream_loop DIR
 *
 * The streaming decompression loop that zstd's users write (the reference's
 * examples/streaming_decompression.c, and most bindings): read a chunk of
 * the file, call ZSTD_decompressStream with an output buffer until the chunk
 * is consumed, write what came out, stop at the end of the file, and call
 * the stream truncated when the last return value is not 0. Built against
 * zest's zstd.h and against libzstd from the same source: both must restore
 * every case written by stream_cases (DIR/manifest) byte for byte, with
 * input chunks and output buffers from 1 byte to 1 MiB (and random sizes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef struct {
    size_t in;   /* bytes per read; 0: random 1..300 */
    size_t out;  /* output buffer per call; 0: random 1..300 */
    int large;   /* also run on the "large" cases */
    int medium;  /* also run on the "medium" cases */
} pattern_t;

static unsigned long long rng_state = 1;
static size_t random_size(void) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)(rng_state >> 33) % 300 + 1;
}

static unsigned char* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    unsigned char* data;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    data = (unsigned char*)malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* Decodes `path` with the usual loop; returns 0 when the output is `expected`. */
static int run_loop(const char* path, const unsigned char* expected, size_t expected_size, pattern_t p) {
    const size_t in_cap = p.in ? p.in : 300, out_cap = p.out ? p.out : 300;
    unsigned char* in_buf = (unsigned char*)malloc(in_cap);
    unsigned char* out_buf = (unsigned char*)malloc(out_cap);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    FILE* f = fopen(path, "rb");
    size_t produced = 0, last_ret = 0, read_size;
    int mismatch = 0, status = 1;
    if (!in_buf || !out_buf || !dctx || !f) {
        fprintf(stderr, "%s: cannot set up\n", path);
        goto done;
    }
    while ((read_size = fread(in_buf, 1, p.in ? p.in : random_size(), f)) > 0) {
        ZSTD_inBuffer input = {in_buf, read_size, 0};
        while (input.pos < input.size) {
            ZSTD_outBuffer output = {out_buf, p.out ? p.out : random_size(), 0};
            const size_t ret = ZSTD_decompressStream(dctx, &output, &input);
            if (ZSTD_isError(ret)) {
                fprintf(stderr, "%s: %s\n", path, ZSTD_getErrorName(ret));
                goto done;
            }
            /* "write what came out" */
            if (!mismatch && (produced + output.pos > expected_size ||
                              memcmp(expected + produced, out_buf, output.pos) != 0))
                mismatch = 1;
            produced += output.pos;
            last_ret = ret;
        }
    }
    if (last_ret != 0) {
        fprintf(stderr, "%s: EOF before end of stream: %zu (%zu of %zu bytes written)\n", path, last_ret, produced,
                expected_size);
        goto done;
    }
    if (mismatch || produced != expected_size) {
        fprintf(stderr, "%s: wrote %zu bytes, expected %zu%s\n", path, produced, expected_size,
                mismatch ? " (content differs)" : "");
        goto done;
    }
    status = 0;
done:
    if (f) fclose(f);
    ZSTD_freeDCtx(dctx);
    free(in_buf);
    free(out_buf);
    return status;
}

int main(int argc, char** argv) {
    /* in, out, large, medium: sizes from 1 byte to 1 MiB */
    const size_t IN = ZSTD_DStreamInSize(), OUT = ZSTD_DStreamOutSize(), MIB = (size_t)1 << 20;
    const pattern_t patterns[] = {
        {IN, OUT, 1, 1},       {MIB, MIB, 1, 1},     {IN, 4096, 1, 1},     {MIB, 1000, 1, 1},
        {1, OUT, 0, 1},        {IN, 1, 0, 1},        {1, 1, 0, 1},         {7, 13, 0, 1},
        {13, 7, 0, 1},         {4096, 4096, 0, 1},   {65536, 100000, 0, 1}, {100000, 65536, 0, 1},
        {MIB, 1, 0, 1},        {0, 0, 0, 1},         {0, OUT, 0, 1},       {IN, 0, 0, 1},
    };
    const size_t npatterns = sizeof patterns / sizeof patterns[0];
    char manifest[4096], line[512], path[4096];
    FILE* m;
    int failures = 0, runs = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: stream_loop DIR\n");
        return 2;
    }
    snprintf(manifest, sizeof manifest, "%s/manifest", argv[1]);
    m = fopen(manifest, "r");
    if (!m) {
        fprintf(stderr, "cannot read %s\n", manifest);
        return 2;
    }
    while (fgets(line, sizeof line, m)) {
        char name[256], cls[32];
        unsigned char* expected;
        size_t expected_size = 0, i;
        if (sscanf(line, "%255s %31s", name, cls) != 2) continue;
        snprintf(path, sizeof path, "%s/%s.raw", argv[1], name);
        expected = read_file(path, &expected_size);
        if (!expected) {
            fprintf(stderr, "cannot read %s\n", path);
            return 2;
        }
        snprintf(path, sizeof path, "%s/%s.zst", argv[1], name);
        for (i = 0; i < npatterns; ++i) {
            const pattern_t p = patterns[i];
            if (strcmp(cls, "large") == 0 ? !p.large : strcmp(cls, "medium") == 0 ? !p.medium : 0) continue;
            ++runs;
            if (run_loop(path, expected, expected_size, p) != 0) {
                fprintf(stderr, "  FAIL %s with reads of %zu and output buffers of %zu (0: random)\n", name, p.in,
                        p.out);
                ++failures;
            }
        }
        free(expected);
    }
    fclose(m);
    if (runs == 0) {
        fprintf(stderr, "no cases in %s\n", manifest);
        return 1;
    }
    printf("%d of %d loop runs decoded every byte\n", runs - failures, runs);
    return failures ? 1 : 0;
}
