// .xz and the legacy .lzma format through liblzma's streaming coders.
#include <lzma.h>

#include <string>

#include "../file_io.hpp"
#include "codecs.hpp"

namespace zest::cli::formats {

namespace {

class lzma_coder {
public:
    lzma_coder() = default;
    ~lzma_coder() { lzma_end(&s_); }
    lzma_coder(const lzma_coder&) = delete;
    lzma_coder& operator=(const lzma_coder&) = delete;
    lzma_stream& stream() { return s_; }

private:
    lzma_stream s_ = LZMA_STREAM_INIT;
};

std::string mib(std::uint64_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

std::string decode_reason(lzma_ret r, const char* name, lzma_stream& s, std::uint64_t memory_limit) {
    switch (r) {
        case LZMA_MEM_ERROR: return "out of memory";
        case LZMA_MEMLIMIT_ERROR:
            return std::string(name) + " data needs " + mib(lzma_memusage(&s)) + " of memory, more than the limit of " +
                   mib(memory_limit) + " (use --memory=# to raise it)";
        case LZMA_FORMAT_ERROR: return std::string("not ") + name + " data (bad header)";
        case LZMA_OPTIONS_ERROR: return std::string("unsupported ") + name + " options";
        case LZMA_BUF_ERROR: return std::string("truncated ") + name + " data";
        default: return std::string("corrupt ") + name + " data";
    }
}

}  // namespace

void encode_lzma(bool xz, const encode_settings& settings, format_io& io, const std::string& subject) {
    // zstd's mapping: the level, held within xz's presets 0 to 9.
    const std::uint32_t preset = settings.level < 0 ? 0u : settings.level > 9 ? 9u : static_cast<std::uint32_t>(settings.level);
    lzma_coder coder;
    lzma_stream& s = coder.stream();
    lzma_ret r;
    if (xz) {
        r = lzma_easy_encoder(&s, preset, LZMA_CHECK_CRC64);
    } else {
        lzma_options_lzma opt{};
        if (lzma_lzma_preset(&opt, preset)) throw file_error(subject, "no lzma preset " + std::to_string(preset));
        r = lzma_alone_encoder(&s, &opt);
    }
    if (r == LZMA_MEM_ERROR) throw file_error(subject, "out of memory");
    if (r != LZMA_OK) throw file_error(subject, "cannot start " + std::string(xz ? "xz" : "lzma") + " compression");
    for (;;) {
        std::span<const std::byte> in = io.pending();
        const bool finish = in.empty() && !io.refill();
        if (!finish) in = io.pending();
        s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
        s.avail_in = in.size();
        for (;;) {
            const std::span<std::byte> out = io.scratch();
            s.next_out = reinterpret_cast<std::uint8_t*>(out.data());
            s.avail_out = out.size();
            r = lzma_code(&s, finish ? LZMA_FINISH : LZMA_RUN);
            if (r != LZMA_OK && r != LZMA_STREAM_END)
                throw file_error(subject, r == LZMA_MEM_ERROR ? "out of memory" : "lzma compression failed");
            io.emit(out.first(out.size() - s.avail_out));
            if (r == LZMA_STREAM_END) return;
            if (!finish && s.avail_in == 0 && s.avail_out != 0) break;
        }
        io.consume(in.size());
    }
}

void decode_lzma(bool xz, format_io& io, std::uint64_t memory_limit, const std::string& subject) {
    const char* name = xz ? "xz" : "lzma";
    lzma_coder coder;
    lzma_stream& s = coder.stream();
    // One stream at a time, as zstd: the caller looks at what follows (a
    // further stream, or another format).
    lzma_ret r = xz ? lzma_stream_decoder(&s, memory_limit, 0) : lzma_alone_decoder(&s, memory_limit);
    if (r != LZMA_OK) throw file_error(subject, decode_reason(r, name, s, memory_limit));
    for (;;) {
        std::span<const std::byte> in = io.pending();
        if (in.empty()) {
            if (!io.refill()) throw file_error(subject, std::string("truncated ") + name + " data (the input ends inside a stream)");
            in = io.pending();
        }
        s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
        s.avail_in = in.size();
        do {
            const std::span<std::byte> out = io.scratch();
            s.next_out = reinterpret_cast<std::uint8_t*>(out.data());
            s.avail_out = out.size();
            r = lzma_code(&s, LZMA_RUN);
            // LZMA_BUF_ERROR with LZMA_RUN: no progress possible for now, more input needed.
            if ((r != LZMA_OK && r != LZMA_STREAM_END && r != LZMA_BUF_ERROR) || (r == LZMA_BUF_ERROR && s.avail_in != 0))
                throw file_error(subject, decode_reason(r == LZMA_BUF_ERROR ? LZMA_DATA_ERROR : r, name, s, memory_limit));
            io.emit(out.first(out.size() - s.avail_out));
        } while (r != LZMA_STREAM_END && (s.avail_out == 0 || s.avail_in != 0));
        io.consume(in.size() - s.avail_in);
        if (r == LZMA_STREAM_END) return;
    }
}

}  // namespace zest::cli::formats
