// Seeds of the stream fuzzer (fuzz/stream_fuzzer.cpp), in its layout
// (fuzz/stream_input.hpp): frames to decode in pieces, with and without a
// dictionary, and inputs to compress with every option of the layout:
// levels, windows, pledged sizes, all at once, size hints, dictionaries (raw
// and trained), and payloads repeated past one block and one window.
#include "seed_support.hpp"
#include "stream_input.hpp"

namespace zest_seeds {

namespace {

bytes serialize(zest_fuzz::stream_input in, const bytes& dict, const bytes& payload) {
    in.dictionary = dict;
    in.payload = payload;
    return in.serialize();
}

bytes decode_input(std::uint8_t size_seed, const bytes& frames, const bytes& dict = {}) {
    zest_fuzz::stream_input in;
    in.size_seed = size_seed;
    in.has_dictionary = !dict.empty();
    return serialize(in, dict, frames);
}

}  // namespace

void write_stream_seeds(const std::filesystem::path& dir) {
    writer put(dir);
    const bytes txt = text(20000, 31), rec = records(12000, 32), mix = mixed(40000, 33), per = periodic(8000, 34);

    // Decode: frames of several shapes, each with two size seeds.
    const struct {
        const char* name;
        bytes frame;
    } frames[] = {
        {"text_l3", compress(txt, {.level = 3, .checksum = true})},
        {"records_l19", compress(rec, {.level = 19})},
        {"mixed_l1_nosize", compress(mix, {.level = 1, .content_size = false})},
        {"periodic_l-3", compress(per, {.level = -3, .checksum = true})},
        {"text_w10", compress(txt, {.level = 5, .checksum = true, .window_log = 10})},
        {"mixed_w12_stream", stream_compress(mix, 3, 700, 3, false, 12, 35)},
        {"text_flush1", stream_compress(txt, 3, 64, 1, false, 0, 36)},
        {"bigmixed_l3", compress(mixed(300000, 37), {.level = 3})},
        {"concat_skippable", cat({compress(text(100, 38), {}), skippable(2, text(50, 39)), compress(rec, {})})},
        {"rle", compress(zeros(200000), {.level = 1})},
        {"empty", compress(bytes{}, {})},
    };
    for (const auto& f : frames)
        for (const std::uint8_t seed : {std::uint8_t(1), std::uint8_t(200)})
            put("decode_" + std::string(f.name) + "_s" + std::to_string(seed), decode_input(seed, f.frame));

    // Decode with dictionaries: raw content and a trained one.
    const std::vector<bytes> msgs = messages(300, 40);
    const bytes trained = trained_dictionary(msgs, 4096);
    const bytes raw = text(3000, 41);
    for (std::size_t i = 0; i < 3; ++i) {
        const bytes& m = msgs[i * 7];
        put("decode_dict_trained_" + std::to_string(i), decode_input(std::uint8_t(3 + i),
                                                                     compress_with_dictionary(m, trained, 3 + 6 * int(i), i == 1),
                                                                     trained));
        put("decode_dict_raw_" + std::to_string(i),
            decode_input(std::uint8_t(9 + i), compress_with_dictionary(cat({m, text(2000, 42 + i)}), raw, 1 + 5 * int(i)), raw));
    }

    // Compress: options one at a time over a few payloads.
    using zest_fuzz::stream_input;
    auto compress_input = [](int level, std::uint8_t size_seed) {
        stream_input in;
        in.compress = true;
        in.level = level;
        in.size_seed = size_seed;
        return in;
    };
    const struct {
        const char* name;
        bytes data;
    } payloads[] = {{"text", text(6000, 43)}, {"records", records(5000, 44)}, {"mixed", mixed(9000, 45)},
                    {"random", random_bytes(700, 46)}, {"tiny", text(20, 47)}};
    int n = 0;
    for (const auto& p : payloads) {
        for (const int level : {-4, 1, 3, 7, 11}) {
            stream_input in = compress_input(level, std::uint8_t(17 * ++n));
            in.checksum = n % 2;
            in.content_size = n % 3 != 0;
            in.flush_often = n % 4 == 0;
            put("compress_" + std::string(p.name) + "_l" + std::to_string(level), serialize(in, {}, p.data));
        }
    }
    for (const unsigned wlog : {10u, 15u, 18u}) {
        stream_input in = compress_input(3, std::uint8_t(wlog));
        in.window_log = wlog;
        put("compress_mixed_w" + std::to_string(wlog), serialize(in, {}, payloads[2].data));
    }
    {
        stream_input in = compress_input(5, 77);
        in.pledge = true;
        put("compress_text_pledged", serialize(in, {}, payloads[0].data));
        in.pledge = false;
        in.all_at_once = true;
        put("compress_text_all_at_once", serialize(in, {}, payloads[0].data));
        in.all_at_once = false;
        in.size_hint = true;
        put("compress_text_size_hint", serialize(in, {}, payloads[0].data));
    }
    // Repeated payloads: several blocks and, with small windows, several
    // windows, from a few hundred bytes of input.
    for (const std::size_t total : {std::size_t(100000), std::size_t(200000), std::size_t(400000)}) {
        for (const unsigned wlog : {0u, 10u, 15u}) {
            stream_input in = compress_input(total > 200000 ? 1 : 3, std::uint8_t(total >> 10));
            in.window_log = wlog;
            in.repeat = true;
            in.repeat_to = total;
            in.pledge = wlog == 15;
            in.all_at_once = wlog == 10;
            put("compress_repeat_" + std::to_string(total) + "_w" + std::to_string(wlog),
                serialize(in, {}, text(300 + wlog, total)));
        }
    }
    // Dictionaries: raw content (tiny ones included) and trained, with
    // every way of declaring the size, the ID written or not.
    const bytes small_raw = text(7, 48), tiny_raw = {'z'};
    const struct {
        const char* name;
        const bytes* dict;
    } dicts[] = {{"trained", &trained}, {"raw", &raw}, {"raw7", &small_raw}, {"raw1", &tiny_raw}};
    for (const auto& d : dicts) {
        if (d.dict->empty()) continue;
        for (int way = 0; way < 4; ++way) {
            stream_input in = compress_input(way == 3 ? 7 : 3, std::uint8_t(way * 50 + 5));
            in.has_dictionary = true;
            in.pledge = way == 1;
            in.all_at_once = way == 2;
            in.dictionary_id = way != 3;
            const bytes payload = cat({msgs[way], msgs[way + 10], msgs[way + 20]});
            put("compress_dict_" + std::string(d.name) + "_" + std::to_string(way), serialize(in, *d.dict, payload));
        }
        // Repeated up to just under one block: a mutation of the length
        // takes it past 128 KiB.
        stream_input in = compress_input(1, 99);
        in.has_dictionary = true;
        in.pledge = true;
        in.repeat = true;
        in.repeat_to = 120000;
        put("compress_dict_" + std::string(d.name) + "_repeat", serialize(in, *d.dict, msgs[5]));
    }
}

}  // namespace zest_seeds
