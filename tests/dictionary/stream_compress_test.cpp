// Compression with a dictionary of inputs from nothing to many blocks, the
// four ways callers hand them over: one shot (compressor), all of it in one
// stream call with `end`, in pieces with the size pledged, and in pieces
// without. Every strategy, dictionaries trained by libzstd and by zest and
// raw content, sizes around the block size; libzstd reads every frame back.
// The stream's input buffer was once sized for the frame without its
// dictionary, and a known size above one block then spun in compress()
// forever: each call runs under the streaming tests' watchdog (a deadline
// per call, and progress across calls), so that a call that never returns
// fails the test with its name rather than the suite's time-out.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <random>

#include <zstd.h>

#include "dict_support.hpp"
#include "stream_driver.hpp"
#include "zest/zest.hpp"

namespace zest::test {
namespace {

// Generous (sanitizer builds run the optimal parser at well under 1 MB/s);
// a spinning call is caught all the same.
std::chrono::seconds limit_for(std::size_t n) { return std::chrono::seconds(120 + 20 * (n >> 20)); }

enum class mode { one_shot, whole_stream, pledged_pieces, unknown_pieces };

const char* name_of(mode m) {
    switch (m) {
        case mode::one_shot: return "one shot";
        case mode::whole_stream: return "one stream call with end";
        case mode::pledged_pieces: return "pieces, size pledged";
        case mode::unknown_pieces: return "pieces, size unknown";
    }
    return "?";
}

struct dict_kind {
    std::string name;
    bytes bytes_;
    zest::dictionary prepared;
};

const std::vector<dict_kind>& dictionaries() {
    static const std::vector<dict_kind> all = [] {
        std::vector<dict_kind> v;
        const std::vector<bytes> samples = messages("json", 300, 200, 2000, 61);
        bytes joined;
        std::vector<std::size_t> sizes;
        for (const bytes& s : samples) {
            append(joined, s);
            sizes.push_back(s.size());
        }
        v.push_back({"trained by libzstd", libzstd_train(samples, 16 * 1024), {}});
        v.push_back({"trained by zest", *zest::train_dictionary(joined, sizes, 16 * 1024), {}});
        v.push_back({"raw content of 28 bytes", to_bytes("some dictionary content here"), {}});
        for (auto& d : v) d.prepared = *zest::dictionary::load(d.bytes_);
        return v;
    }();
    return all;
}

// The input: JSON lines, so that the dictionary and the input's own history
// both find matches. Past 1 MiB, the first MiB again and again with a few
// bytes changed in each copy: the optimal parser skips through long
// matches, where 20 MiB of fresh lines would keep a test busy for minutes.
bytes make_input() {
    constexpr std::size_t mib = std::size_t(1) << 20;
    bytes b = json_logs(mib, 62);
    b.resize(20 * mib);
    std::mt19937_64 rng(63);
    for (std::size_t k = 1; k < 20; ++k) {
        std::memcpy(b.data() + k * mib, b.data(), mib);
        for (int i = 0; i < 64; ++i) b[k * mib + rng() % mib] = std::byte(rng() & 0xFF);
    }
    return b;
}

const bytes& input_of(std::size_t n) {
    static const bytes big = make_input();
    static std::vector<bytes> cut;
    for (const bytes& b : cut)
        if (b.size() == n) return b;
    cut.emplace_back(big.begin(), big.begin() + std::ptrdiff_t(n));
    return cut.back();
}

bool stream_call(zest::compress_stream& cs, zest::out_buffer& o, zest::in_buffer& in, zest::directive d,
                 std::size_t& left, const std::string& what) {
    const streaming::call_deadline guard(what, limit_for(in.size - in.pos));
    const auto r = cs.compress(o, in, d);
    if (!r) {
        ADD_FAILURE() << what << ": " << zest::error_message(r.error());
        return false;
    }
    left = *r;
    return true;
}

bytes compress_with(mode m, const zest::dictionary& d, const compression_parameters& p, int level, const bytes& src,
                    const std::string& what) {
    if (m == mode::one_shot) {
        zest::compressor c;
        (void)c.set_level(level);
        EXPECT_TRUE(c.set_parameters(p).has_value());
        bytes out(zest::compress_bound(src.size()));
        const streaming::call_deadline guard(what, limit_for(src.size()));
        const auto n = c.compress(std::span<std::byte>(out), src, d);
        if (!n) {
            ADD_FAILURE() << what << ": " << zest::error_message(n.error());
            return {};
        }
        out.resize(*n);
        return out;
    }
    zest::compress_stream cs;
    EXPECT_TRUE(cs.set_level(level).has_value());
    EXPECT_TRUE(cs.set_parameters(p).has_value());
    EXPECT_TRUE(cs.set_dictionary(d).has_value());
    if (m == mode::pledged_pieces) {
        EXPECT_TRUE(cs.set_pledged_size(src.size()).has_value());
    }
    bytes out;
    std::vector<std::byte> buf(zest::compress_stream::recommended_out_size);
    std::mt19937_64 rng(src.size() * 31 + unsigned(level));
    std::size_t at = 0;
    streaming::progress_watchdog progress("compress_stream");
    for (;;) {
        // Whole: everything in the first call. Pieces: up to 200 KiB, so
        // that some cross a block and some do not.
        const std::size_t n = m == mode::whole_stream ? src.size() - at
                                                      : std::min<std::size_t>(src.size() - at, rng() % 200'000 + 1);
        const bool last = at + n == src.size();
        zest::in_buffer in{src.data() + at, n, 0};
        std::size_t left = 0;
        do {
            zest::out_buffer o{buf.data(), buf.size(), 0};
            const std::size_t before = in.pos;
            if (!stream_call(cs, o, in, last ? zest::directive::end : zest::directive::proceed, left, what)) return {};
            out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(o.pos));
            if (!progress.after_call(in.size - before, buf.size(), in.pos - before, o.pos)) return {};
        } while (in.pos < in.size || (last && left != 0));
        at += n;
        if (last) break;
    }
    return out;
}

void expect_libzstd_reads(const bytes& frame, const dict_kind& d, const bytes& src, bool size_declared,
                          const std::string& what) {
    ASSERT_FALSE(frame.empty()) << what;
    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (size_declared) {
        EXPECT_EQ(declared, src.size()) << what;
    }
    bytes out(src.size() + 1);
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    const std::size_t n = ZSTD_decompress_usingDict(dctx, out.data(), out.size(), frame.data(), frame.size(),
                                                    d.bytes_.data(), d.bytes_.size());
    ZSTD_freeDCtx(dctx);
    ASSERT_FALSE(ZSTD_isError(n)) << what << ": libzstd: " << ZSTD_getErrorName(n);
    ASSERT_EQ(n, src.size()) << what;
    EXPECT_TRUE(n == 0 || std::memcmp(out.data(), src.data(), n) == 0) << what << ": libzstd decodes other bytes";
}

struct strategy_case {
    zest::strategy s;
    int level;  // where the reference's table uses the strategy
};

class DictionaryStreamCompress : public ::testing::TestWithParam<strategy_case> {};

TEST_P(DictionaryStreamCompress, EveryWayOfHandingInputOver) {
    const strategy_case sc = GetParam();
    compression_parameters p;
    p.strategy = sc.s;
    constexpr std::size_t block = 128 * 1024;
    for (const std::size_t n : {std::size_t(0), std::size_t(1), block - 1, block, block + 1, std::size_t(1) << 20}) {
        for (const dict_kind& d : dictionaries()) {
            for (const mode m : {mode::one_shot, mode::whole_stream, mode::pledged_pieces, mode::unknown_pieces}) {
                const std::string what = std::to_string(n) + " bytes, " + d.name + ", " + name_of(m) +
                                         ", strategy " + std::to_string(int(sc.s)) + " level " +
                                         std::to_string(sc.level);
                const bytes& src = input_of(n);
                const bytes frame = compress_with(m, d.prepared, p, sc.level, src, what);
                expect_libzstd_reads(frame, d, src, m != mode::unknown_pieces, what);
            }
        }
    }
}

// 20 MiB: windows smaller than the input, so history moves in the stream's
// buffer; one dictionary, the three stream modes.
TEST_P(DictionaryStreamCompress, TwentyMebibytes) {
    const strategy_case sc = GetParam();
    compression_parameters p;
    p.strategy = sc.s;
    const bytes& src = input_of(20u << 20);
    const dict_kind& d = dictionaries()[0];
    for (const mode m : {mode::whole_stream, mode::pledged_pieces, mode::unknown_pieces}) {
        const std::string what = std::string("20 MiB, ") + name_of(m) + ", strategy " + std::to_string(int(sc.s));
        const bytes frame = compress_with(m, d.prepared, p, sc.level, src, what);
        expect_libzstd_reads(frame, d, src, m != mode::unknown_pieces, what);
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, DictionaryStreamCompress,
                         ::testing::Values(strategy_case{zest::strategy::fast, 1},
                                           strategy_case{zest::strategy::dfast, 3},
                                           strategy_case{zest::strategy::greedy, 5},
                                           strategy_case{zest::strategy::lazy, 6},
                                           strategy_case{zest::strategy::lazy2, 8},
                                           strategy_case{zest::strategy::btlazy2, 13},
                                           strategy_case{zest::strategy::btopt, 16},
                                           strategy_case{zest::strategy::btultra, 18},
                                           strategy_case{zest::strategy::btultra2, 19}),
                         [](const auto& info) { return "strategy_" + std::to_string(int(info.param.s)); });

}  // namespace
}  // namespace zest::test
