// gzip through zlib's streaming deflate/inflate. zlib rather than the faster
// libdeflate: libdeflate only works on whole buffers, and a pipe or a large
// file must stream in bounded memory (docs/cli.md has the measurements).
#include <zlib.h>

#include <string>

#include "../file_io.hpp"
#include "codecs.hpp"

namespace zest::cli::formats {

namespace {

// zlib's window, plus 16: a gzip header and trailer instead of zlib's.
constexpr int gzip_window_bits = 15 + 16;

Bytef* bytes(std::span<const std::byte> s) {
    // zlib's next_in is not const-qualified, though inflate and deflate only read it.
    return reinterpret_cast<Bytef*>(const_cast<std::byte*>(s.data()));
}

std::string zlib_reason(const z_stream& s, int code) {
    if (code == Z_MEM_ERROR) return "out of memory";
    return s.msg ? std::string(s.msg) : "zlib error " + std::to_string(code);
}

class deflater {
public:
    explicit deflater(int level) {
        // As zstd: zlib's window and memory level, gzip's framing, no name
        // or time stored (zlib's default header).
        ok_ = deflateInit2(&s_, level, Z_DEFLATED, gzip_window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    }
    ~deflater() {
        if (ok_) deflateEnd(&s_);
    }
    deflater(const deflater&) = delete;
    deflater& operator=(const deflater&) = delete;
    bool ok() const { return ok_; }
    z_stream& stream() { return s_; }

private:
    z_stream s_{};
    bool ok_ = false;
};

class inflater {
public:
    inflater() { ok_ = inflateInit2(&s_, gzip_window_bits) == Z_OK; }
    ~inflater() {
        if (ok_) inflateEnd(&s_);
    }
    inflater(const inflater&) = delete;
    inflater& operator=(const inflater&) = delete;
    bool ok() const { return ok_; }
    z_stream& stream() { return s_; }

private:
    z_stream s_{};
    bool ok_ = false;
};

}  // namespace

void encode_gzip(const encode_settings& settings, format_io& io, const std::string& subject) {
    // zstd's mapping: levels above 9 are 9; -1 (--fast) is zlib's default, 6.
    const int level = settings.level > Z_BEST_COMPRESSION ? Z_BEST_COMPRESSION : settings.level;
    deflater d(level);
    if (!d.ok()) throw file_error(subject, "cannot start gzip compression (out of memory?)");
    z_stream& s = d.stream();
    for (;;) {
        std::span<const std::byte> in = io.pending();
        const bool finish = in.empty() && !io.refill();
        if (!finish) in = io.pending();
        s.next_in = bytes(in);
        s.avail_in = static_cast<uInt>(in.size());
        for (;;) {
            const std::span<std::byte> out = io.scratch();
            s.next_out = reinterpret_cast<Bytef*>(out.data());
            s.avail_out = static_cast<uInt>(out.size());
            const int r = deflate(&s, finish ? Z_FINISH : Z_NO_FLUSH);
            if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) throw file_error(subject, zlib_reason(s, r));
            io.emit(out.first(out.size() - s.avail_out));
            if (r == Z_STREAM_END) return;
            if (!finish && s.avail_in == 0 && s.avail_out != 0) break;  // all taken, all given out
        }
        io.consume(in.size());
    }
}

void decode_gzip(format_io& io, const std::string& subject) {
    inflater d;
    if (!d.ok()) throw file_error(subject, "cannot start gzip decompression (out of memory?)");
    z_stream& s = d.stream();
    for (;;) {
        std::span<const std::byte> in = io.pending();
        if (in.empty()) {
            if (!io.refill()) throw file_error(subject, "truncated gzip data (the input ends inside a member)");
            in = io.pending();
        }
        s.next_in = bytes(in);
        s.avail_in = static_cast<uInt>(in.size());
        int r;
        do {
            const std::span<std::byte> out = io.scratch();
            s.next_out = reinterpret_cast<Bytef*>(out.data());
            s.avail_out = static_cast<uInt>(out.size());
            r = inflate(&s, Z_NO_FLUSH);
            // Z_BUF_ERROR only says that no progress was possible: more input is needed.
            if (r == Z_NEED_DICT) throw file_error(subject, "corrupt gzip data (a preset dictionary is required)");
            if ((r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) || (r == Z_BUF_ERROR && s.avail_in != 0))
                throw file_error(subject, r == Z_MEM_ERROR ? zlib_reason(s, r) : "corrupt gzip data (" + zlib_reason(s, r) + ")");
            io.emit(out.first(out.size() - s.avail_out));
        } while (r != Z_STREAM_END && (s.avail_out == 0 || s.avail_in != 0));
        // What follows the member (another member, another format) stays pending.
        io.consume(in.size() - s.avail_in);
        if (r == Z_STREAM_END) return;
    }
}

}  // namespace zest::cli::formats
