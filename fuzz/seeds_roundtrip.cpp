// Seeds of the compression round-trip fuzzer (fuzz/compress_roundtrip_fuzzer.cpp),
// in its layout: byte 0 the level (value % 30 - 7), byte 1 the options (bit
// 0 checksum, bit 1 no content size, bit 2 a window log of 10 + (byte >> 4),
// bit 3 forced parameters), then when bit 3 is set four bytes of parameters
// and a seventh whose bit 0 turns long-distance matching on; then the data.
// Every level over a few data shapes, each strategy forced, windows, and
// long-distance matching.
#include "seed_support.hpp"

namespace zest_seeds {

namespace {

// The fuzzer's parameter bytes for the values wanted (0: the level's).
struct forced {
    unsigned strategy = 0, search_log = 0;       // 1..9, 1..9
    unsigned hash_log = 0, chain_log = 0;        // 6..24 each
    unsigned min_match = 0;                      // 3..7
    unsigned target_log = 0;                     // target length 2^(0..9), with `target`
    bool target = false;
    bool ldm = false;
    unsigned ldm_min_match_log = 0, ldm_hash_rate = 0, ldm_bucket_log = 1;  // 4 << 0..3, 0..7, 1..4
};

bytes input(int level, unsigned options, const bytes& data, const forced* f = nullptr) {
    bytes out{static_cast<unsigned char>(level + 7), static_cast<unsigned char>(options | (f ? 8 : 0))};
    if (f) {
        out.push_back(static_cast<unsigned char>(f->strategy | f->search_log << 4));
        // hash_log = 5 + b % 20 (0: the level's), chain_log = 5 + (b >> 3) % 20:
        // both from one byte, so only pairs the byte can hold are exact.
        unsigned b = 0;
        for (unsigned v = 0; v < 256; ++v) {
            const unsigned h = v % 20 == 0 ? 0 : 5 + v % 20, c = (v >> 3) % 20 == 0 ? 0 : 5 + (v >> 3) % 20;
            if (h == f->hash_log && c == f->chain_log) b = v;
        }
        out.push_back(static_cast<unsigned char>(b));
        // min_match = 2 + d % 6 (0: the level's); a target length when (d >> 3) % 4 != 0.
        const unsigned mm = f->min_match ? f->min_match - 2 : 0;
        unsigned d = 0;
        while (d % 6 != mm || ((d >> 3) % 4 != 0) != f->target) ++d;
        out.push_back(static_cast<unsigned char>(d));
        out.push_back(static_cast<unsigned char>(f->target_log));
        // The seventh byte is read as long-distance matching when its bit 0
        // is set, else as the data's first byte: an even one then.
        out.push_back(static_cast<unsigned char>(f->ldm ? 1 | f->ldm_min_match_log << 1 | f->ldm_hash_rate << 3 |
                                                              (f->ldm_bucket_log - 1) << 6
                                                        : 0));
    }
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

}  // namespace

void write_roundtrip_seeds(const std::filesystem::path& dir) {
    writer put(dir);
    const struct {
        const char* name;
        bytes data;
    } shapes[] = {{"text", text(8000, 51)},      {"records", records(6000, 52)}, {"mixed", mixed(12000, 53)},
                  {"periodic", periodic(4000, 54)}, {"random", random_bytes(1500, 55)}, {"zeros", zeros(9000)}};

    // Every level on two shapes, the others at a few levels; checksum and
    // content size alternating.
    for (int level = -7; level <= 22; ++level) {
        const unsigned options = (level & 1) | (level % 3 == 0 ? 2 : 0);
        put("text_l" + std::to_string(level), input(level, options, shapes[0].data));
        put("records_l" + std::to_string(level), input(level, options, shapes[1].data));
    }
    for (const auto& s : shapes)
        for (const int level : {-1, 3, 9, 19}) put(std::string(s.name) + "_l" + std::to_string(level), input(level, 1, s.data));

    // Windows from 2^10 to 2^25 on data longer than the small ones.
    const bytes long_mixed = mixed(150000, 56);
    for (unsigned w = 0; w < 16; w += 3)
        put("mixed_w" + std::to_string(10 + w), input(w % 2 ? 5 : 2, 4 | w << 4, long_mixed));

    // Each strategy forced with its own search and table sizes.
    for (unsigned strategy = 1; strategy <= 9; ++strategy) {
        forced f;
        f.strategy = strategy;
        f.search_log = 1 + strategy % 9;
        f.hash_log = 10 + strategy;
        f.chain_log = 8 + strategy;
        f.min_match = 3 + strategy % 5;
        f.target = strategy % 2 == 1;
        f.target_log = strategy;
        put("strategy" + std::to_string(strategy), input(3, 0, shapes[2].data, &f));
    }
    // Long-distance matching: a repeated stretch far apart.
    const bytes far = cat({text(3000, 57), random_bytes(70000, 58), text(3000, 57)});
    for (unsigned k = 0; k < 4; ++k) {
        forced f;
        f.ldm = true;
        f.ldm_min_match_log = k;
        f.ldm_hash_rate = k * 2;
        f.ldm_bucket_log = 1 + k;
        put("ldm" + std::to_string(k), input(k < 2 ? 3 : 16, 4 | 8u << 4, far, &f));
    }
    // Tiny and empty inputs.
    for (const std::size_t n : {0, 1, 3, 8, 33, 300}) put("tiny" + std::to_string(n), input(int(n % 20), 1, text(n, n)));
}

}  // namespace zest_seeds
