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


}  // namespace

struct codec::state {
    decompress_stream dstream;
    compress_stream cstream;
    std::vector<std::byte> in_buf;
    std::vector<std::byte> out_buf;
};

codec::codec(const codec_settings& s) : settings_(s), state_(std::make_unique<state>()) {
    if (!state_->dstream.set_max_window_log(s.max_window_log)) throw file_error("--memory", "invalid window limit");
    (void)state_->cstream.set_level(s.level);
    (void)state_->cstream.set_checksum(s.checksum);
}

codec::~codec() = default;

transfer_totals codec::decompress(const input_file& in, output_sink* out, progress_line& progress) {
    transfer_totals t;
    progress.start(in.display, known_size(in));
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
    progress.clear();
    return t;
}

transfer_totals codec::compress(const input_file& in, output_sink& out, progress_line& progress) {
    transfer_totals t;
    const std::optional<std::uint64_t> size = known_size(in);
    progress.start(in.display, size);
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
    progress.clear();
    return t;
}

}  // namespace zest::cli
