// File names: which suffixes mark compressed files, what a decompressed
// file is called, and where --output-dir-flat / --output-dir-mirror put
// outputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zest::cli {

/// FILE.zst and FILE.zstd -> FILE, FILE.tzst -> FILE.tar; nullopt for any
/// name without a suffix zest decompresses.
std::optional<std::string> decompressed_name(const std::string& input);

/// The suffixes decompressed_name knows, for messages (".zst, .tzst or .zstd").
std::string decompressible_suffixes();

/// Whether decompressed_name knows the name's suffix (-d -r takes only these).
bool has_decompressible_suffix(std::string_view name);

/// Whether the name ends like an already compressed file, zstd's or another
/// format's (.gz, .xz, .lz4, ...): --exclude-compressed skips these.
bool has_compressed_suffix(std::string_view name);

/// The last component of a path ("dir/a.zst" -> "a.zst").
std::string_view base_name(std::string_view path);

/// Where an output named `name` (a path) goes with --output-dir-flat DIR:
/// DIR/BASENAME.
std::string flat_output_path(const std::string& dir, std::string_view name);

/// With --output-dir-mirror DIR: DIR/PATH, PATH being `name` without a
/// leading '/'. nullopt when a component of the path is "..", which would
/// lead outside DIR (zstd skips those inputs too).
std::optional<std::string> mirrored_output_path(const std::string& dir, std::string_view name);

/// Creates directory `dir` and its missing parents (0777 less the umask).
/// Throws file_error.
void make_directories(const std::string& dir);

/// Creates what mirrored_output_path(dir, name) needs: `dir`, then the
/// directories of `name` under it, each with the permissions of the one it
/// mirrors (as zstd does). Throws file_error.
void make_mirror_directories(const std::string& dir, std::string_view name);

}  // namespace zest::cli
