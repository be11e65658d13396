// zest — the zstd-compatible C API (capi/include/zstd.h) over zest's C++ API.
//
// Error values follow libzstd's convention: (size_t)-code, so that every
// error is among the last ZSTD_error_maxCode values of size_t.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_CCtx_getParameter
#include "zstd.h"
#include "zstd_errors.h"
#define ZDICT_STATIC_LINKING_ONLY
#include "zdict.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "zest/zest.hpp"

#ifndef ZEST_VERSION_STRING
#define ZEST_VERSION_STRING "unknown"
#endif

namespace {

// A C caller may pass any int where the API takes an enum. Reading such a
// value as the enum type is undefined in C++ when it lies outside the
// enumerators' range, so enum arguments are read as the int they are.
template <class E>
int raw(const E& e) noexcept {
    static_assert(sizeof(E) == sizeof(int));
    int v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

constexpr std::size_t error(ZSTD_ErrorCode c) noexcept { return static_cast<std::size_t>(0) - static_cast<std::size_t>(c); }

// The same zest error means different things to a caller depending on the
// direction: a content-size mismatch is the caller's pledge when compressing
// but corrupted data when decoding.
enum class side { encode, decode };

ZSTD_ErrorCode code_of(zest::errc e, side s) noexcept {
    using zest::errc;
    switch (e) {
        case errc::invalid_argument: return ZSTD_error_parameter_outOfBound;
        case errc::truncated_input: return ZSTD_error_srcSize_wrong;
        case errc::unknown_frame: return ZSTD_error_prefix_unknown;
        case errc::reserved_bit_set: return ZSTD_error_corruption_detected;
        case errc::frame_header_invalid: return ZSTD_error_corruption_detected;
        case errc::window_too_large: return ZSTD_error_frameParameter_windowTooLarge;
        case errc::dictionary_required: return ZSTD_error_dictionary_wrong;
        case errc::block_invalid:
        case errc::literals_invalid:
        case errc::huffman_invalid:
        case errc::fse_invalid:
        case errc::sequences_invalid:
        case errc::offset_invalid: return ZSTD_error_corruption_detected;
        case errc::content_size_mismatch:
            return s == side::encode ? ZSTD_error_srcSize_wrong : ZSTD_error_corruption_detected;
        case errc::checksum_mismatch: return ZSTD_error_checksum_wrong;
        case errc::destination_too_small: return ZSTD_error_dstSize_tooSmall;
        case errc::out_of_memory: return ZSTD_error_memory_allocation;
        case errc::io_error: return ZSTD_error_GENERIC;
        case errc::dictionary_wrong: return ZSTD_error_dictionary_wrong;
        case errc::dictionary_invalid: return ZSTD_error_dictionary_corrupted;
    }
    return ZSTD_error_GENERIC;
}

template <class T>
std::size_t to_size(const zest::result<T>& r, side s) noexcept {
    if (!r.has_value()) return error(code_of(r.error(), s));
    if constexpr (std::is_convertible_v<T, std::size_t>) return static_cast<std::size_t>(*r);
    else return 0;
}

constexpr unsigned default_window_log_max = zest::default_max_window_log;
constexpr int min_window_log = 10;
constexpr int max_window_log = static_cast<int>(zest::max_window_log_limit);
constexpr unsigned long long no_pledge = ZSTD_CONTENTSIZE_UNKNOWN;

// The parameters ZSTD_CCtx_setParameter takes and the zest setting each
// is; their bounds, how they clamp or refuse values, and their defaults
// are zest::settings_table's (libzstd's, on a build of the same width).
struct cparam {
    int param;
    zest::setting id;
};
constexpr cparam cparams[] = {
    {ZSTD_c_compressionLevel, zest::setting::level},
    {ZSTD_c_windowLog, zest::setting::window_log},
    {ZSTD_c_hashLog, zest::setting::hash_log},
    {ZSTD_c_chainLog, zest::setting::chain_log},
    {ZSTD_c_searchLog, zest::setting::search_log},
    {ZSTD_c_minMatch, zest::setting::min_match},
    {ZSTD_c_targetLength, zest::setting::target_length},
    {ZSTD_c_strategy, zest::setting::strategy},
    {ZSTD_c_enableLongDistanceMatching, zest::setting::ldm},  // ZSTD_ps_auto .. ZSTD_ps_disable
    {ZSTD_c_ldmHashLog, zest::setting::ldm_hash_log},
    {ZSTD_c_ldmMinMatch, zest::setting::ldm_min_match},
    {ZSTD_c_ldmBucketSizeLog, zest::setting::ldm_bucket_size_log},
    {ZSTD_c_ldmHashRateLog, zest::setting::ldm_hash_rate_log},
    {ZSTD_c_contentSizeFlag, zest::setting::content_size},
    {ZSTD_c_checksumFlag, zest::setting::checksum},
    {ZSTD_c_dictIDFlag, zest::setting::dictionary_id},
    {ZSTD_c_nbWorkers, zest::setting::workers},
    {ZSTD_c_jobSize, zest::setting::job_size},
    {ZSTD_c_overlapLog, zest::setting::overlap_log},
    {ZSTD_c_experimentalParam1, zest::setting::rsyncable},  // ZSTD_c_rsyncable
};

const zest::setting_info* setting_for(int param) noexcept {
    for (const cparam& c : cparams)
        if (c.param == param) return &zest::setting_of(c.id);
    return nullptr;
}

// The parameters libzstd lets change while a frame is in progress
// (ZSTD_isUpdateAuthorized); they apply from the next frame.
bool settable_mid_frame(int param) noexcept {
    switch (param) {
        case ZSTD_c_compressionLevel:
        case ZSTD_c_hashLog:
        case ZSTD_c_chainLog:
        case ZSTD_c_searchLog:
        case ZSTD_c_minMatch:
        case ZSTD_c_targetLength:
        case ZSTD_c_strategy: return true;
        default: return false;
    }
}

}  // namespace

struct ZSTD_CDict_s {
    zest::dictionary d;
    int level;
};

struct ZSTD_DDict_s {
    zest::dictionary d;
};

struct ZSTD_CCtx_s {
    zest::compressor one_shot;
    zest::compress_stream stream;
    zest::compression_options params;  // sticky (ZSTD_CCtx_setParameter)
    int rsyncable = 0;  // as libzstd 1.5.4 stores it: clamped to overlapLog's 0..9, read as a flag
    zest::dictionary dict;    // sticky (loadDictionary, refCDict)
    int cdict_level = 0;      // a referenced CDict's level, used instead of the parameter's
    bool cdict_ref = false;
    zest::dictionary prefix;  // the next frame's only (refPrefix)
    bool has_prefix = false;

    // The dictionary the next frame uses (a prefix is used once).
    zest::dictionary take_frame_dictionary() noexcept {
        if (!has_prefix) return dict;
        has_prefix = false;
        zest::dictionary p = std::move(prefix);
        prefix = zest::dictionary();
        return p;
    }
    int frame_level() const noexcept { return cdict_ref && !has_prefix ? cdict_level : params.level; }
    unsigned long long pledged = no_pledge;
    std::uint64_t frame_consumed = 0;  // input taken by the stream in this frame
    bool in_frame = false;             // the stream has started a frame (or failed in one)

    void drop_session() noexcept {
        stream.reset();
        in_frame = false;
        pledged = no_pledge;
    }
};

struct ZSTD_DCtx_s {
    zest::decompressor one_shot;
    zest::decompress_stream stream;
    unsigned stalled_calls = 0;  // ZSTD_decompressStream calls in a row that moved nothing
    zest::dictionary dict;    // sticky (loadDictionary, refDDict)
    zest::dictionary prefix;  // the next frame's only (refPrefix)
    bool has_prefix = false;

    zest::dictionary take_frame_dictionary() noexcept {
        if (!has_prefix) return dict;
        has_prefix = false;
        zest::dictionary p = std::move(prefix);
        prefix = zest::dictionary();
        return p;
    }
    ZSTD_DCtx_s() noexcept {
        // One-shot calls write into the caller's buffer and allocate no
        // window, so, as in libzstd, only streaming obeys ZSTD_d_windowLogMax.
        (void)one_shot.set_max_window_log(zest::max_window_log_limit);
    }
};

namespace {

std::size_t compress_frame(zest::compressor& c, zest::compression_options p, void* dst, std::size_t cap,
                           const void* src, std::size_t n, const zest::dictionary& dict = {}, int level = 0) noexcept {
    if (level) p.level = level;
    if (auto r = c.set_options(p); !r) return to_size(r, side::encode);
    if (auto r = c.set_dictionary(dict); !r) return to_size(r, side::encode);
    return to_size(c.compress(dst, cap, src, n), side::encode);
}

// Applies the sticky parameters and the pledge to the stream's next frame.
// A frame begun with an end directive holds just the input given, so (as
// libzstd does) that input's size is declared, replacing any pledge.
std::size_t start_stream_frame(ZSTD_CCtx& c, bool ends_now, std::size_t input_left) noexcept {
    if (ends_now) c.pledged = input_left;
    zest::compression_options o = c.params;
    o.level = c.frame_level();
    if (auto r = c.stream.set_dictionary(c.take_frame_dictionary()); !r) return to_size(r, side::encode);
    if (auto r = c.stream.set_options(o); !r) return to_size(r, side::encode);
    if (c.pledged != no_pledge) {
        if (auto r = c.stream.set_pledged_size(c.pledged); !r) return to_size(r, side::encode);
    }
    c.in_frame = true;
    c.frame_consumed = 0;
    return 0;
}

bool is_error(std::size_t code) noexcept { return code > error(ZSTD_error_maxCode); }

}  // namespace

extern "C" {

// ---- Errors and versions ----------------------------------------------------

unsigned ZSTD_isError(size_t code) { return is_error(code) ? 1u : 0u; }

ZSTD_ErrorCode ZSTD_getErrorCode(size_t result) {
    if (!is_error(result)) return ZSTD_error_no_error;
    return static_cast<ZSTD_ErrorCode>(static_cast<std::size_t>(0) - result);
}

const char* ZSTD_getErrorString(ZSTD_ErrorCode code) {
    switch (raw(code)) {
        case ZSTD_error_no_error: return "no error";
        case ZSTD_error_GENERIC: return "generic error";
        case ZSTD_error_prefix_unknown: return "unknown frame magic number (not Zstandard data)";
        case ZSTD_error_version_unsupported: return "frame format version not supported";
        case ZSTD_error_frameParameter_unsupported: return "frame parameter not supported";
        case ZSTD_error_frameParameter_windowTooLarge: return "frame window exceeds the decoder's window limit";
        case ZSTD_error_corruption_detected: return "corrupted compressed data";
        case ZSTD_error_checksum_wrong: return "content checksum mismatch";
        case ZSTD_error_literals_headerWrong: return "invalid literals section header";
        case ZSTD_error_dictionary_corrupted: return "corrupted dictionary";
        case ZSTD_error_dictionary_wrong: return "wrong or missing dictionary";
        case ZSTD_error_dictionaryCreation_failed: return "dictionary training failed";
        case ZSTD_error_parameter_unsupported: return "parameter not supported";
        case ZSTD_error_parameter_combination_unsupported: return "parameter combination not supported";
        case ZSTD_error_parameter_outOfBound: return "parameter value out of bounds";
        case ZSTD_error_tableLog_tooLarge: return "table log too large";
        case ZSTD_error_maxSymbolValue_tooLarge: return "largest symbol value too large";
        case ZSTD_error_maxSymbolValue_tooSmall: return "largest symbol value too small";
        case ZSTD_error_stabilityCondition_notRespected: return "buffer stability condition not respected";
        case ZSTD_error_stage_wrong: return "call not allowed at this stage of the frame";
        case ZSTD_error_init_missing: return "context not initialised";
        case ZSTD_error_memory_allocation: return "out of memory";
        case ZSTD_error_workSpace_tooSmall: return "work space too small";
        case ZSTD_error_dstSize_tooSmall: return "destination buffer too small";
        case ZSTD_error_srcSize_wrong: return "wrong source size (truncated input or pledged size not met)";
        case ZSTD_error_dstBuffer_null: return "destination buffer is null";
        case ZSTD_error_noForwardProgress_destFull: return "no progress: output buffer full";
        case ZSTD_error_noForwardProgress_inputEmpty: return "no progress: input empty";
        case ZSTD_error_frameIndex_tooLarge: return "frame index too large";
        case ZSTD_error_seekableIO: return "seekable format I/O error";
        case ZSTD_error_dstBuffer_wrong: return "destination buffer changed between calls";
        case ZSTD_error_srcBuffer_wrong: return "source buffer changed between calls";
        case ZSTD_error_sequenceProducer_failed: return "external sequence producer failed";
        case ZSTD_error_externalSequences_invalid: return "invalid external sequences";
        case ZSTD_error_maxCode:
        default: return "unknown error code";
    }
}

const char* ZSTD_getErrorName(size_t code) { return ZSTD_getErrorString(ZSTD_getErrorCode(code)); }

unsigned ZSTD_versionNumber(void) { return ZSTD_VERSION_NUMBER; }

const char* ZSTD_versionString(void) { return "zest " ZEST_VERSION_STRING " (zstd " ZSTD_VERSION_STRING " API)"; }

int ZSTD_minCLevel(void) { return zest::min_level; }
int ZSTD_maxCLevel(void) { return zest::max_level; }
int ZSTD_defaultCLevel(void) { return zest::default_level; }

// ---- One-shot -----------------------------------------------------------------

size_t ZSTD_compressBound(size_t srcSize) {
    const std::size_t bound = zest::compress_bound(srcSize);
    return bound == 0 ? error(ZSTD_error_srcSize_wrong) : bound;
}

size_t ZSTD_compress(void* dst, size_t dstCapacity, const void* src, size_t srcSize, int compressionLevel) {
    return to_size(zest::compress(dst, dstCapacity, src, srcSize, compressionLevel), side::encode);
}

size_t ZSTD_decompress(void* dst, size_t dstCapacity, const void* src, size_t srcSize) {
    auto r = zest::decompress(dst, dstCapacity, src, srcSize);
    if (!r && r.error() == zest::errc::window_too_large) {
        // zest's context-free call keeps the streaming limit; one-shot
        // decoding in libzstd accepts any window, so retry without it.
        zest::decompressor d;
        (void)d.set_max_window_log(zest::max_window_log_limit);
        return to_size(d.decompress(dst, dstCapacity, src, srcSize), side::decode);
    }
    return to_size(r, side::decode);
}

unsigned long long ZSTD_getFrameContentSize(const void* src, size_t srcSize) {
    if (!src && srcSize) return ZSTD_CONTENTSIZE_ERROR;
    auto r = zest::frame_content_size({static_cast<const std::byte*>(src), srcSize});
    if (!r) return ZSTD_CONTENTSIZE_ERROR;
    return r->has_value() ? static_cast<unsigned long long>(**r) : ZSTD_CONTENTSIZE_UNKNOWN;
}

size_t ZSTD_findFrameCompressedSize(const void* src, size_t srcSize) {
    if (!src && srcSize) return error(ZSTD_error_GENERIC);
    return to_size(zest::find_frame_compressed_size({static_cast<const std::byte*>(src), srcSize}), side::decode);
}

// ---- Compression context ---------------------------------------------------------

ZSTD_CCtx* ZSTD_createCCtx(void) { return new (std::nothrow) ZSTD_CCtx_s; }

size_t ZSTD_freeCCtx(ZSTD_CCtx* cctx) {
    delete cctx;
    return 0;
}

size_t ZSTD_compressCCtx(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                         int compressionLevel) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    zest::compression_options p;  // the level given, every other parameter libzstd's default
    p.level = compressionLevel;
    return compress_frame(cctx->one_shot, p, dst, dstCapacity, src, srcSize);
}

ZSTD_bounds ZSTD_cParam_getBounds(ZSTD_cParameter param) {
    ZSTD_bounds b{0, 0, 0};
    if (const zest::setting_info* p = setting_for(raw(param))) {
        // libzstd reports jobSize from 0 (its default) and raises other
        // values to its least job size.
        b.lowerBound = raw(param) == ZSTD_c_jobSize ? 0 : p->lower;
        b.upperBound = p->upper;
    } else {
        b.error = error(ZSTD_error_parameter_unsupported);
    }
    return b;
}

size_t ZSTD_CCtx_setParameter(ZSTD_CCtx* cctx, ZSTD_cParameter param_arg, int value) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    const int param = raw(param_arg);
    // Mid-frame, only the level and the match finder's parameters may change
    // (from the next frame), as in libzstd.
    if (cctx->in_frame && !settable_mid_frame(param)) return error(ZSTD_error_stage_wrong);
    const zest::setting_info* info = setting_for(param);
    if (!info) return error(ZSTD_error_parameter_unsupported);
    // As in libzstd: some parameters clamp the value to their bounds, the
    // others refuse a value outside them (0, "default", always passes).
    const auto r = zest::set_setting(cctx->params, info->id, value);
    if (!r) return error(ZSTD_error_parameter_outOfBound);
    if (info->id == zest::setting::rsyncable) {
        const zest::setting_info& like = zest::setting_of(zest::setting::overlap_log);
        cctx->rsyncable = value < like.lower ? like.lower : value > like.upper ? like.upper : value;
        return static_cast<size_t>(cctx->rsyncable);
    }
    return *r > 0 ? static_cast<size_t>(*r) : 0;
}

size_t ZSTD_CCtx_getParameter(const ZSTD_CCtx* cctx, ZSTD_cParameter param, int* value) {
    if (!cctx || !value) return error(ZSTD_error_GENERIC);
    const zest::setting_info* info = setting_for(raw(param));
    if (!info) return error(ZSTD_error_parameter_unsupported);
    *value = info->id == zest::setting::rsyncable ? cctx->rsyncable : info->get(cctx->params);
    return 0;
}

size_t ZSTD_CCtx_setPledgedSrcSize(ZSTD_CCtx* cctx, unsigned long long pledgedSrcSize) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    if (cctx->in_frame) return error(ZSTD_error_stage_wrong);
    cctx->pledged = pledgedSrcSize;
    return 0;
}

size_t ZSTD_CCtx_reset(ZSTD_CCtx* cctx, ZSTD_ResetDirective reset_arg) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    const int reset = raw(reset_arg);
    // As libzstd 1.5.4: a directive that is none of the three does nothing
    // and is no error.
    if (reset == ZSTD_reset_session_only || reset == ZSTD_reset_session_and_parameters) cctx->drop_session();
    if (reset == ZSTD_reset_parameters || reset == ZSTD_reset_session_and_parameters) {
        if (cctx->in_frame) return error(ZSTD_error_stage_wrong);
        cctx->params = {};
        cctx->rsyncable = 0;
        // As libzstd: the parameters include the dictionary.
        cctx->dict = zest::dictionary();
        cctx->cdict_ref = false;
        cctx->prefix = zest::dictionary();
        cctx->has_prefix = false;
    }
    return 0;
}

size_t ZSTD_compress2(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    cctx->drop_session();
    const int level = cctx->frame_level();
    return compress_frame(cctx->one_shot, cctx->params, dst, dstCapacity, src, srcSize, cctx->take_frame_dictionary(),
                          level);
}

size_t ZSTD_sizeof_CCtx(const ZSTD_CCtx* cctx) {
    if (!cctx) return 0;
    return sizeof(*cctx) + cctx->one_shot.memory_usage() + cctx->stream.memory_usage();
}

size_t ZSTD_sizeof_CStream(const ZSTD_CStream* zcs) { return ZSTD_sizeof_CCtx(zcs); }

// ---- Streaming compression ---------------------------------------------------------

ZSTD_CStream* ZSTD_createCStream(void) { return ZSTD_createCCtx(); }
size_t ZSTD_freeCStream(ZSTD_CStream* zcs) { return ZSTD_freeCCtx(zcs); }

size_t ZSTD_CStreamInSize(void) { return zest::compress_stream::recommended_in_size; }

size_t ZSTD_CStreamOutSize(void) {
    // One whole block's bound plus a block header and the checksum, as libzstd.
    return zest::compress_bound(ZSTD_BLOCKSIZE_MAX) + 3 + 4;
}

size_t ZSTD_compressStream2(ZSTD_CCtx* cctx, ZSTD_outBuffer* output, ZSTD_inBuffer* input,
                            ZSTD_EndDirective endOp) {
    if (!cctx || !output || !input) return error(ZSTD_error_GENERIC);
    if (output->pos > output->size) return error(ZSTD_error_dstSize_tooSmall);
    if (input->pos > input->size) return error(ZSTD_error_srcSize_wrong);
    zest::directive d;
    switch (raw(endOp)) {
        case ZSTD_e_continue: d = zest::directive::proceed; break;
        case ZSTD_e_flush: d = zest::directive::flush; break;
        case ZSTD_e_end: d = zest::directive::end; break;
        default: return error(ZSTD_error_parameter_outOfBound);
    }
    if (!cctx->in_frame) {
        std::size_t r = start_stream_frame(*cctx, d == zest::directive::end, input->size - input->pos);
        if (is_error(r)) return r;
    }
    zest::in_buffer in{input->src, input->size, input->pos};
    zest::out_buffer out{output->dst, output->size, output->pos};
    auto r = cctx->stream.compress(out, in, d);
    cctx->frame_consumed += in.pos - input->pos;
    input->pos = in.pos;
    output->pos = out.pos;
    if (!r) return to_size(r, side::encode);
    if (d == zest::directive::end && *r == 0) {
        cctx->in_frame = false;
        cctx->pledged = no_pledge;
    }
    return *r;
}

size_t ZSTD_initCStream(ZSTD_CStream* zcs, int compressionLevel) {
    if (!zcs) return error(ZSTD_error_GENERIC);
    zcs->drop_session();
    std::size_t r = ZSTD_CCtx_setParameter(zcs, ZSTD_c_compressionLevel, compressionLevel);
    return is_error(r) ? r : 0;
}

size_t ZSTD_compressStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output, ZSTD_inBuffer* input) {
    std::size_t r = ZSTD_compressStream2(zcs, output, input, ZSTD_e_continue);
    if (is_error(r)) return r;
    // Hint: what completes the block being filled.
    std::size_t hint = ZSTD_BLOCKSIZE_MAX - static_cast<std::size_t>(zcs->frame_consumed % ZSTD_BLOCKSIZE_MAX);
    return hint;
}

size_t ZSTD_flushStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output) {
    ZSTD_inBuffer none{nullptr, 0, 0};
    return ZSTD_compressStream2(zcs, output, &none, ZSTD_e_flush);
}

size_t ZSTD_endStream(ZSTD_CStream* zcs, ZSTD_outBuffer* output) {
    ZSTD_inBuffer none{nullptr, 0, 0};
    return ZSTD_compressStream2(zcs, output, &none, ZSTD_e_end);
}

// ---- Decompression -----------------------------------------------------------------

ZSTD_DCtx* ZSTD_createDCtx(void) { return new (std::nothrow) ZSTD_DCtx_s; }

size_t ZSTD_freeDCtx(ZSTD_DCtx* dctx) {
    delete dctx;
    return 0;
}

size_t ZSTD_decompressDCtx(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if ((!dst && dstCapacity) || (!src && srcSize)) return error(ZSTD_error_GENERIC);
    return to_size(dctx->one_shot.decompress({static_cast<std::byte*>(dst), dstCapacity},
                                             {static_cast<const std::byte*>(src), srcSize},
                                             dctx->take_frame_dictionary()),
                   side::decode);
}

ZSTD_bounds ZSTD_dParam_getBounds(ZSTD_dParameter param) {
    ZSTD_bounds b{0, 0, 0};
    if (raw(param) == ZSTD_d_windowLogMax) {
        b.lowerBound = min_window_log;
        b.upperBound = max_window_log;
    } else {
        b.error = error(ZSTD_error_parameter_unsupported);
    }
    return b;
}

size_t ZSTD_DCtx_setParameter(ZSTD_DCtx* dctx, ZSTD_dParameter param, int value) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if (!dctx->stream.at_frame_boundary()) return error(ZSTD_error_stage_wrong);
    if (raw(param) != ZSTD_d_windowLogMax) return error(ZSTD_error_parameter_unsupported);
    if (value == 0) value = static_cast<int>(default_window_log_max);
    if (value < min_window_log || value > max_window_log) return error(ZSTD_error_parameter_outOfBound);
    auto r = dctx->stream.set_max_window_log(static_cast<unsigned>(value));
    return r ? 0 : to_size(r, side::decode);
}

size_t ZSTD_DCtx_reset(ZSTD_DCtx* dctx, ZSTD_ResetDirective reset_arg) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    const int reset = raw(reset_arg);
    // As libzstd 1.5.4 (and ZSTD_CCtx_reset): another directive does nothing.
    if (reset == ZSTD_reset_session_only || reset == ZSTD_reset_session_and_parameters) {
        dctx->stream.reset();
        dctx->stalled_calls = 0;
    }
    if (reset == ZSTD_reset_parameters || reset == ZSTD_reset_session_and_parameters) {
        if (!dctx->stream.at_frame_boundary()) return error(ZSTD_error_stage_wrong);
        (void)dctx->stream.set_max_window_log(default_window_log_max);
        dctx->dict = zest::dictionary();
        dctx->prefix = zest::dictionary();
        dctx->has_prefix = false;
    }
    return 0;
}

size_t ZSTD_sizeof_DCtx(const ZSTD_DCtx* dctx) {
    if (!dctx) return 0;
    return sizeof(*dctx) + dctx->one_shot.memory_usage() + dctx->stream.memory_usage();
}

size_t ZSTD_sizeof_DStream(const ZSTD_DStream* zds) { return ZSTD_sizeof_DCtx(zds); }

// ---- Streaming decompression -----------------------------------------------------------

ZSTD_DStream* ZSTD_createDStream(void) { return ZSTD_createDCtx(); }
size_t ZSTD_freeDStream(ZSTD_DStream* zds) { return ZSTD_freeDCtx(zds); }

size_t ZSTD_initDStream(ZSTD_DStream* zds) {
    if (!zds) return error(ZSTD_error_GENERIC);
    zds->stream.reset();
    zds->stalled_calls = 0;
    return 5;  // bytes needed to start: magic number and frame header descriptor
}

size_t ZSTD_DStreamInSize(void) { return zest::decompress_stream::recommended_in_size; }
size_t ZSTD_DStreamOutSize(void) { return zest::decompress_stream::recommended_out_size; }

size_t ZSTD_decompressStream(ZSTD_DStream* zds, ZSTD_outBuffer* output, ZSTD_inBuffer* input) {
    if (!zds || !output || !input) return error(ZSTD_error_GENERIC);
    // Input first: when both are wrong, libzstd reports the input (and
    // ZSTD_compressStream2 the output).
    if (input->pos > input->size) return error(ZSTD_error_srcSize_wrong);
    if (output->pos > output->size) return error(ZSTD_error_dstSize_tooSmall);
    // A frame about to start takes the context's dictionary (a prefix: this frame only).
    if (zds->stream.at_frame_boundary() && input->pos < input->size)
        (void)zds->stream.set_dictionary(zds->take_frame_dictionary());
    zest::in_buffer in{input->src, input->size, input->pos};
    zest::out_buffer out{output->dst, output->size, output->pos};
    auto r = zds->stream.decompress(out, in);
    // As libzstd: a loop that keeps calling without giving input or output
    // room (a truncated stream, a full buffer never emptied) gets an error
    // after 16 such calls instead of spinning forever.
    const bool stalled = in.pos == input->pos && out.pos == output->pos;
    input->pos = in.pos;
    output->pos = out.pos;
    if (r && stalled) {
        if (++zds->stalled_calls >= 16) {
            if (out.pos == out.size) return error(ZSTD_error_noForwardProgress_destFull);
            if (in.pos == in.size) return error(ZSTD_error_noForwardProgress_inputEmpty);
        }
    } else {
        zds->stalled_calls = 0;
    }
    return to_size(r, side::decode);
}

}  // extern "C"

// ---- Dictionaries -------------------------------------------------------------------

namespace {

zest::dictionary_content content_of(int t) noexcept {
    return t == ZSTD_dct_rawContent ? zest::dictionary_content::raw
           : t == ZSTD_dct_fullDict ? zest::dictionary_content::full
                                    : zest::dictionary_content::automatic;
}

// Loads dictionary bytes (none when empty); the error as libzstd reports it.
std::size_t load_dict(zest::dictionary& out, const void* dict, std::size_t size, bool by_ref, int type) noexcept {
    if (!dict || size == 0) {
        out = zest::dictionary();
        return 0;
    }
    if (type != ZSTD_dct_auto && type != ZSTD_dct_rawContent && type != ZSTD_dct_fullDict)
        return error(ZSTD_error_parameter_outOfBound);
    auto d = zest::dictionary::load(dict, size, content_of(type),
                                    by_ref ? zest::dictionary_storage::reference : zest::dictionary_storage::copy);
    if (!d) return to_size(d, side::decode);
    out = std::move(*d);
    return 0;
}

ZSTD_CDict* new_cdict(const void* dict, std::size_t size, int level, bool by_ref) noexcept {
    auto* c = new (std::nothrow) ZSTD_CDict_s;
    if (!c) return nullptr;
    if (is_error(load_dict(c->d, dict, size, by_ref, ZSTD_dct_auto))) {
        delete c;
        return nullptr;
    }
    c->level = level == 0 ? ZSTD_CLEVEL_DEFAULT : level;
    return c;
}

ZSTD_DDict* new_ddict(const void* dict, std::size_t size, bool by_ref) noexcept {
    auto* d = new (std::nothrow) ZSTD_DDict_s;
    if (!d) return nullptr;
    if (is_error(load_dict(d->d, dict, size, by_ref, ZSTD_dct_auto))) {
        delete d;
        return nullptr;
    }
    return d;
}

std::size_t cctx_load(ZSTD_CCtx* cctx, const void* dict, std::size_t size, bool by_ref, int type) noexcept {
    if (!cctx) return error(ZSTD_error_GENERIC);
    if (cctx->in_frame) return error(ZSTD_error_stage_wrong);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, dict, size, by_ref, type); is_error(e)) return e;
    cctx->dict = std::move(d);
    cctx->cdict_ref = false;
    return 0;
}

std::size_t dctx_load(ZSTD_DCtx* dctx, const void* dict, std::size_t size, bool by_ref, int type) noexcept {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if (!dctx->stream.at_frame_boundary()) return error(ZSTD_error_stage_wrong);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, dict, size, by_ref, type); is_error(e)) return e;
    dctx->dict = std::move(d);
    return 0;
}

}  // namespace

extern "C" {

size_t ZSTD_compress_usingDict(ZSTD_CCtx* ctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                               const void* dict, size_t dictSize, int compressionLevel) {
    if (!ctx) return error(ZSTD_error_GENERIC);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, dict, dictSize, true, ZSTD_dct_auto); is_error(e)) return e;
    zest::compression_options p;  // as ZSTD_compressCCtx: the level given, no other parameter
    p.level = compressionLevel;
    return compress_frame(ctx->one_shot, p, dst, dstCapacity, src, srcSize, d);
}

size_t ZSTD_decompress_usingDict(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                                 const void* dict, size_t dictSize) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if ((!dst && dstCapacity) || (!src && srcSize)) return error(ZSTD_error_GENERIC);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, dict, dictSize, true, ZSTD_dct_auto); is_error(e)) return e;
    return to_size(dctx->one_shot.decompress({static_cast<std::byte*>(dst), dstCapacity},
                                             {static_cast<const std::byte*>(src), srcSize}, d),
                   side::decode);
}

ZSTD_CDict* ZSTD_createCDict(const void* dictBuffer, size_t dictSize, int compressionLevel) {
    return new_cdict(dictBuffer, dictSize, compressionLevel, false);
}
ZSTD_CDict* ZSTD_createCDict_byReference(const void* dictBuffer, size_t dictSize, int compressionLevel) {
    return new_cdict(dictBuffer, dictSize, compressionLevel, true);
}
size_t ZSTD_freeCDict(ZSTD_CDict* cdict) {
    delete cdict;
    return 0;
}

size_t ZSTD_compress_usingCDict(ZSTD_CCtx* cctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                                const ZSTD_CDict* cdict) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    if (!cdict) return error(ZSTD_error_dictionary_wrong);
    // The CDict's level; content size and ID written, no checksum (libzstd's defaults).
    return compress_frame(cctx->one_shot, {}, dst, dstCapacity, src, srcSize, cdict->d, cdict->level);
}

ZSTD_DDict* ZSTD_createDDict(const void* dictBuffer, size_t dictSize) { return new_ddict(dictBuffer, dictSize, false); }
ZSTD_DDict* ZSTD_createDDict_byReference(const void* dictBuffer, size_t dictSize) {
    return new_ddict(dictBuffer, dictSize, true);
}
size_t ZSTD_freeDDict(ZSTD_DDict* ddict) {
    delete ddict;
    return 0;
}

size_t ZSTD_decompress_usingDDict(ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize,
                                  const ZSTD_DDict* ddict) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if ((!dst && dstCapacity) || (!src && srcSize)) return error(ZSTD_error_GENERIC);
    static const zest::dictionary none;
    return to_size(dctx->one_shot.decompress({static_cast<std::byte*>(dst), dstCapacity},
                                             {static_cast<const std::byte*>(src), srcSize}, ddict ? ddict->d : none),
                   side::decode);
}

unsigned ZSTD_getDictID_fromDict(const void* dict, size_t dictSize) {
    if (!dict) return 0;
    return zest::dictionary_id({static_cast<const std::byte*>(dict), dictSize});
}
unsigned ZSTD_getDictID_fromDDict(const ZSTD_DDict* ddict) { return ddict ? ddict->d.id() : 0; }
unsigned ZSTD_getDictID_fromCDict(const ZSTD_CDict* cdict) { return cdict ? cdict->d.id() : 0; }
unsigned ZSTD_getDictID_fromFrame(const void* src, size_t srcSize) {
    if (!src) return 0;
    return zest::frame_dictionary_id({static_cast<const std::byte*>(src), srcSize});
}

size_t ZSTD_CCtx_loadDictionary(ZSTD_CCtx* cctx, const void* dict, size_t dictSize) {
    return cctx_load(cctx, dict, dictSize, false, ZSTD_dct_auto);
}
size_t ZSTD_CCtx_loadDictionary_byReference(ZSTD_CCtx* cctx, const void* dict, size_t dictSize) {
    return cctx_load(cctx, dict, dictSize, true, ZSTD_dct_auto);
}
size_t ZSTD_CCtx_loadDictionary_advanced(ZSTD_CCtx* cctx, const void* dict, size_t dictSize,
                                         ZSTD_dictLoadMethod_e dictLoadMethod, ZSTD_dictContentType_e dictContentType) {
    return cctx_load(cctx, dict, dictSize, raw(dictLoadMethod) == ZSTD_dlm_byRef, raw(dictContentType));
}

size_t ZSTD_CCtx_refCDict(ZSTD_CCtx* cctx, const ZSTD_CDict* cdict) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    if (cctx->in_frame) return error(ZSTD_error_stage_wrong);
    cctx->dict = cdict ? cdict->d : zest::dictionary();
    cctx->cdict_ref = cdict != nullptr;
    cctx->cdict_level = cdict ? cdict->level : 0;
    return 0;
}

size_t ZSTD_CCtx_refPrefix(ZSTD_CCtx* cctx, const void* prefix, size_t prefixSize) {
    if (!cctx) return error(ZSTD_error_GENERIC);
    if (cctx->in_frame) return error(ZSTD_error_stage_wrong);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, prefix, prefixSize, true, ZSTD_dct_rawContent); is_error(e)) return e;
    cctx->prefix = std::move(d);
    cctx->has_prefix = true;
    return 0;
}

size_t ZSTD_DCtx_loadDictionary(ZSTD_DCtx* dctx, const void* dict, size_t dictSize) {
    return dctx_load(dctx, dict, dictSize, false, ZSTD_dct_auto);
}
size_t ZSTD_DCtx_loadDictionary_byReference(ZSTD_DCtx* dctx, const void* dict, size_t dictSize) {
    return dctx_load(dctx, dict, dictSize, true, ZSTD_dct_auto);
}
size_t ZSTD_DCtx_loadDictionary_advanced(ZSTD_DCtx* dctx, const void* dict, size_t dictSize,
                                         ZSTD_dictLoadMethod_e dictLoadMethod, ZSTD_dictContentType_e dictContentType) {
    return dctx_load(dctx, dict, dictSize, raw(dictLoadMethod) == ZSTD_dlm_byRef, raw(dictContentType));
}

size_t ZSTD_DCtx_refDDict(ZSTD_DCtx* dctx, const ZSTD_DDict* ddict) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if (!dctx->stream.at_frame_boundary()) return error(ZSTD_error_stage_wrong);
    dctx->dict = ddict ? ddict->d : zest::dictionary();
    return 0;
}

size_t ZSTD_DCtx_refPrefix(ZSTD_DCtx* dctx, const void* prefix, size_t prefixSize) {
    if (!dctx) return error(ZSTD_error_GENERIC);
    if (!dctx->stream.at_frame_boundary()) return error(ZSTD_error_stage_wrong);
    zest::dictionary d;
    if (const std::size_t e = load_dict(d, prefix, prefixSize, true, ZSTD_dct_rawContent); is_error(e)) return e;
    dctx->prefix = std::move(d);
    dctx->has_prefix = true;
    return 0;
}

size_t ZSTD_initCStream_usingDict(ZSTD_CStream* zcs, const void* dict, size_t dictSize, int compressionLevel) {
    if (!zcs) return error(ZSTD_error_GENERIC);
    zcs->drop_session();
    if (const std::size_t e = ZSTD_CCtx_setParameter(zcs, ZSTD_c_compressionLevel, compressionLevel); is_error(e))
        return e;
    return cctx_load(zcs, dict, dictSize, false, ZSTD_dct_auto);
}

size_t ZSTD_initCStream_usingCDict(ZSTD_CStream* zcs, const ZSTD_CDict* cdict) {
    if (!zcs) return error(ZSTD_error_GENERIC);
    zcs->drop_session();
    return ZSTD_CCtx_refCDict(zcs, cdict);
}

size_t ZSTD_initDStream_usingDict(ZSTD_DStream* zds, const void* dict, size_t dictSize) {
    if (!zds) return error(ZSTD_error_GENERIC);
    (void)ZSTD_initDStream(zds);
    if (const std::size_t e = dctx_load(zds, dict, dictSize, false, ZSTD_dct_auto); is_error(e)) return e;
    return 5;
}

size_t ZSTD_initDStream_usingDDict(ZSTD_DStream* zds, const ZSTD_DDict* ddict) {
    if (!zds) return error(ZSTD_error_GENERIC);
    (void)ZSTD_initDStream(zds);
    if (const std::size_t e = ZSTD_DCtx_refDDict(zds, ddict); is_error(e)) return e;
    return 5;
}

size_t ZSTD_sizeof_CDict(const ZSTD_CDict* cdict) { return cdict ? sizeof(*cdict) + cdict->d.memory_usage() : 0; }
size_t ZSTD_sizeof_DDict(const ZSTD_DDict* ddict) { return ddict ? sizeof(*ddict) + ddict->d.memory_usage() : 0; }

}  // extern "C"

// ---- Dictionary builder (zdict.h) --------------------------------------------------

namespace {

std::size_t zdict_error(zest::errc e) noexcept {
    switch (e) {
        case zest::errc::out_of_memory: return error(ZSTD_error_memory_allocation);
        case zest::errc::invalid_argument: return error(ZSTD_error_parameter_outOfBound);
        default: return error(ZSTD_error_dictionaryCreation_failed);
    }
}

std::size_t total_size(const size_t* sizes, unsigned n) noexcept {
    std::size_t t = 0;
    for (unsigned i = 0; i < n; ++i) t += sizes[i];
    return t;
}

std::size_t train_into(void* dict, std::size_t capacity, const void* samples, const size_t* sizes, unsigned n,
                       const zest::training_parameters& p, zest::training_parameters* chosen) noexcept {
    if (!dict || (!samples && n) || (!sizes && n)) return error(ZSTD_error_GENERIC);
    if (capacity < 256) return error(ZSTD_error_dstSize_tooSmall);
    const std::size_t bytes = total_size(sizes, n);
    auto r = zest::train_dictionary({static_cast<const std::byte*>(samples), bytes}, {sizes, n}, capacity, p, chosen);
    if (!r) return zdict_error(r.error());
    std::memcpy(dict, r->data(), r->size());
    return r->size();
}

// The optimize calls: train, then write the k and d used back.
template <class Params>
std::size_t train_and_report(void* dict, std::size_t capacity, const void* samples, const size_t* sizes, unsigned n,
                             const zest::training_parameters& p, Params* parameters) noexcept {
    zest::training_parameters used;
    const std::size_t r = train_into(dict, capacity, samples, sizes, n, p, &used);
    if (!ZSTD_isError(r)) parameters->k = used.k, parameters->d = used.d;
    return r;
}

unsigned split_percent(double split, unsigned fallback) noexcept {
    if (split <= 0.0) return fallback;
    if (split >= 1.0) return 100;
    const auto p = static_cast<unsigned>(split * 100.0 + 0.5);
    return p < 1 ? 1 : p;
}

}  // namespace

extern "C" {

size_t ZDICT_trainFromBuffer(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                             const size_t* samplesSizes, unsigned nbSamples) {
    return train_into(dictBuffer, dictBufferCapacity, samplesBuffer, samplesSizes, nbSamples, {}, nullptr);
}

size_t ZDICT_finalizeDictionary(void* dstDictBuffer, size_t maxDictSize, const void* dictContent,
                                size_t dictContentSize, const void* samplesBuffer, const size_t* samplesSizes,
                                unsigned nbSamples, ZDICT_params_t parameters) {
    if (!dstDictBuffer || (!dictContent && dictContentSize) || (!samplesSizes && nbSamples))
        return error(ZSTD_error_GENERIC);
    if (maxDictSize < 256) return error(ZSTD_error_dstSize_tooSmall);
    if (dictContentSize < 8) return error(ZSTD_error_srcSize_wrong);
    const std::size_t bytes = total_size(samplesSizes, nbSamples);
    auto r = zest::finalize_dictionary({static_cast<const std::byte*>(dictContent), dictContentSize},
                                       {static_cast<const std::byte*>(samplesBuffer), bytes}, {samplesSizes, nbSamples},
                                       maxDictSize, parameters.compressionLevel, parameters.dictID);
    if (!r) return zdict_error(r.error());
    std::memmove(dstDictBuffer, r->data(), r->size());  // the content may lie in the destination
    return r->size();
}

unsigned ZDICT_getDictID(const void* dictBuffer, size_t dictSize) {
    if (!dictBuffer) return 0;
    return zest::dictionary_id({static_cast<const std::byte*>(dictBuffer), dictSize});
}

size_t ZDICT_getDictHeaderSize(const void* dictBuffer, size_t dictSize) {
    if (!dictBuffer) return error(ZSTD_error_dictionary_corrupted);
    auto d = zest::dictionary::load(dictBuffer, dictSize, zest::dictionary_content::full,
                                    zest::dictionary_storage::reference);
    if (!d) return error(ZSTD_error_dictionary_corrupted);
    return dictSize - d->content_size();
}

unsigned ZDICT_isError(size_t errorCode) { return ZSTD_isError(errorCode); }
const char* ZDICT_getErrorName(size_t errorCode) { return ZSTD_getErrorName(errorCode); }

size_t ZDICT_trainFromBuffer_cover(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                                   const size_t* samplesSizes, unsigned nbSamples, ZDICT_cover_params_t parameters) {
    if (parameters.k == 0 || parameters.d == 0) return error(ZSTD_error_parameter_outOfBound);
    return ZDICT_optimizeTrainFromBuffer_cover(dictBuffer, dictBufferCapacity, samplesBuffer, samplesSizes, nbSamples,
                                               &parameters);
}

size_t ZDICT_optimizeTrainFromBuffer_cover(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                                           const size_t* samplesSizes, unsigned nbSamples,
                                           ZDICT_cover_params_t* parameters) {
    if (!parameters) return error(ZSTD_error_GENERIC);
    zest::training_parameters p;
    p.cover = true;
    p.k = parameters->k;
    p.d = parameters->d;
    p.steps = parameters->steps;
    p.split_percent = split_percent(parameters->splitPoint, 100);
    p.level = parameters->zParams.compressionLevel;
    p.dict_id = parameters->zParams.dictID;
    return train_and_report(dictBuffer, dictBufferCapacity, samplesBuffer, samplesSizes, nbSamples, p, parameters);
}

size_t ZDICT_trainFromBuffer_fastCover(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                                       const size_t* samplesSizes, unsigned nbSamples,
                                       ZDICT_fastCover_params_t parameters) {
    if (parameters.k == 0 || parameters.d == 0) return error(ZSTD_error_parameter_outOfBound);
    return ZDICT_optimizeTrainFromBuffer_fastCover(dictBuffer, dictBufferCapacity, samplesBuffer, samplesSizes,
                                                   nbSamples, &parameters);
}

size_t ZDICT_optimizeTrainFromBuffer_fastCover(void* dictBuffer, size_t dictBufferCapacity, const void* samplesBuffer,
                                               const size_t* samplesSizes, unsigned nbSamples,
                                               ZDICT_fastCover_params_t* parameters) {
    if (!parameters) return error(ZSTD_error_GENERIC);
    zest::training_parameters p;
    p.k = parameters->k;
    p.d = parameters->d;
    p.f = parameters->f ? parameters->f : 20;
    p.steps = parameters->steps ? parameters->steps : 40;
    p.split_percent = split_percent(parameters->splitPoint, 75);
    p.accel = parameters->accel ? parameters->accel : 1;
    p.level = parameters->zParams.compressionLevel;
    p.dict_id = parameters->zParams.dictID;
    return train_and_report(dictBuffer, dictBufferCapacity, samplesBuffer, samplesSizes, nbSamples, p, parameters);
}

}  // extern "C"
