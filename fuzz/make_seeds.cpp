// Writes the seed corpora of the fuzzers, one folder each, produced at run
// time (nothing binary is kept in the repository; the fuzz build runs this
// as part of the build, fuzz/CMakeLists.txt). Usage: zest_fuzz_seeds OUTPUT_DIR
// writes OUTPUT_DIR/{decompress,stream,compress_roundtrip,dictionary}.
//
// The decompression fuzzer's seeds (this file): conformance-like frames
// written with libzstd. Shapes: levels -5..19, with and without checksum
// and content size, small windows (block maximum below 128 KiB), many small
// blocks (streaming with flushes, target block size), raw and RLE blocks,
// uncompressed literals, long-distance matching, skippable frames,
// concatenations, tiny and empty inputs, and a few frames written by hand
// for cases no encoder produces. The others: fuzz/seeds_*.cpp.
#include "seed_support.hpp"

namespace zest_seeds {

void write_decompress_seeds(const std::filesystem::path& dir) {
    writer put(dir);

    const struct {
        const char* name;
        bytes data;
    } inputs[] = {
        {"text", text(20000, 1)},     {"records", records(12000, 2)}, {"random", random_bytes(3000, 3)},
        {"zeros", zeros(50000)},      {"mixed", mixed(40000, 4)},     {"periodic", periodic(16000, 5)},
        {"bigtext", text(300000, 6)}, {"bigmixed", mixed(400000, 7)},
    };

    // Every level on the medium inputs, checksum and content size alternating.
    for (const auto& in : inputs) {
        if (in.data.size() > 100000) continue;
        for (int level = -5; level <= 19; ++level) {
            params p;
            p.level = level;
            p.checksum = (level & 1) != 0;
            p.content_size = (level % 3) != 0;
            put(std::string(in.name) + "_l" + std::to_string(level), compress(in.data, p));
        }
    }
    // Multi-block frames (blocks of 128 KiB, repeat tables and treeless literals).
    for (const auto& in : inputs) {
        if (in.data.size() <= 100000) continue;
        for (int level : {1, 3, 7, 19}) {
            params p;
            p.level = level;
            p.checksum = true;
            put(std::string(in.name) + "_l" + std::to_string(level), compress(in.data, p));
        }
    }
    // Small windows: Block_Maximum_Size below 128 KiB.
    for (int wlog : {10, 11, 12, 14, 16}) {
        for (const char* which : {"text", "mixed", "records"}) {
            for (const auto& in : inputs) {
                if (std::string(in.name) != which) continue;
                params p;
                p.level = wlog == 10 ? 19 : 5;
                p.window_log = wlog;
                p.checksum = true;
                p.content_size = wlog != 12;  // without content size the window descriptor is kept
                put(std::string(which) + "_w" + std::to_string(wlog), compress(in.data, p));
                put(std::string(which) + "_w" + std::to_string(wlog) + "_stream",
                    stream_compress(in.data, 3, 700, 3, false, wlog, wlog));
            }
        }
    }
    // Many small blocks.
    put("text_target_block", [&] {
        params p;
        p.target_block = 1340;
        return compress(inputs[0].data, p);
    }());
    put("mixed_target_block", [&] {
        params p;
        p.target_block = 2000;
        p.level = 12;
        return compress(inputs[4].data, p);
    }());
    // Literal modes: raw literals everywhere, Huffman forced.
    for (int mode : {ZSTD_ps_enable, ZSTD_ps_disable}) {
        for (int level : {-3, 1, 9}) {
            params p;
            p.level = level;
            p.literal_mode = mode;
            put(std::string(mode == ZSTD_ps_enable ? "huf" : "rawlit") + "_l" + std::to_string(level),
                compress(inputs[4].data, p));
        }
    }
    put("ldm_bigmixed", [&] {
        params p;
        p.ldm = true;
        p.window_log = 20;
        p.level = 5;
        return compress(inputs[7].data, p);
    }());
    // Streaming frames: no content size, flushes (empty and tiny blocks).
    put("stream_text_flush1", stream_compress(inputs[0].data, 3, 64, 1, false, 0, 11));
    put("stream_text_flush7", stream_compress(inputs[0].data, 9, 2000, 7, false, 0, 12));
    put("stream_records", stream_compress(inputs[1].data, -1, 500, 2, false, 0, 13));
    put("stream_periodic_pledged", stream_compress(inputs[5].data, 6, 3000, 0, true, 0, 14));
    put("stream_zeros", stream_compress(inputs[3].data, 1, 9000, 2, false, 0, 15));
    put("stream_random", stream_compress(inputs[2].data, 3, 1000, 1, false, 0, 16));
    // Tiny and empty inputs.
    for (std::size_t n : {0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 64, 100, 255, 256, 257, 1000}) {
        params p;
        p.checksum = n % 2 == 1;
        p.level = n % 3 == 0 ? 19 : 3;
        put("tiny_text" + std::to_string(n), compress(text(n, n), p));
        put("tiny_periodic" + std::to_string(n), compress(periodic(n, n), p));
        if (n < 64) put("tiny_random" + std::to_string(n), compress(random_bytes(n, n), p));
        if (n == 0) put("empty_stream", stream_compress(bytes{}, 3, 1, 0, false, 0, 1));
    }
    // Skippable frames and concatenations.
    const bytes a = compress(inputs[0].data, {});
    const bytes b = compress(inputs[5].data, {.level = 19, .checksum = true});
    const bytes t = compress(text(40, 9), {.level = 1, .checksum = false, .content_size = false});
    put("skippable_empty", skippable(0, {}));
    put("skippable_payload", skippable(15, text(100, 3)));
    put("concat_two", cat({a, b}));
    put("concat_skippable", cat({skippable(3, {}), t, skippable(7, random_bytes(20, 1)), b, t}));
    put("concat_tiny", cat({t, t, t, compress(bytes{}, {}), t}));
    put("concat_stream", cat({stream_compress(inputs[1].data, 3, 300, 1, false, 0, 2), t}));

    // Hand-made frames (cases no encoder writes; from the format's errata and
    // the reference's permissiveness notes, and simple block types).
    put("hand_empty_compressed_block", from_hex("28b52ffd 2000 150000 0000"));
    put("hand_rle_first", from_hex("28b52ffda00100020002001000 0b000000"));
    put("hand_tiny_fse_table", from_hex("28b52ffd2027c5000080f3f1f0ecebc6c5c7f09d4300 0000e0e0065801 00603e52"));
    put("hand_truncated_huffman_states", from_hex("28b52ffd00005500007280010420 7e1f02aa00"));
    put("hand_offset_zero", from_hex("28b52ffd000045000008000200 2f430bae"));
    // 4-stream Huffman literals of 6 bytes (the least the format allows) and of 4 (invalid).
    put("hand_four_streams_6_literals", from_hex("28b52ffd0000 850000 660003 8010 010001000100 04040401 00"));
    put("hand_four_streams_4_literals", from_hex("28b52ffd0000 850000 460003 8010 010001000100 02020202 00"));
    // Single segment, 1-byte content size, one raw block of 5 bytes, checksum-less.
    put("hand_ss_raw", from_hex("28b52ffd2005290000 68656c6c6f"));
    // Window 1 KiB, an RLE block of 1024 bytes and a raw block of 3, content size 2 bytes.
    put("hand_rle_raw", from_hex("28b52ffd 40 00 0303 022000 41 190000 616263"));
    // Huffman literals 12 bits deep (weights 12..1, the last implied 1): the
    // format's limit is 11, libzstd 1.5.4 to 1.5.7 decodes up to 12
    // (HUF_TABLELOG_MAX); the same tree one bit shallower beside it.
    put("hand_huffman_12_bits", from_hex("28b52ffd 0000 650000 720002 8bcba987654321 ff 00"));
    put("hand_huffman_11_bits", from_hex("28b52ffd 0000 650000 720002 8aba9876543210 ff 00"));
    // A compressed block larger than the window (5 bytes, single segment)
    // decoding to 5 bytes: zest decodes it, libzstd refuses (known
    // difference 11).
    put("hand_compressed_block_above_window", from_hex("28b52ffd 2005 3d0000 28 68656c6c6f 00"));
}

}  // namespace zest_seeds

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    const std::filesystem::path out = argv[1];
    zest_seeds::write_decompress_seeds(out / "decompress");
    zest_seeds::write_stream_seeds(out / "stream");
    zest_seeds::write_roundtrip_seeds(out / "compress_roundtrip");
    zest_seeds::write_dictionary_seeds(out / "dictionary");
    return 0;
}
