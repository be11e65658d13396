#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "messages.hpp"

namespace zest::cli {

progress_line::progress_line(std::optional<bool> setting) {
    if (setting) enabled_ = *setting && display_level >= 1;
    else enabled_ = display_level >= 2 && ::isatty(STDERR_FILENO) == 1;
}

void progress_line::start(const std::string& name, std::optional<std::uint64_t> total) {
    clear();
    name_ = name;
    if (name_.size() > 30) name_ = "..." + name_.substr(name_.size() - 27);
    total_ = total;
    started_ = last_ = clock::now();
}

void progress_line::update(std::uint64_t read, std::uint64_t written) {
    if (!enabled_) return;
    const auto now = clock::now();
    // Quick jobs print nothing; long ones refresh a few times a second.
    if (now - started_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - started_).count();
    const double mib_read = static_cast<double>(read) / (1024.0 * 1024.0);
    const double speed = static_cast<double>(read) / 1e6 / seconds;
    char line[160];
    if (total_ && *total_ > 0)
        std::snprintf(line, sizeof line, "\r%s : %3.0f%%  %.1f MiB read => %.1f MiB, %.1f MB/s  ", name_.c_str(),
                      100.0 * static_cast<double>(read) / static_cast<double>(*total_), mib_read,
                      static_cast<double>(written) / (1024.0 * 1024.0), speed);
    else
        std::snprintf(line, sizeof line, "\r%s : %.1f MiB read => %.1f MiB, %.1f MB/s  ", name_.c_str(), mib_read,
                      static_cast<double>(written) / (1024.0 * 1024.0), speed);
    std::fputs(line, stderr);
    std::fflush(stderr);
    shown_ = true;
}

void progress_line::clear() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);  // carriage return, erase to end of line
    std::fflush(stderr);
    shown_ = false;
}

}  // namespace zest::cli
