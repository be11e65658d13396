// Deterministic pseudo-random numbers for the generated data sets: the same
// seed gives the same bytes on every machine and compiler, so figures from
// different runs compare the same input.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zest_bench {

// xoshiro256** seeded through splitmix64; <random>'s distributions are not
// specified bit-exactly, so they would differ between standard libraries.
class rng {
public:
    explicit rng(std::uint64_t seed) noexcept {
        for (auto& w : s_) {
            seed += 0x9e3779b97f4a7c15ull;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            w = z ^ (z >> 31);
        }
    }

    std::uint64_t next() noexcept {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    /// Uniform in [0, n); n > 0.
    std::uint64_t below(std::uint64_t n) noexcept { return next() % n; }
    /// Uniform in [lo, hi].
    std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
        return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
    }
    /// Uniform in [0, 1).
    double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) noexcept { return unit() < p; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

/// Ranks 0..n-1 drawn with probability proportional to 1/(rank+1)^exponent,
/// the shape of word, user and product frequencies in real data.
class zipf {
public:
    zipf(std::size_t n, double exponent) : cdf_(n) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            sum += 1.0 / std::pow(static_cast<double>(i + 1), exponent);
            cdf_[i] = sum;
        }
        for (auto& c : cdf_) c /= sum;
    }
    std::size_t operator()(rng& r) const noexcept {
        const double u = r.unit();
        const auto it = std::upper_bound(cdf_.begin(), cdf_.end(), u);
        return it == cdf_.end() ? cdf_.size() - 1 : static_cast<std::size_t>(it - cdf_.begin());
    }
    std::size_t size() const noexcept { return cdf_.size(); }

private:
    std::vector<double> cdf_;
};

template <class T, std::size_t N>
const T& pick(rng& r, const T (&items)[N]) noexcept {
    return items[r.below(N)];
}

}  // namespace zest_bench
