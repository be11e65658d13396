#include "codec.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>

namespace zest::cli {

namespace {

[[maybe_unused]] constexpr std::size_t read_chunk = std::size_t{1} << 17;

std::string reason_of(errc code) {
    std::string reason = error_message(code);
    if (code == errc::window_too_large) reason += " (use --memory=# or --long=# to raise it)";
    return reason;
}

std::optional<std::uint64_t> known_size(const input_file& in) {
    if (S_ISREG(in.st.st_mode) && in.st.st_size >= 0) return static_cast<std::uint64_t>(in.st.st_size);
    return std::nullopt;
}

// One read of at most `n` bytes: returns what a pipe has now, 0 at the end.
std::size_t read_once(const input_file& in, std::byte* dst, std::size_t n) {
    for (;;) {
        const ssize_t r = ::read(in.fd, dst, n);
        if (r >= 0) return static_cast<std::size_t>(r);
        if (errno != EINTR) throw errno_error(in.display, errno);
    }
}

// Reads up to `n` bytes, fewer only at the end of the input.
[[maybe_unused]] std::size_t read_some(const input_file& in, std::byte* dst, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
        const ssize_t r = ::read(in.fd, dst + got, n - got);
        if (r < 0) {
            if (errno == EINTR) continue;
            throw errno_error(in.display, errno);
        }
        if (r == 0) break;
        got += static_cast<std::size_t>(r);
    }
    return got;
}

#if !ZEST_CLI_STREAM_DECODE || !ZEST_CLI_STREAM_ENCODE
// The whole input in memory, read in chunks so that the progress line moves.
std::vector<std::byte> read_whole(const input_file& in, progress_line& progress) {
    std::vector<std::byte> buf;
    if (const auto size = known_size(in)) buf.reserve(static_cast<std::size_t>(*size) + 1);
    for (;;) {
        const std::size_t used = buf.size();
        buf.resize(used + read_chunk);
        const std::size_t n = read_some(in, buf.data() + used, read_chunk);
        buf.resize(used + n);
        progress.update(buf.size(), 0);
        if (n < read_chunk) return buf;
    }
}
#endif

}  // namespace

struct codec::state {
#if ZEST_CLI_STREAM_DECODE
    decompress_stream dstream;
#else
    decompressor dec;
#endif
#if ZEST_CLI_STREAM_ENCODE
    compress_stream cstream;
#else
    compressor enc;
#endif
    std::vector<std::byte> in_buf;
    std::vector<std::byte> out_buf;
};

codec::codec(const codec_settings& s) : settings_(s), state_(std::make_unique<state>()) {
#if ZEST_CLI_STREAM_DECODE
    if (!state_->dstream.set_max_window_log(s.max_window_log)) throw file_error("--memory", "invalid window limit");
#else
    if (!state_->dec.set_max_window_log(s.max_window_log)) throw file_error("--memory", "invalid window limit");
#endif
#if ZEST_CLI_STREAM_ENCODE
    (void)state_->cstream.set_level(s.level);
    (void)state_->cstream.set_checksum(s.checksum);
#else
    state_->enc.set_level(s.level);
    state_->enc.set_checksum(s.checksum);
#endif
}

codec::~codec() = default;

transfer_totals codec::decompress(const input_file& in, output_sink* out, progress_line& progress) {
    transfer_totals t;
    progress.start(in.display, known_size(in));
#if ZEST_CLI_STREAM_DECODE
    decompress_stream& ds = state_->dstream;
    ds.reset();  // whatever a previous failure left behind
    auto& ib = state_->in_buf;
    auto& ob = state_->out_buf;
    ib.resize(decompress_stream::recommended_in_size);
    ob.resize(std::size_t{1} << 17);
    bool output_full = false;
    bool any_input = false;
    const auto step = [&](in_buffer& src) {
        out_buffer dst{ob.data(), ob.size(), 0};
        const auto r = ds.decompress(dst, src);
        if (!r) throw file_error(in.display, reason_of(r.error()));
        if (out && dst.pos) out->write(std::span<const std::byte>(ob.data(), dst.pos));
        t.written += dst.pos;
        output_full = dst.pos == dst.size;
    };
    // Whatever arrives is decoded and written at once, so a reader of our
    // output keeps up with a slow producer of the input.
    for (;;) {
        const std::size_t n = read_once(in, ib.data(), ib.size());
        if (n == 0) break;
        any_input = true;
        t.read += n;
        in_buffer src{ib.data(), n, 0};
        while (src.pos < src.size) step(src);
        while (output_full) step(src);  // src is consumed: drains what the decoder holds
        progress.update(t.read, t.written);
    }
    // Output the decoder still holds once the input has run out.
    in_buffer none{ib.data(), 0, 0};
    while (output_full) step(none);
    // An empty file holds no frame; zstd reports it rather than writing an empty output.
    if (!any_input || !ds.at_frame_boundary()) throw file_error(in.display, reason_of(errc::truncated_input));
#else
    const std::vector<std::byte> src = read_whole(in, progress);
    t.read = src.size();
    if (src.empty()) throw file_error(in.display, reason_of(errc::truncated_input));
    std::vector<std::byte> produced;
    try {
        produced = state_->dec.decompress(std::span<const std::byte>(src));
    } catch (const std::system_error& e) {
        state_->dec.reset();  // the next input starts clean whatever state the failure left
        if (e.code().category() != zest::error_category()) throw file_error(in.display, e.what());
        throw file_error(in.display, reason_of(static_cast<errc>(e.code().value())));
    }
    if (out) out->write(produced);
    t.written = produced.size();
#endif
    progress.clear();
    return t;
}

transfer_totals codec::compress(const input_file& in, output_sink& out, progress_line& progress) {
    transfer_totals t;
    const std::optional<std::uint64_t> size = known_size(in);
    progress.start(in.display, size);
#if ZEST_CLI_STREAM_ENCODE
    compress_stream& cs = state_->cstream;
    cs.reset();
    if (size) (void)cs.set_pledged_size(*size);
    auto& ib = state_->in_buf;
    auto& ob = state_->out_buf;
    ib.resize(compress_stream::recommended_in_size);
    ob.resize(compress_stream::recommended_out_size);
    const auto step = [&](in_buffer& src, directive d) {
        out_buffer dst{ob.data(), ob.size(), 0};
        const auto r = cs.compress(dst, src, d);
        if (!r) {
            cs.reset();
            if (r.error() == errc::content_size_mismatch)
                throw file_error(in.display, "file changed size while being compressed");
            throw file_error(in.display, reason_of(r.error()));
        }
        if (dst.pos) out.write(std::span<const std::byte>(ob.data(), dst.pos));
        t.written += dst.pos;
        return *r;
    };
    for (;;) {
        const std::size_t n = read_once(in, ib.data(), ib.size());
        t.read += n;
        in_buffer src{ib.data(), n, 0};
        if (n == 0) {
            while (step(src, directive::end) != 0) {}
            break;
        }
        while (src.pos < src.size) step(src, directive::proceed);
        progress.update(t.read, t.written);
    }
#else
    const std::vector<std::byte> src = read_whole(in, progress);
    t.read = src.size();
    std::vector<std::byte> dst(compress_bound(src.size()));
    const auto r = state_->enc.compress(std::span<std::byte>(dst), std::span<const std::byte>(src));
    if (!r) throw file_error(in.display, r.message());
    out.write(std::span<const std::byte>(dst.data(), *r));
    t.written = *r;
#endif
    progress.clear();
    return t;
}

}  // namespace zest::cli
