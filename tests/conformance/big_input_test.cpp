// A 40 MiB input (more than 2^25, so window and offset arithmetic leaves the
// small-number range) compressed by the zstd CLI at fast settings only. One
// test per setting, so CTest can spread them over processes.
#include <gtest/gtest.h>

#include "check.hpp"
#include "corpus.hpp"
#include "zstd_cli.hpp"

namespace zest::test {
namespace {

const bytes& big_input() {
    static const bytes b = big_mixed(std::size_t{40} << 20, 2024);
    return b;
}

class BigInput : public ::testing::TestWithParam<cli_config> {};

TEST_P(BigInput, RoundTrip) {
    bytes compressed;
    ASSERT_NO_THROW(compressed = zstd_cli_compress(big_input(), GetParam()));
    expect_conformant(compressed, big_input());
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, BigInput,
    ::testing::Values(cli_config{"fast1", {"--fast=1"}}, cli_config{"l1", {"-1"}}, cli_config{"l3", {"-3"}},
                      cli_config{"long27_l3", {"-3", "--long=27"}},
                      cli_config{"stdin_l1", {"-1"}, true},
                      cli_config{"stdin_long27_l3", {"-3", "--long=27"}, true},
                      cli_config{"wlog17_l1", {"-1", "--zstd=wlog=17"}}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace zest::test
