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

#define ZEST_TEST_STREAMS
#include "test_support.h"

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
    while ((read_size = fread(in_buf, 1, pick(p.in), f)) > 0) {
        ZSTD_inBuffer input = {in_buf, read_size, 0};
        while (input.pos < input.size) {
            ZSTD_outBuffer output = {out_buf, pick(p.out), 0};
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
    pattern_t patterns[32];
    const size_t npatterns = stream_patterns(patterns, ZSTD_DStreamInSize(), ZSTD_DStreamOutSize());
    char manifest[4096], name[256], cls[32], path[4096];
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
    while (next_case(m, name, cls)) {
        size_t expected_size = 0, i;
        unsigned char* expected = read_case_file(argv[1], name, "raw", &expected_size);
        snprintf(path, sizeof path, "%s/%s.zst", argv[1], name);
        for (i = 0; i < npatterns; ++i) {
            if (!pattern_runs_on(&patterns[i], cls)) continue;
            ++runs;
            if (run_loop(path, expected, expected_size, patterns[i]) != 0) {
                fprintf(stderr, "  FAIL %s with reads of %zu and output buffers of %zu (0: random)\n", name,
                        patterns[i].in, patterns[i].out);
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
