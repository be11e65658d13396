// Writes the seed corpus of the decompression fuzzer: conformance-like
// frames of many shapes, produced with libzstd at run time (nothing binary
// is kept in the repository). Usage: zest_fuzz_seeds OUTPUT_DIR
//
// Shapes: levels -5..19, with and without checksum and content size, small
// windows (block maximum below 128 KiB), many small blocks (streaming with
// flushes, target block size), raw and RLE blocks, uncompressed literals,
// long-distance matching, skippable frames, concatenations, tiny and empty
// inputs, and a few frames written by hand for cases no encoder produces.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using bytes = std::vector<unsigned char>;

struct rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    unsigned below(unsigned n) { return unsigned(next() % n); }
};

// --- inputs ------------------------------------------------------------------

bytes text(std::size_t n, std::uint64_t seed) {
    static const char* const words[] = {"the",   "quick",     "brown",   "fox",     "jumps",   "over",     "lazy",
                                        "dog",   "zstandard", "frame",   "block",   "literal", "sequence", "offset",
                                        "match", "window",    "huffman", "entropy", "table",   "stream"};
    rng r{seed};
    bytes out;
    while (out.size() < n) {
        const char* w = words[r.below(20)];
        out.insert(out.end(), w, w + std::char_traits<char>::length(w));
        out.push_back(r.below(12) == 0 ? '\n' : ' ');
    }
    out.resize(n);
    return out;
}

// Fixed-width little-endian records (matches at offsets 4, 8, 16).
bytes records(std::size_t n, std::uint64_t seed) {
    rng r{seed};
    bytes out;
    std::uint32_t id = 1000, ts = 1700000000;
    while (out.size() < n) {
        const std::uint32_t fields[4] = {id++, ts += r.below(3), r.below(4), r.below(100) * 7};
        for (std::uint32_t f : fields)
            for (int b = 0; b < 4; ++b) out.push_back(static_cast<unsigned char>(f >> (8 * b)));
    }
    out.resize(n);
    return out;
}

bytes random_bytes(std::size_t n, std::uint64_t seed) {
    rng r{seed};
    bytes out(n);
    for (auto& b : out) b = static_cast<unsigned char>(r.next());
    return out;
}

bytes zeros(std::size_t n) { return bytes(n, 0); }

// Text, random and zero runs interleaved: raw, RLE and compressed blocks.
bytes mixed(std::size_t n, std::uint64_t seed) {
    rng r{seed};
    bytes out;
    while (out.size() < n) {
        const std::size_t k = 1 + r.below(6000);
        bytes part = r.below(3) == 0 ? random_bytes(k, r.next()) : r.below(2) ? text(k, r.next()) : bytes(k, 'z');
        out.insert(out.end(), part.begin(), part.end());
    }
    out.resize(n);
    return out;
}

// Short period patterns (offsets 1..15, for the pattern-copy paths).
bytes periodic(std::size_t n, std::uint64_t seed) {
    rng r{seed};
    bytes out;
    while (out.size() < n) {
        const unsigned period = 1 + r.below(15);
        bytes pat = random_bytes(period, r.next());
        for (std::size_t k = 0, len = 16 + r.below(400); k < len; ++k) out.push_back(pat[k % period]);
        out.push_back(static_cast<unsigned char>(r.next()));
    }
    out.resize(n);
    return out;
}

// --- frames ------------------------------------------------------------------

struct params {
    int level = 3;
    bool checksum = false;
    bool content_size = true;
    int window_log = 0;
    int target_block = 0;
    int literal_mode = 0;  // ZSTD_ps_auto / enable (huffman) / disable (raw)
    bool ldm = false;
};

bytes compress(const bytes& src, const params& p) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, p.level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, p.checksum);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, p.content_size);
    if (p.window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, p.window_log);
    if (p.target_block) ZSTD_CCtx_setParameter(c, ZSTD_c_targetCBlockSize, p.target_block);
    if (p.literal_mode) ZSTD_CCtx_setParameter(c, ZSTD_c_literalCompressionMode, p.literal_mode);
    if (p.ldm) ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1);
    bytes out(ZSTD_compressBound(src.size()));
    const std::size_t n = ZSTD_compress2(c, out.data(), out.size(), src.data(), src.size());
    ZSTD_freeCCtx(c);
    if (ZSTD_isError(n)) {
        std::fprintf(stderr, "compress: %s\n", ZSTD_getErrorName(n));
        return {};
    }
    out.resize(n);
    return out;
}

// Streaming: chunks of 1..max_chunk bytes, a flush every `flush_every`
// chunks (many small blocks, some empty), no pledged size unless asked.
bytes stream_compress(const bytes& src, int level, unsigned max_chunk, unsigned flush_every, bool pledge,
                      int window_log, std::uint64_t seed) {
    rng r{seed};
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    if (window_log) ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log);
    if (pledge) ZSTD_CCtx_setPledgedSrcSize(c, src.size());
    bytes out;
    bytes buf(ZSTD_CStreamOutSize());
    std::size_t pos = 0;
    unsigned chunk = 0;
    for (;;) {
        const std::size_t k = std::min<std::size_t>(src.size() - pos, 1 + r.below(max_chunk));
        ZSTD_inBuffer in{src.data() + pos, k, 0};
        const bool end = pos + k == src.size();
        const ZSTD_EndDirective mode = end                                           ? ZSTD_e_end
                                       : (flush_every && ++chunk % flush_every == 0) ? ZSTD_e_flush
                                                                                     : ZSTD_e_continue;
        std::size_t left;
        do {
            ZSTD_outBuffer o{buf.data(), buf.size(), 0};
            left = ZSTD_compressStream2(c, &o, &in, mode);
            if (ZSTD_isError(left)) {
                std::fprintf(stderr, "stream: %s\n", ZSTD_getErrorName(left));
                ZSTD_freeCCtx(c);
                return {};
            }
            out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(o.pos));
        } while (in.pos < in.size || (mode != ZSTD_e_continue && left != 0));
        pos += k;
        if (end) break;
    }
    ZSTD_freeCCtx(c);
    return out;
}

void put_le32(bytes& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

bytes skippable(unsigned nibble, const bytes& payload) {
    bytes out;
    put_le32(out, 0x184D2A50u + nibble);
    put_le32(out, static_cast<std::uint32_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

bytes cat(std::initializer_list<bytes> parts) {
    bytes out;
    for (const bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

bytes from_hex(const char* hex) {
    bytes out;
    int high = -1;
    for (const char* p = hex; *p; ++p) {
        if (*p == ' ') continue;
        const int v = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
        if (high < 0) {
            high = v;
        } else {
            out.push_back(static_cast<unsigned char>(high << 4 | v));
            high = -1;
        }
    }
    return out;
}

class writer {
public:
    explicit writer(std::filesystem::path dir) : dir_(std::move(dir)) {}
    void operator()(const std::string& name, const bytes& data) {
        if (data.empty()) return;
        std::ofstream(dir_ / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
        ++count_;
        total_ += data.size();
    }
    ~writer() { std::printf("%zu seeds, %zu bytes in %s\n", count_, total_, dir_.c_str()); }

private:
    std::filesystem::path dir_;
    std::size_t count_ = 0, total_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    std::filesystem::create_directories(argv[1]);
    writer put(argv[1]);

    const struct {
        const char* name;
        bytes data;
    } inputs[] = {
        {"text", text(20000, 1)},     {"records", records(12000, 2)}, {"random", random_bytes(3000, 3)},
        {"zeros", zeros(50000)},      {"mixed", mixed(40000, 4)},     {"periodic", periodic(16000, 5)},
        {"bigtext", text(300000, 6)}, {"bigmixed", mixed(400000, 7)},
    };

    // Every level on the medium inputs, checksum and content size alternating.
    for (const auto& in : inputs) {
        if (in.data.size() > 100000) continue;
        for (int level = -5; level <= 19; ++level) {
            params p;
            p.level = level;
            p.checksum = (level & 1) != 0;
            p.content_size = (level % 3) != 0;
            put(std::string(in.name) + "_l" + std::to_string(level), compress(in.data, p));
        }
    }
    // Multi-block frames (blocks of 128 KiB, repeat tables and treeless literals).
    for (const auto& in : inputs) {
        if (in.data.size() <= 100000) continue;
        for (int level : {1, 3, 7, 19}) {
            params p;
            p.level = level;
            p.checksum = true;
            put(std::string(in.name) + "_l" + std::to_string(level), compress(in.data, p));
        }
    }
    // Small windows: Block_Maximum_Size below 128 KiB.
    for (int wlog : {10, 11, 12, 14, 16}) {
        for (const char* which : {"text", "mixed", "records"}) {
            for (const auto& in : inputs) {
                if (std::string(in.name) != which) continue;
                params p;
                p.level = wlog == 10 ? 19 : 5;
                p.window_log = wlog;
                p.checksum = true;
                p.content_size = wlog != 12;  // without content size the window descriptor is kept
                put(std::string(which) + "_w" + std::to_string(wlog), compress(in.data, p));
                put(std::string(which) + "_w" + std::to_string(wlog) + "_stream",
                    stream_compress(in.data, 3, 700, 3, false, wlog, wlog));
            }
        }
    }
    // Many small blocks.
    put("text_target_block", [&] {
        params p;
        p.target_block = 1340;
        return compress(inputs[0].data, p);
    }());
    put("mixed_target_block", [&] {
        params p;
        p.target_block = 2000;
        p.level = 12;
        return compress(inputs[4].data, p);
    }());
    // Literal modes: raw literals everywhere, Huffman forced.
    for (int mode : {ZSTD_ps_enable, ZSTD_ps_disable}) {
        for (int level : {-3, 1, 9}) {
            params p;
            p.level = level;
            p.literal_mode = mode;
            put(std::string(mode == ZSTD_ps_enable ? "huf" : "rawlit") + "_l" + std::to_string(level),
                compress(inputs[4].data, p));
        }
    }
    put("ldm_bigmixed", [&] {
        params p;
        p.ldm = true;
        p.window_log = 20;
        p.level = 5;
        return compress(inputs[7].data, p);
    }());
    // Streaming frames: no content size, flushes (empty and tiny blocks).
    put("stream_text_flush1", stream_compress(inputs[0].data, 3, 64, 1, false, 0, 11));
    put("stream_text_flush7", stream_compress(inputs[0].data, 9, 2000, 7, false, 0, 12));
    put("stream_records", stream_compress(inputs[1].data, -1, 500, 2, false, 0, 13));
    put("stream_periodic_pledged", stream_compress(inputs[5].data, 6, 3000, 0, true, 0, 14));
    put("stream_zeros", stream_compress(inputs[3].data, 1, 9000, 2, false, 0, 15));
    put("stream_random", stream_compress(inputs[2].data, 3, 1000, 1, false, 0, 16));
    // Tiny and empty inputs.
    for (std::size_t n : {0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 64, 100, 255, 256, 257, 1000}) {
        params p;
        p.checksum = n % 2 == 1;
        p.level = n % 3 == 0 ? 19 : 3;
        put("tiny_text" + std::to_string(n), compress(text(n, n), p));
        put("tiny_periodic" + std::to_string(n), compress(periodic(n, n), p));
        if (n < 64) put("tiny_random" + std::to_string(n), compress(random_bytes(n, n), p));
        if (n == 0) put("empty_stream", stream_compress(bytes{}, 3, 1, 0, false, 0, 1));
    }
    // Skippable frames and concatenations.
    const bytes a = compress(inputs[0].data, {});
    const bytes b = compress(inputs[5].data, {.level = 19, .checksum = true});
    const bytes t = compress(text(40, 9), {.level = 1, .checksum = false, .content_size = false});
    put("skippable_empty", skippable(0, {}));
    put("skippable_payload", skippable(15, text(100, 3)));
    put("concat_two", cat({a, b}));
    put("concat_skippable", cat({skippable(3, {}), t, skippable(7, random_bytes(20, 1)), b, t}));
    put("concat_tiny", cat({t, t, t, compress(bytes{}, {}), t}));
    put("concat_stream", cat({stream_compress(inputs[1].data, 3, 300, 1, false, 0, 2), t}));

    // Hand-made frames (cases no encoder writes; from the format's errata and
    // the reference's permissiveness notes, and simple block types).
    put("hand_empty_compressed_block", from_hex("28b52ffd 2000 150000 0000"));
    put("hand_rle_first", from_hex("28b52ffda00100020002001000 0b000000"));
    put("hand_tiny_fse_table", from_hex("28b52ffd2027c5000080f3f1f0ecebc6c5c7f09d4300 0000e0e0065801 00603e52"));
    put("hand_truncated_huffman_states", from_hex("28b52ffd00005500007280010420 7e1f02aa00"));
    put("hand_offset_zero", from_hex("28b52ffd000045000008000200 2f430bae"));
    // 4-stream Huffman literals of 6 bytes (the least the format allows) and of 4 (invalid).
    put("hand_four_streams_6_literals", from_hex("28b52ffd0000 850000 660003 8010 010001000100 04040401 00"));
    put("hand_four_streams_4_literals", from_hex("28b52ffd0000 850000 460003 8010 010001000100 02020202 00"));
    // Single segment, 1-byte content size, one raw block of 5 bytes, checksum-less.
    put("hand_ss_raw", from_hex("28b52ffd2005290000 68656c6c6f"));
    // Window 1 KiB, an RLE block of 1024 bytes and a raw block of 3, content size 2 bytes.
    put("hand_rle_raw", from_hex("28b52ffd 40 00 0303 022000 41 190000 616263"));
    return 0;
}
