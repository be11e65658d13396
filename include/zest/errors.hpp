// zest — error codes and the result type returned by every fallible call.
#pragma once

#include <cstdint>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>

namespace zest {

/// Every way a zest call can fail. Values are stable; 0 is never an error.
enum class errc : int {
    invalid_argument = 1,      ///< a parameter is out of its documented range
    truncated_input,           ///< the input ends before the frame does
    unknown_frame,             ///< the magic number is neither Zstandard nor skippable
    reserved_bit_set,          ///< a reserved field of the format is not zero
    frame_header_invalid,      ///< the frame header is malformed
    window_too_large,          ///< the frame's window exceeds the decoder's limit
    dictionary_required,       ///< the frame names a dictionary and none was given
    block_invalid,             ///< a block header or block size is malformed
    literals_invalid,          ///< the literals section is corrupted
    huffman_invalid,           ///< a Huffman table description is corrupted
    fse_invalid,               ///< an FSE table description is corrupted
    sequences_invalid,         ///< the sequences section is corrupted
    offset_invalid,            ///< a match offset of 0, or reaching before the start of the window
    content_size_mismatch,     ///< decoded size differs from the frame's declared size
    checksum_mismatch,         ///< the XXH64 content checksum does not match
    destination_too_small,     ///< the output buffer cannot hold the decoded data
    out_of_memory,             ///< an allocation failed
    io_error,                  ///< a read or write failed (tools only)
    dictionary_wrong,          ///< the frame names another dictionary than the one given
    dictionary_invalid,        ///< dictionary bytes are malformed
};

/// Short human-readable text for an error code (never null).
const char* error_message(errc e) noexcept;

/// The std::error_category of zest errors (name "zest").
const std::error_category& error_category() noexcept;

/// Bridge to std::error_code, found by argument-dependent lookup.
inline std::error_code make_error_code(errc e) noexcept {
    return {static_cast<int>(e), error_category()};
}

/// Either a value of type T or an errc. Never throws unless value() is
/// called on an error.
template <class T>
class [[nodiscard]] result {
public:
    result(T v) noexcept(std::is_nothrow_move_constructible_v<T>)  // NOLINT: implicit by design
        : value_(std::move(v)), error_(0) {}
    result(errc e) noexcept : value_(), error_(static_cast<int>(e)) {}  // NOLINT

    bool has_value() const noexcept { return error_ == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    /// The value; throws std::system_error when this holds an error.
    const T& value() const& {
        if (!has_value()) throw std::system_error(make_error_code(error()));
        return value_;
    }
    T& value() & {
        if (!has_value()) throw std::system_error(make_error_code(error()));
        return value_;
    }
    T&& value() && {
        if (!has_value()) throw std::system_error(make_error_code(error()));
        return std::move(value_);
    }
    const T& operator*() const& noexcept { return value_; }
    T& operator*() & noexcept { return value_; }
    const T* operator->() const noexcept { return &value_; }

    /// The error; only meaningful when !has_value().
    errc error() const noexcept { return static_cast<errc>(error_); }
    std::error_code error_code() const noexcept {
        return has_value() ? std::error_code{} : make_error_code(error());
    }
    /// "ok" or the error's message.
    const char* message() const noexcept { return has_value() ? "ok" : error_message(error()); }

private:
    T value_;
    int error_;
};

}  // namespace zest

template <>
struct std::is_error_code_enum<zest::errc> : std::true_type {};
