// Seeds of the dictionary fuzzer (fuzz/dictionary_fuzzer.cpp), in its
// layout: byte 0 the mode (bit 0: dictionary_content::full, the rest the
// level, value >> 1 % 23 - 3), bytes 1-2 the dictionary's length (little
// endian), the dictionary, then bytes that are both frames to decode with
// it and data to compress with it.
//
// Dictionaries: trained by libzstd's ZDICT (256 bytes to 32 KiB), made by
// ZDICT_finalizeDictionary from raw content, raw content from 1 byte up,
// and formatted ones edited where the fuzzer's judgement matters: literal
// Huffman tables 11 and 12 bits deep (libzstd 1.5.4 to 1.5.7 loads both,
// HUF_TABLELOG_MAX = 12), a truncated one (both refuse). The rest: frames
// libzstd wrote with the dictionary (with and without its ID, checksum,
// content size), frames without it, and plain messages.
#include "seed_support.hpp"

namespace zest_seeds {

namespace {

bytes input(int level, bool full, const bytes& dict, const bytes& rest) {
    bytes out{static_cast<unsigned char>((level + 3) << 1 | (full ? 1 : 0)), static_cast<unsigned char>(dict.size()),
              static_cast<unsigned char>(dict.size() >> 8)};
    out.insert(out.end(), dict.begin(), dict.end());
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

// Bytes a formatted dictionary's literal table takes (the Huffman tree
// description after the magic number and ID); 0 when it is not one.
std::size_t huffman_table_size(const bytes& dict) {
    if (dict.size() < 9 || dict[0] != 0x37 || dict[1] != 0xA4 || dict[2] != 0x30 || dict[3] != 0xEC) return 0;
    const unsigned h = dict[8];
    return h < 128 ? 1 + h : 1 + (h - 127 + 1) / 2;
}

// `dict` with its literal table replaced by `table` (a tree description).
bytes with_huffman_table(const bytes& dict, const bytes& table) {
    const std::size_t old = huffman_table_size(dict);
    if (old == 0) return {};
    bytes out(dict.begin(), dict.begin() + 8);
    out.insert(out.end(), table.begin(), table.end());
    out.insert(out.end(), dict.begin() + 8 + static_cast<std::ptrdiff_t>(old), dict.end());
    return out;
}

bool libzstd_loads(const bytes& dict) {
    ZSTD_DDict* d = ZSTD_createDDict_advanced(dict.data(), dict.size(), ZSTD_dlm_byCopy, ZSTD_dct_fullDict,
                                              ZSTD_defaultCMem);
    ZSTD_freeDDict(d);
    return d != nullptr;
}

}  // namespace

void write_dictionary_seeds(const std::filesystem::path& dir) {
    writer put(dir);
    const std::vector<bytes> msgs = messages(600, 61);
    std::vector<bytes> train_on(msgs.begin() + 20, msgs.end());  // the first 20 stay unseen

    const struct {
        std::string name;
        bytes dict;
    } trained[] = {{"trained256", trained_dictionary(train_on, 256)},
                   {"trained1k", trained_dictionary(train_on, 1024)},
                   {"trained4k", trained_dictionary(train_on, 4096)},
                   {"trained32k", trained_dictionary(train_on, 32768)}};
    const bytes content = text(2000, 62);
    bytes all;
    std::vector<std::size_t> sizes;
    for (std::size_t i = 20; i < 200; ++i) {
        all.insert(all.end(), msgs[i].begin(), msgs[i].end());
        sizes.push_back(msgs[i].size());
    }
    bytes finalized(4096);
    const std::size_t fn = ZDICT_finalizeDictionary(finalized.data(), finalized.size(), content.data(), content.size(),
                                                    all.data(), sizes.data(), static_cast<unsigned>(sizes.size()),
                                                    ZDICT_params_t{});
    finalized.resize(ZDICT_isError(fn) ? 0 : fn);

    // Trained and finalized: frames libzstd wrote with them at a few levels
    // and options, a frame without dictionary, plain messages to compress.
    auto formatted_seeds = [&](const std::string& name, const bytes& dict) {
        if (dict.empty()) return;
        const bytes one = msgs[1], two = cat({msgs[2], msgs[3], msgs[4]});
        put(name + "_frame_l3", input(3, true, dict, compress_with_dictionary(one, dict, 3)));
        put(name + "_frame_l19_checksum", input(1, false, dict, compress_with_dictionary(two, dict, 19, true)));
        put(name + "_frame_noid_nosize", input(-1, false, dict, compress_with_dictionary(two, dict, 1, false, false, false)));
        put(name + "_frames_two", input(7, true, dict,
                                        cat({compress_with_dictionary(msgs[5], dict, 5), compress_with_dictionary(msgs[6], dict, 5)})));
        put(name + "_frame_without", input(3, false, dict, compress(msgs[7], {})));
        put(name + "_data", input(3, false, dict, cat({msgs[8], msgs[9]})));
        put(name + "_data_l-3", input(-3, true, dict, msgs[10]));
        put(name + "_data_l12", input(12, false, dict, cat({msgs[11], msgs[12], msgs[13], msgs[14]})));
    };
    for (const auto& t : trained) formatted_seeds(t.name, t.dict);
    formatted_seeds("finalized", finalized);

    // Raw content, from 1 byte (history only, ID 0); with `full` libzstd and
    // zest refuse them.
    for (const std::size_t n : {1, 7, 8, 100, 2000, 20000}) {
        const bytes raw = text(n, 63 + n);
        const std::string name = "raw" + std::to_string(n);
        put(name + "_frame", input(3, false, raw, compress_with_dictionary(cat({raw, msgs[15]}), raw, 3)));
        put(name + "_data_l9", input(9, false, raw, cat({msgs[16], raw})));
        if (n == 100) put(name + "_full", input(3, true, raw, msgs[17]));
    }

    // Literal tables of the limit's depth: weights 12..1 with the last
    // symbol's 1 implied (codes of 1 to 12 bits), and the same one bit
    // shallower. libzstd loads both (HUF_TABLELOG_MAX = 12).
    const bytes& base = trained[2].dict;
    const bytes huf12 = with_huffman_table(base, from_hex("8b cba987654321"));
    const bytes huf11 = with_huffman_table(base, from_hex("8a ba9876543210"));
    for (const auto& [name, dict] : {std::pair<const char*, const bytes&>{"huffman12", huf12}, {"huffman11", huf11}}) {
        if (dict.empty()) continue;
        if (!libzstd_loads(dict)) std::fprintf(stderr, "note: libzstd refuses the %s dictionary\n", name);
        put(std::string(name) + "_data", input(3, true, dict, cat({msgs[18], msgs[19]})));
    }
    // Cut inside its entropy tables: both must refuse it.
    if (base.size() > 40) put("trained_truncated", input(3, false, bytes(base.begin(), base.begin() + 40), msgs[0]));
}

}  // namespace zest_seeds
