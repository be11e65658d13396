// Public compression API: one-shot calls and the compressor context, on
// the frame writer (compress/frame_writer.cpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/bits.hpp"
#include "compress/frame_writer.hpp"
#include "compress/parallel.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

namespace zest {
namespace detail {

namespace {

// Frames up to this size attach to a dictionary's tables; larger ones pay
// for its content once, which their own length dwarfs.
constexpr std::size_t attach_limit = std::size_t(1) << 16;

// Writes the blocks of [first, first + size) (base set, dictionary loaded or
// attached) and the checksum; pos: the header's size.
result<std::size_t> write_blocks(block_writer& w, std::uint8_t* dst, std::size_t capacity, std::size_t pos,
                                 const std::uint8_t* src, std::size_t size, std::size_t first,
                                 const std::uint8_t* readable_end, bool checksum) noexcept {
    const auto r = w.write_all(first, size, true, readable_end, dst + pos, capacity - pos);
    if (!r) return r.error();
    pos += *r;

    if (checksum) {
        if (capacity - pos < 4) return errc::destination_too_small;
        store_le32(dst + pos, std::uint32_t(XXH64(src, size, 0)));
        pos += 4;
    }
    return pos;
}

result<std::size_t> compress_attached(encoder_state& st, std::uint8_t* dst, std::size_t capacity,
                                      const std::uint8_t* src, std::size_t size, const frame_options& o,
                                      const compression_params& p, const dictionary_data& dict,
                                      const attached_tables& t) noexcept {
    const std::size_t pos = write_frame_header(dst, capacity, size, p.window_log, o);
    if (pos == 0) return errc::destination_too_small;
    block_writer w;
    ZEST_TRY(w.begin(st, attached_params(p, size), size));
    const std::uint32_t low = w.first_index();
    w.set_base(frame_base(src, low));
    w.attach_dictionary(dict, t);
    return write_blocks(w, dst, capacity, pos, src, size, low, src + size, o.checksum);
}

result<std::size_t> compress_frame(encoder_state& st, std::uint8_t* dst, std::size_t capacity,
                                   const std::uint8_t* src, std::size_t size, const frame_options& o,
                                   const dictionary_data* dict = nullptr) noexcept {
    // With a dictionary, the parameters are those of its content and the
    // input together (as the reference sizes them). fast and dfast search
    // the dictionary's prepared tables beside the frame's own, when the
    // window holds both; otherwise the content goes in front of the input,
    // in one buffer, and through the finder.
    const std::size_t history = dict ? dict->content_size : 0;
    if (size > SIZE_MAX - history) return errc::out_of_memory;
    const compression_params p = frame_params(o, size + history);
    const std::uint8_t* data = src;
    if (dict) {
        if (const attached_tables* t = size <= attach_limit ? dict->tables_for(p, size) : nullptr)
            return compress_attached(st, dst, capacity, src, size, o, p, *dict, *t);
        const std::uint8_t* const input = st.behind_dictionary(*dict, src, size);
        if (!input) return errc::out_of_memory;
        data = input - history;
    }
    const std::size_t pos = write_frame_header(dst, capacity, size, p.window_log, o);
    if (pos == 0) return errc::destination_too_small;

    block_writer w;
    ZEST_TRY(w.begin(st, p, size + history));
    const std::uint32_t low = w.first_index();
    w.set_base(frame_base(data, low));
    if (dict) w.load_dictionary(*dict, low, data + history + size);
    return write_blocks(w, dst, capacity, pos, src, size, low + history, data + history + size, o.checksum);
}

// The options of a frame at `level` (clamped, 0 the default), the others the defaults.
frame_options options_at(int level) noexcept {
    frame_options o;
    (void)set_setting(o, setting::level, level);
    return o;
}

encoder_state* new_encoder_state() noexcept { return new (std::nothrow) encoder_state; }

thread_local std::unique_ptr<encoder_state> thread_encoder;

// The public calls' common part: argument checks, the state (created on
// first use by `state`, after the checks), then one frame.
template <class GetState>
result<std::size_t> checked_frame(GetState&& state, void* dst, std::size_t capacity, const void* src,
                                  std::size_t size, const frame_options& o,
                                  const dictionary_data* dict = nullptr) noexcept {
    if ((!dst && capacity) || (!src && size)) return errc::invalid_argument;
    encoder_state* const st = state();
    if (!st) return errc::out_of_memory;
    static const std::uint8_t nothing = 0;  // a real address for an empty, null source
    frame_options with = o;
    with.dict_id = dict && o.dictionary_id ? dict->id : 0;
    return compress_frame(*st, static_cast<std::uint8_t*>(dst), capacity,
                          src ? static_cast<const std::uint8_t*>(src) : &nothing, size, with, dict);
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

compression_parameters level_parameters(int level, std::optional<std::uint64_t> size) noexcept {
    return detail::params_for_level(detail::options_at(level).level, size.value_or(detail::content_size_unknown));
}

compression_parameters used_parameters(int level, std::optional<std::uint64_t> size,
                                       const compression_parameters& set) noexcept {
    detail::frame_options o = detail::options_at(level);
    o.parameters = set;
    o.parameters = admitted(o).parameters;  // what a setter would refuse is the level's
    return detail::frame_params(o, size.value_or(detail::content_size_unknown));
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
    return detail::checked_frame(state, dst, dst_capacity, src, src_size, detail::options_at(level));
}

result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src, int level) noexcept {
    return compress(dst.data(), dst.size(), src.data(), src.size(), level);
}

std::vector<std::byte> compress(std::span<const std::byte> src, int level) {
    return detail::frame_vector(src.size(), [&](std::span<std::byte> dst) { return compress(dst, src, level); });
}

result<std::size_t> compress(std::span<std::byte> dst, std::span<const std::byte> src, const dictionary& dict,
                             int level) noexcept {
    const auto state = [] {
        if (!detail::thread_encoder) detail::thread_encoder.reset(detail::new_encoder_state());
        return detail::thread_encoder.get();
    };
    return detail::checked_frame(state, dst.data(), dst.size(), src.data(), src.size(),
                                 detail::options_at(level), dict.data());
}

compressor::compressor() noexcept = default;
compressor::~compressor() = default;
compressor::compressor(compressor&&) noexcept = default;
compressor& compressor::operator=(compressor&&) noexcept = default;

result<std::size_t> compressor::compress(void* dst, std::size_t dst_capacity, const void* src,
                                         std::size_t src_size) noexcept {
    return compress_with(dst, dst_capacity, src, src_size, dict_.data());
}

result<std::size_t> compressor::compress(std::span<std::byte> dst, std::span<const std::byte> src,
                                         const zest::dictionary& d) noexcept {
    return compress_with(dst.data(), dst.size(), src.data(), src.size(), d.data());
}

result<std::size_t> compressor::compress_with(void* dst, std::size_t dst_capacity, const void* src,
                                              std::size_t src_size, const detail::dictionary_data* d) noexcept {
    const auto state = [this] {
        if (!state_) state_.reset(detail::new_encoder_state());
        return state_.get();
    };
    detail::frame_options o;
    static_cast<compression_options&>(o) = options_;
    if (o.workers && src && dst) {
        // With a dictionary, sized for it and the input, as on one thread.
        const std::size_t history = d ? d->content_size : 0;
        const detail::compression_params p = detail::frame_params(o, std::uint64_t(src_size) + history);
        if (detail::in_jobs(p, o, src_size)) {
            if (!parallel_) parallel_.reset(new (std::nothrow) detail::parallel_state);
            if (!parallel_) return errc::out_of_memory;
            o.dict_id = d && o.dictionary_id ? d->id : 0;
            return detail::compress_parallel(*parallel_, static_cast<std::uint8_t*>(dst), dst_capacity,
                                             static_cast<const std::uint8_t*>(src), src_size, o, p, d);
        }
    }
    return detail::checked_frame(state, dst, dst_capacity, src, src_size, o, d);
}

result<std::size_t> compressor::compress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept {
    return compress(dst.data(), dst.size(), src.data(), src.size());
}

std::vector<std::byte> compressor::compress(std::span<const std::byte> src) {
    return detail::frame_vector(src.size(), [&](std::span<std::byte> dst) { return compress(dst, src); });
}

void compressor::reset() noexcept { options_ = {}; }

std::size_t compressor::memory_usage() const noexcept {
    return (state_ ? state_->memory_usage() : 0) + (parallel_ ? parallel_->memory_usage() : 0);
}

}  // namespace zest
