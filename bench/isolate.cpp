#include "isolate.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

namespace zest_bench {

std::string run_isolated(const std::function<std::string()>& check, unsigned timeout_seconds) {
    int fds[2];
    if (pipe(fds) != 0) return std::string("pipe: ") + std::strerror(errno);
    std::fflush(nullptr);  // the child must not flush the parent's buffered output again
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return std::string("fork: ") + std::strerror(errno);
    }
    if (pid == 0) {
        close(fds[0]);
        alarm(timeout_seconds);
        const std::string message = check();
        const char* p = message.data();
        std::size_t left = message.size();
        while (left > 0) {
            const ssize_t n = write(fds[1], p, left);
            if (n <= 0) break;
            p += n, left -= static_cast<std::size_t>(n);
        }
        _exit(message.empty() ? 0 : 1);
    }
    close(fds[1]);
    std::string message;
    char buf[512];
    while (true) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) message.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR) break;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return std::string("waitpid: ") + std::strerror(errno);
    if (WIFSIGNALED(status)) {
        if (WTERMSIG(status) == SIGALRM) return "timed out after " + std::to_string(timeout_seconds) + " s";
        return std::string("crashed: ") + strsignal(WTERMSIG(status));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && message.empty())
        return "failed with exit status " + std::to_string(WEXITSTATUS(status));
    return message;
}

}  // namespace zest_bench
