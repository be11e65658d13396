#include "samples.hpp"

#include <stdexcept>

#include "frames.hpp"

namespace zest::test {
namespace {

// Letters with a steep frequency curve and no repeated phrases: almost all
// literals, Huffman-coded in four streams.
bytes skewed_letters(std::size_t n, std::uint64_t seed) {
    rng r(seed);
    bytes out(n);
    for (std::byte& b : out) {
        unsigned k = 0;
        while (k < 25 && r.chance(45)) ++k;
        b = static_cast<std::byte>('a' + k);
    }
    return out;
}

sample single(std::string name, bytes content, bytes frame, bool checksum) {
    sample s;
    s.name = std::move(name);
    s.frame_ends = {frame.size()};
    s.content_at = {content.size()};
    s.frames = std::move(frame);
    s.content = std::move(content);
    s.all_checksummed = checksum;
    return s;
}

}  // namespace

const std::vector<sample>& samples() {
    static const std::vector<sample> v = [] {
        std::vector<sample> out;
        {
            bytes c = english_text(6000, 101);
            bytes f = libzstd_compress(c, 3, true);
            out.push_back(single("text_checksum", std::move(c), std::move(f), true));
        }
        {
            bytes c = skewed_letters(3000, 102);
            bytes f = libzstd_compress(c, 1, true);
            out.push_back(single("huffman", std::move(c), std::move(f), true));
        }
        {
            bytes c = int16_deltas(4000, 103);
            append(c, binary_records(4000, 104));
            bytes f = libzstd_compress(c, 19, true);
            out.push_back(single("sequences", std::move(c), std::move(f), true));
        }
        {
            // libzstd never makes the first block RLE; the second one is.
            bytes c = zeros(200000);
            bytes f = libzstd_compress(c, 3, false);
            out.push_back(single("rle", std::move(c), std::move(f), false));
        }
        {
            bytes c = random_bytes(700, 105);
            bytes f = libzstd_compress(c, 3, true);
            out.push_back(single("raw", std::move(c), std::move(f), true));
        }
        {
            // Several small blocks (flushes) without a declared size: later
            // blocks may repeat the previous Huffman and FSE tables.
            bytes c = json_logs(8000, 106);
            stream_options o;
            o.level = 5;
            o.max_chunk = 700;
            o.flush_every = 2;
            o.seed = 107;
            bytes f = libzstd_stream_compress(c, o);
            out.push_back(single("stream", std::move(c), std::move(f), true));
        }
        {
            sample s;
            s.name = "multi";
            const auto add = [&s](std::span<const std::byte> frame, std::span<const std::byte> content) {
                append(s.frames, frame);
                append(s.content, content);
                s.frame_ends.push_back(s.frames.size());
                s.content_at.push_back(s.content.size());
            };
            add(skippable_frame(3, to_bytes("abc")), {});
            const bytes a = english_text(1500, 108);
            add(libzstd_compress(a, 1, false), a);
            const bytes b = zeros(300);
            add(libzstd_compress(b, 3, true), b);
            add(libzstd_compress({}, 3, false), {});
            const bytes c = c_source(1200, 109);
            stream_options o;
            o.max_chunk = 300;
            o.flush_every = 2;
            add(libzstd_stream_compress(c, o), c);
            add(skippable_frame(0xF, {}), {});
            s.all_checksummed = false;
            out.push_back(std::move(s));
        }
        return out;
    }();
    return v;
}

const sample& sample_named(const std::string& name) {
    for (const sample& s : samples())
        if (s.name == name) return s;
    throw std::invalid_argument("no sample named " + name);
}

std::vector<std::string> sample_names() {
    std::vector<std::string> v;
    for (const sample& s : samples()) v.push_back(s.name);
    return v;
}

}  // namespace zest::test
