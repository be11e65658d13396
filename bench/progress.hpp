// Progress on stderr while a run measures: which case, how many are left,
// how long it has been. A run takes minutes and its tables come at the end
// (the summary goes first), so without this a user sees nothing move.
// stdout is never written here: the tables and --json stay clean.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace zest_bench {

class progress {
public:
    /// Starts the clock. Off: nothing is printed. On a terminal the line is
    /// rewritten in place; elsewhere (a log file, CI) each case gets a line.
    void start(std::FILE* to, bool on, std::size_t total_cases);
    /// Case `set`/`name` begins (its checks or its timing): prints it once
    /// (a second call for the same case is ignored).
    void begin_case(const std::string& set, const std::string& name);
    /// A message that must not run into the progress line (a failure).
    void message(const std::string& text);
    /// Clears the line and prints how many cases ran in how long.
    void finish();
    /// Seconds since start().
    double elapsed() const;

private:
    void print_line();

    std::FILE* to_ = nullptr;
    bool on_ = false;
    bool tty_ = false;
    bool line_open_ = false;  ///< a progress line without its newline is on the terminal
    std::size_t total_ = 0;
    std::size_t done_ = 0;
    std::string current_;
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

/// The run's progress meter (one per process, as stderr is).
progress& meter();

/// "1:07" for 67 seconds.
std::string minutes_seconds(double seconds);

}  // namespace zest_bench
