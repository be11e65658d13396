/* Small helpers shared by the C test programs of tests/capi, each part
 * asked for by a macro before the include: ZEST_TEST_DLOPEN, loading a
 * shared library's ZSTD_* functions with dlopen (programs that compare zest
 * with libzstd in one process); ZEST_TEST_STREAMS, the cases and buffer
 * patterns of the streaming-decompression contract (stream_loop.c,
 * stream_diff.c). Header-only: each program includes it once. */
#ifndef ZEST_TESTS_CAPI_SUPPORT_H
#define ZEST_TESTS_CAPI_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ZEST_TEST_DLOPEN
#include <dlfcn.h>

/* Opens `path` with its own ZSTD_* symbols (RTLD_LOCAL); exits on failure. */
static void* open_library(const char* path) {
    void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        exit(2);
    }
    return handle;
}

static void* library_symbol(void* handle, const char* path, const char* name) {
    void* p = dlsym(handle, name);
    if (!p) {
        fprintf(stderr, "%s: no %s\n", path, name);
        exit(2);
    }
    return p;
}

/* Loads `name` into the function pointer `field` of `l` (a struct with
 * `handle` and `path`): from dlsym's data pointer, as POSIX lets it convert. */
#define LOAD(l, field, name)                                          \
    do {                                                              \
        void* p_ = library_symbol((l)->handle, (l)->path, name);      \
        memcpy(&(l)->field, &p_, sizeof p_);                          \
    } while (0)
#endif

#ifdef ZEST_TEST_STREAMS
/* The whole file at `path` (malloc'ed, one spare byte), or NULL. */
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

/* Buffer sizes of a streaming run: bytes per read and output room per call
 * (0: random, 1..300, drawn anew each time); which case classes it runs on
 * (stream_cases.cpp: "small" cases run every pattern). */
typedef struct {
    size_t in, out;
    int large, medium;
} pattern_t;

static unsigned long long rng_state = 1;

/* n, or a random size of 1..300 when n is 0. */
static size_t pick(size_t n) {
    if (n) return n;
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (size_t)(rng_state >> 33) % 300 + 1;
}

/* The patterns, from 1 byte to 1 MiB; `in_size`/`out_size` are the
 * library's recommended sizes. Returns their number. */
static size_t stream_patterns(pattern_t* p, size_t in_size, size_t out_size) {
    const size_t MIB = (size_t)1 << 20;
    const pattern_t all[] = {
        {in_size, out_size, 1, 1}, {MIB, MIB, 1, 1},       {in_size, 4096, 1, 1},    {MIB, 1000, 1, 1},
        {1, out_size, 0, 1},       {in_size, 1, 0, 1},     {1, 1, 0, 1},             {7, 13, 0, 1},
        {13, 7, 0, 1},             {4096, 4096, 0, 1},     {65536, 100000, 0, 1},    {100000, 65536, 0, 1},
        {MIB, 1, 0, 1},            {0, 0, 0, 1},           {0, out_size, 0, 1},      {in_size, 0, 0, 1},
    };
    memcpy(p, all, sizeof all);
    return sizeof all / sizeof all[0];
}

/* Whether pattern `p` runs on a case of class `cls`. */
static int pattern_runs_on(const pattern_t* p, const char* cls) {
    if (strcmp(cls, "large") == 0) return p->large;
    if (strcmp(cls, "medium") == 0) return p->medium;
    return 1;
}

/* Reads the next "NAME CLASS" line of a manifest; 0 at its end. */
static int next_case(FILE* manifest, char name[256], char cls[32]) {
    char line[512];
    while (fgets(line, sizeof line, manifest))
        if (sscanf(line, "%255s %31s", name, cls) == 2) return 1;
    return 0;
}

/* DIR/NAME.EXT read whole; exits when it cannot be. */
static unsigned char* read_case_file(const char* dir, const char* name, const char* ext, size_t* size) {
    char path[4096];
    unsigned char* data;
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    data = read_file(path, size);
    if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    return data;
}
#endif

#endif
