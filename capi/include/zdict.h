/* zest — libzstd's dictionary builder API (zdict.h) over zest.
 *
 * ZDICT_trainFromBuffer trains with fastCover, as libzstd does by default
 * (d = 8, k searched over 50..2000, 75% of the samples train and the rest
 * score the candidates); ZDICT_finalizeDictionary fits the entropy tables
 * to the samples and writes the header. Errors are zstd error codes
 * (ZDICT_isError, ZDICT_getErrorName). Link with zest_zstd.
 */
#ifndef ZEST_ZDICT_H
#define ZEST_ZDICT_H

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#  define ZDICTLIB_API __attribute__((visibility("default")))
#else
#  define ZDICTLIB_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Trains a dictionary of at most dictBufferCapacity bytes from nbSamples
 * samples laid end to end in samplesBuffer (samplesSizes gives each one's
 * size). Returns the dictionary's size, or an error (dictionaryCreation_failed
 * when the samples are too few or too small; libzstd advises about 100
 * times the dictionary's size in samples). */
ZDICTLIB_API size_t ZDICT_trainFromBuffer(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                                          const size_t* samplesSizes, unsigned nbSamples);

typedef struct {
    int compressionLevel;       /* level the tables are fitted for; 0: default (3) */
    unsigned notificationLevel; /* accepted; zest writes no log */
    unsigned dictID;            /* 0: derived from the content */
} ZDICT_params_t;

/* Makes a dictionary of at most maxDictSize bytes from dictContent (its end
 * kept when all does not fit), with entropy tables from the samples. The
 * content may lie inside dstDictBuffer. */
ZDICTLIB_API size_t ZDICT_finalizeDictionary(void* dstDictBuffer, size_t maxDictSize, const void* dictContent,
                                             size_t dictContentSize, const void* samplesBuffer,
                                             const size_t* samplesSizes, unsigned nbSamples,
                                             ZDICT_params_t parameters);

ZDICTLIB_API unsigned ZDICT_getDictID(const void* dictBuffer, size_t dictSize); /* 0: not a dictionary */
ZDICTLIB_API size_t ZDICT_getDictHeaderSize(const void* dictBuffer, size_t dictSize);
ZDICTLIB_API unsigned ZDICT_isError(size_t errorCode);
ZDICTLIB_API const char* ZDICT_getErrorName(size_t errorCode);

#ifdef __cplusplus
}
#endif
#endif /* ZEST_ZDICT_H */

#if defined(ZDICT_STATIC_LINKING_ONLY) && !defined(ZEST_ZDICT_H_STATIC)
#define ZEST_ZDICT_H_STATIC
#ifdef __cplusplus
extern "C" {
#endif

/* libzstd's layouts. nbThreads, shrinkDict and shrinkDictMaxRegression are
 * accepted and ignored (zest trains on one thread and does not shrink). */
typedef struct {
    unsigned k;          /* segment size; 0 with the optimize call: searched */
    unsigned d;          /* d-mer size, 6 or 8; 0 with the optimize call: both */
    unsigned steps;      /* k values tried when searching; 0: 40 */
    unsigned nbThreads;
    double splitPoint;   /* share of samples that train; 0: 1.0 (all train and score) */
    unsigned shrinkDict;
    unsigned shrinkDictMaxRegression;
    ZDICT_params_t zParams;
} ZDICT_cover_params_t;

typedef struct {
    unsigned k;          /* segment size; 0 with the optimize call: searched */
    unsigned d;          /* d-mer size, 6 or 8; 0 with the optimize call: 8 */
    unsigned f;          /* log2 of the frequency table, 10..26; 0: 20 */
    unsigned steps;      /* k values tried when searching; 0: 40 */
    unsigned nbThreads;
    double splitPoint;   /* share of samples that train; 0: 0.75 */
    unsigned accel;      /* 1..10; 0: 1 */
    unsigned shrinkDict;
    unsigned shrinkDictMaxRegression;
    ZDICT_params_t zParams;
} ZDICT_fastCover_params_t;

ZDICTLIB_API size_t ZDICT_trainFromBuffer_cover(void* dictBuffer, size_t dictBufferCapacity,
                                                const void* samplesBuffer, const size_t* samplesSizes,
                                                unsigned nbSamples, ZDICT_cover_params_t parameters);
/* Searches k (and d) when 0; writes the parameters chosen back. */
ZDICTLIB_API size_t ZDICT_optimizeTrainFromBuffer_cover(void* dictBuffer, size_t dictBufferCapacity,
                                                        const void* samplesBuffer, const size_t* samplesSizes,
                                                        unsigned nbSamples, ZDICT_cover_params_t* parameters);
ZDICTLIB_API size_t ZDICT_trainFromBuffer_fastCover(void* dictBuffer, size_t dictBufferCapacity,
                                                    const void* samplesBuffer, const size_t* samplesSizes,
                                                    unsigned nbSamples, ZDICT_fastCover_params_t parameters);
ZDICTLIB_API size_t ZDICT_optimizeTrainFromBuffer_fastCover(void* dictBuffer, size_t dictBufferCapacity,
                                                            const void* samplesBuffer, const size_t* samplesSizes,
                                                            unsigned nbSamples,
                                                            ZDICT_fastCover_params_t* parameters);

#ifdef __cplusplus
}
#endif
#endif /* ZDICT_STATIC_LINKING_ONLY */
