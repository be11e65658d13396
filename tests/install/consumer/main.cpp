// Decodes hand-made frames through the installed public header and library.
#include <zest/zest.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "FAIL: %s\n", what);
        ++failures;
    }
}

}  // namespace

int main() {
    // RFC 8878: magic, descriptor 0x20 (single segment, 1-byte content size),
    // content size 5, then one last raw block of 5 bytes: header 5<<3 | 1.
    const unsigned char raw[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x29, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'};
    // The same framing with one last RLE block: 7 copies of '!' (7<<3 | 1<<1 | 1).
    const unsigned char rle[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x07, 0x3B, 0x00, 0x00, '!'};

    std::vector<std::byte> frames;
    for (const unsigned char c : raw) frames.push_back(std::byte{c});
    for (const unsigned char c : rle) frames.push_back(std::byte{c});

    std::byte out[32] = {};
    const auto n = zest::decompress(std::span<std::byte>(out), std::span<const std::byte>(frames));
    check(n.has_value(), "decompress of two concatenated frames succeeds");
    check(n && *n == 12, "decompressed size is 12");
    check(n && std::memcmp(out, "hello!!!!!!!", 12) == 0, "decompressed bytes are 'hello!!!!!!!'");

    zest::decompressor d;
    const auto m = d.decompress(out, sizeof out, raw, sizeof raw);
    check(m && *m == 5 && std::memcmp(out, "hello", 5) == 0, "decompressor decodes the raw-block frame");

    const auto size = zest::frame_content_size(std::span<const std::byte>(frames).first(sizeof raw));
    check(size && size->has_value() && **size == 5, "frame_content_size reports 5");

    const auto bad = zest::decompress(out, sizeof out, raw, sizeof raw - 2);
    check(!bad.has_value(), "a truncated frame is an error");

    std::printf("zest %s: %s\n", zest::version_string(), failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
