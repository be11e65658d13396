#include "compress/huffman_encode.hpp"

#include <algorithm>
#include <cstring>

#include "common/huffman.hpp"
#include "compress/bit_writer.hpp"
#include "compress/fse_encode.hpp"
#include "compress/kernels.hpp"

namespace zest::detail {

namespace {

constexpr unsigned max_code_bits = 11;       // the format's limit (huf_max_bits)
constexpr unsigned max_weight_table_log = 6;  // FSE-compressed weights
constexpr unsigned max_direct_weights = 128;  // header byte 128..255

// Codes per length, for lengths[0, n) (each at most `longest` <= 255) into
// per_length[0, longest]. Lengths of leaves in ascending count come out of
// huffman_code_lengths non-increasing; then each length's count is where
// its run ends less where the next longer one's ended, which takes stores
// alone (increments would wait on each other's stores along a run). Any
// other order is counted one by one.
void count_lengths(const std::uint8_t* lengths, unsigned n, unsigned longest, std::uint32_t* per_length) noexcept {
    std::fill_n(per_length, longest + 1, 0u);
    bool ordered = true;
    for (unsigned i = 0; i + 1 < n; ++i) ordered &= lengths[i] >= lengths[i + 1];
    if (!ordered) {
        for (unsigned i = 0; i < n; ++i) ++per_length[lengths[i]];
        return;
    }
    std::uint32_t run_end[256];  // one past the last leaf of each length present
    std::fill_n(run_end, longest + 1, 0u);
    for (unsigned i = 0; i < n; ++i) run_end[lengths[i]] = i + 1;
    std::uint32_t before = 0;
    for (unsigned len = longest; len >= 1; --len) {
        const std::uint32_t end = run_end[len];
        per_length[len] = end ? end - before : 0;
        before = end ? end : before;
    }
}

// Brings the counts of optimal code lengths (a complete code, longest >
// limit) within `limit` bits, keeping the code complete. Works on the
// number of codes per length, as the JPEG standard's Annex K.3 does: two
// codes at the deepest level are siblings; one takes their parent's place
// a level up, and the other pairs with a code taken from the deepest level
// that is at least two levels up, which moves one level down. Kraft's sum
// does not change. Needs n <= 2^limit codes (the caller checks); returns
// false if the repair ever finds no code to move down.
bool limit_code_lengths(std::uint32_t* per_length, unsigned longest, unsigned limit) noexcept {
    for (unsigned deep = longest; deep > limit; --deep) {
        while (per_length[deep] > 0) {
            unsigned up = deep - 2;
            while (up > 0 && per_length[up] == 0) --up;
            if (up == 0) return false;  // cannot happen with n <= 2^limit
            per_length[deep] -= 2;
            per_length[deep - 1] += 1;
            per_length[up + 1] += 2;
            per_length[up] -= 1;
        }
    }
    return true;
}

// Optimal code lengths of at most `limit` bits for counts sorted in
// ascending order (n <= 2^limit), by package-merge: level 1 lists the
// leaves; each further level merges the leaves with the pairs (packages)
// of the level below, both in ascending weight. The 2n - 2 lightest items
// of the top level make the code: a leaf's length is the number of levels
// at which it is among the items taken, and the packages taken at a level
// say how many items are taken at the level below (two each). Only which
// items were packages is kept per level. Unlike a repair of the unlimited
// lengths, the codes lengthened are the ones whose counts cost least.
void limited_code_lengths(const std::uint32_t* sorted_counts, unsigned n, unsigned limit,
                          std::uint8_t* lengths) noexcept {
    std::uint64_t list[2][2 * 256];
    std::uint8_t is_package[max_code_bits + 1][2 * 256];
    unsigned size = n;
    for (unsigned i = 0; i < n; ++i) list[0][i] = sorted_counts[i];
    std::fill_n(is_package[1], n, std::uint8_t(0));
    for (unsigned level = 2; level <= limit; ++level) {
        const std::uint64_t* prev = list[level & 1];
        std::uint64_t* next = list[(level & 1) ^ 1];
        const unsigned packages = size / 2;
        unsigned leaf = 0, pkg = 0, out = 0;
        while (leaf < n || pkg < packages) {
            const std::uint64_t pw = pkg < packages ? prev[2 * pkg] + prev[2 * pkg + 1] : UINT64_MAX;
            const bool take_leaf = leaf < n && sorted_counts[leaf] <= pw;
            next[out] = take_leaf ? sorted_counts[leaf] : pw;
            is_package[level][out] = std::uint8_t(!take_leaf);
            leaf += unsigned(take_leaf);
            pkg += unsigned(!take_leaf);
            ++out;
        }
        size = out;
    }
    std::fill_n(lengths, n, std::uint8_t(0));
    unsigned take = 2 * n - 2;
    for (unsigned level = limit; level >= 1; --level) {
        unsigned leaves = 0;
        for (unsigned i = 0; i < take; ++i) leaves += unsigned(is_package[level][i] == 0);
        for (unsigned i = 0; i < leaves; ++i) ++lengths[i];
        take = 2 * (take - leaves);
    }
}

// Optimal (unlimited) code lengths for counts sorted in ascending order, by
// the two-queue construction: leaves and merged nodes both come out in
// ascending weight, so the two lightest are always at the queues' fronts.
// Which queue gives the next one is data, and a branch on it would be
// mispredicted about every other time: the choice is made with selects,
// each queue ending in a weight no real one reaches. Returns the longest
// length.
unsigned huffman_code_lengths(const std::uint32_t* sorted_counts, unsigned n, std::uint8_t* lengths) noexcept {
    constexpr std::uint64_t none = UINT64_MAX;  // counts are 32-bit: no sum of 256 gets here
    std::uint64_t leaf_weight[256 + 2];
    std::uint64_t node_weight[256 + 1];
    for (unsigned i = 0; i < n; ++i) leaf_weight[i] = sorted_counts[i];
    leaf_weight[n] = leaf_weight[n + 1] = none;
    for (unsigned i = 0; i <= n; ++i) node_weight[i] = none;  // nodes not made yet
    // parent[] of leaves 0..n-1 and of nodes n..2n-2 (node k is merge k - n).
    std::uint16_t parent[2 * 256];
    // The queues' fronts are kept in registers, and the weights behind them
    // are loaded before it is known which front goes: the loads stay off
    // the chain of comparisons.
    unsigned leaf = 0, node = 0;
    std::uint64_t lw = leaf_weight[0], nw = none;
    for (unsigned made = 0; made + 1 < n; ++made) {
        std::uint64_t w[2];
        unsigned id[2];
        for (unsigned k = 0; k < 2; ++k) {
            const std::uint64_t lw_behind = leaf_weight[leaf + 1], nw_behind = node_weight[node + 1];
            const bool from_leaf = lw <= nw;  // ties go to the leaf
            w[k] = from_leaf ? lw : nw;
            id[k] = from_leaf ? leaf : n + node;
            leaf += unsigned(from_leaf);
            node += unsigned(!from_leaf);
            lw = from_leaf ? lw_behind : lw;
            nw = from_leaf ? nw : nw_behind;
        }
        const std::uint64_t sum = w[0] + w[1];
        node_weight[made] = sum;
        nw = node == made ? sum : nw;  // the queue of nodes was empty
        parent[id[0]] = parent[id[1]] = std::uint16_t(n + made);
    }
    // Depths from the root (the last node) down: a parent always comes later.
    std::uint8_t depth[2 * 256];
    depth[2 * n - 2] = 0;
    for (unsigned k = 2 * n - 2; k-- > 0;) depth[k] = std::uint8_t(depth[parent[k]] + 1);
    unsigned longest = 0;
    for (unsigned i = 0; i < n; ++i) {
        lengths[i] = depth[i];
        longest = std::max<unsigned>(longest, depth[i]);
    }
    return longest;
}

// The weights the description carries: symbols 0..max_symbol-1 (the last
// one's is implied).
unsigned description_weights(const huffman_ctable& t, std::uint8_t* w) noexcept {
    // Locals: byte stores through w could alias t's fields, which would
    // then be reloaded at every step.
    const unsigned n = t.max_symbol, top = t.max_bits + 1;
    for (unsigned s = 0; s < n; ++s) w[s] = t.bits[s] ? std::uint8_t(top - t.bits[s]) : 0;
    return n;
}

// Weights FSE-compressed into dst (the header byte excluded). Returns the
// size, 0 when not possible or not below 128 bytes.
std::size_t compress_weights(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* w, unsigned n) noexcept {
    if (n < 2) return 0;
    // Counted in two tables taking turns: runs of one weight (zeroes, mostly)
    // would otherwise make each increment wait for the previous one.
    std::uint32_t pair[2][max_code_bits + 1] = {};
    for (unsigned i = 0; i + 1 < n; i += 2) ++pair[0][w[i]], ++pair[1][w[i + 1]];
    if (n & 1) ++pair[0][w[n - 1]];
    std::uint32_t counts[max_code_bits + 1];
    unsigned max_weight = 0, distinct = 0;
    for (unsigned v = 0; v <= max_code_bits; ++v) {
        counts[v] = pair[0][v] + pair[1][v];
        if (counts[v]) ++distinct, max_weight = v;
    }
    // With a single value every state of its table reads 0 bits, and the
    // decoder could never detect the stream's end.
    if (distinct < 2) return 0;

    const unsigned log = fse_table_log(max_weight_table_log, n, max_weight);
    std::int16_t norm[max_code_bits + 1];
    if (fse_normalize(norm, log, counts, n, max_weight, false) != ok) return 0;
    const std::size_t header = fse_write_description(dst, capacity, norm, max_weight, log);
    if (header == 0) return 0;
    fse_ctable ct;
    fse_build_ctable(ct, norm, max_weight, log);

    // Two states alternate: the first decodes w[0], w[2], ..., the second
    // w[1], w[3], .... The decoder stops after the update that runs past
    // the stream's start, and then emits the other state's symbol: so the
    // state holding w[n-2] must leave it with at least one bit (init picks
    // the symbol's first state, which does as the symbol has < all cells),
    // and no bits are written for it.
    bit_writer bw(dst + header, capacity - header);
    fse_state a, b;  // a holds w[n-1], w[n-3], ...; b holds w[n-2], w[n-4], ...
    a.init(ct, w[n - 1]);
    b.init(ct, w[n - 2]);
    unsigned i = n - 2;  // w[i..n) are in the states
    for (; i >= 2; i -= 2) {
        a.encode(bw, w[i - 1]);
        b.encode(bw, w[i - 2]);
        bw.flush();
    }
    if (i == 1) {
        a.encode(bw, w[0]);
        bw.flush();
    }
    // The decoder reads the first state's (w[0]'s) initial value first:
    // write it last.
    const bool a_first = (n - 1) % 2 == 0;
    (a_first ? b : a).flush(bw);
    (a_first ? a : b).flush(bw);
    bw.flush();
    const std::size_t stream = bw.close();
    if (stream == 0 || header + stream >= 128) return 0;
    return header + stream;
}

struct huffman_leaf {
    std::uint32_t count;
    std::uint8_t symbol;
};

// Sorts leaves given in symbol order by ascending count, ties in symbol
// order: a stable counting sort on a key that is the count itself below 64
// and its power of two above, then an insertion pass that orders the
// power-of-two buckets (few leaves, nearly in order).
void sort_leaves(huffman_leaf* leaves, unsigned n) noexcept {
    constexpr unsigned exact = 64;
    constexpr unsigned keys = exact + 32 - 6;
    const auto key = [](std::uint32_t c) { return c < exact ? c : exact + highbit32(c) - 6; };
    std::uint32_t start[keys + 1] = {};
    for (unsigned i = 0; i < n; ++i) ++start[key(leaves[i].count) + 1];
    for (unsigned k = 1; k <= keys; ++k) start[k] += start[k - 1];
    huffman_leaf sorted[256];
    for (unsigned i = 0; i < n; ++i) sorted[start[key(leaves[i].count)]++] = leaves[i];
    for (unsigned i = 0; i < n; ++i) {
        const huffman_leaf x = sorted[i];
        unsigned j = i;
        for (; j > 0 && leaves[j - 1].count > x.count; --j) leaves[j] = leaves[j - 1];
        leaves[j] = x;
    }
}

// Codes as the decoder lays them out (build_huffman_table): its table,
// indexed by the next `longest` bits, gives each weight (longest + 1 -
// length) a run of entries, lightest weights first, symbols in order
// within a weight, each symbol 2^(weight-1) entries; a code is its first
// entry's index without the weight - 1 bits it does not use. Kept per
// length: next[len] is the next code of that length, each shifted up by
// len so that every length steps by the same amount. `present` lists the
// n symbols with a code, in increasing order; out.bits holds their lengths.
void assign_codes(huffman_ctable& out, const std::uint32_t* per_length, unsigned longest, const std::uint8_t* present,
                  unsigned n) noexcept {
    std::uint32_t next[huf_max_table_log + 1];
    std::uint32_t pos = 0;
    for (unsigned len = longest; len >= 1; --len) {
        next[len] = pos << len;
        pos += per_length[len] << (longest - len);
    }
    for (unsigned i = 0; i < n; ++i) {
        const unsigned s = present[i], len = out.bits[s];
        out.code[s] = std::uint16_t(next[len] >> longest);
        next[len] += 1u << longest;
    }
}

}  // namespace

unsigned huffman_max_bits(std::size_t n, unsigned max_symbol) noexcept {
    return fse_table_log(max_code_bits, n, max_symbol, 1);
}

unsigned build_huffman_ctable(const std::uint32_t* counts, unsigned max_symbol, unsigned max_bits,
                              huffman_ctable& out, bool optimal) noexcept {
    std::memset(out.code, 0, sizeof out.code);
    std::memset(out.bits, 0, sizeof out.bits);
    out.max_bits = 0;
    out.max_symbol = 0;
    if (max_symbol > 255 || max_bits == 0 || max_bits > max_code_bits) return 0;

    huffman_leaf leaves[256 + 1];
    unsigned n = 0;
    for (unsigned s = 0; s <= max_symbol; ++s) {  // without branches: which counts are zero is data
        leaves[n] = {counts[s], std::uint8_t(s)};
        n += unsigned(counts[s] != 0);
    }
    if (n < 2 || n > (1u << max_bits)) return 0;
    std::uint8_t present[256];  // the symbols in order
    for (unsigned i = 0; i < n; ++i) present[i] = leaves[i].symbol;
    sort_leaves(leaves, n);

    std::uint32_t sorted_counts[256];
    for (unsigned i = 0; i < n; ++i) sorted_counts[i] = leaves[i].count;
    std::uint8_t lengths[256 + 8];  // + 8: the hand-out below writes 8 bytes at a time
    const unsigned unlimited = huffman_code_lengths(sorted_counts, n, lengths);
    std::uint32_t per_length[256];  // an optimal code is at most n - 1 <= 255 bits long
    count_lengths(lengths, n, unlimited, per_length);
    unsigned longest = unlimited;
    if (unlimited > max_bits) {
        longest = max_bits;
        if (optimal) {
            limited_code_lengths(sorted_counts, n, max_bits, lengths);
            count_lengths(lengths, n, longest, per_length);
        } else {
            if (!limit_code_lengths(per_length, unlimited, max_bits)) return 0;
            // The repair leaves codes at max_bits. The lengths are handed
            // out again, the longest to the least frequent symbols.
            unsigned i = 0;
            for (unsigned len = longest; len >= 1; --len) {
                // Eight at a time (as fse_build_ctable lays out its symbols):
                // a byte loop would end at a count the branch predictor
                // cannot know. Bytes past a run are rewritten by the next,
                // or unused.
                const std::uint64_t eight = 0x0101010101010101ull * len;
                for (std::uint32_t k = 0; k < per_length[len]; k += 8) std::memcpy(lengths + i + k, &eight, 8);
                i += per_length[len];
            }
        }
    }
    for (unsigned i = 0; i < n; ++i) out.bits[leaves[i].symbol] = lengths[i];

    assign_codes(out, per_length, longest, present, n);
    out.max_bits = longest;
    out.max_symbol = present[n - 1];
    return longest;
}

unsigned huffman_ctable_from_weights(const std::uint8_t* weights, unsigned n, huffman_ctable& out) noexcept {
    std::memset(out.code, 0, sizeof out.code);
    std::memset(out.bits, 0, sizeof out.bits);
    out.max_bits = 0;
    out.max_symbol = 0;
    if (n == 0 || n > 256) return 0;
    std::uint32_t total = 0;
    for (unsigned s = 0; s < n; ++s) {
        if (weights[s] > huf_max_table_log) return 0;
        total += (1u << weights[s]) >> 1;
    }
    if (total == 0 || (total & (total - 1))) return 0;  // not a complete code
    // As deep as the decoder reads (a dictionary's table may be 12 bits).
    const unsigned longest = highbit32(total);
    if (longest == 0 || longest > huf_max_table_log) return 0;
    std::uint32_t per_length[huf_max_table_log + 1] = {};
    std::uint8_t present[256];
    unsigned k = 0;
    for (unsigned s = 0; s < n; ++s) {
        if (weights[s] == 0) continue;
        out.bits[s] = std::uint8_t(longest + 1 - weights[s]);
        per_length[out.bits[s]]++;
        out.max_symbol = s;
        present[k++] = std::uint8_t(s);
    }
    assign_codes(out, per_length, longest, present, k);
    out.max_bits = longest;
    return longest;
}

std::size_t write_huffman_description(std::uint8_t* dst, std::size_t capacity, const huffman_ctable& t) noexcept {
    std::uint8_t w[256];
    const unsigned n = description_weights(t, w);
    if (n == 0 || capacity == 0) return 0;

    std::uint8_t fse[128 + 8];
    const std::size_t fse_size = compress_weights(fse, sizeof fse, w, n);
    const std::size_t direct_size = n <= max_direct_weights ? 1 + (n + 1) / 2 : 0;

    if (fse_size != 0 && (direct_size == 0 || 1 + fse_size < direct_size)) {
        if (1 + fse_size > capacity) return 0;
        dst[0] = std::uint8_t(fse_size);
        std::memcpy(dst + 1, fse, fse_size);
        return 1 + fse_size;
    }
    if (direct_size == 0 || direct_size > capacity) return 0;
    dst[0] = std::uint8_t(127 + n);
    for (unsigned i = 0; i < n; i += 2) {
        const unsigned low = i + 1 < n ? w[i + 1] : 0;
        dst[1 + i / 2] = std::uint8_t((w[i] << 4) | low);
    }
    return direct_size;
}

std::size_t huffman_encoded_bits(const huffman_ctable& t, const std::uint32_t* counts, unsigned max_symbol) noexcept {
    std::size_t bits = 0;
    for (unsigned s = 0; s <= max_symbol && s < 256; ++s) bits += std::size_t(counts[s]) * t.bits[s];
    return bits;
}

bool huffman_covers(const huffman_ctable& t, const std::uint32_t* counts, unsigned max_symbol) noexcept {
    if (max_symbol > t.max_symbol) {
        for (unsigned s = t.max_symbol + 1; s <= max_symbol; ++s)
            if (counts[s] != 0) return false;
        max_symbol = t.max_symbol;
    }
    // Without a branch per symbol (the loop vectorises).
    unsigned missing = 0;
    for (unsigned s = 0; s <= max_symbol; ++s) missing |= unsigned(counts[s] != 0) & unsigned(t.bits[s] == 0);
    return missing == 0;
}

std::size_t huffman_encode_4x(std::uint8_t* dst, std::size_t capacity, const std::uint8_t* src, std::size_t n,
                              const huffman_ctable& t) noexcept {
    constexpr std::size_t jump_table = 6;
    const std::size_t seg = (n + 3) / 4;
    // The last segment takes what the first three leave, which must not be
    // negative (n = 1, 2 or 5 cannot be split this way).
    if (n == 0 || 3 * seg > n || capacity < jump_table) return 0;
    std::size_t at = jump_table;
    const auto stream = active_compress_kernels().huffman_stream;
    for (unsigned k = 0; k < 4; ++k) {
        const std::size_t begin = k * seg;
        const std::size_t len = k < 3 ? seg : n - 3 * seg;
        const std::size_t size = stream(dst + at, capacity - at, src + begin, len, t);
        if (size == 0) return 0;
        if (k < 3) {
            if (size > 0xFFFF) return 0;  // the jump table holds 16-bit sizes
            dst[2 * k] = std::uint8_t(size);
            dst[2 * k + 1] = std::uint8_t(size >> 8);
        }
        at += size;
    }
    return at;
}

}  // namespace zest::detail
