// Public decompression API: contexts, one-shot calls, frame inspection.
#include <memory>
#include <new>

#include "decompress/frame.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

namespace zest {
namespace detail {

namespace {

decoder_state* new_state() noexcept {
    auto* st = new (std::nothrow) decoder_state;
    if (st) st->reset_frame();
    return st;
}

// One-shot calls reuse one state per thread instead of allocating per call.
struct thread_scratch {
    decoder_state* st = nullptr;
    ~thread_scratch() { delete st; }
};
thread_local thread_scratch scratch;

result<decoder_state*> thread_state() noexcept {
    if (!scratch.st) scratch.st = new_state();
    if (!scratch.st) return errc::out_of_memory;
    return scratch.st;
}

result<std::size_t> decode_into(decoder_state& st, void* dst, std::size_t cap, const void* src,
                                std::size_t size, unsigned max_window_log,
                                const dictionary_data* dict = nullptr) noexcept {
    if ((!dst && cap) || (!src && size)) return errc::invalid_argument;
    // An empty destination may be null; the decoder does pointer arithmetic
    // on it, so give it a real (zero-capacity) address.
    static std::uint8_t no_room;
    output_buffer out;
    out.data = dst ? static_cast<std::uint8_t*>(dst) : &no_room;
    out.cap = cap;
    const errc e = decode_frames(st, static_cast<const std::uint8_t*>(src), size, out, max_window_log, dict);
    if (e != ok) return e;
    return out.pos;
}

std::vector<std::byte> decode_to_vector(decoder_state& st, std::span<const std::byte> src,
                                        unsigned max_window_log, const dictionary_data* dict) {
    std::vector<std::byte> v;
    output_buffer out;
    out.growable = &v;
    const errc e = decode_frames(st, reinterpret_cast<const std::uint8_t*>(src.data()), src.size(), out,
                                 max_window_log, dict);
    if (e == errc::out_of_memory) throw std::bad_alloc();
    if (e != ok) throw std::system_error(make_error_code(e));
    v.resize(out.pos);
    return v;
}

}  // namespace
}  // namespace detail

using detail::ok;

result<std::optional<std::uint64_t>> frame_content_size(std::span<const std::byte> src) noexcept {
    detail::frame_header h;
    const errc e = detail::parse_frame_header(reinterpret_cast<const std::uint8_t*>(src.data()), src.size(), h);
    if (e != ok) return e;
    if (h.skippable) return std::optional<std::uint64_t>(0);
    if (h.content_size == detail::content_size_unknown) return std::optional<std::uint64_t>();
    return std::optional<std::uint64_t>(h.content_size);
}

result<std::size_t> find_frame_compressed_size(std::span<const std::byte> src) noexcept {
    std::size_t n = 0;
    const errc e = detail::frame_compressed_size(reinterpret_cast<const std::uint8_t*>(src.data()), src.size(), n);
    if (e != ok) return e;
    return n;
}

result<std::size_t> decompress(void* dst, std::size_t dst_capacity, const void* src, std::size_t src_size) noexcept {
    auto st = detail::thread_state();
    if (!st) return st.error();
    return detail::decode_into(**st, dst, dst_capacity, src, src_size, default_max_window_log);
}

result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept {
    return decompress(dst.data(), dst.size(), src.data(), src.size());
}

std::vector<std::byte> decompress(std::span<const std::byte> src) {
    auto st = detail::thread_state();
    if (!st) throw std::bad_alloc();
    return detail::decode_to_vector(**st, src, default_max_window_log, nullptr);
}

result<std::size_t> decompress(std::span<std::byte> dst, std::span<const std::byte> src,
                               const dictionary& dict) noexcept {
    auto st = detail::thread_state();
    if (!st) return st.error();
    return detail::decode_into(**st, dst.data(), dst.size(), src.data(), src.size(), default_max_window_log,
                               dict.data());
}

// ---------------------------------------------------------------------------

decompressor::decompressor() noexcept = default;
decompressor::~decompressor() { delete state_; }
decompressor::decompressor(decompressor&& o) noexcept
    : state_(o.state_), max_window_log_(o.max_window_log_), dict_(std::move(o.dict_)) {
    o.state_ = nullptr;
}
decompressor& decompressor::operator=(decompressor&& o) noexcept {
    if (this != &o) {
        delete state_;
        state_ = o.state_;
        max_window_log_ = o.max_window_log_;
        dict_ = std::move(o.dict_);
        o.state_ = nullptr;
    }
    return *this;
}

result<detail::decoder_state*> decompressor::state() noexcept {
    if (!state_) state_ = detail::new_state();
    if (!state_) return errc::out_of_memory;
    return state_;
}

result<unsigned> decompressor::set_max_window_log(unsigned log) noexcept {
    if (log < 10 || log > max_window_log_limit) return errc::invalid_argument;
    max_window_log_ = log;
    return log;
}

result<std::size_t> decompressor::decompress(void* dst, std::size_t dst_capacity, const void* src,
                                             std::size_t src_size) noexcept {
    auto st = state();
    if (!st) return st.error();
    return detail::decode_into(**st, dst, dst_capacity, src, src_size, max_window_log_, dict_.data());
}

result<std::size_t> decompressor::decompress(std::span<std::byte> dst, std::span<const std::byte> src,
                                             const zest::dictionary& d) noexcept {
    auto st = state();
    if (!st) return st.error();
    return detail::decode_into(**st, dst.data(), dst.size(), src.data(), src.size(), max_window_log_, d.data());
}

result<std::size_t> decompressor::decompress(std::span<std::byte> dst, std::span<const std::byte> src) noexcept {
    return decompress(dst.data(), dst.size(), src.data(), src.size());
}

std::vector<std::byte> decompressor::decompress(std::span<const std::byte> src) {
    auto st = state();
    if (!st) throw std::bad_alloc();
    return detail::decode_to_vector(**st, src, max_window_log_, dict_.data());
}

void decompressor::reset() noexcept {
    if (state_) state_->reset_frame();
}

std::size_t decompressor::memory_usage() const noexcept { return state_ ? sizeof(detail::decoder_state) : 0; }

}  // namespace zest
