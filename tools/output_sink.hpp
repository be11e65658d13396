// Where decoded bytes go: standard output, a device written in place, or a
// regular file that only appears under its name once it is complete.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace zest::cli {

/// Unlinks the temporary file being written when SIGINT, SIGTERM or SIGHUP
/// arrives. Like zstd, SIGINT while a file was being written then exits
/// with status 2; otherwise the process dies of the signal. Signals the
/// caller ignores stay ignored. Call after display_level is final.
void install_signal_handlers();

class output_sink {
public:
    /// Standard output; never closed.
    static std::unique_ptr<output_sink> open_stdout();

    /// Decides whether an existing regular file may be replaced (without
    /// -f): returns to allow it, throws file_error to refuse.
    using overwrite_check = std::function<void(const std::string& path)>;

    /// A regular file is written to a temporary file in the same directory
    /// and renamed over `path` by commit(). An existing regular file is only
    /// replaced with `force` or when `approve` allows it (without one, it is
    /// refused). Devices and FIFOs (like /dev/null) are written in place,
    /// since renaming over them would replace the node itself.
    static std::unique_ptr<output_sink> create(const std::string& path, bool force,
                                               const overwrite_check& approve = {});

    output_sink(const output_sink&) = delete;
    output_sink& operator=(const output_sink&) = delete;
    /// Discards an uncommitted temporary file.
    ~output_sink();

    const std::string& name() const noexcept { return name_; }
    /// True for a regular file that commit() renames into place (not
    /// stdout, not a device like /dev/null).
    bool is_regular_file() const noexcept { return kind_ == kind::temporary; }

    /// True when the destination existed and is the file `st` describes
    /// (replacing it would destroy the input being read).
    bool same_file_as(const struct stat& st) const noexcept;

    void write(std::span<const std::byte> data);

    /// Sparse writing (zstd's --sparse): blocks of zeros are skipped with a
    /// seek, leaving holes that read as zeros and take no disk space. Only
    /// for a temporary file, or standard output when it is a regular file
    /// opened without O_APPEND with nothing after the current offset;
    /// elsewhere (pipes, devices, whose old contents would show through)
    /// the call changes nothing.
    void set_sparse(bool on) noexcept;
    bool sparse() const noexcept { return sparse_; }

    /// Gives the output its full length when it ends with a hole (commit()
    /// does this itself). Throws file_error.
    void finish_holes();

    /// Finishes the output: copies permissions and times from `metadata`
    /// (an input file; null applies the default 0666 & ~umask), closes the
    /// file checking for errors, and renames it into place. With `durable`
    /// (--rm: the input is about to go) the data and the rename are synced
    /// to disk first, so that a crash cannot lose both copies.
    void commit(const struct stat* metadata, bool durable = false);

    /// Removes the temporary file (if any); the destination is untouched.
    void discard() noexcept;

private:
    enum class kind { standard_output, in_place, temporary };
    output_sink(kind k, int fd, std::string name, bool force) noexcept
        : kind_(k), fd_(fd), name_(std::move(name)), force_(force) {}
    void apply_metadata(const struct stat* metadata) noexcept;
    void close_checked();

    kind kind_;
    int fd_;
    std::string name_;
    bool force_;
    bool finished_ = false;
    bool sparse_ = false;
    std::uint64_t hole_ = 0;  ///< zeros skipped since the last write
    std::optional<std::pair<dev_t, ino_t>> existing_;  ///< identity of the file replaced
};

}  // namespace zest::cli
