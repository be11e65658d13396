#include "zest/errors.hpp"
#include "zest/zest.hpp"

namespace zest {

const char* error_message(errc e) noexcept {
    switch (e) {
        case errc::invalid_argument: return "invalid argument";
        case errc::truncated_input: return "input is truncated";
        case errc::unknown_frame: return "unknown frame (not Zstandard data)";
        case errc::reserved_bit_set: return "reserved bit set in frame or block header";
        case errc::frame_header_invalid: return "invalid frame header";
        case errc::window_too_large: return "frame window exceeds the decoder's limit";
        case errc::dictionary_required: return "frame requires a dictionary and none was given";
        case errc::block_invalid: return "invalid block";
        case errc::literals_invalid: return "corrupted literals section";
        case errc::huffman_invalid: return "corrupted Huffman table";
        case errc::fse_invalid: return "corrupted FSE table";
        case errc::sequences_invalid: return "corrupted sequences section";
        case errc::offset_invalid: return "match offset is zero or reaches before the start of data";
        case errc::content_size_mismatch: return "decoded size differs from the frame's content size";
        case errc::checksum_mismatch: return "content checksum mismatch";
        case errc::destination_too_small: return "destination buffer too small";
        case errc::out_of_memory: return "out of memory";
        case errc::io_error: return "I/O error";
        case errc::dictionary_wrong: return "frame requires another dictionary (dictionary ID mismatch)";
        case errc::dictionary_invalid: return "invalid dictionary";
    }
    return "unknown error";
}

namespace {
class category final : public std::error_category {
public:
    const char* name() const noexcept override { return "zest"; }
    std::string message(int v) const override { return error_message(static_cast<errc>(v)); }
};
}  // namespace

const std::error_category& error_category() noexcept {
    static const category c;
    return c;
}

const char* version_string() noexcept { return ZEST_VERSION_STRING; }

}  // namespace zest
