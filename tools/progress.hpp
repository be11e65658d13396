// The progress line on stderr: shown only for work taking more than about a
// second, only when stderr is a terminal (or --progress), as zstd decides.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace zest::cli {

class progress_line {
public:
    /// `setting`: --progress (true) / --no-progress (false); unset: shown
    /// when stderr is a terminal and the display level is at least 2 (so
    /// not with -c or -q). As zstd, --progress shows it on any stderr and
    /// at display level 1 (-q, -c); nothing shows it with -qq.
    explicit progress_line(std::optional<bool> setting);

    /// Starts a file; `total` is the input size when known.
    void start(const std::string& name, std::optional<std::uint64_t> total);
    /// Reports bytes read so far and bytes written so far.
    void update(std::uint64_t read, std::uint64_t written);
    /// Erases the line (before a message or the next file).
    void clear();

    bool enabled() const noexcept { return enabled_; }

private:
    using clock = std::chrono::steady_clock;
    bool enabled_ = false;
    bool shown_ = false;
    std::string name_;
    std::optional<std::uint64_t> total_;
    clock::time_point started_{};
    clock::time_point last_{};
};

}  // namespace zest::cli
