// stream_cases DIR [--large]
//
// Writes the inputs of the streaming-decompression contract tests
// (stream_loop.c, stream_diff.c): for each case NAME, DIR/NAME.zst (frames
// written by libzstd) and DIR/NAME.raw (what they decode to), and
// DIR/manifest listing "NAME CLASS" per line. CLASS tells the test programs
// how many buffer patterns the case can afford: "small" (every pattern, down
// to one byte in and out), "medium" (every pattern) or "large" (the client's
// usual buffer sizes only).
//
// The cases: every corpus shape with and without a checksum (one block and
// many), frames written by streaming with flushes (many small blocks, no
// declared size), raw and RLE blocks, small windows (the window buffer
// wraps), concatenated frames with skippable frames and empty frames between
// them, a lone skippable frame, and with --large the 20,000,000
// bytes at level 1 without a checksum.
#include <zstd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "frames.hpp"

namespace {

using zest::test::bytes;

struct settings {
    int level = 3;
    bool checksum = false;
    int window_log = 0;
    bool streamed = false;       // ZSTD_compressStream2 with a flush every `flush_every` bytes
    std::size_t flush_every = 0;
};

bytes compress(std::span<const std::byte> src, const settings& s) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, s.level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, s.checksum ? 1 : 0);
    if (s.window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, s.window_log);
    bytes out;
    if (!s.streamed) {
        out.resize(ZSTD_compressBound(src.size()));
        const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), src.data(), src.size());
        if (ZSTD_isError(n)) throw std::runtime_error(ZSTD_getErrorName(n));
        out.resize(n);
    } else {
        std::vector<std::byte> buf(ZSTD_CStreamOutSize());
        std::size_t at = 0;
        for (;;) {
            const std::size_t piece = std::min(s.flush_every, src.size() - at);
            const bool last = at + piece == src.size();
            ZSTD_inBuffer in{src.data() + at, piece, 0};
            std::size_t left;
            do {
                ZSTD_outBuffer o{buf.data(), buf.size(), 0};
                left = ZSTD_compressStream2(c, &o, &in, last ? ZSTD_e_end : ZSTD_e_flush);
                if (ZSTD_isError(left)) throw std::runtime_error(ZSTD_getErrorName(left));
                out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
            } while (left != 0 || in.pos < in.size);
            at += piece;
            if (last) break;
        }
    }
    ZSTD_freeCCtx(c);
    return out;
}

class writer {
public:
    explicit writer(std::string dir) : dir_(std::move(dir)), manifest_(dir_ + "/manifest") {
        if (!manifest_) throw std::runtime_error("cannot write " + dir_ + "/manifest");
    }
    void add(const std::string& name, const char* cls, std::span<const std::byte> frames,
             std::span<const std::byte> raw) {
        put(dir_ + "/" + name + ".zst", frames);
        put(dir_ + "/" + name + ".raw", raw);
        manifest_ << name << ' ' << cls << '\n';
        ++count_;
    }
    int count() const { return count_; }

private:
    static void put(const std::string& path, std::span<const std::byte> data) {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
        if (!f) throw std::runtime_error("cannot write " + path);
    }
    std::string dir_;
    std::ofstream manifest_;
    int count_ = 0;
};

const char* size_class(std::size_t raw_size) { return raw_size <= 64 * 1024 ? "small" : "medium"; }

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: stream_cases DIR [--large]\n");
        return 2;
    }
    const bool large = argc > 2 && std::string(argv[2]) == "--large";
    try {
        std::filesystem::remove_all(argv[1]);
        std::filesystem::create_directories(argv[1]);
        writer w(argv[1]);
        for (const auto& shape : zest::test::corpus_shapes()) {
            if (!shape.every_setting) continue;
            const bytes raw = shape.generate();
            const char* cls = size_class(raw.size());
            w.add(shape.name + "_check", cls, compress(raw, {3, true}), raw);
            w.add(shape.name + "_nocheck", cls, compress(raw, {1, false}), raw);
        }
        const bytes text = zest::test::corpus_shape("text").generate();
        const bytes json = zest::test::corpus_shape("json").generate();
        const bytes random = zest::test::corpus_shape("random").generate();
        const bytes small = zest::test::corpus_shape("small_json").generate();
        // Many small blocks and no declared size (a streaming writer that flushes).
        w.add("json_flushed_nocheck", "medium", compress(json, {3, false, 0, true, 9000}), json);
        w.add("json_flushed_check", "medium", compress(json, {3, true, 0, true, 9000}), json);
        // Raw blocks (incompressible), split by flushes at odd places.
        w.add("random_flushed_nocheck", "medium", compress(random, {1, false, 0, true, 50'001}), random);
        // Small windows: the window buffer wraps many times.
        w.add("text_wlog10_nocheck", "medium", compress(text, {3, false, 10}), text);
        w.add("text_wlog10_check", "medium", compress(text, {3, true, 10}), text);
        // Concatenated frames with skippable frames and empty frames among them.
        {
            bytes frames, raw;
            const auto both = [&](const bytes& f, std::span<const std::byte> r) {
                zest::test::append(frames, f);
                zest::test::append(raw, r);
            };
            both(compress(small, {3, false}), small);
            both(zest::test::skippable_frame(3, zest::test::to_bytes("a skippable frame's payload")), {});
            both(compress({}, {3, false}), {});
            both(compress(text, {1, false}), text);
            both(compress(random, {3, true}), random);
            both(zest::test::skippable_frame(0, {}), {});
            both(compress(small, {1, true}), small);
            both(compress(json, {3, false, 0, true, 70'000}), json);
            both(zest::test::skippable_frame(15, zest::test::to_bytes("the last frame is skippable")), {});
            w.add("concatenated", "medium", frames, raw);
        }
        w.add("skippable_only", "small", zest::test::skippable_frame(7, zest::test::to_bytes("nothing but this")),
              bytes{});
        if (large) {
            const bytes big = zest::test::mixed(20'000'000, 77);
            w.add("mixed_20000000_l1_nocheck", "large", compress(big, {1, false}), big);
        }
        std::printf("%d cases written to %s\n", w.count(), argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "stream_cases: %s\n", e.what());
        return 1;
    }
    return 0;
}
