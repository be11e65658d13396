// Memory for the large buffers of a context (a window's history, a job's
// input, match tables of megabytes). Linux backs large anonymous memory
// with 4 KiB pages unless asked: filling 128 MiB then takes 32,768 page
// faults, each a trip through the kernel (in a virtual machine, often a
// trip out of it), which measured 12% of `--long` compression's CPU time.
// Buffers of at least large_buffer_min bytes are therefore mapped on their
// own, aligned to 2 MiB and marked for transparent huge pages
// (MADV_HUGEPAGE, which the kernel may ignore: its
// /sys/kernel/mm/transparent_hugepage/enabled setting decides). Smaller
// ones, other systems, sanitizer builds (whose checks cover only the heap)
// and a mapping refused use the heap as before. The memory is always
// zeroed when asked. A mapped buffer's pages are 2 MiB where the kernel
// grants them: a table a frame touches only here and there becomes
// resident in 2 MiB steps.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zest::detail {

/// The smallest buffer mapped on its own.
inline constexpr std::size_t large_buffer_min = std::size_t(4) << 20;

/// An owned, uninitialised (or zeroed) run of bytes; empty after a failed
/// allocation.
class large_buffer {
public:
    large_buffer() noexcept = default;
    large_buffer(const large_buffer&) = delete;
    large_buffer& operator=(const large_buffer&) = delete;
    large_buffer(large_buffer&& o) noexcept : data_(o.data_), size_(o.size_), mapped_(o.mapped_) {
        o.data_ = nullptr, o.size_ = 0, o.mapped_ = false;
    }
    large_buffer& operator=(large_buffer&& o) noexcept {
        if (this != &o) {
            release();
            data_ = o.data_, size_ = o.size_, mapped_ = o.mapped_;
            o.data_ = nullptr, o.size_ = 0, o.mapped_ = false;
        }
        return *this;
    }
    ~large_buffer() { release(); }

    /// Replaces the buffer with one of `n` bytes (zeroed if asked); false
    /// when memory runs out, the buffer then empty.
    bool allocate(std::size_t n, bool zeroed = false) noexcept;
    /// Frees the memory; the buffer is empty.
    void release() noexcept;

    std::uint8_t* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    bool mapped_ = false;
};

}  // namespace zest::detail
