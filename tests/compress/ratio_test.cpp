// Compressed sizes against libzstd's at the same level: zest follows the
// reference's level semantics, match finders and entropy decisions, so its
// frames must come out as small as libzstd's: within 0.5% (plus a few bytes
// for the smallest inputs) at levels up to 15, within 0.3% where the optimal
// parser runs (levels 16 to 22, and from 11 on small inputs; 1% up to 16
// KiB, see below). A histogram, table, price or cost estimate that
// goes wrong still round-trips but makes frames larger: this is where it
// shows.
#include <gtest/gtest.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getCParams
#include <zstd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "zest/zest.hpp"

namespace {

const int levels[] = {-5, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};

std::size_t libzstd_size(const std::vector<std::byte>& in, int level) {
    std::vector<std::byte> out(ZSTD_compressBound(in.size()));
    const std::size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), level);
    EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    return n;
}

std::size_t zest_size(const std::vector<std::byte>& in, int level) {
    const auto r = zest::compress(std::span<const std::byte>(in), level);
    return r.size();
}

// Every shape of the corpus, whole and cut to message sizes.
class SizeParity : public ::testing::TestWithParam<std::string> {};

TEST_P(SizeParity, WithinAFractionOfAPercentOfLibzstd) {
    const auto whole = zest::test::corpus_shape(GetParam()).generate();
    for (const std::size_t cut : {std::size_t(256), std::size_t(512), std::size_t(1024), std::size_t(2048),
                                  std::size_t(4096), std::size_t(8192), std::size_t(16384), std::size_t(65536),
                                  whole.size()}) {
        if (cut > whole.size()) continue;
        const std::vector<std::byte> in(whole.begin(), whole.begin() + std::ptrdiff_t(cut));
        for (const int level : levels) {
            SCOPED_TRACE("size " + std::to_string(cut) + ", level " + std::to_string(level));
            const std::size_t lib = libzstd_size(in, level), ours = zest_size(in, level);
            // The optimal parser is 1.5.6's, which writes 2.6% less than
            // 1.5.4's on records but up to 0.8% more on some inputs of 16 KiB
            // and less (the int16 column at levels 13 to 15: 1.5.7 writes
            // more than zest there).
            const bool optimal = ZSTD_getCParams(level, in.size(), 0).strategy >= ZSTD_btopt;
            const std::size_t slack = !optimal ? lib / 200 : cut <= 16384 ? lib / 100 : lib * 3 / 1000;
            EXPECT_LE(ours, lib + slack + 4);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SizeParity, ::testing::ValuesIn(zest::test::corpus_shape_names(true)),
                         [](const auto& info) { return info.param; });

}  // namespace
