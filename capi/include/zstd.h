/* zest — a zstd-compatible C API over the zest library.
 *
 * Declares the part of libzstd's stable API that zest implements, with the
 * same names, signatures, enum values, struct layouts and return conventions:
 * functions returning size_t report errors as values for which ZSTD_isError()
 * is true; ZSTD_getErrorCode() (zstd_errors.h) gives their ZSTD_ErrorCode.
 * Link with zest_zstd (static or shared). See capi/README.md for what differs.
 */
#ifndef ZEST_ZSTD_H
#define ZEST_ZSTD_H

#include <stddef.h>

#include "zstd_errors.h"

#if defined(__GNUC__) || defined(__clang__)
#  define ZSTDLIB_API __attribute__((visibility("default")))
#else
#  define ZSTDLIB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The zstd API level implemented: 1.5.4, the release zest is tested against.
 * ZSTD_versionString() names zest's own version. */
#define ZSTD_VERSION_MAJOR 1
#define ZSTD_VERSION_MINOR 5
#define ZSTD_VERSION_RELEASE 4
#define ZSTD_VERSION_NUMBER (ZSTD_VERSION_MAJOR * 100 * 100 + ZSTD_VERSION_MINOR * 100 + ZSTD_VERSION_RELEASE)
#define ZSTD_VERSION_STRING "1.5.4"
#define ZEST_ZSTD_API 1 /* lets a program tell this header from libzstd's */

ZSTDLIB_API unsigned ZSTD_versionNumber(void);
ZSTDLIB_API const char* ZSTD_versionString(void);

#define ZSTD_CLEVEL_DEFAULT 3
#define ZSTD_MAGICNUMBER 0xFD2FB528
#define ZSTD_MAGIC_SKIPPABLE_START 0x184D2A50
#define ZSTD_MAGIC_SKIPPABLE_MASK 0xFFFFFFF0
#define ZSTD_BLOCKSIZELOG_MAX 17
#define ZSTD_BLOCKSIZE_MAX (1 << ZSTD_BLOCKSIZELOG_MAX)

/* ---- One-shot ----------------------------------------------------------- */

/* Compresses src into one frame (content size declared, no checksum).
 * Returns the frame's size or an error (dstSize_tooSmall when dst cannot
 * hold it; a capacity of ZSTD_compressBound(srcSize) always suffices). */
ZSTDLIB_API size_t ZSTD_compress(void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                                 int compressionLevel);

/* Decodes every frame of src (Zstandard and skippable, concatenated) into
 * dst. Returns the number of bytes written or an error. */
ZSTDLIB_API size_t ZSTD_decompress(void* dst, size_t dstCapacity, const void* src, size_t compressedSize);

#define ZSTD_CONTENTSIZE_UNKNOWN (0ULL - 1)
#define ZSTD_CONTENTSIZE_ERROR (0ULL - 2)
/* Content size declared by the first frame's header; 0 for a skippable
 * frame, ZSTD_CONTENTSIZE_UNKNOWN when not declared, ZSTD_CONTENTSIZE_ERROR
 * when src does not start with a whole, valid frame header. */
ZSTDLIB_API unsigned long long ZSTD_getFrameContentSize(const void* src, size_t srcSize);

/* Size of the first frame (or skippable frame) in src, or an error. */
ZSTDLIB_API size_t ZSTD_findFrameCompressedSize(const void* src, size_t srcSize);

/* Worst-case compressed size of srcSize bytes (same formula as libzstd):
 * the macro gives 0, and the function srcSize_wrong, from ZSTD_MAX_INPUT_SIZE on. */
#define ZSTD_MAX_INPUT_SIZE ((sizeof(size_t) == 8) ? 0xFF00FF00FF00FF00LLU : 0xFF00FF00U)
#define ZSTD_COMPRESSBOUND(srcSize)                                                              \
    (((size_t)(srcSize) >= ZSTD_MAX_INPUT_SIZE)                                                  \
         ? 0                                                                                     \
         : (srcSize) + ((srcSize) >> 8) +                                                        \
               (((srcSize) < (128 << 10)) ? (((128 << 10) - (srcSize)) >> 11) : 0))
ZSTDLIB_API size_t ZSTD_compressBound(size_t srcSize);

ZSTDLIB_API unsigned ZSTD_isError(size_t code);
ZSTDLIB_API const char* ZSTD_getErrorName(size_t code);
ZSTDLIB_API int ZSTD_minCLevel(void);
ZSTDLIB_API int ZSTD_maxCLevel(void);
ZSTDLIB_API int ZSTD_defaultCLevel(void);

/* ---- Contexts ----------------------------------------------------------- */

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
ZSTDLIB_API ZSTD_CCtx* ZSTD_createCCtx(void);
ZSTDLIB_API size_t ZSTD_freeCCtx(ZSTD_CCtx* cctx); /* NULL is accepted */

/* Like ZSTD_compress() with a reusable context: uses compressionLevel and
 * the default frame options, ignoring parameters set on the context (which
 * it leaves in place). */
ZSTDLIB_API size_t ZSTD_compressCCtx(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src,
                                     size_t srcSize, int compressionLevel);

typedef struct ZSTD_DCtx_s ZSTD_DCtx;
ZSTDLIB_API ZSTD_DCtx* ZSTD_createDCtx(void);
ZSTDLIB_API size_t ZSTD_freeDCtx(ZSTD_DCtx* dctx); /* NULL is accepted */
ZSTDLIB_API size_t ZSTD_decompressDCtx(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src,
                                       size_t srcSize);

/* ---- Advanced parameters ------------------------------------------------ */

typedef enum {
    ZSTD_fast = 1,
    ZSTD_dfast = 2,
    ZSTD_greedy = 3,
    ZSTD_lazy = 4,
    ZSTD_lazy2 = 5,
    ZSTD_btlazy2 = 6,
    ZSTD_btopt = 7,
    ZSTD_btultra = 8,
    ZSTD_btultra2 = 9
} ZSTD_strategy;

/* All of libzstd's parameter ids are listed so that programs compile; zest
 * implements compressionLevel, windowLog, hashLog, chainLog, searchLog,
 * minMatch, targetLength, strategy, contentSizeFlag, checksumFlag and
 * dictIDFlag, and takes nbWorkers in libzstd's range but compresses on the
 * calling thread. The other stable ids (long-distance matching, jobSize,
 * overlapLog) accept 0 ("default"), refuse values beyond libzstd's bounds as
 * libzstd does, and other values with parameter_unsupported.
 * ZSTD_cParam_getBounds gives libzstd's bounds. */
typedef enum {
    ZSTD_c_compressionLevel = 100,
    ZSTD_c_windowLog = 101,
    ZSTD_c_hashLog = 102,
    ZSTD_c_chainLog = 103,
    ZSTD_c_searchLog = 104,
    ZSTD_c_minMatch = 105,
    ZSTD_c_targetLength = 106,
    ZSTD_c_strategy = 107,
    ZSTD_c_enableLongDistanceMatching = 160,
    ZSTD_c_ldmHashLog = 161,
    ZSTD_c_ldmMinMatch = 162,
    ZSTD_c_ldmBucketSizeLog = 163,
    ZSTD_c_ldmHashRateLog = 164,
    ZSTD_c_contentSizeFlag = 200,
    ZSTD_c_checksumFlag = 201,
    ZSTD_c_dictIDFlag = 202,
    ZSTD_c_nbWorkers = 400,
    ZSTD_c_jobSize = 401,
    ZSTD_c_overlapLog = 402,
    ZSTD_c_experimentalParam1 = 500,
    ZSTD_c_experimentalParam2 = 10,
    ZSTD_c_experimentalParam3 = 1000,
    ZSTD_c_experimentalParam4 = 1001,
    ZSTD_c_experimentalParam5 = 1002,
    ZSTD_c_experimentalParam6 = 1003,
    ZSTD_c_experimentalParam7 = 1004,
    ZSTD_c_experimentalParam8 = 1005,
    ZSTD_c_experimentalParam9 = 1006,
    ZSTD_c_experimentalParam10 = 1007,
    ZSTD_c_experimentalParam11 = 1008,
    ZSTD_c_experimentalParam12 = 1009,
    ZSTD_c_experimentalParam13 = 1010,
    ZSTD_c_experimentalParam14 = 1011,
    ZSTD_c_experimentalParam15 = 1012,
    ZSTD_c_experimentalParam16 = 1013,
    ZSTD_c_experimentalParam17 = 1014,
    ZSTD_c_experimentalParam18 = 1015,
    ZSTD_c_experimentalParam19 = 1016
} ZSTD_cParameter;

typedef struct {
    size_t error;   /* an error code when the parameter is unknown, else 0 */
    int lowerBound; /* inclusive */
    int upperBound; /* inclusive */
} ZSTD_bounds;

ZSTDLIB_API ZSTD_bounds ZSTD_cParam_getBounds(ZSTD_cParameter cParam);

/* Sets a sticky parameter, used by the next frame started with
 * ZSTD_compress2() or the streaming calls. Returns the value in effect or an
 * error (stage_wrong while a frame is in progress, except for the level,
 * hashLog, chainLog, searchLog, minMatch, targetLength and strategy, which
 * then apply from the next frame, as in libzstd). */
ZSTDLIB_API size_t ZSTD_CCtx_setParameter(ZSTD_CCtx* cctx, ZSTD_cParameter param, int value);

/* Declares the size of the next frame (only between frames). The frame
 * fails with srcSize_wrong if its input turns out longer or shorter. */
ZSTDLIB_API size_t ZSTD_CCtx_setPledgedSrcSize(ZSTD_CCtx* cctx, unsigned long long pledgedSrcSize);

typedef enum {
    ZSTD_reset_session_only = 1,
    ZSTD_reset_parameters = 2,
    ZSTD_reset_session_and_parameters = 3
} ZSTD_ResetDirective;

ZSTDLIB_API size_t ZSTD_CCtx_reset(ZSTD_CCtx* cctx, ZSTD_ResetDirective reset);

/* One frame with the context's sticky parameters (any pledged size and
 * frame in progress are dropped first). */
ZSTDLIB_API size_t ZSTD_compress2(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src,
                                  size_t srcSize);

typedef enum {
    ZSTD_d_windowLogMax = 100,
    ZSTD_d_experimentalParam1 = 1000,
    ZSTD_d_experimentalParam2 = 1001,
    ZSTD_d_experimentalParam3 = 1002,
    ZSTD_d_experimentalParam4 = 1003,
    ZSTD_d_experimentalParam5 = 1004
} ZSTD_dParameter;

ZSTDLIB_API ZSTD_bounds ZSTD_dParam_getBounds(ZSTD_dParameter dParam);
/* ZSTD_d_windowLogMax: 10..31, 0 = default (27). Applies to streaming
 * decompression; one-shot calls decode into the caller's buffer and accept
 * any window the format allows. */
ZSTDLIB_API size_t ZSTD_DCtx_setParameter(ZSTD_DCtx* dctx, ZSTD_dParameter param, int value);
ZSTDLIB_API size_t ZSTD_DCtx_reset(ZSTD_DCtx* dctx, ZSTD_ResetDirective reset);

/* ---- Streaming ---------------------------------------------------------- */

typedef struct ZSTD_inBuffer_s {
    const void* src; /* start of the input */
    size_t size;     /* its size */
    size_t pos;      /* bytes consumed so far; updated by the call */
} ZSTD_inBuffer;

typedef struct ZSTD_outBuffer_s {
    void* dst;   /* start of the output */
    size_t size; /* its size */
    size_t pos;  /* bytes written so far; updated by the call */
} ZSTD_outBuffer;

typedef ZSTD_CCtx ZSTD_CStream;
ZSTDLIB_API ZSTD_CStream* ZSTD_createCStream(void);
ZSTDLIB_API size_t ZSTD_freeCStream(ZSTD_CStream* zcs);

typedef enum {
    ZSTD_e_continue = 0, /* take input, emit whole blocks when ready */
    ZSTD_e_flush = 1,    /* also emit what is buffered: all input so far becomes decodable */
    ZSTD_e_end = 2       /* emit everything and close the frame */
} ZSTD_EndDirective;

/* Returns how many bytes are still waiting to be written (0: the flush or
 * frame end is complete), or an error. */
ZSTDLIB_API size_t ZSTD_compressStream2(ZSTD_CCtx* cctx, ZSTD_outBuffer* output, ZSTD_inBuffer* input,
                                        ZSTD_EndDirective endOp);

ZSTDLIB_API size_t ZSTD_CStreamInSize(void);
ZSTDLIB_API size_t ZSTD_CStreamOutSize(void);

/* Legacy streaming calls, kept for existing programs. */
ZSTDLIB_API size_t ZSTD_initCStream(ZSTD_CStream* zcs, int compressionLevel);
ZSTDLIB_API size_t ZSTD_compressStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output, ZSTD_inBuffer* input);
ZSTDLIB_API size_t ZSTD_flushStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output);
ZSTDLIB_API size_t ZSTD_endStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output);

typedef ZSTD_DCtx ZSTD_DStream;
ZSTDLIB_API ZSTD_DStream* ZSTD_createDStream(void);
ZSTDLIB_API size_t ZSTD_freeDStream(ZSTD_DStream* zds);
ZSTDLIB_API size_t ZSTD_initDStream(ZSTD_DStream* zds);

/* Returns 0 when a frame has been completely decoded and flushed, else a
 * hint for the next input size, or an error. */
ZSTDLIB_API size_t ZSTD_decompressStream(ZSTD_DStream* zds, ZSTD_outBuffer* output, ZSTD_inBuffer* input);

ZSTDLIB_API size_t ZSTD_DStreamInSize(void);
ZSTDLIB_API size_t ZSTD_DStreamOutSize(void);

/* ---- Dictionaries ------------------------------------------------------- */
/* A dictionary is libzstd's format (`zstd --train`, ZDICT_trainFromBuffer:
 * magic 0xEC30A437, ID, entropy tables, repeat offsets, content) or raw
 * content (any other bytes: history only, ID 0). Frames name the ID; a
 * frame decoded with another dictionary fails with dictionary_wrong, one
 * that names a dictionary decoded without fails the same way. */

/* One-shot calls that load the dictionary for this call only. */
ZSTDLIB_API size_t ZSTD_compress_usingDict(ZSTD_CCtx* ctx, void* dst, size_t dstCapacity, const void* src,
                                           size_t srcSize, const void* dict, size_t dictSize,
                                           int compressionLevel);
ZSTDLIB_API size_t ZSTD_decompress_usingDict(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src,
                                             size_t srcSize, const void* dict, size_t dictSize);

/* Prepared once, shared read-only by any number of contexts and threads.
 * createCDict/createDDict copy the bytes; the _byReference form keeps a
 * pointer (the bytes must outlive the CDict). NULL on malformed bytes or
 * lack of memory. A CDict carries the level its frames use. */
typedef struct ZSTD_CDict_s ZSTD_CDict;
ZSTDLIB_API ZSTD_CDict* ZSTD_createCDict(const void* dictBuffer, size_t dictSize, int compressionLevel);
ZSTDLIB_API size_t ZSTD_freeCDict(ZSTD_CDict* CDict);
ZSTDLIB_API size_t ZSTD_compress_usingCDict(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src,
                                            size_t srcSize, const ZSTD_CDict* cdict);

typedef struct ZSTD_DDict_s ZSTD_DDict;
ZSTDLIB_API ZSTD_DDict* ZSTD_createDDict(const void* dictBuffer, size_t dictSize);
ZSTDLIB_API size_t ZSTD_freeDDict(ZSTD_DDict* ddict);
ZSTDLIB_API size_t ZSTD_decompress_usingDDict(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src,
                                              size_t srcSize, const ZSTD_DDict* ddict);

/* The ID a dictionary declares (0: raw content), a DDict's or CDict's, and
 * the one a frame names (0: none, or not a frame). */
ZSTDLIB_API unsigned ZSTD_getDictID_fromDict(const void* dict, size_t dictSize);
ZSTDLIB_API unsigned ZSTD_getDictID_fromDDict(const ZSTD_DDict* ddict);
ZSTDLIB_API unsigned ZSTD_getDictID_fromCDict(const ZSTD_CDict* cdict);
ZSTDLIB_API unsigned ZSTD_getDictID_fromFrame(const void* src, size_t srcSize);

/* Sticky dictionaries of a context, for ZSTD_compress2, ZSTD_decompressDCtx
 * and the streaming calls, until replaced (NULL or size 0: none) or a reset
 * of the parameters. loadDictionary copies; refCDict/refDDict reference
 * (a CDict also brings its level); refPrefix references raw content for the
 * next frame only. Between frames only (stage_wrong otherwise). */
ZSTDLIB_API size_t ZSTD_CCtx_loadDictionary(ZSTD_CCtx* cctx, const void* dict, size_t dictSize);
ZSTDLIB_API size_t ZSTD_CCtx_refCDict(ZSTD_CCtx* cctx, const ZSTD_CDict* cdict);
ZSTDLIB_API size_t ZSTD_CCtx_refPrefix(ZSTD_CCtx* cctx, const void* prefix, size_t prefixSize);
ZSTDLIB_API size_t ZSTD_DCtx_loadDictionary(ZSTD_DCtx* dctx, const void* dict, size_t dictSize);
ZSTDLIB_API size_t ZSTD_DCtx_refDDict(ZSTD_DCtx* dctx, const ZSTD_DDict* ddict);
ZSTDLIB_API size_t ZSTD_DCtx_refPrefix(ZSTD_DCtx* dctx, const void* prefix, size_t prefixSize);

ZSTDLIB_API size_t ZSTD_sizeof_CDict(const ZSTD_CDict* cdict);
ZSTDLIB_API size_t ZSTD_sizeof_DDict(const ZSTD_DDict* ddict);

/* ---- Memory ------------------------------------------------------------- */

ZSTDLIB_API size_t ZSTD_sizeof_CCtx(const ZSTD_CCtx* cctx);
ZSTDLIB_API size_t ZSTD_sizeof_DCtx(const ZSTD_DCtx* dctx);
ZSTDLIB_API size_t ZSTD_sizeof_CStream(const ZSTD_CStream* zcs);
ZSTDLIB_API size_t ZSTD_sizeof_DStream(const ZSTD_DStream* zds);

#ifdef __cplusplus
}
#endif

#endif /* ZEST_ZSTD_H */

/* ---- Of libzstd's experimental API -------------------------------------- */
/* Declared, as by libzstd, only for programs that define
 * ZSTD_STATIC_LINKING_ONLY before including this header (possibly a second
 * time). */
#if defined(ZSTD_STATIC_LINKING_ONLY) && !defined(ZEST_ZSTD_H_STATIC_LINKING_ONLY)
#define ZEST_ZSTD_H_STATIC_LINKING_ONLY
#ifdef __cplusplus
extern "C" {
#endif

/* Job boundaries of compression with workers chosen by the content, so
 * that a change early in the input leaves the rest of the frame the same. */
#define ZSTD_c_rsyncable ZSTD_c_experimentalParam1

/* The value of a parameter ZSTD_CCtx_setParameter takes, as set (0 where
 * the level or the input size decides); parameter_unsupported for the
 * others. */
ZSTDLIB_API size_t ZSTD_CCtx_getParameter(const ZSTD_CCtx* cctx, ZSTD_cParameter param, int* value);

/* How dictionary bytes are read, and whether they are copied. */
typedef enum { ZSTD_dlm_byCopy = 0, ZSTD_dlm_byRef = 1 } ZSTD_dictLoadMethod_e;
typedef enum { ZSTD_dct_auto = 0, ZSTD_dct_rawContent = 1, ZSTD_dct_fullDict = 2 } ZSTD_dictContentType_e;
ZSTDLIB_API size_t ZSTD_CCtx_loadDictionary_advanced(ZSTD_CCtx* cctx, const void* dict, size_t dictSize,
                                                     ZSTD_dictLoadMethod_e dictLoadMethod,
                                                     ZSTD_dictContentType_e dictContentType);
ZSTDLIB_API size_t ZSTD_DCtx_loadDictionary_advanced(ZSTD_DCtx* dctx, const void* dict, size_t dictSize,
                                                     ZSTD_dictLoadMethod_e dictLoadMethod,
                                                     ZSTD_dictContentType_e dictContentType);
ZSTDLIB_API size_t ZSTD_CCtx_loadDictionary_byReference(ZSTD_CCtx* cctx, const void* dict, size_t dictSize);
ZSTDLIB_API size_t ZSTD_DCtx_loadDictionary_byReference(ZSTD_DCtx* dctx, const void* dict, size_t dictSize);
ZSTDLIB_API ZSTD_CDict* ZSTD_createCDict_byReference(const void* dictBuffer, size_t dictSize, int compressionLevel);
ZSTDLIB_API ZSTD_DDict* ZSTD_createDDict_byReference(const void* dictBuffer, size_t dictSize);
/* Legacy streaming set-ups with a dictionary. */
ZSTDLIB_API size_t ZSTD_initCStream_usingDict(ZSTD_CStream* zcs, const void* dict, size_t dictSize,
                                              int compressionLevel);
ZSTDLIB_API size_t ZSTD_initCStream_usingCDict(ZSTD_CStream* zcs, const ZSTD_CDict* cdict);
ZSTDLIB_API size_t ZSTD_initDStream_usingDict(ZSTD_DStream* zds, const void* dict, size_t dictSize);
ZSTDLIB_API size_t ZSTD_initDStream_usingDDict(ZSTD_DStream* zds, const ZSTD_DDict* ddict);

#ifdef __cplusplus
}
#endif
#endif /* ZSTD_STATIC_LINKING_ONLY */
