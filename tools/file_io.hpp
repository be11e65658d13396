// Small POSIX helpers of the zest tool: owned descriptors, whole-file reads,
// complete writes, and the error type that carries a file name.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace zest::cli {

/// A failure tied to a file; reported as "zest: subject: what()".
class file_error : public std::runtime_error {
public:
    /// `status`: the exit status it leads to (1, or zstd's for the few
    /// failures where scripts can tell it apart).
    file_error(std::string subject, const std::string& reason, int status = 1)
        : std::runtime_error(reason), subject_(std::move(subject)), status_(status) {}
    const std::string& subject() const noexcept { return subject_; }
    int status() const noexcept { return status_; }

private:
    std::string subject_;
    int status_;
};

/// A file_error whose reason is strerror(err).
file_error errno_error(std::string subject, int err);

/// Owns a file descriptor; closes it (ignoring errors) unless released.
class unique_fd {
public:
    unique_fd() noexcept = default;
    explicit unique_fd(int fd) noexcept : fd_(fd) {}
    unique_fd(unique_fd&& o) noexcept : fd_(o.release()) {}
    unique_fd& operator=(unique_fd&& o) noexcept;
    unique_fd(const unique_fd&) = delete;
    unique_fd& operator=(const unique_fd&) = delete;
    ~unique_fd();

    int get() const noexcept { return fd_; }
    int release() noexcept;

private:
    int fd_ = -1;
};

/// An input opened for reading: a named file, or standard input for "-".
struct input_file {
    std::string name;     ///< as given on the command line
    std::string display;  ///< name used in messages ("(stdin)" for standard input)
    bool is_stdin = false;
    unique_fd owned;      ///< empty for standard input, which is not ours to close
    int fd = -1;
    struct stat st {};
};

/// Opens `name` ("-" is standard input). Directories are refused, and so are
/// devices unless `force` (a compressed stream never comes from /dev/zero).
input_file open_input(const std::string& name, bool force);

/// Reads `in` to its end.
std::vector<std::byte> read_all(const input_file& in);

/// Writes all of `data` to `fd`, retrying short writes; throws on error.
void write_all(int fd, std::span<const std::byte> data, const std::string& name);

}  // namespace zest::cli
