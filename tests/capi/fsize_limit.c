/* capi_fsize_limit: streaming compression under a file-size limit.
 *
 * A process may run with a small RLIMIT_FSIZE (`ulimit -f 4096`); a library
 * that backs its buffers with a file (memfd_create and ftruncate did) then
 * has the process killed by SIGXFSZ on its first streaming call. Here the
 * limit is 64 KiB, far below every window, SIGXFSZ keeps its default action
 * (death), and 5 bytes, then 3 MB, go through ZSTD_compressStream2 at levels
 * 1, 3 and 19 without a declared size; every frame must decode back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <zstd.h>

static int roundtrip(int level, const unsigned char* src, size_t n) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    size_t cap = ZSTD_compressBound(n), done = 0, r;
    unsigned char* frame = (unsigned char*)malloc(cap);
    unsigned char* back = (unsigned char*)malloc(n + 1);
    ZSTD_inBuffer in;
    ZSTD_outBuffer out;
    int ok = 0;
    if (!c || !frame || !back) return 0;
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    /* The size is not known when the stream starts: the window buffer is full size. */
    in.src = src;
    in.size = n;
    in.pos = 0;
    out.dst = frame;
    out.size = cap;
    out.pos = 0;
    while (in.pos < in.size) {
        r = ZSTD_compressStream2(c, &out, &in, ZSTD_e_continue);
        if (ZSTD_isError(r)) goto done;
    }
    do {
        r = ZSTD_compressStream2(c, &out, &in, ZSTD_e_end);
        if (ZSTD_isError(r)) goto done;
    } while (r != 0);
    done = ZSTD_decompress(back, n + 1, frame, out.pos);
    ok = !ZSTD_isError(done) && done == n && memcmp(back, src, n) == 0;
done:
    if (!ok) fprintf(stderr, "level %d, %zu bytes: round trip failed\n", level, n);
    ZSTD_freeCCtx(c);
    free(frame);
    free(back);
    return ok;
}

int main(void) {
    static const int levels[] = {1, 3, 19};
    const size_t big = 3000000;
    unsigned char* data = (unsigned char*)malloc(big);
    struct rlimit lim;
    size_t i;
    int failures = 0;
    if (!data) return 2;
    for (i = 0; i < big; ++i) data[i] = (unsigned char)("zest streams "[i % 13] + (i / 7919) % 3);
    lim.rlim_cur = lim.rlim_max = 64 * 1024;
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        perror("setrlimit");
        return 2;
    }
    for (i = 0; i < sizeof levels / sizeof levels[0]; ++i) {
        failures += !roundtrip(levels[i], (const unsigned char*)"hello", 5);
        failures += !roundtrip(levels[i], data, big);
    }
    free(data);
    if (failures) return 1;
    printf("streaming compression under a 64 KiB file-size limit: 6 round trips\n");
    return 0;
}
