// Compression round-trip fuzzer: the input's first two bytes choose the level
// (-7..22) and the options; when the options ask for it, four more bytes
// force a strategy, search, hash and chain logs, minimum match and target
// length (each possibly left to the level), and a seventh long-distance
// matching and its parameters. The rest is compressed by zest; libzstd and zest
// must both decode the frame back to it, and the frame must fit
// compress_bound, and a reused context must write what a fresh one does.
// When the options leave the window alone and set bit 6 (levels up to 9),
// the input is also tiled, with changes, to 1.2 MiB and compressed by 1 and
// by 3 workers in jobs of 512 KiB: the frames must be the same and decode.
// Any difference aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include <zstd.h>

#include "zest/zest.hpp"

namespace {

[[noreturn]] void fail(const char* what, int level) {
    std::fprintf(stderr, "compress_roundtrip_fuzzer: %s (level %d)\n", what, level);
    std::abort();
}

// The input tiled to 1.2 MiB, each copy with a few bytes changed, by 1 and
// by 3 workers with `like`'s options: the same frame, which libzstd decodes.
void check_workers(const zest::compressor& like, const std::byte* src, std::size_t n, int level) {
    constexpr std::size_t target = 1200 << 10;
    std::vector<std::byte> big;
    big.reserve(target + n);
    for (std::size_t copy = 0; big.size() < target; ++copy) {
        const std::size_t at = big.size();
        big.insert(big.end(), src, src + n);
        big[at + (copy * 7919) % n] ^= std::byte(copy + 1);
    }
    static zest::compressor one, three;  // reused: their workers stay
    std::vector<std::byte> frames[2];
    for (int k = 0; k < 2; ++k) {
        zest::compressor& c = k == 0 ? one : three;
        zest::compression_options o = like.options();
        o.workers = k == 0 ? 1 : 3;
        o.job_size = 512 << 10;
        if (!c.set_options(o)) fail("worker options refused", level);
        frames[k].resize(zest::compress_bound(big.size()));
        const auto r = c.compress(std::span<std::byte>(frames[k]), std::span<const std::byte>(big));
        if (!r) fail(r.message(), level);
        frames[k].resize(*r);
    }
    if (frames[0] != frames[1]) fail("3 workers wrote another frame than 1", level);
    std::vector<std::byte> out(big.size() + 1);
    const std::size_t k = ZSTD_decompress(out.data(), out.size(), frames[0].data(), frames[0].size());
    if (ZSTD_isError(k)) fail(ZSTD_getErrorName(k), level);
    if (k != big.size() || std::memcmp(out.data(), big.data(), k) != 0) fail("libzstd decoded other bytes (workers)", level);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const int level = int(data[0] % 30) - 7;  // -7..22
    const unsigned flags = data[1];
    std::size_t header = 2;
    zest::compression_parameters set{};
    if ((flags & 8) && size >= 6) {
        // Each field 0 (the level's) or a value within the reference's bounds.
        const std::uint8_t a = data[2], b = data[3], d = data[4], e = data[5];
        set.strategy = zest::strategy(a % 10);                        // 0, fast..btultra2
        set.search_log = (a >> 4) % 10;                                // 0, 1..9
        set.hash_log = b % 20 == 0 ? 0 : 5 + b % 20;                  // 0, 6..24
        set.chain_log = (b >> 3) % 20 == 0 ? 0 : 5 + (b >> 3) % 20;   // 0, 6..24
        set.min_match = d % 6 == 0 ? 0 : 2 + d % 6;                   // 0, 3..7
        set.target_length = (d >> 3) % 4 == 0 ? 0 : 1u << (e % 10);   // 0, 1..512
        header = 6;
        if (size >= 7 && (data[6] & 1)) {
            // Long-distance matching, with short matches and dense samples
            // so that small inputs have some.
            const std::uint8_t g = data[6];
            set.ldm.mode = zest::ldm_mode::enabled;
            set.ldm.min_match = 4u << ((g >> 1) & 3);      // 4..32
            set.ldm.hash_rate_log = (g >> 3) % 8;           // 0 (the default), 1..7
            set.ldm.bucket_size_log = 1 + (g >> 6);         // 1..4
            header = 7;
        }
    }
    const auto* src = reinterpret_cast<const std::byte*>(data + header);
    const std::size_t n = size - header;

    static zest::compressor c;  // reused, as real callers do: state must not leak between inputs
    (void)c.set_level(level);
    (void)c.set_checksum(flags & 1);
    (void)c.set_content_size(!(flags & 2));
    set.window_log = flags & 4 ? 10 + (flags >> 4) : 0;  // 10..25
    if (!c.set_parameters(set)) fail("parameters within the bounds refused", level);

    std::vector<std::byte> frame(zest::compress_bound(n));
    const auto r = c.compress(std::span<std::byte>(frame), std::span<const std::byte>(src, n));
    if (!r) fail(r.message(), level);
    frame.resize(*r);

    // The reused context keeps its match tables between inputs; its frame
    // must be the one a fresh context writes.
    zest::compressor fresh;
    (void)fresh.set_level(level);
    (void)fresh.set_checksum(c.checksum());
    (void)fresh.set_content_size(c.content_size());
    if (!fresh.set_parameters(c.parameters())) fail("parameters within the bounds refused", level);
    std::vector<std::byte> again(zest::compress_bound(n));
    const auto f = fresh.compress(std::span<std::byte>(again), std::span<const std::byte>(src, n));
    if (!f || *f != frame.size() || std::memcmp(again.data(), frame.data(), frame.size()) != 0)
        fail("a reused context wrote another frame than a fresh one", level);

    std::vector<std::byte> out(n + 1);
    const std::size_t k = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    if (ZSTD_isError(k)) fail(ZSTD_getErrorName(k), level);
    if (k != n || (n && std::memcmp(out.data(), src, n) != 0)) fail("libzstd decoded other bytes", level);

    const auto z = zest::decompress(std::span<std::byte>(out), std::span<const std::byte>(frame));
    if (!z) fail(z.message(), level);
    if (*z != n || (n && std::memcmp(out.data(), src, n) != 0)) fail("zest decoded other bytes", level);

    if (!(flags & 4) && (flags & 64) && level <= 9 && n > 0) check_workers(c, src, n, level);
    return 0;
}
