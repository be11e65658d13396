// The frame writer: the parameters of a frame, its header, and its blocks
// (raw, RLE or compressed, whichever is smallest), for one-shot and
// streaming compression alike.
#include "compress/frame_writer.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <span>

#include "common/bits.hpp"

namespace zest::detail {

std::size_t encoder_state::memory_usage() const noexcept {
    return sizeof(encoder_state) + (lits ? block_capacity + seq_store::lits_slack : 0) +
           (seq_capacity ? seq_capacity * (sizeof(stored_sequence) + 3) + seq_store::codes_slack : 0) +
           (hash_table.size() + chain_table.size()) * sizeof(std::uint32_t) + tag_table.size();
}

bool encoder_state::reserve_blocks(std::size_t block, unsigned min_match) noexcept {
    // Every finder stores matches of 4 bytes or more; 3 only when asked.
    const std::size_t seqs_needed = block / (min_match <= 3 ? 3 : 4) + 1;
    if (!lits || block_capacity < block) {
        lits.reset(new (std::nothrow) std::uint8_t[block + seq_store::lits_slack]);
        block_capacity = lits ? block : 0;
    }
    if (!seqs || !codes || seq_capacity < seqs_needed) {
        seqs.reset(new (std::nothrow) stored_sequence[seqs_needed]);
        codes.reset(new (std::nothrow) std::uint8_t[3 * seqs_needed + seq_store::codes_slack]);
        seq_capacity = seqs && codes ? seqs_needed : 0;
    }
    return block_capacity != 0 && seq_capacity != 0;
}

compression_params frame_params(const frame_options& o, std::uint64_t size) noexcept {
    parameter_overrides over = o.over;
    if (o.window_log) over.window_log = o.window_log;
    compression_params p = params_for_level(o.level, size, over);
    // Until the optimal strategies exist, btlazy2 stands in for them with
    // their level's parameters; the tables keep the level's sizes (a binary
    // tree, as theirs), so memory is what the reference's would be.
    if (p.strat > strategy::btlazy2) p.strat = strategy::btlazy2;
    if (uses_row_matcher(p)) {
        // Row hashes take hash_log - row_log bits for the row and 8 for the
        // tag, 32 at most (as the reference caps them).
        const unsigned row_log = std::clamp(p.search_log, 4u, 6u);
        p.hash_log = std::clamp(p.hash_log, row_log, 24u + row_log);
    }
    return p;
}

std::size_t write_frame_header(std::uint8_t* dst, std::size_t capacity, std::uint64_t size, unsigned window_log,
                               const frame_options& o) noexcept {
    if (capacity < frame_header_size_max) return 0;
    store_le32(dst, zstd_magic);
    const bool declared = o.content_size && size != content_size_unknown;
    const bool single = declared && size <= (std::uint64_t(1) << window_log);
    unsigned fcs_flag = 0, fcs_bytes = 0;
    if (declared) {
        if (size < 256 && single) fcs_flag = 0, fcs_bytes = 1;
        else if (size < 65536 + 256) fcs_flag = 1, fcs_bytes = 2;
        else if (size <= 0xFFFFFFFFu) fcs_flag = 2, fcs_bytes = 4;
        else fcs_flag = 3, fcs_bytes = 8;
    }
    std::size_t p = 4;
    dst[p++] = std::uint8_t(fcs_flag << 6 | unsigned(single) << 5 | unsigned(o.checksum) << 2);
    if (!single) dst[p++] = std::uint8_t((window_log - 10) << 3);
    const std::uint64_t v = fcs_bytes == 2 ? size - 256 : size;
    for (unsigned i = 0; i < fcs_bytes; ++i) dst[p++] = std::uint8_t(v >> (8 * i));
    return p;
}

namespace {

bool all_same(const std::uint8_t* p, std::size_t n) noexcept {
    for (std::size_t i = 1; i < n; ++i)
        if (p[i] != p[0]) return false;
    return true;
}

}  // namespace

errc block_writer::begin(encoder_state& st, const compression_params& p, std::uint64_t size) noexcept {
    if (!st.usable()) return errc::out_of_memory;
    st_ = &st;
    // Tables sized for this frame. A context that used the same sizes for
    // its previous frame keeps them as they are: positions go on counting
    // from where that frame ended, so its entries fall below `low` and are
    // ignored. Fresh tables start at 1, so that their zeroes are ignored too.
    const std::size_t hash_entries = hash_table_entries(p), chain_entries = chain_table_entries(p),
                      tag_entries = tag_table_entries(p);
    const std::uint64_t span = size == content_size_unknown ? block_size_max : size;
    if (st.hash_table.size() != hash_entries || st.chain_table.size() != chain_entries ||
        st.tag_table.size() != tag_entries ||
        st.next_index >= index_limit || span > index_limit - st.next_index) {
        if (!st.hash_table.assign(hash_entries) || !st.chain_table.assign(chain_entries) ||
            !st.tag_table.assign(tag_entries)) {
            st.next_index = index_limit;  // whatever is left is not to be trusted
            return errc::out_of_memory;
        }
        st.next_index = 1;
    }
    ms_ = match_state{};
    ms_.low = st.next_index;
    ms_.next_to_update = ms_.low;
    ms_.params = p;
    ms_.hash_table = st.hash_table.data();
    ms_.chain_table = st.chain_table.data();
    ms_.tag_table = st.tag_table.data();
    // Until the frame ends, a failure leaves positions that cannot be trusted.
    st.next_index = index_limit;

    reps_ = repeat_offsets{};
    st.lit[st.prev].valid = false;
    st.seq[st.prev].reset();
    block_max_ = std::min<std::size_t>(block_size_max, std::size_t(1) << p.window_log);
    if (!st.reserve_blocks(block_max_, p.min_match)) return errc::out_of_memory;
    store_ = seq_store{};
    store_.lits = st.lits.get();
    store_.seqs = st.seqs.get();
    store_.codes = st.codes.get();
    return ok;
}

result<std::size_t> block_writer::write(std::size_t from, std::size_t n, bool last, const std::uint8_t* readable_end,
                                        std::uint8_t* dst, std::size_t capacity) noexcept {
    encoder_state& st = *st_;
    const compression_params& p = ms_.params;
    const std::uint8_t* const block = ms_.base + from;
    if (capacity < 3) return errc::destination_too_small;
    std::uint8_t* const body = dst + 3;
    const std::size_t room = capacity - 3;

    std::size_t body_size = 0;
    unsigned type = 0;  // 0 raw, 1 RLE, 2 compressed
    if (n > 1 && all_same(block, n)) {
        if (room < 1) return errc::destination_too_small;
        body[0] = block[0];
        body_size = 1;
        type = 1;
    } else if (n > 0) {
        const repeat_offsets saved = reps_;
        store_.clear();
        store_.src_end = readable_end;
        find_matches(ms_, store_, reps_, from, from + n);
        // Compressed only when it saves enough; written in place, and
        // replaced by the raw bytes if it does not.
        const std::size_t limit = std::min(room, n - std::min(n, min_gain(n)));
        // Negative levels store literals raw, as the reference does.
        const bool huffman = !(p.strat == strategy::fast && p.target_length > 0);
        const unsigned prev = st.prev, next = prev ^ 1;
        std::size_t c = limit ? encode_literals(body, limit, store_.lits, store_.n_lits, st.lit[prev], st.lit[next],
                                                huffman)
                              : 0;
        if (c) {
            const std::size_t s = encode_sequences(body + c, limit - c, store_, st.seq[prev], st.seq[next], p.strat);
            c = s ? c + s : 0;
        }
        if (c && c < limit) {
            body_size = c;
            type = 2;
            st.prev = next;
        } else {
            reps_ = saved;  // the decoder will not see this block's sequences
        }
    }
    if (type == 0) {
        if (room < n) return errc::destination_too_small;
        if (n) std::memcpy(body, block, n);
        body_size = n;
    }
    // An RLE block's size field counts the bytes it regenerates.
    const std::size_t size_field = type == 1 ? n : body_size;
    store_le24(dst, std::uint32_t(last) | type << 1 | std::uint32_t(size_field) << 3);
    return 3 + body_size;
}

void block_writer::lower_positions(std::uint32_t delta) noexcept {
    // A binary tree's unsorted mark stays, and a position that would take
    // its value is dropped with the older ones.
    const bool tree = ms_.params.strat >= strategy::btlazy2;
    const std::uint32_t drop = tree ? delta + bt_unsorted_mark : delta;
    for (std::uint32_t& v : std::span(st_->hash_table.data(), st_->hash_table.size())) v = v > drop ? v - delta : 0;
    for (std::uint32_t& v : std::span(st_->chain_table.data(), st_->chain_table.size()))
        v = v > drop ? v - delta : tree && v == bt_unsorted_mark ? v : 0;
    ms_.low = ms_.low > delta ? ms_.low - delta : 0;
    ms_.next_to_update = ms_.next_to_update > delta ? ms_.next_to_update - delta : 0;
    ms_.base += delta;
}

void block_writer::finish(std::size_t end) noexcept {
    st_->next_index = end < index_limit ? std::uint32_t(end) : index_limit;
}

}  // namespace zest::detail
