// The frame writer's parts, shared by one-shot and streaming compression:
// the state a context keeps, the frame header, the match tables' set-up,
// and the writing of one block (raw, RLE or compressed, whichever is
// smallest).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "common/format.hpp"
#include "common/large_buffer.hpp"
#include "common/status.hpp"
#include "compress/literals_encode.hpp"
#include "compress/match_finder.hpp"
#include "compress/sequences_encode.hpp"

namespace zest::detail {

// Positions in the match tables stay below this; a frame that would pass it
// starts on cleared tables (one-shot) or has its positions lowered (streams).
inline constexpr std::uint32_t index_limit = std::uint32_t(1) << 31;
/// Streams lower their positions when they would reach this (index_limit;
/// tests lower it to exercise that path without gigabytes of input).
extern std::uint32_t stream_position_limit;

/// A match table of zeroed entries, aligned to a cache line (a row of the
/// row matcher is then whole lines). calloc, or for large tables a
/// mapping of their own (large_buffer), hands them over as fresh pages the
/// kernel zeroes when first touched, so a frame pays only for the part of
/// a big table its input reaches (a vector would write all of it first).
template <class T>
class zeroed_table {
public:
    zeroed_table() noexcept = default;
    zeroed_table(const zeroed_table&) = delete;
    zeroed_table& operator=(const zeroed_table&) = delete;
    ~zeroed_table() = default;

    /// Replaces the table with `n` zeroed entries; false when memory runs out
    /// (the table is then empty).
    bool assign(std::size_t n) noexcept {
        raw_.release();
        data_ = nullptr;
        size_ = 0;
        if (n == 0) return true;
        if (n > (SIZE_MAX - line) / sizeof(T)) return false;
        if (!raw_.allocate(n * sizeof(T) + line, true)) return false;
        const auto at = (reinterpret_cast<std::uintptr_t>(raw_.data()) + line - 1) & ~std::uintptr_t(line - 1);
        data_ = reinterpret_cast<T*>(at);
        size_ = n;
        return true;
    }
    T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    static constexpr std::size_t line = 64;
    large_buffer raw_;
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Where the optimal strategies cut a block's sequences into smaller blocks
/// (as the reference's "block splitter"), where that makes the frame smaller.
struct block_cuts {
    static constexpr std::size_t max_cuts = 196;       // the reference's bound
    static constexpr std::size_t min_sequences = 300;  // fewer are not cut
    std::uint32_t at[max_cuts + 1];                    // sequence indices, then the block's end
    std::size_t n = 0;
};

struct dictionary_data;

/// Everything a compressor keeps between calls: allocated on first use.
struct encoder_state {
    zeroed_table<std::uint32_t> hash_table, chain_table;
    zeroed_table<std::uint8_t> tag_table;
    zeroed_table<std::uint32_t> hash3_table;
    std::unique_ptr<opt_workspace> opt;  // the optimal strategies' (allocated on first use)
    block_cuts cuts;
    // Long-distance matching: its table, and a block's matches.
    zeroed_table<ldm_entry> ldm_entries;
    zeroed_table<std::uint8_t> ldm_next;
    std::unique_ptr<ldm_match[]> ldm_matches;
    std::size_t ldm_capacity = 0;
    std::uint32_t next_index = index_limit;  // the next frame's first position in the tables (limit: clear them)
    // A block's literals and sequences, sized for the frame's largest block
    // (reserve_blocks).
    std::unique_ptr<std::uint8_t[]> lits;
    std::unique_ptr<stored_sequence[]> seqs;
    std::unique_ptr<std::uint8_t[]> codes;
    std::size_t block_capacity = 0, seq_capacity = 0;
    // What the decoder holds (prev) and would hold after the block being
    // written (next), swapped rather than copied when the block is kept.
    literals_entropy lit[2];
    seq_entropy seq[2];
    unsigned prev = 0;
    // With a dictionary: its content, then the input (one-shot frames).
    std::unique_ptr<std::uint8_t[]> dict_buffer;
    std::size_t dict_buffer_size = 0;

    /// `d`'s content followed by the `n` bytes at `src`, in dict_buffer (a
    /// frame's finder reads them as one history and input); returns where
    /// the copy of src starts, null when memory runs out.
    const std::uint8_t* behind_dictionary(const dictionary_data& d, const std::uint8_t* src, std::size_t n) noexcept;
    /// Buffers for blocks of up to `block` bytes whose matches are at least
    /// `min_match` long (a sequence per min_match bytes at most, as the
    /// reference sizes them: 3 or 4); false when memory runs out.
    bool reserve_blocks(std::size_t block, unsigned min_match) noexcept;
    std::size_t memory_usage() const noexcept;
};

/// A frame's settings (as zest::admitted stores them) and
/// the dictionary ID its header names (0: none).
struct frame_options : compression_options {
    std::uint32_t dict_id = 0;
};

struct dictionary_data;
struct attached_tables;

/// The address of position 0 when position `low` is at `src` (it is never
/// dereferenced below `low`).
inline const std::uint8_t* frame_base(const std::uint8_t* src, std::uint32_t low) noexcept {
    return reinterpret_cast<const std::uint8_t*>(reinterpret_cast<std::uintptr_t>(src) - low);
}

/// The parameters of a frame of `size` bytes (content_size_unknown when not known).
compression_params frame_params(const frame_options& o, std::uint64_t size) noexcept;

/// Frame header for a frame of `size` bytes (content_size_unknown: not declared);
/// returns its size, 0 when it does not fit.
std::size_t write_frame_header(std::uint8_t* dst, std::size_t capacity, std::uint64_t size, unsigned window_log,
                               const frame_options& o) noexcept;

/// One frame's block writer: match tables prepared for its parameters,
/// repeat offsets and entropy tables carried from block to block.
class block_writer {
public:
    /// Prepares `st`'s tables for a frame with parameters `p` whose first
    /// byte gets position `st.next_index` (see begin). `size` is the
    /// frame's size or content_size_unknown. `own_ldm` false: the long
    /// matches will come from take_long_matches, `st` needs no table.
    errc begin(encoder_state& st, const compression_params& p, std::uint64_t size, bool own_ldm = true) noexcept;

    /// After begin(), with long-distance matching: the blocks take their
    /// long matches from m[0, n) (in order, each inside one block; `start`
    /// counted from position `origin`) rather than finding them.
    void take_long_matches(const ldm_match* m, std::size_t n, std::size_t origin) noexcept {
        given_ = m;
        n_given_ = n;
        given_origin_ = origin;
    }

    /// The frame's first position: a block at position i starts at
    /// base() + i. (The tables' positions may later run ahead of the
    /// caller's by a fixed amount, see shift_; callers never see it.)
    std::uint32_t first_index() const noexcept { return ms_.low; }
    /// Where position 0 would be: the frame's byte at position i is at
    /// base + i (a streaming writer moves it when it moves its buffer).
    void set_base(const std::uint8_t* base) noexcept { ms_.base = base - shift_; }
    const std::uint8_t* base() const noexcept { return ms_.base + shift_; }
    std::size_t block_max() const noexcept { return block_max_; }

    /// Writes the block of positions [from, from + n) (n <= block_max) with
    /// its header to dst; `readable_end` bounds memory readable past the
    /// block (for short literal copies). Returns the bytes written, or
    /// errc::destination_too_small.
    result<std::size_t> write(std::size_t from, std::size_t n, bool last, const std::uint8_t* readable_end,
                              std::uint8_t* dst, std::size_t capacity) noexcept;

    /// Writes the blocks of positions [from, from + n) (at least one block,
    /// empty when n is 0), the last one marked last when `last`, and ends
    /// the frame's part there (finish). Returns the bytes written.
    result<std::size_t> write_all(std::size_t from, std::size_t n, bool last, const std::uint8_t* readable_end,
                                  std::uint8_t* dst, std::size_t capacity) noexcept;

    /// A dictionary's part, after begin(): its content, at positions
    /// [from, from + n), goes through the strategy's finder so that the
    /// match tables hold it (as blocks that are not written), and a
    /// formatted dictionary's entropy tables and repeat offsets become what
    /// the decoder starts the frame with.
    void load_dictionary(const dictionary_data& d, std::size_t from, const std::uint8_t* readable_end) noexcept;

    /// A job's history, after begin(), for a job of a frame compressed in
    /// parallel that is not the frame's first: the bytes at positions
    /// [from, from + n) before its first block go into the match tables:
    /// through the strategy's finder as a dictionary's content does, or for
    /// the optimal strategies (without long-distance matching) sorted into
    /// their tree only. The decoder's repeat offsets
    /// at the job's start are the previous job's, unknown here, so none is
    /// used until the job's own matches replace them; the entropy tables
    /// start empty, as a frame's.
    void load_prefix(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept;

    /// A dictionary's part, after begin(), for a frame whose input starts
    /// right after it: the finder searches the dictionary's own tables
    /// `t` (prepared for this frame's parameters) besides the frame's, and
    /// its entropy tables and repeat offsets start the frame as in
    /// load_dictionary. The frame's window must hold the dictionary and
    /// the input.
    void attach_dictionary(const dictionary_data& d, const attached_tables& t) noexcept;

    /// The sequences and literals the strategy finds in [from, from + n)
    /// (n <= block_max), as the block would hold them, without writing it
    /// (dictionary training counts them). Valid until the next call.
    const seq_store& find_only(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept;
    /// Whether the block find_only just found (of n bytes) would be written
    /// compressed: its sections, encoded into scratch[0, capacity), save
    /// what write() asks of them. The decoder's tables are left as they were.
    bool compresses(std::size_t n, std::uint8_t* scratch, std::size_t capacity) noexcept;

    /// Lowers every position by `delta` (entries below it are dropped), for
    /// streams that would pass index_limit; the caller moves base up by
    /// delta. Positions at or above `from - window` must stay >= 1.
    void lower_positions(std::uint32_t delta) noexcept;

    /// Ends the frame: the context's next frame starts after position `end`.
    void finish(std::size_t end) noexcept;

private:
    /// The literals and sequences sections of `part` into body[0, limit),
    /// after the decoder's tables st_->lit/seq[st_->prev], the tables it
    /// would then hold into the other slot; 0 when it does not fit.
    std::size_t encode_part(const seq_store& part, std::uint8_t* body, std::size_t limit) noexcept;
    /// store_'s sections (for a block of n bytes) into body[0, room) when
    /// they save the block's minimum gain: their size, else 0. The tables
    /// they leave go to the slot after st_->prev; the caller flips it.
    std::size_t encode_store(std::size_t n, std::uint8_t* body, std::size_t room) noexcept;
    /// Sequences [first, last) of store_ as a store of their own (with the
    /// block's trailing literals when last is the block's end).
    seq_store part_of(std::size_t first, std::size_t last) const noexcept;
    /// Finds where to cut store_'s sequences (st_->cuts), trying parts in
    /// scratch[0, room).
    void find_cuts(std::size_t first, std::size_t last, std::uint8_t* scratch, std::size_t room) noexcept;
    /// Fills store_ with the block [from, from + n): the strategy's finder,
    /// with long-distance matches when they are enabled.
    void find_block(std::size_t from, std::size_t n) noexcept;
    /// Writes store_, found in the block at `from`, as a block per part
    /// between cuts; `reps` are the repeat offsets before the block.
    result<std::size_t> write_parts(std::size_t from, const repeat_offsets& reps, bool last, std::uint8_t* dst,
                                    std::size_t capacity) noexcept;

    /// [from, from + n) through the finder, as blocks that are not written.
    void parse_history(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept;

    /// The decoder's state at the start of a frame with dictionary `d`.
    void start_with(const dictionary_data& d) noexcept;

    encoder_state* st_ = nullptr;
    match_state ms_{};
    repeat_offsets reps_{};
    seq_store store_{};
    std::size_t block_max_ = 0;
    // How far the tables' positions are ahead of the caller's: btultra2
    // moves them up by its first block's size after parsing it twice.
    std::size_t shift_ = 0;
    // take_long_matches: the matches, those taken, and where starts count from.
    const ldm_match* given_ = nullptr;
    std::size_t n_given_ = 0, given_origin_ = 0;
};

}  // namespace zest::detail
