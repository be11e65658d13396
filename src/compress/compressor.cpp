// Public compression API and the frame writer: header, blocks (raw, RLE or
// compressed, whichever is smallest), checksum.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/bits.hpp"
#include "compress/frame_writer.hpp"
#include "zest/zest.hpp"

namespace zest {
namespace detail {

constexpr std::uint32_t frame_magic = 0xFD2FB528u;

std::size_t encoder_state::memory_usage() const noexcept {
    return sizeof(encoder_state) + block_size_max + seq_store::lits_slack +
           (block_size_max / 3 + 1) * (sizeof(stored_sequence) + sizeof(std::uint32_t)) +
           (hash_table.capacity() + chain_table.capacity()) * sizeof(std::uint32_t);
}

compression_params frame_params(const frame_options& o, std::uint64_t size) noexcept {
    compression_params p = params_for_level(o.level, size);
    if (o.window_log) p.window_log = std::min(p.window_log, o.window_log);
    p.window_log = std::max(p.window_log, 10u);
    if (p.strat > strategy::dfast) {
        // Until the stronger strategies exist, dfast stands in for them; its
        // tables stay at the sizes it uses itself rather than those of a
        // binary tree (which reach hundreds of MiB at the top levels).
        p.hash_log = std::min(p.hash_log, 20u);
        p.chain_log = std::min(p.chain_log, 20u);
    }
    return p;
}

std::size_t write_frame_header(std::uint8_t* dst, std::size_t capacity, std::uint64_t size, unsigned window_log,
                               const frame_options& o) noexcept {
    if (capacity < frame_header_max) return 0;
    put_le32(dst, frame_magic);
    const bool declared = o.content_size && size != size_unknown;
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
    const std::size_t hash_entries = hash_table_entries(p), chain_entries = chain_table_entries(p);
    const std::uint64_t span = size == size_unknown ? block_size_max : size;
    if (st.hash_table.size() != hash_entries || st.chain_table.size() != chain_entries ||
        st.next_index >= index_limit || span > index_limit - st.next_index) {
        try {
            st.hash_table.assign(hash_entries, 0);
            st.chain_table.assign(chain_entries, 0);
        } catch (const std::bad_alloc&) {
            st.next_index = index_limit;  // whatever is left is not to be trusted
            return errc::out_of_memory;
        }
        st.next_index = 1;
    }
    ms_ = match_state{};
    ms_.low = st.next_index;
    ms_.params = p;
    ms_.hash_table = st.hash_table.data();
    ms_.chain_table = st.chain_table.data();
    // Until the frame ends, a failure leaves positions that cannot be trusted.
    st.next_index = index_limit;

    reps_ = repeat_offsets{};
    st.lit[st.prev].valid = false;
    st.seq[st.prev].reset();
    block_max_ = std::min<std::size_t>(block_size_max, std::size_t(1) << p.window_log);
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
        if (p.strat == strategy::fast) find_matches_fast(ms_, store_, reps_, from, from + n);
        else find_matches_dfast(ms_, store_, reps_, from, from + n);
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
    put_le24(dst, std::uint32_t(last) | type << 1 | std::uint32_t(size_field) << 3);
    return 3 + body_size;
}

void block_writer::lower_positions(std::uint32_t delta) noexcept {
    for (std::uint32_t* t : {st_->hash_table.data(), st_->chain_table.data()}) {
        const std::size_t n = t == st_->hash_table.data() ? st_->hash_table.size() : st_->chain_table.size();
        for (std::size_t i = 0; i < n; ++i) t[i] = t[i] > delta ? t[i] - delta : 0;
    }
    ms_.low = ms_.low > delta ? ms_.low - delta : 0;
    ms_.next_to_update = ms_.next_to_update > delta ? ms_.next_to_update - delta : 0;
    ms_.base += delta;
}

void block_writer::finish(std::size_t end) noexcept {
    st_->next_index = end < index_limit ? std::uint32_t(end) : index_limit;
}

namespace {

// The address of index 0 when index `low` is at `src` (it is never
// dereferenced below `low`).
const std::uint8_t* frame_base(const std::uint8_t* src, std::uint32_t low) noexcept {
    return reinterpret_cast<const std::uint8_t*>(reinterpret_cast<std::uintptr_t>(src) - low);
}

result<std::size_t> compress_frame(encoder_state& st, std::uint8_t* dst, std::size_t capacity,
                                   const std::uint8_t* src, std::size_t size, const frame_options& o) noexcept {
    if (!st.usable()) return errc::out_of_memory;
    const compression_params p = frame_params(o, size);
    std::size_t pos = write_frame_header(dst, capacity, size, p.window_log, o);
    if (pos == 0) return errc::destination_too_small;

    block_writer w;
    ZEST_TRY(w.begin(st, p, size));
    const std::uint32_t low = w.first_index();
    w.set_base(frame_base(src, low));
    std::size_t done = 0;
    do {
        const std::size_t n = std::min(w.block_max(), size - done);
        const bool last = done + n == size;
        const auto r = w.write(low + done, n, last, src + size, dst + pos, capacity - pos);
        if (!r) return r.error();
        pos += *r;
        done += n;
    } while (done < size);
    w.finish(low + size);

    if (o.checksum) {
        if (capacity - pos < 4) return errc::destination_too_small;
        put_le32(dst + pos, std::uint32_t(XXH64(src, size, 0)));
        pos += 4;
    }
    return pos;
}

int clamp_level(int level) noexcept {
    if (level == 0) return zest::default_level;
    return std::clamp(level, zest::min_level, zest::max_level);
}

encoder_state* new_encoder_state() noexcept { return new (std::nothrow) encoder_state; }

thread_local std::unique_ptr<encoder_state> thread_encoder;

// The public calls' common part: argument checks, the state (created on
// first use by `state`, after the checks), then one frame.
template <class GetState>
result<std::size_t> checked_frame(GetState&& state, void* dst, std::size_t capacity, const void* src,
                                  std::size_t size, const frame_options& o) noexcept {
    if ((!dst && capacity) || (!src && size)) return errc::invalid_argument;
    encoder_state* const st = state();
    if (!st) return errc::out_of_memory;
    static const std::uint8_t nothing = 0;  // a real address for an empty, null source
    return compress_frame(*st, static_cast<std::uint8_t*>(dst), capacity,
                          src ? static_cast<const std::uint8_t*>(src) : &nothing, size, o);
}

// A bound-sized vector holding the frame `into` writes (only memory can
// make that fail).
template <class Into>
std::vector<std::byte> frame_vector(std::size_t src_size, Into&& into) {
    std::vector<std::byte> out(compress_bound(src_size));
    const auto r = into(std::span<std::byte>(out));
    if (!r) throw std::bad_alloc();
    out.resize(*r);
    return out;
}

}  // namespace
}  // namespace detail

namespace {
static_assert(static_cast<int>(detail::strategy::btultra2) == static_cast<int>(strategy::btultra2) &&
              static_cast<int>(detail::strategy::fast) == static_cast<int>(strategy::fast));
compression_parameters to_public(const detail::compression_params& p) noexcept {
    return {p.window_log, p.chain_log, p.hash_log, p.search_log, p.min_match, p.target_length,
            static_cast<strategy>(p.strat)};
}
int clamp_level(int level) noexcept { return level == 0 ? default_level : std::clamp(level, min_level, max_level); }
}  // namespace

compression_parameters level_parameters(int level, std::optional<std::uint64_t> size) noexcept {
    return to_public(detail::params_for_level(clamp_level(level), size.value_or(detail::size_unknown)));
}

compression_parameters used_parameters(int level, std::optional<std::uint64_t> size) noexcept {
    const detail::frame_options o{clamp_level(level), false, true, 0};
    compression_parameters p = to_public(detail::frame_params(o, size.value_or(detail::size_unknown)));
    if (p.strategy > strategy::dfast) p.strategy = strategy::dfast;  // the finder that runs (see frame_params)
    return p;
}

std::size_t compress_bound(std::size_t n) noexcept {
    if (n >= max_input_size) return 0;
    const std::size_t small = 128 * 1024;
    return n + (n >> 8) + (n < small ? (small - n) >> 11 : 0);
}

result<std::size_t> compress(void* dst, std::size_t dst_capacity, const void* src, std::size_t src_size,
                             int level) noexcept {
    const auto state = [] {
        if (!detail::thread_encoder) detail::thread_encoder.reset(detail::new_encoder_state());
        return detail::thread_encoder.get();
    };
    return detail::checked_frame(state, dst, dst_capacity, src, src_size, {detail::clamp_level(level), false, true, 0});
}

result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src, int level) noexcept {
    return compress(dst.data(), dst.size(), src.data(), src.size(), level);
}

std::vector<std::byte> compress(std::span<const std::byte> src, int level) {
    return detail::frame_vector(src.size(), [&](std::span<std::byte> dst) { return compress(dst, src, level); });
}

compressor::compressor() noexcept = default;
compressor::~compressor() { delete state_; }
compressor::compressor(compressor&& o) noexcept
    : state_(o.state_), level_(o.level_), checksum_(o.checksum_), content_size_(o.content_size_),
      window_log_(o.window_log_) {
    o.state_ = nullptr;
}
compressor& compressor::operator=(compressor&& o) noexcept {
    if (this != &o) {
        delete state_;
        state_ = o.state_;
        o.state_ = nullptr;
        level_ = o.level_, checksum_ = o.checksum_, content_size_ = o.content_size_, window_log_ = o.window_log_;
    }
    return *this;
}

void compressor::set_level(int level) noexcept { level_ = detail::clamp_level(level); }

result<int> compressor::set_fast(int acceleration) noexcept {
    if (acceleration < 1 || acceleration > -min_level) return errc::invalid_argument;
    level_ = -acceleration;
    return level_;
}

result<unsigned> compressor::set_window_log(unsigned log) noexcept {
    if (log != 0 && (log < 10 || log > max_window_log_limit)) return errc::invalid_argument;
    window_log_ = log;
    return log;
}

result<std::size_t> compressor::compress(void* dst, std::size_t dst_capacity, const void* src,
                                         std::size_t src_size) noexcept {
    const auto state = [this] {
        if (!state_) state_ = detail::new_encoder_state();
        return state_;
    };
    return detail::checked_frame(state, dst, dst_capacity, src, src_size,
                                 {level_, checksum_, content_size_, window_log_});
}

result<std::size_t> compressor::compress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept {
    return compress(dst.data(), dst.size(), src.data(), src.size());
}

std::vector<std::byte> compressor::compress(std::span<const std::byte> src) {
    return detail::frame_vector(src.size(), [&](std::span<std::byte> dst) { return compress(dst, src); });
}

void compressor::reset() noexcept {
    level_ = default_level;
    checksum_ = false;
    content_size_ = true;
    window_log_ = 0;
}

std::size_t compressor::memory_usage() const noexcept { return state_ ? state_->memory_usage() : 0; }

}  // namespace zest
