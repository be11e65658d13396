// Round-trip properties on seeded pseudo-random inputs: many shapes (noise,
// small alphabets, runs, repeated chunks near and far, mixtures) and sizes
// (0 to a few blocks), at levels drawn across the whole range.
#include <random>
#include <string>

#include "roundtrip_check.hpp"

namespace {

using bytes = std::vector<std::byte>;

bytes generate(std::mt19937_64& rng, std::size_t n) {
    bytes out;
    out.reserve(n);
    const auto b = [](unsigned v) { return std::byte(v & 0xFF); };
    while (out.size() < n) {
        const std::size_t left = n - out.size();
        const std::size_t len = std::min<std::size_t>(left, 1 + rng() % 4096);
        switch (rng() % 6) {
            case 0:  // noise
                for (std::size_t i = 0; i < len; ++i) out.push_back(b(unsigned(rng())));
                break;
            case 1: {  // a small alphabet
                const unsigned k = 2 + unsigned(rng() % 12), base = unsigned(rng() % 200);
                for (std::size_t i = 0; i < len; ++i) out.push_back(b(base + unsigned(rng() % k)));
                break;
            }
            case 2:  // a run
                out.insert(out.end(), len, b(unsigned(rng())));
                break;
            case 3:  // a copy of earlier bytes, near or far
                if (!out.empty()) {
                    const std::size_t from = rng() % out.size();
                    for (std::size_t i = 0; i < len; ++i) out.push_back(out[from + i % (out.size() - from)]);
                }
                break;
            case 4: {  // a short period (columnar-like)
                const unsigned period = 1 + unsigned(rng() % 16);
                bytes unit(period);
                for (auto& x : unit) x = b(unsigned(rng()));
                for (std::size_t i = 0; i < len; ++i) out.push_back(unit[i % period]);
                break;
            }
            default: {  // words
                static const char* const words[] = {"the ", "zest ", "frame ", "block ", "offset ", "\n", "{\"id\":", "42,"};
                while (out.size() < n && len > 0) {
                    const char* w = words[rng() % 8];
                    for (; *w && out.size() < n; ++w) out.push_back(std::byte(*w));
                    if (rng() % 8 == 0) break;
                }
                break;
            }
        }
    }
    out.resize(n);
    return out;
}

class Property : public ::testing::TestWithParam<int> {};

TEST_P(Property, SeededInputsRoundTrip) {
    std::mt19937_64 rng(0x5EED0000u + unsigned(GetParam()));
    zest::compressor c;
    for (int i = 0; i < 12; ++i) {
        const std::size_t sizes[] = {0, 1, 2, 3, 7, 64, 255, 256, 1000, 4096, 65536, 131072, 131073, 300000};
        const std::size_t n = rng() % 3 == 0 ? sizes[rng() % std::size(sizes)] : rng() % 400000;
        const int level = int(rng() % 12) - 7;  // -7..4
        const bytes input = generate(rng, n);
        SCOPED_TRACE("size " + std::to_string(n) + ", level " + std::to_string(level == 0 ? 3 : level));
        zest::test::expect_roundtrip(c, input, {level, rng() % 2 == 0, rng() % 4 != 0});
    }
}

INSTANTIATE_TEST_SUITE_P(Seeds, Property, ::testing::Range(0, 24));

}  // namespace
