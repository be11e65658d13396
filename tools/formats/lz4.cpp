// lz4 frames through liblz4's frame API (lz4frame.h), streaming.
#include <lz4frame.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../file_io.hpp"
#include "codecs.hpp"

namespace zest::cli::formats {

namespace {

// zstd's frame layout: linked 64 KiB blocks, fed a block at a time.
constexpr std::size_t block_size = 64 * 1024;

std::string lz4_reason(std::size_t code) {
    std::string name = LZ4F_getErrorName(code);
    if (name.starts_with("ERROR_")) name.erase(0, 6);
    return name;
}

class lz4_encoder {
public:
    lz4_encoder() { ok_ = !LZ4F_isError(LZ4F_createCompressionContext(&ctx_, LZ4F_VERSION)); }
    ~lz4_encoder() {
        if (ok_) LZ4F_freeCompressionContext(ctx_);
    }
    lz4_encoder(const lz4_encoder&) = delete;
    lz4_encoder& operator=(const lz4_encoder&) = delete;
    bool ok() const { return ok_; }
    LZ4F_cctx* get() { return ctx_; }

private:
    LZ4F_cctx* ctx_ = nullptr;
    bool ok_ = false;
};

class lz4_decoder {
public:
    lz4_decoder() { ok_ = !LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION)); }
    ~lz4_decoder() {
        if (ok_) LZ4F_freeDecompressionContext(ctx_);
    }
    lz4_decoder(const lz4_decoder&) = delete;
    lz4_decoder& operator=(const lz4_decoder&) = delete;
    bool ok() const { return ok_; }
    LZ4F_dctx* get() { return ctx_; }

private:
    LZ4F_dctx* ctx_ = nullptr;
    bool ok_ = false;
};

}  // namespace

void encode_lz4(const encode_settings& settings, format_io& io, const std::string& subject) {
    LZ4F_preferences_t prefs{};
    // As zstd: the level as it is (below 3 liblz4's fast modes, 3 to 12 HC,
    // higher is 12), no flush per call, a content checksum unless --no-check.
    prefs.compressionLevel = settings.level;
    prefs.autoFlush = 0;
    prefs.frameInfo.blockMode = LZ4F_blockLinked;
    prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    prefs.frameInfo.contentChecksumFlag = settings.checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
    const bool declare_size = settings.size && settings.content_size;
    prefs.frameInfo.contentSize = declare_size ? *settings.size : 0;

    lz4_encoder enc;
    if (!enc.ok()) throw file_error(subject, "cannot start lz4 compression (out of memory?)");
    std::vector<std::byte> out(std::max<std::size_t>(LZ4F_compressBound(block_size, &prefs), LZ4F_HEADER_SIZE_MAX));
    const auto check = [&](std::size_t r) {
        if (LZ4F_isError(r)) throw file_error(subject, "lz4 compression failed (" + lz4_reason(r) + ")");
        io.emit(std::span<const std::byte>(out.data(), r));
    };
    check(LZ4F_compressBegin(enc.get(), out.data(), out.size(), &prefs));
    std::uint64_t total = 0;
    for (;;) {
        std::span<const std::byte> in = io.pending();
        if (in.empty()) {
            if (!io.refill()) break;
            in = io.pending();
        }
        in = in.first(std::min(in.size(), block_size));
        check(LZ4F_compressUpdate(enc.get(), out.data(), out.size(), in.data(), in.size(), nullptr));
        io.consume(in.size());
        total += in.size();
    }
    // A declared size must be the true one, or the frame would not decode.
    if (declare_size && total != *settings.size) throw file_error(subject, "file changed size while being compressed");
    check(LZ4F_compressEnd(enc.get(), out.data(), out.size(), nullptr));
}

void decode_lz4(format_io& io, const std::string& subject) {
    lz4_decoder dec;
    if (!dec.ok()) throw file_error(subject, "cannot start lz4 decompression (out of memory?)");
    bool output_full = false;  // the decoder may still hold output for an empty input
    for (;;) {
        std::span<const std::byte> in = io.pending();
        if (in.empty() && !output_full) {
            if (!io.refill()) throw file_error(subject, "truncated lz4 data (the input ends inside a frame)");
            in = io.pending();
        }
        const std::span<std::byte> out = io.scratch();
        std::size_t produced = out.size();
        std::size_t taken = in.size();
        const std::size_t hint = LZ4F_decompress(dec.get(), out.data(), &produced, in.data(), &taken, nullptr);
        if (LZ4F_isError(hint)) throw file_error(subject, "corrupt lz4 data (" + lz4_reason(hint) + ")");
        io.emit(out.first(produced));
        io.consume(taken);
        output_full = produced == out.size();
        if (hint == 0) return;  // the frame is complete; what follows stays pending
    }
}

}  // namespace zest::cli::formats
