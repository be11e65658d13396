// The lazy family's entry points: the strategy's depth, the search (row
// matcher or hash chain, as uses_row_matcher decides, or the binary tree for
// btlazy2), its row size and the bytes hashed, turned into one instantiation
// of lazy_block.
//
// Compiled once per instruction set (compress/kernels.inl).
namespace zest::detail::ZEST_CKERNEL_NS {
namespace lazy_strategy {

template <template <unsigned> class Search, unsigned Depth>
void with_mls(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    switch (ms.params.min_match) {
        case 5: lazy_block<Search<5>, Depth>(ms, out, reps, begin, end); break;
        case 6:
        case 7: lazy_block<Search<6>, Depth>(ms, out, reps, begin, end); break;
        default: lazy_block<Search<4>, Depth>(ms, out, reps, begin, end); break;  // 3 and 4
    }
}

template <unsigned RowLog>
struct row_of {
    template <unsigned MLS>
    using search = row_search<MLS, RowLog>;
};

template <unsigned Depth>
void with_search(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    if (!uses_row_matcher(ms.params)) return with_mls<hc_search, Depth>(ms, out, reps, begin, end);
    switch (ms.params.search_log) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4: return with_mls<row_of<4>::search, Depth>(ms, out, reps, begin, end);
        case 5: return with_mls<row_of<5>::search, Depth>(ms, out, reps, begin, end);
        default: return with_mls<row_of<6>::search, Depth>(ms, out, reps, begin, end);
    }
}

}  // namespace lazy_strategy

void lazy_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin, std::size_t end) noexcept {
    using namespace lazy_strategy;
    switch (ms.params.strategy) {
        case strategy::greedy: with_search<0>(ms, out, reps, begin, end); break;
        case strategy::lazy: with_search<1>(ms, out, reps, begin, end); break;
        default: with_search<2>(ms, out, reps, begin, end); break;
    }
}

void btlazy2_finder(match_state& ms, seq_store& out, repeat_offsets& reps, std::size_t begin,
                    std::size_t end) noexcept {
    lazy_strategy::with_mls<lazy_strategy::bt_search, 2>(ms, out, reps, begin, end);
}

}  // namespace zest::detail::ZEST_CKERNEL_NS
