#include "decompress/literals.hpp"

#include <cstring>

namespace zest::detail {

namespace {
constexpr std::size_t pairs_min_literals = 16384;
}  // namespace

errc decode_literals(decoder_state& st, const kernel_set& k, const std::uint8_t* src, std::size_t size,
                     const std::uint8_t* readable_end, std::size_t block_max, literals_view& out,
                     std::size_t& used) noexcept {
    if (size == 0) return errc::literals_invalid;
    const unsigned b0 = src[0];
    const unsigned type = b0 & 3;
    const unsigned size_format = (b0 >> 2) & 3;

    if (type < 2) {  // raw or RLE
        std::size_t header, n;
        switch (size_format) {
            case 1:
                if (size < 2) return errc::literals_invalid;
                header = 2;
                n = load_le16(src) >> 4;
                break;
            case 3:
                if (size < 3) return errc::literals_invalid;
                header = 3;
                n = load_le24(src) >> 4;
                break;
            default:
                header = 1;
                n = b0 >> 3;
                break;
        }
        if (n > block_max) return errc::literals_invalid;
        if (type == 0) {
            if (n > size - header) return errc::literals_invalid;
            const std::uint8_t* p = src + header;
            if (std::size_t(readable_end - p) >= n + wild_slack) {
                out = {p, n};
            } else {
                std::memcpy(st.literals, p, n);
                out = {st.literals, n};
            }
            used = header + n;
        } else {
            if (size < header + 1) return errc::literals_invalid;
            std::memset(st.literals, src[header], n);
            out = {st.literals, n};
            used = header + 1;
        }
        return ok;
    }

    // Huffman-compressed (type 2) or treeless, reusing the previous table (type 3).
    std::size_t header, regen, csize;
    bool four_streams = true;
    switch (size_format) {
        case 0:
        case 1: {
            if (size < 3) return errc::literals_invalid;
            const std::uint32_t v = load_le24(src);
            header = 3;
            regen = (v >> 4) & 0x3FF;
            csize = (v >> 14) & 0x3FF;
            four_streams = size_format == 1;
            break;
        }
        case 2: {
            if (size < 4) return errc::literals_invalid;
            const std::uint32_t v = load_le32(src);
            header = 4;
            regen = (v >> 4) & 0x3FFF;
            csize = v >> 18;
            break;
        }
        default: {
            if (size < 5) return errc::literals_invalid;
            const std::uint32_t v = load_le32(src);
            header = 5;
            regen = (v >> 4) & 0x3FFFF;
            csize = (v >> 22) | (std::size_t(src[4]) << 10);
            break;
        }
    }
    if (regen > block_max) return errc::literals_invalid;
    // The format: "a minimum of 6 bytes is required for the 4 streams mode"
    // (libzstd rejects fewer too).
    if (four_streams && regen < 6) return errc::literals_invalid;
    if (csize > size - header) return errc::literals_invalid;
    const std::uint8_t* p = src + header;
    std::size_t stream_bytes = csize;
    const huffman_table* t = st.lit_table;
    if (type == 2) {
        std::size_t tree = 0;
        ZEST_TRY(read_huffman_weights(p, csize, st.weights_scratch, tree));
        ZEST_TRY(build_huffman_table(st.weights_scratch, st.huf));
        t = st.lit_table = &st.huf;
        st.lit_table_pairs = nullptr;
        p += tree;
        stream_bytes -= tree;
    } else if (!t) {
        return errc::literals_invalid;  // treeless literals with no previous table
    }
    // Building pairs pays off when two average codes fit in one lookup.
    const bool pairs_pay = stream_bytes * 8 * 2 <= regen * (t->max_bits + 1);
    // A dictionary's pairs are built when it is loaded: they serve
    // whatever the section (measured: records whose literals average 7
    // bits of a 9-bit code, one lookup in 20 yielding two symbols, decode
    // 8% faster with them than with the one-symbol table).
    const huffman_table* const built = st.lit_table_pairs;
    if (four_streams) {
        // A table of our own gets pairs when the section is big enough to
        // amortise building them.
        if (!t->pairs_ready) {
            if (t == &st.huf) {
                if (pairs_pay && regen >= pairs_min_literals) build_huffman_pairs(st.huf);
            } else if (built) {
                t = built;
            }
        }
        ZEST_TRY(k.huf_4x(st.literals, regen, p, stream_bytes, *t));
    } else {
        // One stream: pairs only when a dictionary brought them built.
        if (!t->pairs_ready && built) t = built;
        ZEST_TRY(k.huf_1x(st.literals, regen, p, stream_bytes, *t));
    }
    out = {st.literals, regen};
    used = header + csize;
    return ok;
}

}  // namespace zest::detail
