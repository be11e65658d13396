// The stream fuzzer's input layout, read by the fuzzer and written by the
// seed generator (so that seeds mean what they were made to mean).
//
//   byte 0   bit 0: compress (set) or decode (clear)
//            decode:   bit 1: a dictionary follows
//            compress: bits 1-4 the level (-4..11), bit 5 checksum,
//                      bits 6-7 the window log (the level's, 10, 15, 18)
//   byte 1   seed of the buffer sizes handed to the stream
//   byte 2   compress only, options: bit 0 pledge the size, bit 1 all input
//            in one call with directive::end, bit 2 a dictionary follows,
//            bit 3 no content size, bit 4 a size hint, bit 5 the payload is
//            repeated up to a length given next, bit 6 flush often, bit 7
//            the dictionary's ID not written
//   3 bytes  (repeat) the length, little endian, at most 512 KiB: a few
//            bytes of input reach the sizes where blocks and windows wrap
//   2 bytes  (dictionary) its length, little endian; then its bytes
//   the rest: the payload (frames to decode, or data to compress)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace zest_fuzz {

struct stream_input {
    static constexpr std::size_t max_repeat = std::size_t(512) << 10;
    static constexpr unsigned window_logs[4] = {0, 10, 15, 18};

    bool compress = false;
    std::uint8_t size_seed = 0;
    // compress
    int level = 3;
    bool checksum = false;
    unsigned window_log = 0;
    bool pledge = false, all_at_once = false, content_size = true, size_hint = false, flush_often = false,
         dictionary_id = true;
    bool repeat = false;
    std::size_t repeat_to = 0;
    // both
    bool has_dictionary = false;
    std::span<const std::uint8_t> dictionary, payload;

    bool parse(std::span<const std::uint8_t> in) {
        if (in.size() < 2) return false;
        std::size_t at = 2;
        compress = in[0] & 1;
        size_seed = in[1];
        if (compress) {
            level = int((in[0] >> 1) & 15) - 4;
            checksum = in[0] & 0x20;
            window_log = window_logs[in[0] >> 6];
            if (in.size() < 3) return false;
            const unsigned o = in[at++];
            pledge = o & 1;
            all_at_once = o & 2;
            has_dictionary = o & 4;
            content_size = !(o & 8);
            size_hint = o & 16;
            repeat = o & 32;
            flush_often = o & 64;
            dictionary_id = !(o & 128);
            if (repeat) {
                if (in.size() - at < 3) return false;
                repeat_to = (in[at] | std::size_t(in[at + 1]) << 8 | std::size_t(in[at + 2]) << 16) % (max_repeat + 1);
                at += 3;
            }
        } else {
            has_dictionary = in[0] & 2;
        }
        if (has_dictionary) {
            if (in.size() - at < 2) return false;
            const std::size_t n = std::min<std::size_t>(in[at] | std::size_t(in[at + 1]) << 8, in.size() - at - 2);
            dictionary = in.subspan(at + 2, n);
            at += 2 + n;
        }
        payload = in.subspan(at);
        return true;
    }

    // The data to compress: the payload, or the payload repeated up to
    // repeat_to bytes (zeros when it is empty).
    std::vector<std::uint8_t> expanded() const {
        if (!repeat) return {payload.begin(), payload.end()};
        std::vector<std::uint8_t> out(repeat_to);
        if (!payload.empty())
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = payload[i % payload.size()];
        return out;
    }

    // The input that parse() reads back as these fields (the seed generator's
    // side); the level, window log and lengths must be ones the layout holds.
    std::vector<std::uint8_t> serialize() const {
        std::vector<std::uint8_t> out;
        if (compress) {
            unsigned w = 0;
            while (w < 3 && window_logs[w] != window_log) ++w;
            out.push_back(std::uint8_t(1 | unsigned(level + 4) << 1 | (checksum ? 0x20 : 0) | w << 6));
            out.push_back(size_seed);
            out.push_back(std::uint8_t((pledge ? 1 : 0) | (all_at_once ? 2 : 0) | (has_dictionary ? 4 : 0) |
                                       (content_size ? 0 : 8) | (size_hint ? 16 : 0) | (repeat ? 32 : 0) |
                                       (flush_often ? 64 : 0) | (dictionary_id ? 0 : 128)));
            if (repeat)
                for (int i = 0; i < 3; ++i) out.push_back(std::uint8_t(repeat_to >> (8 * i)));
        } else {
            out.push_back(has_dictionary ? 2 : 0);
            out.push_back(size_seed);
        }
        if (has_dictionary) {
            out.push_back(std::uint8_t(dictionary.size()));
            out.push_back(std::uint8_t(dictionary.size() >> 8));
            out.insert(out.end(), dictionary.begin(), dictionary.end());
        }
        out.insert(out.end(), payload.begin(), payload.end());
        return out;
    }
};

}  // namespace zest_fuzz
