// Program names that choose a mode, as zstd's do: invoked as `zstdcat`,
// zest is `zest -dcf` (quiet), as `unzstd` it is `zest -d`, and so on.
#pragma once

#include <string_view>

namespace zest::cli {

struct options;

/// Sets the mode that `program` (argv[0]: its last path component counts,
/// alone or before a dot, as in zstdcat.exe) stands for. The command line
/// is read afterwards and overrides it. Other names change nothing.
void apply_program_preset(std::string_view program, options& o);

/// Whether `program` (argv[0]) is called `name`: its last path component,
/// alone or before a dot (zstd's test, so that zstdcat.exe is zstdcat).
bool program_named(std::string_view program, std::string_view name);

}  // namespace zest::cli
