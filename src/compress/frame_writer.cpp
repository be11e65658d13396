// The frame writer: the parameters of a frame, its header, and its blocks
// (raw, RLE or compressed, whichever is smallest), for one-shot and
// streaming compression alike.
#include "compress/frame_writer.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <span>

#include "common/bits.hpp"
#include "dictionary/dictionary_data.hpp"

namespace zest::detail {

std::size_t encoder_state::memory_usage() const noexcept {
    return sizeof(encoder_state) + (lits ? block_capacity + seq_store::lits_slack : 0) +
           (seq_capacity ? seq_capacity * (sizeof(stored_sequence) + 3) + seq_store::codes_slack : 0) +
           (hash_table.size() + chain_table.size() + hash3_table.size()) * sizeof(std::uint32_t) + tag_table.size() +
           (opt ? sizeof(opt_workspace) : 0) + ldm_entries.size() * sizeof(ldm_entry) + ldm_next.size() +
           ldm_capacity * sizeof(ldm_match) + dict_buffer_size;
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
    compression_params p = params_for_level(o.level, size, o.parameters);
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
    // The dictionary ID in as few bytes as hold it, as the reference writes it.
    const unsigned did_flag = o.dict_id == 0 ? 0 : o.dict_id < 256 ? 1 : o.dict_id < 65536 ? 2 : 3;
    const unsigned did_bytes = did_flag == 3 ? 4 : did_flag;
    std::size_t p = 4;
    dst[p++] = std::uint8_t(fcs_flag << 6 | unsigned(single) << 5 | unsigned(o.checksum) << 2 | did_flag);
    if (!single) dst[p++] = std::uint8_t((window_log - 10) << 3);
    for (unsigned i = 0; i < did_bytes; ++i) dst[p++] = std::uint8_t(o.dict_id >> (8 * i));
    const std::uint64_t v = fcs_bytes == 2 ? size - 256 : size;
    for (unsigned i = 0; i < fcs_bytes; ++i) dst[p++] = std::uint8_t(v >> (8 * i));
    return p;
}

namespace {

// Whether blocks are cut where their parts cost less on their own: at the
// optimal strategies with windows of 128 KiB or more, as the reference does.
bool splits_blocks(const compression_params& p) noexcept {
    return p.strategy >= strategy::btopt && p.window_log >= 17;
}

bool all_same(const std::uint8_t* p, std::size_t n) noexcept {
    for (std::size_t i = 1; i < n; ++i)
        if (p[i] != p[0]) return false;
    return true;
}

}  // namespace

const std::uint8_t* encoder_state::behind_dictionary(const dictionary_data& d, const std::uint8_t* src,
                                                     std::size_t n) noexcept {
    const std::size_t history = d.content_size;
    if (dict_buffer_size < history + n) {
        dict_buffer.reset(new (std::nothrow) std::uint8_t[history + n]);
        dict_buffer_size = dict_buffer ? history + n : 0;
        if (!dict_buffer) return nullptr;
    }
    std::memcpy(dict_buffer.get(), d.content, history);
    if (n) std::memcpy(dict_buffer.get() + history, src, n);
    return dict_buffer.get() + history;
}

errc block_writer::begin(encoder_state& st, const compression_params& p, std::uint64_t size, bool own_ldm) noexcept {
    st_ = &st;
    given_ = nullptr;
    n_given_ = 0;
    // Tables sized for this frame. A context that used the same sizes for
    // its previous frame keeps them as they are: positions go on counting
    // from where that frame ended, so its entries fall below `low` and are
    // ignored. Fresh tables start at 1, so that their zeroes are ignored too.
    const std::size_t hash_entries = hash_table_entries(p), chain_entries = chain_table_entries(p),
                      tag_entries = tag_table_entries(p), hash3_entries = hash3_table_entries(p);
    const bool ldm = p.ldm.mode == zest::ldm_mode::enabled;
    const std::size_t ldm_entries = ldm && own_ldm ? std::size_t(1) << p.ldm.hash_log : 0,
                      ldm_buckets = ldm && own_ldm ? std::size_t(1) << (p.ldm.hash_log - p.ldm.bucket_size_log) : 0;
    // btultra2 moves its positions up by its first block's size (shift_).
    const std::uint64_t span = (size == content_size_unknown ? block_size_max : size) +
                               (p.strategy == strategy::btultra2 ? block_size_max : 0);
    if (st.hash_table.size() != hash_entries || st.chain_table.size() != chain_entries ||
        st.tag_table.size() != tag_entries || st.hash3_table.size() != hash3_entries ||
        st.ldm_entries.size() != ldm_entries || st.ldm_next.size() != ldm_buckets ||
        st.next_index >= index_limit || span > index_limit - st.next_index) {
        if (!st.hash_table.assign(hash_entries) || !st.chain_table.assign(chain_entries) ||
            !st.tag_table.assign(tag_entries) || !st.hash3_table.assign(hash3_entries) ||
            !st.ldm_entries.assign(ldm_entries) || !st.ldm_next.assign(ldm_buckets)) {
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
    ms_.hash3_table = st.hash3_table.data();
    ms_.hash3_log = hash3_log(p);
    if (p.strategy >= strategy::btopt) {
        if (!st.opt) st.opt.reset(new (std::nothrow) opt_workspace);
        if (!st.opt) return errc::out_of_memory;
        st.opt->stats.lit_len_sum = 0;  // the frame's first block starts the statistics
        ms_.opt = st.opt.get();
    }
    shift_ = 0;
    // Until the frame ends, a failure leaves positions that cannot be trusted.
    st.next_index = index_limit;

    reps_ = repeat_offsets{};
    st.lit[st.prev].valid = false;
    st.seq[st.prev].reset();
    block_max_ = std::min<std::size_t>(block_size_max, std::size_t(1) << p.window_log);
    if (!st.reserve_blocks(block_max_, p.min_match)) return errc::out_of_memory;
    if (ldm) {
        // Each bucket's samples go in from its first slot, as in a fresh
        // table: a reused context then picks among equal matches as a new
        // one does (the entries left from earlier frames are never taken).
        if (ldm_buckets) std::memset(st.ldm_next.data(), 0, st.ldm_next.size());
        const std::size_t want = ldm_max_matches(block_max_, p.ldm.min_match);
        if (st.ldm_capacity < want) {
            st.ldm_matches.reset(new (std::nothrow) ldm_match[want]);
            st.ldm_capacity = st.ldm_matches ? want : 0;
            if (!st.ldm_matches) return errc::out_of_memory;
        }
    }

    store_ = seq_store{};
    store_.lits = st.lits.get();
    store_.seqs = st.seqs.get();
    store_.codes = st.codes.get();
    return ok;
}

void block_writer::load_dictionary(const dictionary_data& d, std::size_t from,
                                   const std::uint8_t* readable_end) noexcept {
    parse_history(from, d.content_size, readable_end);
    start_with(d);  // the dictionary's repeat offsets and tables, or the frame's defaults
}

void block_writer::parse_history(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept {
    for (std::size_t done = 0; done < n;) {
        const std::size_t part = std::min(block_max_, n - done);
        store_.clear();
        store_.src_end = readable_end;
        find_block(from + shift_ + done, part);
        done += part;
    }
    store_.clear();
}

void block_writer::load_prefix(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept {
    // The optimal strategies only sort the history into their tree: parsing
    // it as well cost as much as compressing it (a 16 MiB input at level 19
    // in jobs of 4 MiB with 4 MiB of history ran no faster on two workers
    // than on one thread).
    if (ms_.params.strategy >= strategy::btopt && (ms_.params.ldm.mode != zest::ldm_mode::enabled || given_))
        fill_opt_tree(ms_, from + shift_, from + shift_ + n);
    else
        parse_history(from, n, readable_end);
    // Farther than any window: the finders never match them (usable_repeat,
    // the optimal parser's reach test), so the repeat codes the job writes
    // are those of its own offsets, which the decoder then holds too.
    constexpr std::uint32_t unknown = 0xFFFFFFF0u;
    reps_.rep[0] = reps_.rep[1] = reps_.rep[2] = unknown;
}

void block_writer::attach_dictionary(const dictionary_data& d, const attached_tables& t) noexcept {
    ms_.dict_base = d.content - 1;
    ms_.dict_end = std::uint32_t(d.content_size + 1);
    ms_.dict_hash = t.hash.get();
    ms_.dict_chain = t.chain.get();
    ms_.dict_hash_log = t.hash_log;
    ms_.dict_chain_log = t.chain_log;
    start_with(d);
}

void block_writer::start_with(const dictionary_data& d) noexcept {
    encoder_state& st = *st_;
    reps_ = repeat_offsets{};
    if (!d.entropy) return;
    for (int i = 0; i < 3; ++i) reps_.rep[i] = d.rep[i];
    literals_entropy& lit = st.lit[st.prev];
    lit.table = &d.lit_ctable;
    lit.valid = true;
    seq_entropy& seq = st.seq[st.prev];
    const auto start = [](seq_table_state& t, const fse_distribution& dist, const fse_ctable& ct) {
        t.repeat_ok = true;
        t.from_dictionary = true;
        t.max_symbol = dist.max_symbol;
        t.table_log = dist.accuracy_log;
        std::memset(t.norm, 0, sizeof t.norm);
        std::memcpy(t.norm, dist.count, sizeof(std::int16_t) * (dist.max_symbol + 1));
        t.ct = &ct;
    };
    start(seq.of, d.of_dist, d.of_ct);
    start(seq.ml, d.ml_dist, d.ml_ct);
    start(seq.ll, d.ll_dist, d.ll_ct);
}

const seq_store& block_writer::find_only(std::size_t from, std::size_t n, const std::uint8_t* readable_end) noexcept {
    store_.clear();
    store_.src_end = readable_end;
    find_block(from + shift_, n);
    return store_;
}

result<std::size_t> block_writer::write(std::size_t from, std::size_t n, bool last, const std::uint8_t* readable_end,
                                        std::uint8_t* dst, std::size_t capacity) noexcept {
    encoder_state& st = *st_;
    const compression_params& p = ms_.params;
    from += shift_;
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
        find_block(from, n);
        // The optimal strategies cut a block where its parts cost less on
        // their own, as the reference does for windows of 128 KiB or more.
        if (splits_blocks(p) && store_.n_seqs > 4) {
            // The parts are tried where the block will be written.
            st.cuts.n = 0;
            find_cuts(0, store_.n_seqs, body, room);
            // Parts stored raw take a header each: cut only where even that
            // fits (a stream's buffer always has room; see stream.cpp).
            if (st.cuts.n > 0 && capacity >= n + block_header_size * (st.cuts.n + 1))
                return write_parts(from, saved, last, dst, capacity);
        }
        // Compressed only when it saves enough; written in place, and
        // replaced by the raw bytes if it does not.
        if (const std::size_t c = encode_store(n, body, room)) {
            body_size = c;
            type = 2;
            st.prev ^= 1;
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

std::size_t block_writer::encode_store(std::size_t n, std::uint8_t* body, std::size_t room) noexcept {
    encoder_state& st = *st_;
    const compression_params& p = ms_.params;
    const std::size_t limit = std::min(room, n - std::min(n, min_gain(n, gain_log_of(unsigned(p.strategy)))));
    if (limit == 0) return 0;
    // Negative levels store literals raw, as the reference does.
    const bool huffman = !(p.strategy == strategy::fast && p.target_length > 0);
    const unsigned prev = st.prev, next = prev ^ 1;
    std::size_t c = encode_literals(body, limit, store_.lits, store_.n_lits, st.lit[prev], st.lit[next], huffman,
                                    gain_log_of(unsigned(p.strategy)), p.strategy >= strategy::btultra,
                                    p.strategy < strategy::lazy && store_.n_lits <= 1024);
    if (c) {
        const std::size_t s = encode_sequences(body + c, limit - c, store_, st.seq[prev], st.seq[next], p.strategy);
        c = s ? c + s : 0;
    }
    return c < limit ? c : 0;
}

bool block_writer::compresses(std::size_t n, std::uint8_t* scratch, std::size_t capacity) noexcept {
    return encode_store(n, scratch, capacity) != 0;
}

void block_writer::find_block(std::size_t from, std::size_t n) noexcept {
    const compression_params& p = ms_.params;
    const std::uint8_t* const base_before = ms_.base;
    const std::size_t end = from + n;
    if (p.ldm.mode != zest::ldm_mode::enabled) {
        find_matches(ms_, store_, reps_, from, end);
        shift_ += std::size_t(base_before - ms_.base);  // btultra2's first block
        return;
    }
    encoder_state& st = *st_;
    const ldm_settings s{p.ldm.hash_log, p.ldm.bucket_size_log, p.ldm.min_match, p.ldm.hash_rate_log};
    const ldm_match* const m = st.ldm_matches.get();
    // Its table counts positions as the caller does: btultra2's move of the
    // other tables' positions after its first block (shift_) must not move
    // the samples taken before it.
    const auto less_shift = [&](std::size_t v) { return v > shift_ ? v - shift_ : 0; };
    std::size_t k = 0;
    if (given_) {
        // Those of this block, from its first byte (none in the history
        // before the origin).
        const std::size_t caller = from - shift_;
        const std::size_t at = caller - given_origin_, stop = at + n;
        while (caller >= given_origin_ && n_given_ && given_->start < stop) {
            st.ldm_matches[k] = *given_;
            st.ldm_matches[k++].start = std::uint32_t(given_->start - at);
            ++given_;
            --n_given_;
        }
    } else {
        k = find_long_matches(s, {st.ldm_entries.data(), st.ldm_next.data()}, ms_.base + shift_, less_shift(ms_.low),
                              less_shift(ms_.lowest(end)), from - shift_, end - shift_, st.ldm_matches.get());
    }
    if (p.strategy >= strategy::btopt) {
        // The optimal parser weighs them among its own matches.
        ms_.ldm = m;
        ms_.n_ldm = k;
        find_matches(ms_, store_, reps_, from, end);
        ms_.n_ldm = 0;
        shift_ += std::size_t(base_before - ms_.base);
        return;
    }
    // The other strategies take each long match as it is, and search the
    // stretches between them.
    std::size_t at = from;
    for (std::size_t i = 0; i <= k; ++i) {
        const std::size_t stop = i < k ? from + m[i].start : end;
        // The tables need not catch up with all of a long match's bytes.
        if (at > ms_.next_to_update + 1024)
            ms_.next_to_update = std::uint32_t(at - std::min<std::size_t>(512, at - ms_.next_to_update - 1024));
        const std::size_t lits_before = store_.n_lits, seqs_before = store_.n_seqs;
        if (stop > at) find_matches(ms_, store_, reps_, at, stop);
        if (i == k) break;
        // The stretch's trailing literals go before the long match.
        std::size_t in_seqs = 0;
        for (std::size_t j = seqs_before; j < store_.n_seqs; ++j) in_seqs += store_.lit_len(j);
        const std::size_t trailing = store_.n_lits - lits_before - in_seqs;
        store_.put(store_.n_seqs++, std::uint32_t(trailing), m[i].len, m[i].offset + 3);
        update_repeats(reps_.rep, m[i].offset + 3, trailing == 0);
        at = stop + m[i].len;
    }
}

std::size_t block_writer::encode_part(const seq_store& part, std::uint8_t* body, std::size_t limit) noexcept {
    const unsigned prev = st_->prev, next = prev ^ 1;
    const std::size_t c = encode_literals(body, limit, part.lits, part.n_lits, st_->lit[prev], st_->lit[next], true,
                                          gain_log_of(unsigned(ms_.params.strategy)), ms_.params.strategy >= strategy::btultra);
    if (!c) return 0;
    const std::size_t s =
        encode_sequences(body + c, limit - c, part, st_->seq[prev], st_->seq[next], ms_.params.strategy);
    return s ? c + s : 0;
}

seq_store block_writer::part_of(std::size_t first, std::size_t last) const noexcept {
    std::size_t lit_from = 0, lit_to = 0;
    for (std::size_t i = 0; i < last; ++i) {
        if (i == first) lit_from = lit_to;
        lit_to += store_.lit_len(i);
    }
    if (first == last) lit_from = lit_to;
    if (last == store_.n_seqs) lit_to = store_.n_lits;
    seq_store part = store_;
    part.lits = store_.lits + lit_from;
    part.n_lits = lit_to - lit_from;
    part.seqs = store_.seqs + first;
    part.n_seqs = last - first;
    part.long_seq = store_.long_seq >= first && store_.long_seq < last ? store_.long_seq - first : seq_store::no_long;
    return part;
}

void block_writer::find_cuts(std::size_t first, std::size_t last, std::uint8_t* scratch, std::size_t room) noexcept {
    block_cuts& cuts = st_->cuts;
    if (last - first < block_cuts::min_sequences || cuts.n >= block_cuts::max_cuts) return;
    const std::size_t mid = (first + last) / 2;
    // Each part's size as a block of its own, after the tables the decoder
    // holds before the block (as the reference estimates them); a part that
    // does not fit counts as too large to pay.
    const auto size = [&](std::size_t a, std::size_t b) -> std::size_t {
        const std::size_t c = encode_part(part_of(a, b), scratch, room);
        return c ? block_header_size + c : SIZE_MAX / 4;
    };
    const std::size_t whole = size(first, last);
    if (size(first, mid) + size(mid, last) >= whole) return;
    find_cuts(first, mid, scratch, room);
    if (cuts.n < block_cuts::max_cuts) cuts.at[cuts.n++] = std::uint32_t(mid);
    find_cuts(mid, last, scratch, room);
}

result<std::size_t> block_writer::write_parts(std::size_t from, const repeat_offsets& reps, bool last,
                                              std::uint8_t* dst, std::size_t capacity) noexcept {
    encoder_state& st = *st_;
    block_cuts& cuts = st.cuts;
    cuts.at[cuts.n] = std::uint32_t(store_.n_seqs);
    // The repeat offsets as the finder chose them and as the decoder will
    // hold them: they differ once a part is stored raw.
    repeat_offsets chosen = reps, decoded = reps;
    std::size_t pos = 0, at = from, first = 0;
    for (std::size_t k = 0; k <= cuts.n; ++k) {
        const std::size_t end = cuts.at[k];
        const bool final = k == cuts.n;
        const repeat_offsets decoded_before = decoded;
        std::size_t span = 0;
        for (std::size_t i = first; i < end; ++i) {
            stored_sequence& s = store_.seqs[i];
            const std::uint32_t ll = store_.lit_len(i);
            span += ll + store_.match_len(i);
            const bool ll0 = ll == 0;
            const std::uint32_t off_value = s.off_value;
            if (off_value <= 3) {
                // A repeat code names the offset the finder meant only if
                // the decoder's history agrees; else the offset is spelled out.
                const auto offset_of = [&](const repeat_offsets& r) {
                    const std::uint32_t c = off_value - 1 + std::uint32_t(ll0);
                    return c == 3 ? r.rep[0] - 1 : r.rep[c];
                };
                const std::uint32_t meant = offset_of(chosen);
                if (offset_of(decoded) != meant) s.off_value = meant + 3;
            }
            update_repeats(decoded.rep, s.off_value, ll0);
            update_repeats(chosen.rep, off_value, ll0);
        }
        const seq_store part = part_of(first, end);
        if (final) {
            std::size_t seq_lits = 0;
            for (std::size_t i = first; i < end; ++i) seq_lits += store_.lit_len(i);
            span += part.n_lits - seq_lits;  // the block's trailing literals
        }
        if (capacity - pos < block_header_size) return errc::destination_too_small;
        std::uint8_t* const body = dst + pos + block_header_size;
        const std::size_t room = capacity - pos - block_header_size;
        const std::size_t limit = std::min(room, span - std::min(span, min_gain(span, gain_log_of(unsigned(ms_.params.strategy)))));
        const std::size_t c = limit ? encode_part(part, body, limit) : 0;
        unsigned type = 2;
        std::size_t size = c;
        if (c && c < limit) {
            st.prev ^= 1;
        } else {
            if (room < span) return errc::destination_too_small;
            std::memcpy(body, ms_.base + at, span);
            type = 0;
            size = span;
            decoded = decoded_before;  // the decoder sees none of this part's sequences
        }
        store_le24(dst + pos, std::uint32_t(last && final) | type << 1 | std::uint32_t(size) << 3);
        pos += block_header_size + size;
        at += span;
        first = end;
    }
    reps_ = decoded;
    return pos;
}

void block_writer::lower_positions(std::uint32_t delta) noexcept {
    // A binary tree's unsorted mark stays, and a position that would take
    // its value is dropped with the older ones.
    const bool tree = ms_.params.strategy == strategy::btlazy2;
    const std::uint32_t drop = tree ? delta + bt_unsorted_mark : delta;
    for (std::uint32_t& v : std::span(st_->hash_table.data(), st_->hash_table.size())) v = v > drop ? v - delta : 0;
    for (std::uint32_t& v : std::span(st_->chain_table.data(), st_->chain_table.size()))
        v = v > drop ? v - delta : tree && v == bt_unsorted_mark ? v : 0;
    for (std::uint32_t& v : std::span(st_->hash3_table.data(), st_->hash3_table.size())) v = v > delta ? v - delta : 0;
    for (ldm_entry& e : std::span(st_->ldm_entries.data(), st_->ldm_entries.size())) e.pos = e.pos > delta ? e.pos - delta : 0;
    ms_.low = ms_.low > delta ? ms_.low - delta : 0;
    ms_.next_to_update = ms_.next_to_update > delta ? ms_.next_to_update - delta : 0;
    ms_.base += delta;
}

result<std::size_t> block_writer::write_all(std::size_t from, std::size_t n, bool last,
                                            const std::uint8_t* readable_end, std::uint8_t* dst,
                                            std::size_t capacity) noexcept {
    std::size_t pos = 0, done = 0;
    do {
        const std::size_t k = std::min(block_max_, n - done);
        const auto r = write(from + done, k, last && done + k == n, readable_end, dst + pos, capacity - pos);
        if (!r) return r.error();
        pos += *r;
        done += k;
    } while (done < n);
    finish(from + n);
    return pos;
}

void block_writer::finish(std::size_t end) noexcept {
    end += shift_;
    st_->next_index = end < index_limit ? std::uint32_t(end) : index_limit;
}

}  // namespace zest::detail
