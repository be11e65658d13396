#include "zstd_cli.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#ifndef ZEST_TEST_ZSTD_CLI
#define ZEST_TEST_ZSTD_CLI "zstd"
#endif

extern char** environ;

namespace zest::test {

const std::vector<cli_config>& cli_matrix() {
    static const std::vector<cli_config> m = {
        {"fast7", {"--fast=7"}},
        {"fast1", {"--fast=1"}},
        {"l1", {"-1"}},
        {"l2", {"-2"}},
        {"l3", {"-3"}},
        {"l5", {"-5"}},
        {"l9", {"-9"}},
        {"l13", {"-13"}},
        {"l16", {"-16"}},
        {"l19", {"-19"}},
        {"l22", {"--ultra", "-22"}},
        {"long27", {"-3", "--long=27"}},
        {"wlog10_l3", {"-3", "--zstd=wlog=10"}},
        {"wlog10_l19", {"-19", "--zstd=wlog=10"}},
        {"check_l3", {"-3", "--check"}},
        {"nocheck_l3", {"-3", "--no-check"}},
        {"stdin_l3", {"-3"}, true},
        {"stdin_l19", {"-19"}, true},
        {"stdin_fast1_nocheck", {"--fast=1", "--no-check"}, true},
        {"stdin_wlog12_l9", {"-9", "--zstd=wlog=12"}, true},
    };
    return m;
}

const cli_config& cli_matrix_config(const std::string& name) {
    for (const cli_config& c : cli_matrix())
        if (c.name == name) return c;
    throw std::invalid_argument("no zstd configuration named " + name);
}

temp_dir::temp_dir() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/zest-test-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr)
        throw std::runtime_error("mkdtemp failed: " + std::string(std::strerror(errno)));
    path_ = templ;
}

temp_dir::~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

void write_file(const std::string& path, std::span<const std::byte> data) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (!f) throw std::runtime_error("cannot write " + path);
}

bytes read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw std::runtime_error("cannot read " + path);
    const auto size = static_cast<std::size_t>(f.tellg());
    bytes b(size);
    f.seekg(0);
    f.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(size));
    if (!f) throw std::runtime_error("cannot read " + path);
    return b;
}

bytes zstd_cli_compress(std::span<const std::byte> input, const cli_config& config) {
    temp_dir dir;
    const std::string in = dir.file("in"), out = dir.file("out.zst");
    write_file(in, input);

    std::vector<std::string> args = {ZEST_TEST_ZSTD_CLI, "-q"};
    args.insert(args.end(), config.args.begin(), config.args.end());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (config.from_stdin) {
        args.push_back("-c");
        posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    } else {
        args.insert(args.end(), {"-f", in, "-o", out});
    }
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_t pid = 0;
    const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot run " + args[0] + ": " + std::strerror(rc));
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error("waitpid failed");
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::string cmd;
        for (const std::string& a : args) cmd += a + ' ';
        throw std::runtime_error("zstd failed (status " + std::to_string(status) + "): " + cmd);
    }
    return read_file(out);
}

}  // namespace zest::test
