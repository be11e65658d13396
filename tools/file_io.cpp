#include "file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace zest::cli {

file_error errno_error(std::string subject, int err) {
    return file_error(std::move(subject), std::strerror(err));
}

unique_fd& unique_fd::operator=(unique_fd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

unique_fd::~unique_fd() {
    if (fd_ >= 0) ::close(fd_);
}

int unique_fd::release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
}

input_file open_input(const std::string& name, bool force) {
    input_file in;
    in.name = name;
    if (name == "-") {
        in.is_stdin = true;
        in.display = "(stdin)";
        in.fd = STDIN_FILENO;
        if (::fstat(in.fd, &in.st) != 0) throw errno_error(in.display, errno);
        return in;
    }
    in.display = name;
    in.owned = unique_fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
    if (in.owned.get() < 0) throw errno_error(name, errno);
    in.fd = in.owned.get();
    if (::fstat(in.fd, &in.st) != 0) throw errno_error(name, errno);
    if (S_ISDIR(in.st.st_mode)) throw file_error(name, "is a directory -- ignored");
    if (!S_ISREG(in.st.st_mode) && !S_ISFIFO(in.st.st_mode) && !force)
        throw file_error(name, "is not a regular file -- ignored (use -f to read it anyway)");
    return in;
}

std::vector<std::byte> read_all(const input_file& in) {
    // A regular file's size is known: one allocation, and the extra byte
    // finds the end without growing. Pipes grow the buffer geometrically.
    std::size_t capacity = std::size_t{1} << 16;
    if (S_ISREG(in.st.st_mode) && in.st.st_size >= 0)
        capacity = std::max(capacity, static_cast<std::size_t>(in.st.st_size) + 1);
    std::vector<std::byte> buf(capacity);
    std::size_t used = 0;
    for (;;) {
        if (used == buf.size()) buf.resize(buf.size() * 2);
        const ssize_t n = ::read(in.fd, buf.data() + used, buf.size() - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw errno_error(in.display, errno);
        }
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    buf.resize(used);
    return buf;
}

void write_all(int fd, std::span<const std::byte> data, const std::string& name) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            throw errno_error(name, errno);
        }
        data = data.subspan(static_cast<std::size_t>(n));
    }
}

}  // namespace zest::cli
