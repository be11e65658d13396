#include "frame_list.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>

#include "common/format.hpp"
#include "file_io.hpp"
#include "messages.hpp"

namespace zest::cli {

namespace {

struct frame_summary {
    bool skippable = false;
    std::uint64_t offset = 0;
    std::uint64_t compressed = 0;
    std::optional<std::uint64_t> content_size;
    std::uint64_t window = 0;
    std::uint32_t dict_id = 0;
    bool has_checksum = false;
    std::uint32_t checksum = 0;
    std::uint64_t blocks = 0;
};

struct file_summary {
    std::vector<frame_summary> frames;
    std::uint64_t size = 0;
    unsigned zstd_frames() const {
        return static_cast<unsigned>(std::count_if(frames.begin(), frames.end(),
                                                   [](const frame_summary& f) { return !f.skippable; }));
    }
    unsigned skippable_frames() const { return static_cast<unsigned>(frames.size()) - zstd_frames(); }
    bool size_known() const {
        return std::all_of(frames.begin(), frames.end(),
                           [](const frame_summary& f) { return f.skippable || f.content_size; });
    }
    std::uint64_t content_size() const {
        std::uint64_t total = 0;
        for (const auto& f : frames)
            if (!f.skippable && f.content_size) total += *f.content_size;
        return total;
    }
    // As zstd: the check column says XXH64 when any frame has one.
    bool any_checked() const {
        return std::any_of(frames.begin(), frames.end(), [](const frame_summary& f) { return f.has_checksum; });
    }
    // The checksum zstd -lv shows: that of a file's only (non-skippable) frame.
    std::optional<std::uint32_t> only_checksum() const {
        if (zstd_frames() != 1) return std::nullopt;
        for (const auto& f : frames)
            if (!f.skippable && f.has_checksum) return f.checksum;
        return std::nullopt;
    }
    std::uint64_t max_window() const {
        std::uint64_t w = 0;
        for (const auto& f : frames) w = std::max(w, f.window);
        return w;
    }
};

// Thrown for data that is not a valid sequence of frames; an empty reason
// is a file that does not start with a frame at all.
struct not_zstd {
    std::string reason;
};
constexpr std::string_view unknown_magic = "data that is not a frame (unknown magic number)";

class reader {
public:
    reader(int fd, std::uint64_t size, const std::string& name) : fd_(fd), size_(size), name_(name) {}
    // Reads exactly n bytes at `at`, or reports a truncated frame.
    void read(std::uint64_t at, unsigned char* dst, std::size_t n) const {
        if (at > size_ || size_ - at < n) throw not_zstd{"truncated frame"};
        std::size_t done = 0;
        while (done < n) {
            const ssize_t r = ::pread(fd_, dst + done, n - done, static_cast<off_t>(at + done));
            if (r < 0) {
                if (errno == EINTR) continue;
                throw errno_error(name_, errno);
            }
            if (r == 0) throw not_zstd{"truncated frame"};
            done += static_cast<std::size_t>(r);
        }
    }
    std::uint64_t size() const { return size_; }

private:
    int fd_;
    std::uint64_t size_;
    const std::string& name_;
};

frame_summary scan_frame(const reader& in, std::uint64_t at) {
    using namespace zest::detail;
    frame_summary f;
    f.offset = at;
    if (in.size() - at < 4) throw not_zstd{std::string(unknown_magic)};  // too short for any frame
    unsigned char h[frame_header_size_max];
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof h, in.size() - at));
    in.read(at, h, n);
    frame_header fh;
    const errc e = parse_frame_header(h, n, fh);  // ok is errc{}, no enumerator: not a switch case
    if (e == errc::unknown_frame) throw not_zstd{std::string(unknown_magic)};
    if (e == errc::reserved_bit_set) throw not_zstd{"reserved bit set in frame header"};
    if (e != ok) throw not_zstd{"truncated frame"};
    if (fh.skippable) {
        f.skippable = true;
        f.compressed = skippable_header_size + fh.content_size;
        if (in.size() - at < f.compressed) throw not_zstd{"truncated skippable frame"};
        return f;
    }
    f.has_checksum = fh.checksum;
    f.window = fh.window_size;
    f.dict_id = fh.dict_id;
    if (fh.content_size != content_size_unknown) f.content_size = fh.content_size;
    std::uint64_t p = at + fh.header_size;
    for (;;) {
        unsigned char b[block_header_size];
        in.read(p, b, sizeof b);
        block_header bh;
        if (parse_block_header(b, bh) != ok) throw not_zstd{"reserved block type"};
        p += block_header_size;
        if (in.size() - p < bh.input_size()) throw not_zstd{"truncated frame"};
        p += bh.input_size();
        ++f.blocks;
        if (bh.last) break;
    }
    if (f.has_checksum) {
        unsigned char c[checksum_size];
        in.read(p, c, sizeof c);
        f.checksum = load_le32(c);
        p += checksum_size;
    }
    f.compressed = p - at;
    return f;
}

file_summary scan_file(const std::string& name) {
    unique_fd fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) throw errno_error(name, errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw errno_error(name, errno);
    if (S_ISDIR(st.st_mode)) throw file_error(name, "is a directory -- ignored");
    if (!S_ISREG(st.st_mode)) throw file_error(name, "is not a regular file -- ignored");
    file_summary s;
    s.size = static_cast<std::uint64_t>(st.st_size);
    const reader in(fd.get(), s.size, name);
    if (s.size == 0) throw not_zstd{""};  // as zstd: not compressed by zstd
    for (std::uint64_t at = 0; at < s.size;) {
        try {
            s.frames.push_back(scan_frame(in, at));
        } catch (not_zstd& e) {
            // Say what was found before the damage, and where it is.
            const std::size_t n = s.frames.size();
            if (n == 0 && e.reason == unknown_magic) throw not_zstd{""};
            if (n > 0) e.reason += " after " + std::to_string(n) + (n == 1 ? " frame," : " frames,");
            e.reason += " at byte " + std::to_string(at) + " of " + std::to_string(s.size);
            throw;
        }
        at += s.frames.back().compressed;
    }
    return s;
}

struct scaled {
    double value;
    int precision;
    const char* unit;
};

scaled scale(std::uint64_t bytes) {
    static constexpr const char* units[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
    if (display_level > 3) return {static_cast<double>(bytes), 0, " B"};  // -vv: exact bytes
    unsigned u = 0;
    double v = static_cast<double>(bytes);
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        ++u;
    }
    // zstd's precision: whole numbers as they are, then fewer decimals for larger values.
    if (u == 0 || v >= 100) return {v, 0, units[u]};
    return {v, v >= 10 ? 1 : v > 1 ? 2 : 3, units[u]};
}

void print_row(unsigned frames, unsigned skips, std::uint64_t compressed, std::optional<std::uint64_t> plain,
               const char* check, const std::string& label) {
    const scaled c = scale(compressed);
    if (plain) {
        const scaled d = scale(*plain);
        const double ratio = compressed ? static_cast<double>(*plain) / static_cast<double>(compressed) : 0.0;
        std::printf("%6u  %5u  %6.*f%4s  %8.*f%4s  %5.3f  %5s  %s\n", frames, skips, c.precision, c.value, c.unit,
                    d.precision, d.value, d.unit, ratio, check, label.c_str());
    } else {
        std::printf("%6u  %5u  %6.*f%4s                       %5s  %s\n", frames, skips, c.precision, c.value,
                    c.unit, check, label.c_str());
    }
}

void print_detail(const std::string& name, const file_summary& s) {
    std::printf("%s \n", name.c_str());
    std::printf("# Zstandard Frames: %u\n", s.zstd_frames());
    if (s.skippable_frames()) std::printf("# Skippable Frames: %u\n", s.skippable_frames());
    std::uint32_t dict = 0;
    for (const auto& f : s.frames) dict = f.skippable ? dict : std::max(dict, f.dict_id);
    std::printf("DictID: %u\n", dict);
    const scaled w = scale(s.max_window());
    std::printf("Window Size: %.*f%s (%llu B)\n", w.precision, w.value, w.unit,
                static_cast<unsigned long long>(s.max_window()));
    const scaled c = scale(s.size);
    std::printf("Compressed Size: %.*f%s (%llu B)\n", c.precision, c.value, c.unit,
                static_cast<unsigned long long>(s.size));
    if (s.size_known()) {
        const scaled d = scale(s.content_size());
        std::printf("Decompressed Size: %.*f%s (%llu B)\n", d.precision, d.value, d.unit,
                    static_cast<unsigned long long>(s.content_size()));
        std::printf("Ratio: %.4f\n", static_cast<double>(s.content_size()) / static_cast<double>(s.size));
    }
    if (const auto sum = s.only_checksum())
        std::printf("Check: XXH64 %08x\n", *sum);
    else
        std::printf("Check: %s\n", s.any_checked() ? "XXH64" : "None");
    std::printf("\n  Frame        Offset  Type        Window    Compressed  Decompressed  Blocks  Check\n");
    unsigned index = 0;
    for (const auto& f : s.frames) {
        ++index;
        if (f.skippable) {
            std::printf("%7u  %12llu  skippable  %8s  %12llu  %12s  %6s  %s\n", index,
                        static_cast<unsigned long long>(f.offset), "-",
                        static_cast<unsigned long long>(f.compressed), "-", "-", "-");
            continue;
        }
        char content[24] = "unknown";
        if (f.content_size)
            std::snprintf(content, sizeof content, "%llu", static_cast<unsigned long long>(*f.content_size));
        char check[24] = "None";
        if (f.has_checksum) std::snprintf(check, sizeof check, "XXH64 %08x", f.checksum);
        std::printf("%7u  %12llu  zstd       %8llu  %12llu  %12s  %6llu  %s\n", index,
                    static_cast<unsigned long long>(f.offset), static_cast<unsigned long long>(f.window),
                    static_cast<unsigned long long>(f.compressed), content,
                    static_cast<unsigned long long>(f.blocks), check);
    }
    std::printf("\n");
}

}  // namespace

std::string human_size(unsigned long long bytes, int unit_width) {
    const scaled s = scale(bytes);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%6.*f%*s", s.precision, s.value, unit_width, s.unit);
    return buf;
}

int list_files(const std::vector<std::string>& files) {
    if (files.empty() || std::find(files.begin(), files.end(), "-") != files.end()) {
        print_error("--list does not support reading from standard input");
        print_error("No files given");
        return 1;
    }
    const bool detailed = display_level >= 3;
    if (!detailed) std::printf("Frames  Skips  Compressed  Uncompressed  Ratio  Check  Filename\n");
    int status = 0;
    unsigned listed = 0, frames = 0, skips = 0;
    std::uint64_t compressed = 0, plain = 0;
    bool known = true, checked = true;
    for (const std::string& name : files) {
        try {
            const file_summary s = scan_file(name);
            ++listed;
            frames += static_cast<unsigned>(s.frames.size());
            skips += s.skippable_frames();
            compressed += s.size;
            plain += s.content_size();
            known = known && s.size_known();
            checked = checked && s.any_checked();
            if (detailed)
                print_detail(name, s);
            else
                // As zstd, the Frames column counts skippable frames too.
                print_row(static_cast<unsigned>(s.frames.size()), s.skippable_frames(), s.size,
                          s.size_known() ? std::optional(s.content_size()) : std::nullopt,
                          s.any_checked() ? "XXH64" : "None", name);
        } catch (const not_zstd& e) {
            if (e.reason.empty()) {
                // zstd's row for it, among the others on stdout, whatever -q says (and a blank line with -v).
                std::printf("File \"%s\" not compressed by zstd \n", name.c_str());
                if (detailed) std::printf("\n");
            } else {
                std::fflush(stdout);
                print_error(name, e.reason);
            }
            status = 1;
        } catch (const file_error& e) {
            std::fflush(stdout);
            print_error(e.subject(), e.what());
            status = 1;
        }
    }
    if (files.size() > 1 && !detailed) {  // as zstd, even when no file could be listed ("0 files")
        std::printf("----------------------------------------------------------------- \n");
        print_row(frames, skips, compressed, known ? std::optional(plain) : std::nullopt, checked ? "XXH64" : "",
                  std::to_string(listed) + " files");
    }
    std::fflush(stdout);
    return status;
}

}  // namespace zest::cli
