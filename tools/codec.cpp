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

// The other formats' encoders and decoders work in the codec's buffers:
// in[pos, end) is pending, `refill` reads more, `emit` takes the output.
template <class Refill, class Emit>
class buffer_io final : public format_io {
public:
    buffer_io(std::vector<std::byte>& in, std::size_t& pos, std::size_t& end, std::vector<std::byte>& out,
              Refill& refill, Emit& emit)
        : in_(in), pos_(pos), end_(end), out_(out), refill_(refill), emit_(emit) {}
    std::span<const std::byte> pending() override { return {in_.data() + pos_, end_ - pos_}; }
    void consume(std::size_t n) override { pos_ += n; }
    bool refill() override { return refill_(); }
    std::span<std::byte> scratch() override { return out_; }
    void emit(std::span<const std::byte> data) override { emit_(data.data(), data.size()); }

private:
    std::vector<std::byte>& in_;
    std::size_t& pos_;
    std::size_t& end_;
    std::vector<std::byte>& out_;
    Refill& refill_;
    Emit& emit_;
};

// The memory xz and lzma decoders may take: the window limit for their
// dictionary, and a little more for their state.
std::uint64_t lzma_memory_limit(unsigned max_window_log) {
    return (std::uint64_t{1} << max_window_log) + (std::uint64_t{1} << 20);
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
    state_->dstream.set_verify_checksum(s.checksum);
    (void)state_->cstream.set_level(s.level);
    if (!state_->cstream.set_parameters(s.params)) throw file_error("--zstd", "parameter out of bounds");
    (void)state_->cstream.set_checksum(s.checksum);
    (void)state_->cstream.set_content_size(s.content_size);
    // Clamped where the library clamps (as zstd's context does).
    (void)state_->cstream.set(setting::workers, int(std::min<unsigned>(s.workers, 1u << 20)));
    (void)state_->cstream.set(setting::job_size, int(std::min<std::uint64_t>(s.job_size, 1u << 30)));
    (void)state_->cstream.set(setting::overlap_log, int(std::min(s.overlap_log, 1u << 20)));
    (void)state_->cstream.set(setting::rsyncable, s.rsyncable);
    (void)state_->cstream.set_dictionary(s.dict);
    (void)state_->cstream.set_dictionary_id_written(s.dict_id);
    (void)state_->dstream.set_dictionary(s.dict);
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
    bool input_ended = false;
    std::size_t pos = 0, end = 0;  // input not consumed yet: ib[pos, end)
    // Reads more input after what is left (moved to the front); false at its end.
    const auto refill = [&] {
        if (input_ended) return false;
        if (pos > 0) {
            std::copy(ib.begin() + static_cast<std::ptrdiff_t>(pos), ib.begin() + static_cast<std::ptrdiff_t>(end),
                      ib.begin());
            end -= pos;
            pos = 0;
        }
        const std::size_t n = read_once(in, ib.data() + end, ib.size() - end);
        if (n == 0) {
            input_ended = true;
            return false;
        }
        any_input = true;
        t.read += n;
        end += n;
        return true;
    };
    // Every call to the decoder and every piece passed through or decoded
    // by another format's decoder comes here: the progress line follows them
    // (a few KiB of input can expand to gigabytes).
    const auto emit = [&](const std::byte* p, std::size_t n) {
        if (out && n) out->write(std::span<const std::byte>(p, n));
        t.written += n;
        progress.update(t.read, t.written);
    };
    const auto step = [&](in_buffer& src) {
        out_buffer dst{ob.data(), ob.size(), 0};
        const auto r = ds.decompress(dst, src);
        if (!r) throw file_error(in.display, reason_of(r.error()));
        emit(ob.data(), dst.pos);
        output_full = dst.pos == dst.size;
    };
    // Whatever arrives is decoded and written at once, so a reader of our
    // output keeps up with a slow producer of the input.
    for (;;) {
        if (pos == end && !refill()) break;
        if (ds.at_frame_boundary()) {
            // A frame starts with 4 bytes of magic: judge them whole.
            while (end - pos < 4 && refill()) {}
            const auto format = sniff_format(reinterpret_cast<const unsigned char*>(ib.data() + pos), end - pos);
            if (format && *format != data_format::zstd) {
                // A gzip member, xz/lzma stream or lz4 frame, among frames as zstd allows.
                buffer_io io(ib, pos, end, ob, refill, emit);
                decode_other(*format, io, lzma_memory_limit(settings_.max_window_log), in.display);
                continue;
            }
            const bool frame = format.has_value();
            if (!frame && settings_.pass_through) {
                t.passed_through = true;
                do {
                    emit(ib.data() + pos, end - pos);
                    pos = end;
                } while (refill());
                break;
            }
            // As zstd: fewer bytes than a magic number are no frame at all.
            if (end - pos < 4) throw file_error(in.display, reason_of(errc::unknown_frame));
        }
        in_buffer src{ib.data(), end, pos};
        step(src);
        // Drains what the decoder holds, but not past a frame that ended as
        // the output filled: what follows may be another format's data.
        while (output_full && !ds.at_frame_boundary()) step(src);
        pos = src.pos;
    }
    // An empty file holds no frame; zstd reports it rather than writing an empty output.
    if (!any_input || !ds.at_frame_boundary()) throw file_error(in.display, reason_of(errc::truncated_input));
    progress.clear();
    return t;
}

bool codec::is_dictionary_file(const input_file& in) const {
    return !in.is_stdin && settings_.dict_file && settings_.dict_file->first == in.st.st_dev &&
           settings_.dict_file->second == in.st.st_ino;
}

bool codec::uses_stream_size(const input_file& in) const {
    // As zstd, --stream-size stands for what cannot be known beforehand
    // (zstd never looks at the size of standard input, even a file's: it is
    // checked against what is read).
    return settings_.stream_size && (in.is_stdin || !known_size(in));
}

std::optional<std::uint64_t> codec::pledged_size(const input_file& in) const {
    // Standard input's size is never taken, even a redirected file's, as in
    // zstd: it may still grow (a log being written), or not be its length
    // at all (/proc files say 0), and the pledge would fail the run.
    if (in.is_stdin || uses_stream_size(in)) return settings_.stream_size;
    return known_size(in);
}

compression_parameters codec::parameters_for(const input_file& in) const {
    const std::optional<std::uint64_t> size = pledged_size(in);
    return used_parameters(settings_.level, size ? size : settings_.size_hint, settings_.params);
}

void codec::check_format(const std::string& subject) const {
    if (settings_.format == data_format::zstd) return;
    encode_settings es;
    es.level = settings_.level;
    check_encode(settings_.format, es, subject);
}

transfer_totals codec::compress(const input_file& in, output_sink& out, progress_line& progress) {
    transfer_totals t;
    const std::optional<std::uint64_t> size = pledged_size(in);
    const bool stream_size = uses_stream_size(in);
    progress.start(in.display, size);
    if (settings_.format != data_format::zstd) {
        t = compress_other(in, out, progress, size && !uses_stream_size(in) ? size : std::nullopt);
        progress.clear();
        return t;
    }
    compress_stream& cs = state_->cstream;
    cs.reset();
    if (size) (void)cs.set_pledged_size(*size);  // checked at the end; declared unless --no-content-size
    (void)cs.set_size_hint(settings_.size_hint.value_or(0));  // used when no size is pledged
    auto& ib = state_->in_buf;
    auto& ob = state_->out_buf;
    ib.resize(compress_stream::recommended_in_size);
    ob.resize(compress_stream::recommended_out_size);
    const auto step = [&](in_buffer& src, directive d) {
        out_buffer dst{ob.data(), ob.size(), 0};
        const auto r = cs.compress(dst, src, d);
        if (!r) {
            cs.reset();
            if (r.error() == errc::content_size_mismatch && stream_size)  // zstd's status: 11
                throw file_error(in.display, "input size differs from --stream-size=" + std::to_string(*size), 11);
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

transfer_totals codec::compress_other(const input_file& in, output_sink& out, progress_line& progress,
                                      std::optional<std::uint64_t> size) {
    transfer_totals t;
    encode_settings es;
    es.level = settings_.level;
    es.checksum = settings_.checksum;
    es.content_size = settings_.content_size;
    es.size = size;
    auto& ib = state_->in_buf;
    auto& ob = state_->out_buf;
    ib.resize(compress_stream::recommended_in_size);
    ob.resize(compress_stream::recommended_out_size);
    std::size_t pos = 0, end = 0;
    auto refill = [&] {
        pos = 0;
        end = read_once(in, ib.data(), ib.size());
        t.read += end;
        return end > 0;
    };
    auto emit = [&](const std::byte* p, std::size_t n) {
        if (n) out.write(std::span<const std::byte>(p, n));
        t.written += n;
        progress.update(t.read, t.written);
    };
    buffer_io io(ib, pos, end, ob, refill, emit);
    encode_other(settings_.format, es, io, in.display);
    return t;
}

}  // namespace zest::cli
