// Watchdog for the fuzzers' streaming loops. The streams' contract: a call
// consumes input and produces output until one of them runs out or a frame
// ends, so a call that moves nothing although it had input to read and room
// to write has stopped making progress, and a loop that keeps calling would
// hang the fuzzer instead of reporting the input. One such call in a row is
// tolerated, the second aborts. The calls of a whole run are bounded by what
// they moved: every call either moves a byte, or is one of those tolerated
// stalls, or ends a directive (one per input chunk at most).
//
// A hang inside a single call is out of its reach: libFuzzer's -timeout
// reports that one (scripts/fuzz.sh sets it).
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace zest_fuzz {

[[noreturn]] __attribute__((format(printf, 2, 3))) inline void watchdog_abort(const char* loop, const char* fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "\n*** stream watchdog (%s): ", loop);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::abort();
}

class stream_watchdog {
public:
    static constexpr unsigned stall_limit = 2;       // consecutive calls that moved nothing
    static constexpr std::size_t call_slack = 64;    // calls beyond 2 per byte moved

    explicit stream_watchdog(const char* loop) : loop_(loop) {}

    // After each call: the input it was offered (bytes not yet consumed), the
    // output room it had, and what it consumed and produced.
    void after_call(std::size_t offered, std::size_t room, std::size_t consumed, std::size_t produced) {
        ++calls_;
        moved_ += consumed + produced;
        if (consumed || produced) {
            stalled_ = 0;
        } else if (offered && room && ++stalled_ >= stall_limit) {
            watchdog_abort(loop_, "%u calls in a row consumed and produced nothing, with %zu bytes offered and %zu of room",
                           stalled_, offered, room);
        }
        if (calls_ > 2 * moved_ + call_slack) watchdog_abort(loop_, "%zu calls moved only %zu bytes", calls_, moved_);
    }

    std::size_t calls() const { return calls_; }

private:
    const char* loop_;
    std::size_t calls_ = 0, moved_ = 0;
    unsigned stalled_ = 0;
};

}  // namespace zest_fuzz
