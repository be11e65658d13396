// Diagnostics of the zest tool, filtered by a zstd-style display level.
#pragma once

#include <string_view>

namespace zest::cli {

/// 0 prints nothing, 1 errors only, 2 (default) a summary, 3 (-v) a line per file.
extern int display_level;

/// Prints "zest: subject: reason" to stderr when errors are displayed.
void print_error(std::string_view subject, std::string_view reason);
/// Prints "zest: reason" to stderr when errors are displayed.
void print_error(std::string_view reason);
/// Prints `line` and a newline to stderr when display_level >= level.
void print_info(int level, std::string_view line);

/// zstd's confirmation question: prints `context` then `question` on stderr
/// and reads an answer line from standard input (whatever it is: a pipe can
/// answer); true when it starts with y or Y. Otherwise prints `refusal` and
/// returns false. When standard input is one of the inputs it cannot answer:
/// that is said after `context` instead, and the answer is no.
bool ask_user(std::string_view context, std::string_view question, std::string_view refusal, bool stdin_is_input);

}  // namespace zest::cli
