// A dictionary in prepared form: its bytes, ID and content, and the tables
// decoders start each frame with (shared read-only by every context).
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "common/fse.hpp"
#include "common/huffman.hpp"
#include "compress/fse_encode.hpp"
#include "compress/huffman_encode.hpp"
#include "compress/params.hpp"
#include "decompress/state.hpp"

namespace zest::detail {

/// The magic number that starts a formatted dictionary.
inline constexpr std::uint32_t dictionary_magic = 0xEC30A437;

/// A dictionary's match tables for frames of one set of parameters (the
/// strategy, table sizes and match length they depend on), which frames
/// attach to rather than hashing the content again (match_attached.inl).
struct attached_tables {
    strategy strat;
    unsigned hash_log, chain_log, min_match;
    std::unique_ptr<std::uint32_t[]> hash, chain;
};

struct dictionary_data {
    std::unique_ptr<std::uint8_t[]> owned;  // the bytes, when copied
    const std::uint8_t* bytes = nullptr;    // all of them (owned or the caller's)
    std::size_t size = 0;
    std::uint32_t id = 0;
    bool entropy = false;                   // formatted: the tables and offsets below are set
    const std::uint8_t* content = nullptr;  // history in front of each frame
    std::size_t content_size = 0;

    // Formatted dictionaries only.
    std::uint32_t rep[3] = {1, 4, 8};
    huffman_weights lit_weights;                    // as described, for encoders
    fse_distribution of_dist, ml_dist, ll_dist;     // as described, for encoders
    huffman_table lit_table;                        // decoding table, no pair table
    huffman_table lit_table_pairs;                  // the same with its pair table
    seq_table_set seq;                              // decoding tables
    huffman_ctable lit_ctable;                      // encoding tables
    fse_ctable of_ct, ml_ct, ll_ct;

    /// The tables for a frame of `size` bytes with parameters `p`, filled on
    /// first use and kept until the dictionary goes; null when the frame
    /// cannot attach (not can_attach_dictionary, or a window that does not
    /// hold the content and the frame), when memory runs out or when too many
    /// sets exist already (the frame then runs the content through its
    /// finder). Safe from many threads.
    const attached_tables* tables_for(const compression_params& p, std::uint64_t size) const noexcept;

    std::size_t attached_memory() const noexcept;

    static constexpr std::size_t max_attached_sets = 8;

private:
    // Readers find a set without locking (many threads compress with one
    // dictionary); the mutex serialises making one, which is then
    // published in the next free slot.
    mutable std::mutex attached_mutex_;
    mutable std::vector<std::unique_ptr<attached_tables>> attached_;  // owns the slots' sets
    mutable std::atomic<const attached_tables*> slots_[max_attached_sets] = {};
};

/// Parses `size` bytes at `src` into `d` (bytes, size and storage already
/// set by the caller): content kind per `raw_only` / `full_only`.
errc parse_dictionary(dictionary_data& d, bool raw_only, bool full_only) noexcept;

/// Starts a frame of `st` with the dictionary's tables and offsets.
inline void start_frame_with(decoder_state& st, const dictionary_data& d) noexcept {
    st.reset_frame();
    if (!d.entropy) return;
    st.lit_table = &d.lit_table;
    st.lit_table_pairs = &d.lit_table_pairs;
    st.seq_tables = &d.seq;
    st.rep[0] = d.rep[0];
    st.rep[1] = d.rep[1];
    st.rep[2] = d.rep[2];
}

}  // namespace zest::detail
