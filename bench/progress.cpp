#include "progress.hpp"

#include <unistd.h>

namespace zest_bench {

progress& meter() {
    static progress p;
    return p;
}

std::string minutes_seconds(double seconds) {
    const long s = seconds < 0 ? 0 : static_cast<long>(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

void progress::start(std::FILE* to, bool on, std::size_t total_cases) {
    to_ = to;
    on_ = on && to;
    tty_ = on_ && isatty(fileno(to)) == 1;
    total_ = total_cases;
    done_ = 0;
    current_.clear();
    t0_ = std::chrono::steady_clock::now();
}

double progress::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

void progress::begin_case(const std::string& set, const std::string& name) {
    std::string label = set + "/" + name;
    if (label == current_) return;
    current_ = std::move(label);
    ++done_;
    if (!on_) return;
    if (line_open_) std::fputs("\r\033[K", to_);
    print_line();
}

void progress::print_line() {
    // "[12/64  0:31] corpus/c-text-l19": the count first, so that it stays
    // in the same place on the terminal as the names change length.
    const int width = static_cast<int>(std::to_string(total_).size());
    std::fprintf(to_, "[%*zu/%zu %5s] %s%s", width, done_, total_, minutes_seconds(elapsed()).c_str(),
                 current_.c_str(), tty_ ? "" : "\n");
    line_open_ = tty_;
    std::fflush(to_);
}

void progress::message(const std::string& text) {
    if (line_open_) std::fputs("\r\033[K", to_);
    line_open_ = false;
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
    // Put the case back under the message, so the terminal still says what runs.
    if (on_ && tty_ && !current_.empty()) print_line();
}

void progress::finish() {
    if (!on_) return;
    if (line_open_) std::fputs("\r\033[K", to_);
    line_open_ = false;
    std::fprintf(to_, "zest-bench: %zu case%s measured in %s\n", done_, done_ == 1 ? "" : "s",
                 minutes_seconds(elapsed()).c_str());
    std::fflush(to_);
}

}  // namespace zest_bench
