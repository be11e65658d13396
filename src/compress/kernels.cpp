// Choice of the compressor's kernel set, and the entry points that go
// through it.
#include "compress/kernels.hpp"

#include <algorithm>

#include "compress/match_common.hpp"
#include "cpu/pick_kernels.hpp"

namespace zest::detail {

namespace {

constexpr const compress_kernel_set* best_first[] = {
#if ZEST_HAVE_X86_KERNELS
    &compress_kernels_avx2,
    &compress_kernels_bmi2,
#endif
    &compress_kernels_generic,
};

}  // namespace

constinit const std::span<const compress_kernel_set* const> compress_kernel_sets{best_first};

const compress_kernel_set* compress_kernels_override = nullptr;

const compress_kernel_set& active_compress_kernels() noexcept {
    if (compress_kernels_override) [[unlikely]]
        return *compress_kernels_override;
    // Chosen once per process; the probe behind selected_isa() runs once.
    static const compress_kernel_set& chosen = pick_kernels(compress_kernel_sets);
    return chosen;
}

std::size_t hash_table_entries(const compression_params& p) noexcept { return std::size_t(1) << p.hash_log; }

unsigned hash3_log(const compression_params& p) noexcept {
    return p.strategy >= strategy::btopt && p.min_match == 3 ? std::min(17u, p.window_log) : 0;
}

std::size_t hash3_table_entries(const compression_params& p) noexcept {
    const unsigned log = hash3_log(p);
    return log ? std::size_t(1) << log : 0;
}

std::size_t chain_table_entries(const compression_params& p) noexcept {
    return p.strategy == strategy::fast || uses_row_matcher(p) ? 0 : std::size_t(1) << p.chain_log;
}

std::size_t tag_table_entries(const compression_params& p) noexcept {
    // Two bytes per entry: each row's head, then its tags (match_row.inl).
    return uses_row_matcher(p) ? std::size_t(2) << p.hash_log : 0;
}

namespace {

template <unsigned MLS>
void fill_tables(const compression_params& p, const std::uint8_t* base, std::uint32_t end, std::uint32_t* hash,
                 std::uint32_t* chain) noexcept {
    // Every position, the later ones winning a shared slot (the nearest
    // to the frame give the shortest offsets).
    if (p.strategy == strategy::dfast) {
        for (std::uint32_t j = 1; j + 8 <= end; ++j) {
            hash[hash_at<8>(base + j, p.hash_log)] = j;
            chain[hash_at<MLS>(base + j, p.chain_log)] = j;
        }
    } else {
        for (std::uint32_t j = 1; j + 8 <= end; ++j) hash[hash_at<MLS>(base + j, p.hash_log)] = j;
    }
}

}  // namespace

void fill_dictionary_tables(const compression_params& p, const std::uint8_t* base, std::uint32_t end,
                            std::uint32_t* hash, std::uint32_t* chain) noexcept {
    switch (p.min_match) {
        case 5: fill_tables<5>(p, base, end, hash, chain); break;
        case 6: fill_tables<6>(p, base, end, hash, chain); break;
        case 7: fill_tables<7>(p, base, end, hash, chain); break;
        case 8: fill_tables<8>(p, base, end, hash, chain); break;
        default: fill_tables<4>(p, base, end, hash, chain); break;
    }
}

void find_matches_fast(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                       std::size_t end) noexcept {
    active_compress_kernels().fast(ms, out, reps, begin, end);
}

void find_matches_dfast(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                        std::size_t end) noexcept {
    active_compress_kernels().dfast(ms, out, reps, begin, end);
}

void find_matches_lazy(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                       std::size_t end) noexcept {
    active_compress_kernels().lazy(ms, out, reps, begin, end);
}

void find_matches_btlazy2(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                          std::size_t end) noexcept {
    active_compress_kernels().btlazy2(ms, out, reps, begin, end);
}

void find_matches_opt(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                      std::size_t end) noexcept {
    active_compress_kernels().opt(ms, out, reps, begin, end);
}

void fill_opt_tree(match_state& ms, std::size_t begin, std::size_t end) noexcept {
    active_compress_kernels().opt_fill(ms, begin, end);
}

void find_matches(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    const compress_kernel_set& k = active_compress_kernels();
    switch (ms.params.strategy) {
        case strategy::fast: k.fast(ms, out, reps, begin, end); break;
        case strategy::dfast: k.dfast(ms, out, reps, begin, end); break;
        case strategy::greedy:
        case strategy::lazy:
        case strategy::lazy2: k.lazy(ms, out, reps, begin, end); break;
        case strategy::btlazy2: k.btlazy2(ms, out, reps, begin, end); break;
        default: k.opt(ms, out, reps, begin, end); break;
    }
}

std::size_t huffman_encode_1x(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                              const huffman_ctable& t) noexcept {
    return active_compress_kernels().huffman_stream(dst, capacity, src, n, t);
}

}  // namespace zest::detail
