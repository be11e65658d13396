// Workload sets: each set (one file each, set_*.cpp) decides its cases and
// how to run them; the timing (timing.hpp) and the report (report.hpp) are
// shared. To add a set: write set_NAME.cpp with a workload_set subclass and a
// make_NAME_set() factory, declare the factory below, list it in
// make_workload_sets() (workloads.cpp) and the file in CMakeLists.txt. A case
// is one call per side (side::call), measured by measure() and added to the
// report with its case_info (operation "decompress" or "compress").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "options.hpp"
#include "report.hpp"

namespace zest_bench {

/// An input named for the table: a generated shape or a user's file.
struct named_input {
    std::string name;
    bytes data;
};

/// What every set gets to run with.
struct bench_env {
    const options& opts;
    const std::vector<named_input>& files;  ///< empty: use the built-in data
    report& out;
};

class workload_set {
public:
    virtual ~workload_set() = default;
    virtual std::string name() const = 0;
    virtual std::string description() const = 0;
    /// The cases run() would measure, in order.
    virtual std::vector<std::string> case_names(const options& opts,
                                                const std::vector<named_input>& files) const = 0;
    /// Measures every case and adds a row per case to env.out.
    virtual void run(const bench_env& env) = 0;
};

/// Every set, in the order they run by default.
std::vector<std::unique_ptr<workload_set>> make_workload_sets();

std::unique_ptr<workload_set> make_context_set();
std::unique_ptr<workload_set> make_columnar_set();
std::unique_ptr<workload_set> make_corpus_set();
std::unique_ptr<workload_set> make_stream_set();
std::unique_ptr<workload_set> make_capi_set();
std::unique_ptr<workload_set> make_dictionary_set();
std::unique_ptr<workload_set> make_threads_set();

/// The built-in inputs of the corpus-like sets (corpus, stream): five
/// generated shapes, --size bytes each.
struct corpus_shape {
    const char* name;
    bytes (*make)(std::size_t size, std::uint64_t seed);
    std::uint64_t seed;
};
const std::vector<corpus_shape>& corpus_shapes();
/// The inputs such a set runs on: the user's files, or else the shapes
/// generated into `generated` (which then holds them).
const std::vector<named_input>& corpus_inputs(const bench_env& env, std::vector<named_input>& generated);
/// Their names, without generating anything.
std::vector<std::string> corpus_input_names(const std::vector<named_input>& files);

/// The message sizes and levels of the context-per-message sets (context,
/// capi), and a size as case names spell it ("256B", "4K").
inline constexpr std::size_t context_message_sizes[] = {256, 1024, 4096, 65536};
inline constexpr int context_levels[] = {1, 3};
std::string size_tag(std::size_t n);

/// Reads each file whole; names are the base names (the path as given when two
/// base names collide). Returns an error message on failure, or an empty string.
std::string load_files(const std::vector<std::string>& paths, std::vector<named_input>& out);

}  // namespace zest_bench
