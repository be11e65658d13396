// The "stream" set: streaming compression and decompression of each corpus
// shape, both sides through their streaming APIs with the buffer sizes each
// recommends (zest: compress_stream / decompress_stream; libzstd:
// ZSTD_compressStream2 / ZSTD_decompressStream). The frames decoded are
// libzstd's streamed frames (no content size).
#include <stdexcept>
#include <string>

#include "cases.hpp"
#include "isolate.hpp"
#include "timing.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

// One frame through zest's compress_stream, in recommended-size pieces.
bool zest_stream_compress(zest::compress_stream& cs, std::span<const std::byte> src, bytes& out, bytes& chunk) {
    out.clear();
    std::size_t at = 0;
    for (;;) {
        const std::size_t n = std::min(zest::compress_stream::recommended_in_size, src.size() - at);
        const bool last = at + n == src.size();
        zest::in_buffer in{src.data() + at, n, 0};
        for (;;) {
            zest::out_buffer o{chunk.data(), chunk.size(), 0};
            const auto r = cs.compress(o, in, last ? zest::directive::end : zest::directive::proceed);
            if (!r) return false;
            out.insert(out.end(), chunk.begin(), chunk.begin() + std::ptrdiff_t(o.pos));
            if (in.pos == in.size && (!last || *r == 0)) break;
        }
        at += n;
        if (last) return true;
    }
}

bool ref_stream_compress(ZSTD_CCtx* c, std::span<const std::byte> src, bytes& out, bytes& chunk) {
    out.clear();
    std::size_t at = 0;
    const std::size_t in_size = ZSTD_CStreamInSize();
    for (;;) {
        const std::size_t n = std::min(in_size, src.size() - at);
        const bool last = at + n == src.size();
        ZSTD_inBuffer in{src.data() + at, n, 0};
        for (;;) {
            ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
            const std::size_t r = ZSTD_compressStream2(c, &o, &in, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(r)) return false;
            out.insert(out.end(), chunk.begin(), chunk.begin() + std::ptrdiff_t(o.pos));
            if (in.pos == in.size && (!last || r == 0)) break;
        }
        at += n;
        if (last) return true;
    }
}

// Decodes `frame` into `dst` through zest's decompress_stream; false on error
// or if the output differs in size.
bool zest_stream_decode(zest::decompress_stream& ds, std::span<const std::byte> frame, std::span<std::byte> dst) {
    std::size_t at = 0, produced = 0;
    for (;;) {
        zest::in_buffer in{frame.data() + at, std::min(zest::decompress_stream::recommended_in_size, frame.size() - at), 0};
        zest::out_buffer o{dst.data() + produced,
                           std::min(zest::decompress_stream::recommended_out_size, dst.size() - produced), 0};
        const auto r = ds.decompress(o, in);
        if (!r) return false;
        at += in.pos;
        produced += o.pos;
        if (*r == 0 && at == frame.size()) return produced == dst.size();
        if (in.pos == 0 && o.pos == 0) return false;
    }
}

bool ref_stream_decode(ZSTD_DCtx* d, std::span<const std::byte> frame, std::span<std::byte> dst) {
    std::size_t at = 0, produced = 0;
    const std::size_t in_size = ZSTD_DStreamInSize(), out_size = ZSTD_DStreamOutSize();
    for (;;) {
        ZSTD_inBuffer in{frame.data() + at, std::min(in_size, frame.size() - at), 0};
        ZSTD_outBuffer o{dst.data() + produced, std::min(out_size, dst.size() - produced), 0};
        const std::size_t r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r)) return false;
        at += in.pos;
        produced += o.pos;
        if (r == 0 && at == frame.size()) return produced == dst.size();
        if (in.pos == 0 && o.pos == 0) return false;
    }
}

class stream_set final : public workload_set {
public:
    std::string name() const override { return "stream"; }
    std::string description() const override {
        return "streaming compression (sc-*) and decompression (sd-*) with each side's recommended buffer sizes";
    }

    std::vector<std::string> case_names(const options& opts, const std::vector<named_input>& files) const override {
        std::vector<std::string> names;
        for (const char* prefix : {"sc-", "sd-"})
            for (const auto& input : corpus_input_names(files))
                for (const int level : opts.levels) names.push_back(prefix + input + "-l" + std::to_string(level));
        return names;
    }

    void run(const bench_env& env) override {
        const auto& opts = env.opts;
        std::vector<named_input> generated;
        const auto& inputs = corpus_inputs(env, generated);
        const auto names = case_names(opts, env.files);

        env.out.begin_table("stream: streaming compression, one frame per call (compress_stream vs ZSTD_compressStream2)",
                            names);
        std::vector<std::vector<bytes>> frames;
        for (const auto& input : inputs) {
            frames.emplace_back();
            for (const int level : opts.levels)
                frames.back().push_back(compress_case(env, "sc-" + input.name + "-l" + std::to_string(level), level,
                                                      input.data));
        }
        env.out.begin_table("stream: streaming decompression of libzstd's streamed frames (decompress_stream vs "
                            "ZSTD_decompressStream)",
                            names);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            for (std::size_t l = 0; l < opts.levels.size(); ++l)
                decompress_case(env, "sd-" + inputs[i].name + "-l" + std::to_string(opts.levels[l]), opts.levels[l],
                                inputs[i].data, frames[i][l]);
    }

private:
    bytes compress_case(const bench_env& env, const std::string& name, int level, std::span<const std::byte> src) {
        zest::compress_stream cs;
        (void)cs.set_level(level);
        ZSTD_CCtx* const c = ZSTD_createCCtx();
        if (!c) throw std::runtime_error("libzstd: cannot create a context");
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
        bytes zest_out, ref_out, zchunk(zest::compress_stream::recommended_out_size), rchunk(ZSTD_CStreamOutSize());

        // Check zest's frame first (in a child process: a crash is a failure).
        const auto check = [&] {
            zest::compress_stream fresh;
            (void)fresh.set_level(level);
            bytes frame, chunk(zest::compress_stream::recommended_out_size);
            if (!zest_stream_compress(fresh, src, frame, chunk)) return std::string("compress_stream failed");
            bytes back(src.size());
            if (ZSTD_decompress(back.data(), back.size(), frame.data(), frame.size()) != src.size() ||
                back != bytes(src.begin(), src.end()))
                return std::string("libzstd does not decode the frame back");
            return std::string();
        };
        const bool wanted = selected(env.opts, "stream", name);
        if (wanted) meter().begin_case("stream", name);  // the checks take seconds at level 19
        std::string failure = wanted ? run_isolated(check) : std::string();
        if (wanted && failure.empty()) failure = check();
        if (!failure.empty()) meter().message("zest-bench: stream/" + name + ": zest: " + failure);

        std::vector<side> sides;
        sides.push_back({"zest", [&] { return zest_stream_compress(cs, src, zest_out, zchunk); }, failure});
        sides.push_back({"libzstd", [&] { return ref_stream_compress(c, src, ref_out, rchunk); }});
        case_result result;
        result.m = measure(sides, src.size(), timing(env.opts, "stream", name));
        ZSTD_freeCCtx(c);
        if (!result.m.sides[1].ok()) throw std::runtime_error("stream/" + name + ": libzstd failed to compress");
        result.info = {"stream", name, "compress", level, src.size(), ref_out.size(),
                       failure.empty() ? zest_out.size() : 0, unit::mbps};
        env.out.add(std::move(result));
        return ref_out;
    }

    void decompress_case(const bench_env& env, const std::string& name, int level, std::span<const std::byte> original,
                         std::span<const std::byte> frame) {
        zest::decompress_stream ds;
        ZSTD_DCtx* const d = ZSTD_createDCtx();
        if (!d) throw std::runtime_error("libzstd: cannot create a context");
        bytes zdst(original.size()), rdst(original.size());
        const auto check = [&] {
            zest::decompress_stream fresh;
            bytes out(original.size());
            if (!zest_stream_decode(fresh, frame, out)) return std::string("decompress_stream failed");
            if (out != bytes(original.begin(), original.end())) return std::string("decoded other bytes");
            return std::string();
        };
        const bool wanted = selected(env.opts, "stream", name);
        if (wanted) meter().begin_case("stream", name);  // the checks take seconds at level 19
        std::string failure = wanted ? run_isolated(check) : std::string();
        if (wanted && failure.empty()) failure = check();
        if (!failure.empty()) meter().message("zest-bench: stream/" + name + ": zest: " + failure);
        std::vector<side> sides;
        sides.push_back({"zest", [&] { return zest_stream_decode(ds, frame, zdst); }, failure});
        sides.push_back({"libzstd", [&] { return ref_stream_decode(d, frame, rdst); }});
        case_result result;
        result.m = measure(sides, original.size(), timing(env.opts, "stream", name));
        ZSTD_freeDCtx(d);
        result.info = {"stream", name, "decompress", level, original.size(), frame.size(), 0, unit::mbps};
        env.out.add(std::move(result));
    }
};

}  // namespace

std::unique_ptr<workload_set> make_stream_set() { return std::make_unique<stream_set>(); }

}  // namespace zest_bench
