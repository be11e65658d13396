// Runs the system `zstd` command-line tool (the reference encoder) on test
// inputs, through files in a private temporary directory.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "corpus.hpp"

namespace zest::test {

/// One way of invoking `zstd`.
struct cli_config {
    std::string name;               ///< valid as a GoogleTest parameter name
    std::vector<std::string> args;  ///< compression options (level, window...)
    bool from_stdin = false;        ///< `zstd -c < in > out`: no content size in the header
};

inline void PrintTo(const cli_config& c, std::ostream* os) { *os << c.name; }

/// Every level from -7 to 22, long mode, small windows, with and without
/// checksum, from stdin.
const std::vector<cli_config>& cli_matrix();
/// Finds a configuration of cli_matrix() by name (throws if absent).
const cli_config& cli_matrix_config(const std::string& name);

/// Compresses `input` with the system zstd (`-q` always). Throws
/// std::runtime_error if zstd cannot be run or fails.
bytes zstd_cli_compress(std::span<const std::byte> input, const cli_config& config);

/// A directory under $TMPDIR (or /tmp) removed with its files on destruction.
class temp_dir {
public:
    temp_dir();
    ~temp_dir();
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    const std::string& path() const noexcept { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

void write_file(const std::string& path, std::span<const std::byte> data);
bytes read_file(const std::string& path);

}  // namespace zest::test
