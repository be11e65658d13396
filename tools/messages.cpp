#include "messages.hpp"

#include <cstdio>
#include <string>

namespace zest::cli {

int display_level = 2;

namespace {
// One fwrite per message so that lines from concurrent processes don't interleave.
void emit(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}
}  // namespace

void print_error(std::string_view subject, std::string_view reason) {
    if (display_level < 1) return;
    std::string text = "zest: ";
    text.append(subject).append(": ").append(reason).push_back('\n');
    emit(text);
}

void print_error(std::string_view reason) {
    if (display_level < 1) return;
    std::string text = "zest: ";
    text.append(reason).push_back('\n');
    emit(text);
}

void print_info(int level, std::string_view line) {
    if (display_level < level) return;
    std::string text(line);
    text.push_back('\n');
    emit(text);
}

}  // namespace zest::cli
