// Large buffers on huge pages where the system offers them (see the header).
#include "common/large_buffer.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#define ZEST_MAP_LARGE 1
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#undef ZEST_MAP_LARGE
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#undef ZEST_MAP_LARGE
#endif
#endif

namespace zest::detail {
namespace {

#if ZEST_MAP_LARGE
constexpr std::size_t huge_page = std::size_t(2) << 20;

// The mapping's length for n bytes: whole huge pages.
std::size_t mapped_length(std::size_t n) noexcept { return (n + huge_page - 1) & ~(huge_page - 1); }

// n bytes (zeroed, as every fresh anonymous mapping is) at a huge page's
// boundary, or null: a mapping one huge page longer than needed, its
// unaligned head and its tail given back.
void* map_aligned(std::size_t n) noexcept {
    const std::size_t len = mapped_length(n);
    if (len < n || len + huge_page < len) return nullptr;
    void* raw = mmap(nullptr, len + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t at = (start + huge_page - 1) & ~std::uintptr_t(huge_page - 1);
    if (at > start) munmap(raw, at - start);
    const std::uintptr_t end = start + len + huge_page;
    if (end > at + len) munmap(reinterpret_cast<void*>(at + len), end - (at + len));
    void* p = reinterpret_cast<void*>(at);
#if defined(MADV_HUGEPAGE)
    madvise(p, len, MADV_HUGEPAGE);  // advice only: without it, plain pages
#endif
    return p;
}
#endif

}  // namespace

bool large_buffer::allocate(std::size_t n, bool zeroed) noexcept {
    release();
    if (n == 0) return true;
#if ZEST_MAP_LARGE
    if (n >= large_buffer_min) {
        // Without a mapping (its 2 MiB of alignment slack may be what a
        // limit on the address space refuses), the heap.
        if (void* p = map_aligned(n)) {
            data_ = static_cast<std::uint8_t*>(p);
            size_ = n;
            mapped_ = true;
            return true;
        }
    }
#endif
    void* p = zeroed ? std::calloc(n, 1) : std::malloc(n);
    if (!p) return false;
    data_ = static_cast<std::uint8_t*>(p);
    size_ = n;
    return true;
}

void large_buffer::release() noexcept {
    if (!data_) return;
#if ZEST_MAP_LARGE
    if (mapped_) munmap(data_, mapped_length(size_));
    else std::free(data_);
#else
    std::free(data_);
#endif
    data_ = nullptr;
    size_ = 0;
    mapped_ = false;
}

}  // namespace zest::detail
