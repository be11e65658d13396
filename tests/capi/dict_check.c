/* The dictionary calls of the zstd API, as a C client uses them: one
 * program built against zest's zstd.h (zest_zstd) and against libzstd,
 * which must pass the same. Takes a dictionary made by `zstd --train`
 * (argv[1]); messages are generated. Prints nothing on success but a
 * summary; exits 1 at the first failure. */
#define ZSTD_STATIC_LINKING_ONLY
#define ZSTD_DISABLE_DEPRECATE_WARNINGS /* the legacy initCStream/initDStream set-ups are tested too */
#include <zstd.h>
#include <zstd_errors.h>
#include <zdict.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond, ...)                                        \
    do {                                                        \
        if (!(cond)) {                                          \
            fprintf(stderr, "dict_check:%d: ", __LINE__);       \
            fprintf(stderr, __VA_ARGS__);                       \
            fprintf(stderr, "\n");                              \
            exit(1);                                            \
        }                                                       \
    } while (0)
#define CHECK_ZSTD(r) CHECK(!ZSTD_isError(r), "%s", ZSTD_getErrorName(r))

static unsigned long long rng_state = 12345;
static unsigned next_rand(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33);
}

/* A JSON log message of about `n` bytes. */
static size_t make_message(char* out, size_t n) {
    static const char* levels[] = {"info", "warn", "error", "debug"};
    static const char* paths[] = {"/api/v1/users", "/api/v1/orders", "/health", "/login", "/api/v2/search"};
    size_t len = 0;
    while (len + 200 < n) {
        len += (size_t)sprintf(out + len,
                               "{\"ts\":\"2024-01-%02u T%02u:%02u:%02u\",\"level\":\"%s\",\"path\":\"%s\","
                               "\"user\":%u,\"latency_ms\":%u,\"status\":%u}\n",
                               1 + next_rand() % 28, next_rand() % 24, next_rand() % 60, next_rand() % 60,
                               levels[next_rand() % 4], paths[next_rand() % 5], 10000 + next_rand() % 5000,
                               next_rand() % 900, next_rand() % 10 ? 200u : 503u);
    }
    return len;
}

static void* load_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    CHECK(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void* p = malloc((size_t)n + 1);
    CHECK(p && fread(p, 1, (size_t)n, f) == (size_t)n, "cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
    return p;
}

static void expect_same(const void* a, size_t an, const void* b, size_t bn, const char* what) {
    CHECK(an == bn && memcmp(a, b, an) == 0, "%s: decoded other bytes (%zu against %zu)", what, an, bn);
}

/* Streams `frame` through ZSTD_decompressStream in small pieces. */
static size_t stream_decode(ZSTD_DCtx* d, const char* frame, size_t fsize, char* out, size_t cap) {
    ZSTD_inBuffer in = {frame, 0, 0};
    ZSTD_outBuffer o = {out, 0, 0};
    size_t r = 1;
    while (in.pos < fsize || r != 0) {
        in.size = in.pos + 7 < fsize ? in.pos + 7 : fsize;
        o.size = o.pos + 13 < cap ? o.pos + 13 : cap;
        r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r)) return r;
        if (in.pos == fsize && r != 0 && o.pos == cap) break;
    }
    return o.pos;
}

/* Compresses with ZSTD_compressStream2 in small pieces. */
static size_t stream_encode(ZSTD_CCtx* c, const char* src, size_t n, char* out, size_t cap) {
    ZSTD_inBuffer in = {src, 0, 0};
    ZSTD_outBuffer o = {out, cap, 0};
    for (;;) {
        in.size = in.pos + 100 < n ? in.pos + 100 : n;
        const ZSTD_EndDirective e = in.size == n ? ZSTD_e_end : ZSTD_e_continue;
        size_t r = ZSTD_compressStream2(c, &o, &in, e);
        if (ZSTD_isError(r)) return r;
        if (e == ZSTD_e_end && r == 0) return o.pos;
    }
}

/* A call that never returns fails the program, with what it was doing. */
static const char* watched = "";
static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "dict_check: a call did not return within 120 s: ";
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, watched, strlen(watched)) < 0 || write(2, "\n", 1) < 0) {}
    _exit(1);
}
static void watch(const char* what) {
    watched = what;
    alarm(what ? 120 : 0);
}

/* Inputs of several blocks with a dictionary, as the CLI and most callers
 * hand them over: everything in one ZSTD_compressStream2(ZSTD_e_end) call,
 * or in pieces after ZSTD_CCtx_setPledgedSrcSize; loaded and referenced
 * (a known size above one block once never returned). */
static void large_inputs(const char* dict, size_t dsize, const ZSTD_CDict* cdict) {
    static const size_t sizes[] = {0, 1, 131071, 131072, 131073, 1u << 20};
    const size_t big = 1u << 20;
    char* src = malloc(big);
    size_t n = 0;
    while (n + 4400 < big) n += make_message(src + n, 4000);
    memset(src + n, 'x', big - n);
    const size_t cap = ZSTD_compressBound(big);
    char* frame = malloc(cap);
    char* out = malloc(big + 1);
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_DCtx* d = ZSTD_createDCtx();
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        for (int way = 0; way < 4; ++way) {
            const size_t size = sizes[k];
            CHECK_ZSTD(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters));
            CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1 + way * 5));
            if (way % 2 == 0)
                CHECK_ZSTD(ZSTD_CCtx_loadDictionary(c, dict, dsize));
            else
                CHECK_ZSTD(ZSTD_CCtx_refCDict(c, cdict));
            ZSTD_inBuffer in = {src, size, 0};
            ZSTD_outBuffer o = {frame, cap, 0};
            size_t r;
            if (way < 2) {
                watch("ZSTD_compressStream2(ZSTD_e_end) with all the input");
                r = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
                CHECK_ZSTD(r);
                CHECK(r == 0 && in.pos == size, "%zu bytes in one call with the end: %zu left", size, r);
            } else {
                watch("ZSTD_compressStream2 after ZSTD_CCtx_setPledgedSrcSize");
                CHECK_ZSTD(ZSTD_CCtx_setPledgedSrcSize(c, size));
                do {
                    in.size = in.pos + 50000 < size ? in.pos + 50000 : size;
                    r = ZSTD_compressStream2(c, &o, &in, in.size == size ? ZSTD_e_end : ZSTD_e_continue);
                    CHECK_ZSTD(r);
                } while (in.pos < size || r != 0);
            }
            watch(NULL);
            CHECK(ZSTD_getFrameContentSize(frame, o.pos) == size, "%zu bytes: content size not declared", size);
            r = ZSTD_decompress_usingDict(d, out, big + 1, frame, o.pos, dict, dsize);
            CHECK_ZSTD(r);
            expect_same(out, r, src, size, "several blocks with a dictionary");
        }
    }
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    free(src);
    free(frame);
    free(out);
}

int main(int argc, char** argv) {
    CHECK(argc == 2, "usage: dict_check DICTIONARY");
    size_t dsize = 0;
    char* dict = load_file(argv[1], &dsize);
    const unsigned id = ZSTD_getDictID_fromDict(dict, dsize);
    CHECK(id != 0, "the dictionary has no ID");
    CHECK(ZSTD_getDictID_fromDict("plain bytes, not a dictionary", 29) == 0, "raw content has an ID");

    ZSTD_CDict* cdict = ZSTD_createCDict(dict, dsize, 3);
    ZSTD_DDict* ddict = ZSTD_createDDict(dict, dsize);
    CHECK(cdict && ddict, "createCDict/createDDict failed");
    CHECK(ZSTD_getDictID_fromDDict(ddict) == id && ZSTD_getDictID_fromCDict(cdict) == id, "IDs differ");
    CHECK(ZSTD_sizeof_CDict(cdict) > 0 && ZSTD_sizeof_DDict(ddict) >= dsize, "sizeof");
    signal(SIGALRM, on_alarm);
    large_inputs(dict, dsize, cdict);
    ZSTD_DDict* ddict_ref = ZSTD_createDDict_byReference(dict, dsize);
    CHECK(ddict_ref && ZSTD_getDictID_fromDDict(ddict_ref) == id, "createDDict_byReference");
    /* A dictionary cut inside its tables is refused. */
    CHECK(ZSTD_createDDict(dict, 20) == NULL, "a truncated dictionary was accepted");
    ZSTD_DCtx* dbad = ZSTD_createDCtx();
    size_t bad = ZSTD_DCtx_loadDictionary(dbad, dict, 20);
    /* (zest says dictionary_corrupted; libzstd 1.5.4, memory_allocation.) */
    CHECK(ZSTD_isError(bad), "a truncated dictionary was loaded");
    ZSTD_freeDCtx(dbad);

    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_DCtx* d = ZSTD_createDCtx();
    const size_t cap = 1 << 16;
    char* msg = malloc(cap);
    char* frame = malloc(ZSTD_compressBound(cap));
    char* out = malloc(cap);
    size_t with_total = 0, without_total = 0;
    for (int i = 0; i < 40; ++i) {
        const size_t n = make_message(msg, 300 + next_rand() % 6000);
        const size_t fcap = ZSTD_compressBound(n);

        /* usingDict, both ways. */
        size_t f = ZSTD_compress_usingDict(c, frame, fcap, msg, n, dict, dsize, 1 + i % 9);
        CHECK_ZSTD(f);
        CHECK(ZSTD_getDictID_fromFrame(frame, f) == id, "frame ID");
        size_t r = ZSTD_decompress_usingDict(d, out, cap, frame, f, dict, dsize);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "usingDict");
        with_total += f;
        without_total += ZSTD_compress(frame + 0, fcap, msg, n, 1 + i % 9);

        /* Prepared dictionaries. */
        f = ZSTD_compress_usingCDict(c, frame, fcap, msg, n, cdict);
        CHECK_ZSTD(f);
        r = ZSTD_decompress_usingDDict(d, out, cap, frame, f, i % 2 ? ddict : ddict_ref);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "usingCDict/usingDDict");

        /* Wrong and missing dictionaries. */
        r = ZSTD_decompressDCtx(d, out, cap, frame, f);
        CHECK(ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_dictionary_wrong, "no dictionary: %s",
              ZSTD_getErrorName(r));
        r = ZSTD_decompress_usingDict(d, out, cap, frame, f, msg, 100);  /* raw content: ID 0 */
        CHECK(ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_dictionary_wrong, "raw dictionary: %s",
              ZSTD_getErrorName(r));

        /* Sticky dictionaries: loaded, referenced, streamed. */
        CHECK_ZSTD(ZSTD_CCtx_loadDictionary(c, dict, dsize));
        CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1));
        f = ZSTD_compress2(c, frame, fcap, msg, n);
        CHECK_ZSTD(f);
        CHECK_ZSTD(ZSTD_DCtx_loadDictionary(d, dict, dsize));
        r = ZSTD_decompressDCtx(d, out, cap, frame, f);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "CCtx/DCtx_loadDictionary");
        r = stream_decode(d, frame, f, out, cap);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "streamed with a loaded dictionary");

        CHECK_ZSTD(ZSTD_CCtx_refCDict(c, cdict));
        f = stream_encode(c, msg, n, frame, fcap);
        CHECK_ZSTD(f);
        CHECK(ZSTD_getDictID_fromFrame(frame, f) == id, "streamed frame ID");
        CHECK_ZSTD(ZSTD_DCtx_refDDict(d, ddict));
        r = stream_decode(d, frame, f, out, cap);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "refCDict/refDDict streamed");
        r = ZSTD_decompress_usingDict(d, out, cap, frame, f, dict, dsize);
        CHECK_ZSTD(r);

        /* Without the ID in the header. */
        CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 0));
        f = ZSTD_compress2(c, frame, fcap, msg, n);
        CHECK_ZSTD(f);
        CHECK(ZSTD_getDictID_fromFrame(frame, f) == 0, "dictIDFlag 0 wrote an ID");
        r = ZSTD_decompressDCtx(d, out, cap, frame, f);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "no ID in the frame");
        CHECK_ZSTD(ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, 1));

        /* A prefix serves one frame. */
        CHECK_ZSTD(ZSTD_CCtx_refCDict(c, NULL));
        CHECK_ZSTD(ZSTD_CCtx_refPrefix(c, msg, n / 2));
        f = ZSTD_compress2(c, frame, fcap, msg + n / 2, n - n / 2);
        CHECK_ZSTD(f);
        CHECK(ZSTD_getDictID_fromFrame(frame, f) == 0, "a prefix has no ID");
        CHECK_ZSTD(ZSTD_DCtx_refPrefix(d, msg, n / 2));
        r = ZSTD_decompressDCtx(d, out, cap, frame, f);
        CHECK_ZSTD(r);
        expect_same(out, r, msg + n / 2, n - n / 2, "refPrefix");
        /* The next frame has none: compressed alone, it decodes alone. */
        f = ZSTD_compress2(c, frame, fcap, msg + n / 2, n - n / 2);
        CHECK_ZSTD(f);
        r = ZSTD_decompress(out, cap, frame, f);
        CHECK_ZSTD(r);
        expect_same(out, r, msg + n / 2, n - n / 2, "after the prefix");

        /* Resetting the parameters drops the dictionary. */
        CHECK_ZSTD(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters));
        CHECK_ZSTD(ZSTD_DCtx_reset(d, ZSTD_reset_session_and_parameters));
    }
    /* The dictionary builder: trained on generated messages, finalized
     * from given content; both usable. */
    {
        const unsigned n_samples = 600;
        size_t* sizes = malloc(n_samples * sizeof(size_t));
        char* samples = malloc(n_samples * 1200);
        size_t total = 0;
        for (unsigned i = 0; i < n_samples; ++i) {
            sizes[i] = make_message(samples + total, 300 + next_rand() % 900);
            total += sizes[i];
        }
        char* trained = malloc(8192);
        size_t t = ZDICT_trainFromBuffer(trained, 8192, samples, sizes, n_samples);
        CHECK(!ZDICT_isError(t), "ZDICT_trainFromBuffer: %s", ZDICT_getErrorName(t));
        CHECK(t <= 8192 && ZDICT_getDictID(trained, t) != 0, "trained dictionary: size %zu", t);
        const size_t header = ZDICT_getDictHeaderSize(trained, t);
        CHECK(!ZDICT_isError(header) && header < t, "ZDICT_getDictHeaderSize");
        CHECK(ZDICT_isError(ZDICT_getDictHeaderSize(samples, 100)), "a header size for plain bytes");
        const size_t n = make_message(msg, 3000);
        size_t f = ZSTD_compress_usingDict(c, frame, ZSTD_compressBound(n), msg, n, trained, t, 3);
        CHECK_ZSTD(f);
        size_t r = ZSTD_decompress_usingDict(d, out, cap, frame, f, trained, t);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "trained dictionary");
        ZDICT_params_t zp;
        memset(&zp, 0, sizeof zp);
        zp.compressionLevel = 3;
        zp.dictID = 777;
        t = ZDICT_finalizeDictionary(trained, 8192, samples, 4000, samples, sizes, n_samples, zp);
        CHECK(!ZDICT_isError(t), "ZDICT_finalizeDictionary: %s", ZDICT_getErrorName(t));
        CHECK(ZDICT_getDictID(trained, t) == 777, "finalized ID %u", ZDICT_getDictID(trained, t));
        f = ZSTD_compress_usingDict(c, frame, ZSTD_compressBound(n), msg, n, trained, t, 3);
        CHECK_ZSTD(f);
        r = ZSTD_decompress_usingDict(d, out, cap, frame, f, trained, t);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "finalized dictionary");
        t = ZDICT_trainFromBuffer(trained, 8192, samples, sizes, 3);
        CHECK(ZDICT_isError(t), "trained on 3 samples");
        free(trained);
        free(samples);
        free(sizes);
    }
    /* Legacy streaming set-ups. */
    {
        const size_t n = make_message(msg, 5000);
        ZSTD_CStream* zcs = ZSTD_createCStream();
        CHECK_ZSTD(ZSTD_initCStream_usingDict(zcs, dict, dsize, 5));
        size_t f = stream_encode(zcs, msg, n, frame, ZSTD_compressBound(n));
        CHECK_ZSTD(f);
        ZSTD_DStream* zds = ZSTD_createDStream();
        CHECK_ZSTD(ZSTD_initDStream_usingDDict(zds, ddict));
        size_t r = stream_decode(zds, frame, f, out, cap);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "initCStream_usingDict / initDStream_usingDDict");
        CHECK_ZSTD(ZSTD_initCStream_usingCDict(zcs, cdict));
        f = stream_encode(zcs, msg, n, frame, ZSTD_compressBound(n));
        CHECK_ZSTD(f);
        CHECK_ZSTD(ZSTD_initDStream_usingDict(zds, dict, dsize));
        r = stream_decode(zds, frame, f, out, cap);
        CHECK_ZSTD(r);
        expect_same(out, r, msg, n, "initCStream_usingCDict / initDStream_usingDict");
        ZSTD_freeCStream(zcs);
        ZSTD_freeDStream(zds);
    }
    CHECK(with_total < without_total, "the dictionary does not pay: %zu against %zu", with_total,
          without_total);
    printf("dict_check: %s: 40 messages, %zu bytes with the dictionary, %zu without\n", ZSTD_versionString(),
           with_total, without_total);
    ZSTD_freeCDict(cdict);
    ZSTD_freeDDict(ddict);
    ZSTD_freeDDict(ddict_ref);
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
    free(msg);
    free(frame);
    free(out);
    free(dict);
    return 0;
}
