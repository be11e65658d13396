// Runs a check in a child process, so that a crash or a hang of the code under
// test becomes a reported failure instead of ending the whole run.
#pragma once

#include <functional>
#include <string>

namespace zest_bench {

/// Runs `check` in a forked child. Returns what `check` returned (empty means
/// success), or a description of how the child died ("crashed: Segmentation
/// fault", "timed out after 60 s").
std::string run_isolated(const std::function<std::string()>& check, unsigned timeout_seconds = 60);

}  // namespace zest_bench
