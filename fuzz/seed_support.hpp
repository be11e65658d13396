// Shared pieces of the seed generators (fuzz/make_seeds.cpp and
// fuzz/seeds_*.cpp): data shapes, frames written with libzstd, and a writer
// of seed files. Header-only: every generator is one translation unit of
// the same program, and none of this is worth a library.
#pragma once

#define ZSTD_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace zest_seeds {

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

inline bytes text(std::size_t n, std::uint64_t seed) {
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
inline bytes records(std::size_t n, std::uint64_t seed) {
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

inline bytes random_bytes(std::size_t n, std::uint64_t seed) {
    rng r{seed};
    bytes out(n);
    for (auto& b : out) b = static_cast<unsigned char>(r.next());
    return out;
}

inline bytes zeros(std::size_t n) { return bytes(n, 0); }

// Text, random and zero runs interleaved: raw, RLE and compressed blocks.
inline bytes mixed(std::size_t n, std::uint64_t seed) {
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
inline bytes periodic(std::size_t n, std::uint64_t seed) {
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

// Small JSON-like messages sharing their keys and much of their values, the
// kind of data dictionaries are trained for.
inline std::vector<bytes> messages(std::size_t count, std::uint64_t seed) {
    static const char* const names[] = {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"};
    static const char* const events[] = {"login", "logout", "purchase", "refund", "view", "search"};
    rng r{seed};
    std::vector<bytes> out;
    for (std::size_t i = 0; i < count; ++i) {
        std::string m = "{\"id\":" + std::to_string(100000 + r.below(900000)) + ",\"user\":\"" +
                        names[r.below(8)] + "\",\"event\":\"" + events[r.below(6)] +
                        "\",\"ts\":" + std::to_string(1700000000 + r.below(1000000)) + ",\"tags\":[";
        for (unsigned t = 0, n = r.below(5); t < n; ++t) m += (t ? ",\"" : "\"") + std::string(names[r.below(8)]) + "\"";
        m += "],\"amount\":" + std::to_string(r.below(100000) / 100.0) + "}";
        out.emplace_back(m.begin(), m.end());
    }
    return out;
}

// A dictionary of at most `capacity` bytes trained by libzstd's ZDICT on
// `samples`; empty when training fails (too few samples for the size).
inline bytes trained_dictionary(const std::vector<bytes>& samples, std::size_t capacity) {
    bytes all;
    std::vector<std::size_t> sizes;
    for (const bytes& s : samples) {
        all.insert(all.end(), s.begin(), s.end());
        sizes.push_back(s.size());
    }
    bytes dict(capacity);
    const std::size_t n = ZDICT_trainFromBuffer(dict.data(), dict.size(), all.data(), sizes.data(),
                                                static_cast<unsigned>(sizes.size()));
    if (ZDICT_isError(n)) {
        std::fprintf(stderr, "training a %zu-byte dictionary: %s\n", capacity, ZDICT_getErrorName(n));
        return {};
    }
    dict.resize(n);
    return dict;
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

inline bytes compress(const bytes& src, const params& p) {
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
inline bytes stream_compress(const bytes& src, int level, unsigned max_chunk, unsigned flush_every, bool pledge,
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

// One frame with a dictionary, loaded as ZSTD_CCtx_loadDictionary does
// (formatted when it starts with the magic number, raw content otherwise).
inline bytes compress_with_dictionary(const bytes& src, const bytes& dict, int level, bool checksum = false,
                                      bool dict_id = true, bool content_size = true) {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum);
    ZSTD_CCtx_setParameter(c, ZSTD_c_dictIDFlag, dict_id);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, content_size);
    bytes out(ZSTD_compressBound(src.size()));
    std::size_t n = ZSTD_CCtx_loadDictionary(c, dict.data(), dict.size());
    if (!ZSTD_isError(n)) n = ZSTD_compress2(c, out.data(), out.size(), src.data(), src.size());
    ZSTD_freeCCtx(c);
    if (ZSTD_isError(n)) {
        std::fprintf(stderr, "compress with a dictionary: %s\n", ZSTD_getErrorName(n));
        return {};
    }
    out.resize(n);
    return out;
}

inline void put_le32(bytes& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

inline bytes skippable(unsigned nibble, const bytes& payload) {
    bytes out;
    put_le32(out, 0x184D2A50u + nibble);
    put_le32(out, static_cast<std::uint32_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

inline bytes cat(std::initializer_list<bytes> parts) {
    bytes out;
    for (const bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

inline bytes from_hex(const char* hex) {
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
    explicit writer(std::filesystem::path dir) : dir_(std::move(dir)) { std::filesystem::create_directories(dir_); }
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

// The generators, one per fuzzer; each writes its corpus into `dir`.
void write_decompress_seeds(const std::filesystem::path& dir);
void write_stream_seeds(const std::filesystem::path& dir);
void write_roundtrip_seeds(const std::filesystem::path& dir);
void write_dictionary_seeds(const std::filesystem::path& dir);

}  // namespace zest_seeds
