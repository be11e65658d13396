// Random dictionaries, in the manner of the reference's frame generator:
// random content of random size (8 bytes to 64 KiB), raw or formatted with
// entropy tables fitted by libzstd to random samples, random IDs and random
// repeat offsets; random messages made of pieces of the content, noise and
// their own repeats, at random levels. Frames libzstd writes decode in zest,
// and frames zest writes decode in libzstd and zest, with the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include "common/format.hpp"
#include "dict_support.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

using rng_t = std::mt19937_64;

std::size_t log_uniform(rng_t& rng, std::size_t lo, std::size_t hi) {
    std::uniform_real_distribution<double> u(std::log2(double(lo)), std::log2(double(hi) + 1));
    return std::clamp<std::size_t>(std::size_t(std::exp2(u(rng))), lo, hi);
}

// Content: runs of noise from a small alphabet (so literals compress),
// repeated phrases and copies of earlier stretches.
bytes random_content(rng_t& rng, std::size_t n) {
    bytes out;
    out.reserve(n);
    const unsigned alphabet = 4 + unsigned(rng() % 200);
    while (out.size() < n) {
        const std::size_t piece = std::min<std::size_t>(n - out.size(), 1 + rng() % 64);
        if (out.size() > 16 && rng() % 3 == 0) {
            const std::size_t from = rng() % (out.size() - 8);
            const std::size_t len = std::min(piece, out.size() - from);
            for (std::size_t i = 0; i < len; ++i) out.push_back(out[from + i]);
        } else {
            for (std::size_t i = 0; i < piece; ++i) out.push_back(std::byte(rng() % alphabet));
        }
    }
    out.resize(n);
    return out;
}

// A message: pieces of the dictionary's content (anywhere, up to its very
// end), noise, and repeats of itself.
bytes random_message(rng_t& rng, const bytes& content, std::size_t n) {
    bytes out;
    out.reserve(n);
    while (out.size() < n) {
        const std::size_t piece = 1 + rng() % 300;
        const unsigned kind = unsigned(rng() % 4);
        if (kind <= 1 && !content.empty()) {
            const std::size_t from = kind == 0 ? content.size() - std::min(content.size(), piece) : rng() % content.size();
            const std::size_t len = std::min(piece, content.size() - from);
            out.insert(out.end(), content.begin() + std::ptrdiff_t(from), content.begin() + std::ptrdiff_t(from + len));
        } else if (kind == 2 && out.size() > 8) {
            const std::size_t from = rng() % out.size();
            const std::size_t len = std::min(piece, out.size() - from);
            for (std::size_t i = 0; i < len; ++i) out.push_back(out[from + i]);
        } else {
            for (std::size_t i = 0; i < piece; ++i) out.push_back(std::byte(rng() & 0xFF));
        }
    }
    out.resize(n);
    return out;
}

struct random_dictionary {
    bytes bytes_;     // what both libraries load
    bytes content;
    bool raw = false;
};

// Formatted by libzstd's ZDICT_finalizeDictionary (tables fitted to random
// samples at a random level), then given random repeat offsets that the
// content bounds; or raw content.
random_dictionary make_dictionary(rng_t& rng) {
    random_dictionary d;
    d.content = random_content(rng, log_uniform(rng, 8, 65536));
    if (d.content.size() < 128 || rng() % 4 == 0) {
        d.raw = true;
        d.bytes_ = d.content;
        // Raw content starting with the magic would be read as formatted.
        if (d.content.size() >= 4 && detail::load_le32(reinterpret_cast<const std::uint8_t*>(d.content.data())) ==
                                         0xEC30A437u)
            d.content[0] = d.bytes_[0] = std::byte{0};
        return d;
    }
    std::vector<bytes> samples;
    bytes joined;
    std::vector<std::size_t> sizes;
    for (int i = 0; i < 40; ++i) {
        samples.push_back(random_message(rng, d.content, 1 + rng() % 2000));
        joined.insert(joined.end(), samples.back().begin(), samples.back().end());
        sizes.push_back(samples.back().size());
    }
    ZDICT_params_t p{};
    p.compressionLevel = 1 + int(rng() % 19);
    p.dictID = std::uint32_t(rng());
    bytes out(d.content.size() + 4096);
    const std::size_t n = ZDICT_finalizeDictionary(out.data(), out.size(), d.content.data(), d.content.size(),
                                                   joined.data(), sizes.data(), unsigned(sizes.size()), p);
    EXPECT_FALSE(ZDICT_isError(n)) << ZDICT_getErrorName(n);
    if (ZDICT_isError(n)) return d;
    out.resize(n);
    // The three repeat offsets sit right before the content.
    const std::size_t reps_at = out.size() - d.content.size() - 12;
    for (int i = 0; i < 3; ++i) {
        const std::uint32_t v = rng() % 2 ? std::uint32_t(1 + rng() % d.content.size()) : std::uint32_t(1 + rng() % 16);
        for (int b = 0; b < 4; ++b) out[reps_at + 4 * std::size_t(i) + std::size_t(b)] = std::byte(v >> (8 * b));
    }
    d.bytes_ = std::move(out);
    return d;
}

TEST(DictionaryRandom, FramesBothWaysWithRandomDictionaries) {
    rng_t rng(20261206);
    int formatted = 0, raw = 0, frames = 0;
    for (int round = 0; round < 150; ++round) {
        const random_dictionary rd = make_dictionary(rng);
        if (rd.bytes_.empty()) continue;
        const auto kind = rd.raw ? zest::dictionary_content::raw : zest::dictionary_content::full;
        const auto loaded = zest::dictionary::load(rd.bytes_, kind);
        ASSERT_TRUE(loaded.has_value()) << "round " << round << ": " << zest::error_message(loaded.error());
        const zest::dictionary& dict = *loaded;
        (rd.raw ? raw : formatted) += 1;
        zest::compressor c;
        zest::decompressor dz;
        dz.set_dictionary(dict);
        for (int m = 0; m < 6; ++m) {
            const bytes msg = random_message(rng, rd.content, log_uniform(rng, 1, 20000));
            int level = int(rng() % 25) - 5;
            if (level == 0) level = 1;
            const bool with_id = rng() % 2 == 0;
            const std::string what = "round " + std::to_string(round) + " message " + std::to_string(m) + " level " +
                                     std::to_string(level) + " content " + std::to_string(rd.content.size()) +
                                     (rd.raw ? " raw" : " formatted");
            // libzstd's frame, decoded by zest (context and one-shot).
            const bytes lib = libzstd_compress(msg, rd.bytes_, level, with_id, rd.raw);
            bytes out(msg.size() + 1);
            auto n = dz.decompress(std::span<std::byte>(out), lib);
            ASSERT_TRUE(n.has_value()) << what << ": " << zest::error_message(n.error());
            ASSERT_TRUE(*n == msg.size() && std::memcmp(out.data(), msg.data(), msg.size()) == 0) << what;
            n = zest::decompress(std::span<std::byte>(out), lib, dict);
            ASSERT_TRUE(n.has_value() && *n == msg.size()) << what << " (one-shot)";
            // zest's frame, decoded by libzstd and zest.
            (void)c.set_level(level);
            (void)c.set_dictionary_id_written(with_id);
            bytes frame(zest::compress_bound(msg.size()));
            auto w = c.compress(std::span<std::byte>(frame), msg, dict);
            ASSERT_TRUE(w.has_value()) << what << ": " << zest::error_message(w.error());
            frame.resize(*w);
            bool ok = false;
            ASSERT_TRUE(libzstd_decompress(frame, rd.bytes_, ok) == msg && ok) << what << ": libzstd decodes other bytes";
            n = dz.decompress(std::span<std::byte>(out), frame);
            ASSERT_TRUE(n.has_value() && *n == msg.size() && std::memcmp(out.data(), msg.data(), msg.size()) == 0)
                << what << ": zest decodes other bytes";
            ++frames;
        }
    }
    // Both kinds occur.
    EXPECT_GT(formatted, 50);
    EXPECT_GT(raw, 15);
    RecordProperty("frames", std::to_string(frames));
}

}  // namespace
}  // namespace zest::test
