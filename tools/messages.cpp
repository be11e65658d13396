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

bool ask_user(std::string_view context, std::string_view question, std::string_view refusal, bool stdin_is_input) {
    if (stdin_is_input) {
        emit(std::string(context) + "stdin is an input - not proceeding.\n");
        return false;
    }
    emit(std::string(context).append(question));
    const int answer = std::getchar();
    for (int c = answer; c != EOF && c != '\n';) c = std::getchar();  // the rest of the line
    if (answer == 'y' || answer == 'Y') return true;
    emit(std::string(refusal) + "\n");
    return false;
}

void print_info(int level, std::string_view line) {
    if (display_level < level) return;
    std::string text(line);
    text.push_back('\n');
    emit(text);
}

}  // namespace zest::cli
