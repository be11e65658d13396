#include "output_sink.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string_view>

#include "file_io.hpp"
#include "messages.hpp"

namespace zest::cli {

namespace {

// The temporary file being written, for the signal handler: a static buffer
// and a flag, since the handler may only make async-signal-safe calls. Both
// change only while the handled signals are blocked, so the handler never
// sees a half-written path or a file that is created but not yet recorded.
char temp_path[PATH_MAX];
volatile std::sig_atomic_t temp_active = 0;

constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

// Whether the handler may end the line on stderr (not with -qq).
volatile std::sig_atomic_t newline_on_interrupt = 1;

void on_fatal_signal(int sig) {
    const bool had_output = temp_active;
    if (had_output) ::unlink(temp_path);
    // Like zstd: SIGINT while a file was being written ends the line (a
    // progress line, or the terminal's ^C) and exits with status 2.
    if (sig == SIGINT && had_output) {
        if (newline_on_interrupt) (void)!::write(STDERR_FILENO, "\n", 1);
        ::_exit(2);
    }
    // Otherwise, as zstd, die of the signal (SA_RESETHAND restored the
    // default action), which tells the parent why we stopped.
    ::raise(sig);
}

class signal_block {
public:
    signal_block() noexcept {
        sigset_t set;
        sigemptyset(&set);
        for (int sig : handled_signals) sigaddset(&set, sig);
        sigprocmask(SIG_BLOCK, &set, &saved_);
    }
    ~signal_block() { sigprocmask(SIG_SETMASK, &saved_, nullptr); }
    signal_block(const signal_block&) = delete;
    signal_block& operator=(const signal_block&) = delete;

private:
    sigset_t saved_;
};

mode_t current_umask() noexcept {
    // umask() can only be read by setting it; the tool is single-threaded.
    static const mode_t mask = [] {
        const mode_t m = ::umask(0);
        ::umask(m);
        return m;
    }();
    return mask;
}

// Renames without replacing an existing file when the file system supports
// it, so that a file created after our existence check is not clobbered.
int rename_into_place(const char* from, const char* to, bool replace) {
#ifdef RENAME_NOREPLACE
    if (!replace) {
        if (::renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
        if (errno != EINVAL && errno != ENOSYS) return -1;
    }
#endif
    (void)replace;
    return ::rename(from, to);
}

}  // namespace

void install_signal_handlers() {
    newline_on_interrupt = display_level >= 1;
    for (int sig : handled_signals) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        for (int s : handled_signals) sigaddset(&sa.sa_mask, s);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sig, &sa, nullptr);
    }
}

std::unique_ptr<output_sink> output_sink::open_stdout() {
    return std::unique_ptr<output_sink>(new output_sink(kind::standard_output, STDOUT_FILENO, "(stdout)", true));
}

std::unique_ptr<output_sink> output_sink::create(const std::string& path, bool force, const overwrite_check& approve) {
    std::optional<std::pair<dev_t, ino_t>> existing;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw file_error(path, "is a directory");
        if (!S_ISREG(st.st_mode)) {
            if (S_ISBLK(st.st_mode) && !force)
                throw file_error(path, "is a block device; not overwritten (use -f)");
            const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
            if (fd < 0) throw errno_error(path, errno);
            auto sink = std::unique_ptr<output_sink>(new output_sink(kind::in_place, fd, path, force));
            sink->existing_.emplace(st.st_dev, st.st_ino);
            return sink;
        }
        if (!force) {
            if (!approve) throw file_error(path, "already exists; not overwritten");
            approve(path);
            force = true;  // the answer stands for this file: its rename may replace it
        }
        existing.emplace(st.st_dev, st.st_ino);
    } else if (errno != ENOENT) {
        throw errno_error(path, errno);
    }

    // ".NAME.zest-tmp-XXXXXX" next to the destination, so rename() stays in
    // one file system; NAME is shortened to keep within NAME_MAX.
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    constexpr std::string_view suffix = ".zest-tmp-XXXXXX";
    const std::size_t max_base = NAME_MAX - 1 - suffix.size();
    if (base.size() > max_base) base.resize(max_base);
    const std::string temp = dir + "." + base + std::string(suffix);
    if (temp.size() >= sizeof temp_path) throw errno_error(path, ENAMETOOLONG);

    if (temp_active) throw file_error(path, "internal error: a temporary file is already open");
    int fd;
    {
        signal_block block;
        std::memcpy(temp_path, temp.c_str(), temp.size() + 1);
        fd = ::mkostemp(temp_path, O_CLOEXEC);
        if (fd >= 0) temp_active = 1;
    }
    if (fd < 0) throw errno_error(path, errno);
    auto sink = std::unique_ptr<output_sink>(new output_sink(kind::temporary, fd, path, force));
    sink->existing_ = existing;
    return sink;
}

output_sink::~output_sink() {
    discard();
}

bool output_sink::same_file_as(const struct stat& st) const noexcept {
    return existing_ && existing_->first == st.st_dev && existing_->second == st.st_ino;
}

void output_sink::set_sparse(bool on) noexcept {
    sparse_ = false;
    if (!on) return;
    if (kind_ == kind::temporary) {
        sparse_ = true;
        return;
    }
    if (kind_ != kind::standard_output) return;
    struct stat st {};
    const int flags = ::fcntl(fd_, F_GETFL);
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    sparse_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && flags >= 0 && !(flags & O_APPEND) && at == st.st_size;
}

namespace {
// File systems allocate whole blocks: only whole ones are worth skipping.
constexpr std::size_t sparse_block = 4096;
const std::byte zero_block[sparse_block] = {};
}  // namespace

void output_sink::write(std::span<const std::byte> data) {
    if (!sparse_) {
        write_all(fd_, data, name_);
        return;
    }
    // Runs of whole zero blocks (aligned on the file's blocks) become holes;
    // everything else is written after seeking past the pending hole.
    const off_t start = ::lseek(fd_, 0, SEEK_CUR);
    if (start < 0) throw errno_error(name_, errno);
    std::uint64_t offset = static_cast<std::uint64_t>(start) + hole_;
    std::size_t at = 0;
    while (at < data.size()) {
        std::size_t end = at;
        bool zeros = false;
        for (;;) {
            const std::size_t block_end =
                std::min(data.size(), end + sparse_block - static_cast<std::size_t>((offset + (end - at)) % sparse_block));
            const bool block_zeros = block_end - end == sparse_block &&
                                     std::memcmp(data.data() + end, zero_block, sparse_block) == 0;
            if (end > at && block_zeros != zeros) break;
            zeros = block_zeros;
            end = block_end;
            if (end == data.size()) break;
        }
        if (zeros) {
            hole_ += end - at;
        } else {
            if (hole_ && ::lseek(fd_, static_cast<off_t>(hole_), SEEK_CUR) < 0) throw errno_error(name_, errno);
            hole_ = 0;
            write_all(fd_, data.subspan(at, end - at), name_);
        }
        offset += end - at;
        at = end;
    }
}

void output_sink::finish_holes() {
    if (!hole_) return;
    const off_t end = ::lseek(fd_, static_cast<off_t>(hole_), SEEK_CUR);
    if (end < 0 || ::ftruncate(fd_, end) != 0) throw errno_error(name_, errno);
    hole_ = 0;
}

void output_sink::apply_metadata(const struct stat* metadata) noexcept {
    // Best effort, like zstd: a file we cannot give away keeps our owner,
    // and is never made setuid/setgid.
    if (metadata != nullptr && S_ISREG(metadata->st_mode)) {
        const struct timespec times[2] = {metadata->st_atim, metadata->st_mtim};
        (void)::futimens(fd_, times);
        if (::fchown(fd_, metadata->st_uid, metadata->st_gid) != 0 &&
            ::fchown(fd_, static_cast<uid_t>(-1), metadata->st_gid) != 0) {
            // Keeping our own group is the only option left.
        }
        (void)::fchmod(fd_, metadata->st_mode & 0777);
    } else {
        (void)::fchmod(fd_, 0666 & ~current_umask());
    }
}

void output_sink::close_checked() {
    // Delayed write errors (NFS, quotas) surface at close(); on Linux the
    // descriptor is gone either way, so it is never closed twice.
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw errno_error(name_, errno);
}

void output_sink::commit(const struct stat* metadata, bool durable) {
    if (finished_) return;
    switch (kind_) {
        case kind::standard_output:
            finished_ = true;
            return;
        case kind::in_place:
            finished_ = true;
            close_checked();
            return;
        case kind::temporary:
            break;
    }
    // Without --rm no fsync, like zstd and gzip: durability across a crash
    // costs a disk flush per file, and a crash before rename() still leaves
    // no partial file under the final name. With --rm the input is deleted
    // next, so the output must be on disk first.
    finish_holes();
    apply_metadata(metadata);
    if (durable && ::fsync(fd_) != 0) throw errno_error(name_, errno);
    close_checked();  // on failure the destructor removes the temporary
    int err = 0;
    {
        signal_block block;
        if (rename_into_place(temp_path, name_.c_str(), force_) == 0)
            temp_active = 0;
        else
            err = errno;
    }
    if (err != 0) {
        if (err == EEXIST) throw file_error(name_, "already exists; not overwritten");
        throw errno_error(name_, err);
    }
    finished_ = true;
    if (durable) {
        // The rename itself lives in the directory.
        const std::size_t slash = name_.rfind('/');
        const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : name_.substr(0, slash);
        const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0) throw errno_error(dir, errno);
        const int r = ::fsync(dfd);
        const int sync_err = errno;
        ::close(dfd);
        if (r != 0 && sync_err != EINVAL) throw errno_error(dir, sync_err);
    }
}

void output_sink::discard() noexcept {
    if (finished_) return;
    finished_ = true;
    if (kind_ == kind::standard_output) return;
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (kind_ == kind::temporary) {
        signal_block block;
        ::unlink(temp_path);
        temp_active = 0;
    }
}

}  // namespace zest::cli
