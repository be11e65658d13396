/* capi_bounds_check ZEST_SO LIBZSTD_SO
 *
 * Parameters and their bounds, zest_zstd against the system libzstd: both
 * shared libraries are loaded into this process (RTLD_LOCAL, so each keeps
 * its own ZSTD_* symbols) and asked the same questions.
 *
 * For every compression parameter id zest's ZSTD_CCtx_setParameter accepts
 * (tried with 0, "default"), ZSTD_cParam_getBounds must give libzstd's
 * bounds, and setting values at, beyond and far beyond them must give what
 * libzstd gives: the same error, or the same value, and then the same
 * value from ZSTD_CCtx_getParameter. zest may refuse with
 * parameter_unsupported a value libzstd accepts (parameters it does not
 * implement, capi/README.md), never the other way round, and never for the
 * parameters it implements. The same for the decompression parameters.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZEST_TEST_DLOPEN
#include "test_support.h"

/* The layouts and codes of libzstd's API, which both libraries share. */
typedef struct {
    size_t error;
    int lowerBound;
    int upperBound;
} bounds_t;
enum { err_parameter_unsupported = 40, err_parameter_outOfBound = 42 };
enum { reset_parameters = 2 };

typedef struct {
    const char* path;
    void* handle;
    unsigned (*isError)(size_t);
    int (*getErrorCode)(size_t);
    bounds_t (*cBounds)(int);
    bounds_t (*dBounds)(int);
    void* (*createCCtx)(void);
    size_t (*freeCCtx)(void*);
    size_t (*setC)(void*, int, int);
    size_t (*getC)(const void*, int, int*);
    size_t (*resetC)(void*, int);
    void* (*createDCtx)(void);
    size_t (*freeDCtx)(void*);
    size_t (*setD)(void*, int, int);
    size_t (*resetD)(void*, int);
} lib_t;

static int failures = 0;

static void load(lib_t* l, const char* path) {
    l->path = path;
    l->handle = open_library(path);
    LOAD(l, isError, "ZSTD_isError");
    LOAD(l, getErrorCode, "ZSTD_getErrorCode");
    LOAD(l, cBounds, "ZSTD_cParam_getBounds");
    LOAD(l, dBounds, "ZSTD_dParam_getBounds");
    LOAD(l, createCCtx, "ZSTD_createCCtx");
    LOAD(l, freeCCtx, "ZSTD_freeCCtx");
    LOAD(l, setC, "ZSTD_CCtx_setParameter");
    LOAD(l, getC, "ZSTD_CCtx_getParameter");
    LOAD(l, resetC, "ZSTD_CCtx_reset");
    LOAD(l, createDCtx, "ZSTD_createDCtx");
    LOAD(l, freeDCtx, "ZSTD_freeDCtx");
    LOAD(l, setD, "ZSTD_DCtx_setParameter");
    LOAD(l, resetD, "ZSTD_DCtx_reset");
}

/* A setParameter result, printable: "value N" or "error N". */
static const char* show(const lib_t* l, size_t r, char* buf, size_t n) {
    if (l->isError(r))
        snprintf(buf, n, "error %d", l->getErrorCode(r));
    else
        snprintf(buf, n, "value %zu", r);
    return buf;
}

/* The compression parameters zest implements: every value libzstd takes. */
static int implemented(int param) {
    static const int ids[] = {100, 101, 102, 103, 104, 105, 106, 107, 200, 201, 202, 400};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (ids[i] == param) return 1;
    return 0;
}

/* zest's answer to setting `value` must be libzstd's, or parameter_unsupported
 * where libzstd accepts the value (for a parameter zest does not implement). */
static void compare_set(const char* kind, int param, int value, const lib_t* z, size_t zr, const lib_t* r, size_t rr) {
    char a[64], b[64];
    int same = z->isError(zr) ? r->isError(rr) && z->getErrorCode(zr) == r->getErrorCode(rr) : !r->isError(rr) && zr == rr;
    int unsupported_for_zest = z->isError(zr) && z->getErrorCode(zr) == err_parameter_unsupported && !r->isError(rr) &&
                               !(strcmp(kind, "compression") == 0 && implemented(param));
    if (!same && !unsupported_for_zest) {
        fprintf(stderr, "%s parameter %d = %d: zest %s, libzstd %s\n", kind, param, value, show(z, zr, a, sizeof a),
                show(r, rr, b, sizeof b));
        failures++;
    }
}

/* The values to try for bounds lo..hi: in, at, just beyond and far beyond them. */
static int trial_values(int lo, int hi, int* v) {
    int n = 0;
    v[n++] = 0;
    v[n++] = 1;
    v[n++] = -1;
    v[n++] = lo;
    v[n++] = hi;
    v[n++] = lo + (hi - lo) / 2;
    if (lo > INT_MIN) v[n++] = lo - 1;
    if (hi < INT_MAX) v[n++] = hi + 1;
    v[n++] = INT_MIN;
    v[n++] = INT_MAX;
    return n;
}

static int check_params(const char* kind, const lib_t* z, const lib_t* r, int compression) {
    void* zc = compression ? z->createCCtx() : z->createDCtx();
    void* rc = compression ? r->createCCtx() : r->createDCtx();
    size_t (*zset)(void*, int, int) = compression ? z->setC : z->setD;
    size_t (*rset)(void*, int, int) = compression ? r->setC : r->setD;
    int checked = 0;
    /* Every id libzstd 1.5.4 defines is below 1100 (experimental ones included). */
    for (int p = 0; p < 1100; p++) {
        size_t z0 = zset(zc, p, 0);
        bounds_t zb = compression ? z->cBounds(p) : z->dBounds(p);
        if (z->isError(z0)) {
            /* Not taken: getBounds must not claim it is. */
            if (!z->isError(zb.error)) {
                fprintf(stderr, "%s parameter %d: bounds %d..%d, but setParameter(0) fails\n", kind, p, zb.lowerBound,
                        zb.upperBound);
                failures++;
            }
            continue;
        }
        checked++;
        bounds_t rb = compression ? r->cBounds(p) : r->dBounds(p);
        if (z->isError(zb.error) || r->isError(rb.error) || zb.lowerBound != rb.lowerBound ||
            zb.upperBound != rb.upperBound) {
            fprintf(stderr, "%s parameter %d: zest bounds %d..%d (error %d), libzstd %d..%d (error %d)\n", kind, p,
                    zb.lowerBound, zb.upperBound, z->isError(zb.error) ? z->getErrorCode(zb.error) : 0, rb.lowerBound,
                    rb.upperBound, r->isError(rb.error) ? r->getErrorCode(rb.error) : 0);
            failures++;
            continue;
        }
        int values[16];
        int n = trial_values(rb.lowerBound, rb.upperBound, values);
        int apart = 0;
        for (int i = 0; i < n; i++) {
            size_t zr = zset(zc, p, values[i]);
            size_t rr = rset(rc, p, values[i]);
            compare_set(kind, p, values[i], z, zr, r, rr);
            /* A value zest declines leaves the two contexts apart until reset. */
            if (z->isError(zr) && z->getErrorCode(zr) == err_parameter_unsupported && !r->isError(rr)) apart = 1;
            if (compression && !apart) {
                /* What is then in effect: the value taken, or the one before. */
                int zv = -1, rv = -1;
                size_t zg = z->getC(zc, p, &zv), rg = r->getC(rc, p, &rv);
                if (z->isError(zg) || r->isError(rg) || zv != rv) {
                    fprintf(stderr, "%s parameter %d after setting %d: zest gets %d (%s), libzstd %d (%s)\n", kind, p,
                            values[i], zv, z->isError(zg) ? "error" : "ok", rv, r->isError(rg) ? "error" : "ok");
                    failures++;
                }
            }
            /* (libzstd 1.5.4 itself returns rsyncable clamped to overlapLog's
             * bounds, beyond its own: the same value is no fault.) */
            if (!z->isError(zr) && zr > (size_t)rb.upperBound && rb.upperBound >= 0 && zr != rr) {
                fprintf(stderr, "%s parameter %d = %d: zest returns %zu, beyond its upper bound\n", kind, p, values[i],
                        zr);
                failures++;
            }
        }
        /* Back to the defaults, so that no setting leaks into the next id. */
        if (compression) {
            z->resetC(zc, reset_parameters);
            r->resetC(rc, reset_parameters);
        } else {
            z->resetD(zc, reset_parameters);
            r->resetD(rc, reset_parameters);
        }
    }
    if (compression) {
        z->freeCCtx(zc);
        r->freeCCtx(rc);
    } else {
        z->freeDCtx(zc);
        r->freeDCtx(rc);
    }
    printf("%s parameters taken by zest and checked: %d\n", kind, checked);
    return checked;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ZEST_SO LIBZSTD_SO\n", argv[0]);
        return 2;
    }
    lib_t z, r;
    load(&z, argv[1]);
    load(&r, argv[2]);
    if (z.cBounds == r.cBounds) {
        fprintf(stderr, "both paths give the same library\n");
        return 2;
    }
    /* The stable API has 19 compression parameters and 1 for decompression. */
    int nc = check_params("compression", &z, &r, 1);
    int nd = check_params("decompression", &z, &r, 0);
    if (nc < 19 || nd < 1) {
        fprintf(stderr, "too few parameters checked\n");
        failures++;
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
