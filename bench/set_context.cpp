// The "context" set: the message-per-context pattern of real systems (a
// Kafka client per batch, a journal per field, a filesystem per block),
// where setting a context up costs more than the small message it handles.
// Every row is nanoseconds per call.
#include <string>

#include "cases.hpp"
#include "isolate.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

constexpr int frame_level = 3;  // the frames both sides decode are written by libzstd at this level

// Keeps the compiler from proving a pointer unused (and so eliding the
// allocation behind it).
inline void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

std::string d_name(std::size_t n, const char* how) { return "d-" + size_tag(n) + "-" + how; }
std::string c_name(std::size_t n, int level, const char* how) {
    return "c-" + size_tag(n) + "-l" + std::to_string(level) + "-" + how;
}

class context_set final : public workload_set {
public:
    std::string name() const override { return "context"; }
    std::string description() const override {
        return "context create/free, and messages of 256 B to 64 KiB (JSON logs) with a new or a reused context";
    }

    std::vector<std::string> case_names(const options&, const std::vector<named_input>&) const override {
        std::vector<std::string> names{"dctx-create-free", "cctx-create-free"};
        for (const auto n : context_message_sizes)
            for (const char* how : {"oneshot", "newctx", "stream-newctx", "reused"}) names.push_back(d_name(n, how));
        for (const int level : context_levels)
            for (const auto n : context_message_sizes)
                for (const char* how : {"oneshot", "reused"}) names.push_back(c_name(n, level, how));
        return names;
    }

    void run(const bench_env& env) override {
        env.out.begin_table("context: nanoseconds per call (lower is faster; zest/libzstd is zest's speed-up), "
                            "messages are JSON log records, frames written by libzstd at level 3, median of " +
                                std::to_string(env.opts.rounds) + (env.opts.rounds == 1 ? " round" : " rounds"),
                            case_names(env.opts, env.files));
        create_free(env);
        for (const auto n : context_message_sizes) decompress_message(env, n);
        for (const int level : context_levels)
            for (const auto n : context_message_sizes) compress_message(env, n, level);
    }

private:
    // `compressed` is read after the measurement (compression rows learn it then).
    void add(const bench_env& env, const std::string& case_name, const char* op, int level, std::size_t input,
             const std::size_t& compressed, std::vector<side>& sides, std::size_t zest_compressed = 0) {
        case_result r;
        r.m = measure(sides, input, timing(env.opts, name(), case_name));
        const bool zest_ok = !r.m.sides.empty() && r.m.sides[0].ok();
        r.info = {name(), case_name, op, level, input, compressed, zest_ok ? zest_compressed : 0, unit::ns_per_call};
        env.out.add(std::move(r));
    }

    void create_free(const bench_env& env) {
        std::vector<side> sides;
        sides.push_back({"zest", [] {
                             auto* d = new zest::decompressor;
                             escape(d);
                             delete d;
                             return true;
                         }});
        sides.push_back({"libzstd", [] {
                             ZSTD_DCtx* d = ZSTD_createDCtx();
                             escape(d);
                             return ZSTD_freeDCtx(d) == 0 && d != nullptr;
                         }});
        add(env, "dctx-create-free", "context", 0, 0, 0, sides);

        sides.clear();
        sides.push_back({"zest", [] {
                             auto* c = new zest::compressor;
                             escape(c);
                             delete c;
                             return true;
                         }});
        sides.push_back({"libzstd", [] {
                             ZSTD_CCtx* c = ZSTD_createCCtx();
                             escape(c);
                             return ZSTD_freeCCtx(c) == 0 && c != nullptr;
                         }});
        add(env, "cctx-create-free", "context", 0, 0, 0, sides);
    }

    void decompress_message(const bench_env& env, std::size_t n) {
        const bytes message = make_json_logs(n);
        const zstd_cctx cctx(ZSTD_createCCtx());
        const zstd_dctx dctx(ZSTD_createDCtx());
        if (!cctx || !dctx) throw std::runtime_error("libzstd: cannot create a context");
        const bytes frame = zstd_compress(cctx.get(), message, frame_level);
        bytes zest_out(n), ref_out(n);
        check_reference_decode(dctx.get(), ref_out, frame, message, name() + "/" + d_name(n, "oneshot"));

        // zest decodes the message right, with a fresh context (in a child
        // process first, so that a crash is a reported failure) and through
        // the one-shot call; otherwise its side of every row is a failure.
        std::string failure = run_isolated([&] {
            zest::decompressor fresh;
            return check_zest_decode(fresh, zest_out, frame, message);
        });
        if (failure.empty()) {
            zest::decompressor fresh;
            failure = check_zest_decode(fresh, zest_out, frame, message);
        }
        if (failure.empty()) {
            const auto r = zest::decompress(zest_out, frame);
            if (!r || *r != n || zest_out != message) failure = "zest::decompress did not reproduce the message";
        }
        if (!failure.empty())
            meter().message("zest-bench: " + name() + "/" + d_name(n, "*") + ": zest: " + failure);

        // One-shot calls: no context in sight (each side sets one up inside).
        std::vector<side> sides;
        sides.push_back({"zest",
                         [&] {
                             const auto r = zest::decompress(zest_out, frame);
                             return r && *r == n;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             return ZSTD_decompress(ref_out.data(), n, frame.data(), frame.size()) == n;
                         }});
        add(env, d_name(n, "oneshot"), "decompress", frame_level, n, frame.size(), sides);

        // A context created for the message and freed after it.
        sides.clear();
        sides.push_back({"zest",
                         [&] {
                             zest::decompressor d;
                             const auto r = d.decompress(zest_out, frame);
                             return r && *r == n;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             ZSTD_DCtx* d = ZSTD_createDCtx();
                             const std::size_t k = ZSTD_decompressDCtx(d, ref_out.data(), n, frame.data(), frame.size());
                             ZSTD_freeDCtx(d);
                             return k == n;
                         }});
        add(env, d_name(n, "newctx"), "decompress", frame_level, n, frame.size(), sides);

        // A streaming decoder created for the message.
        sides.clear();
        sides.push_back({"zest",
                         [&] {
                             zest::decompress_stream s;
                             zest::in_buffer in{frame.data(), frame.size(), 0};
                             zest::out_buffer out{zest_out.data(), n, 0};
                             std::size_t k = 1;
                             while (k != 0 && in.pos < in.size) {
                                 const auto r = s.decompress(out, in);
                                 if (!r) return false;
                                 k = *r;
                             }
                             return k == 0 && out.pos == n;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             ZSTD_DStream* s = ZSTD_createDStream();
                             ZSTD_inBuffer in{frame.data(), frame.size(), 0};
                             ZSTD_outBuffer out{ref_out.data(), n, 0};
                             std::size_t k = 1;
                             while (k != 0 && in.pos < in.size) {
                                 k = ZSTD_decompressStream(s, &out, &in);
                                 if (ZSTD_isError(k)) break;
                             }
                             ZSTD_freeDStream(s);
                             return k == 0 && out.pos == n;
                         }});
        add(env, d_name(n, "stream-newctx"), "decompress", frame_level, n, frame.size(), sides);

        // Control: one context reused for every message.
        zest::decompressor zd;
        sides.clear();
        sides.push_back({"zest",
                         [&] {
                             const auto r = zd.decompress(zest_out, frame);
                             return r && *r == n;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             return ZSTD_decompressDCtx(dctx.get(), ref_out.data(), n, frame.data(), frame.size()) == n;
                         }});
        add(env, d_name(n, "reused"), "decompress", frame_level, n, frame.size(), sides);
    }

    void compress_message(const bench_env& env, std::size_t n, int level) {
        const bytes message = make_json_logs(n);
        const zstd_cctx cctx(ZSTD_createCCtx());
        if (!cctx) throw std::runtime_error("libzstd: cannot create a context");
        bytes out(ZSTD_compressBound(n)), zest_out(zest::compress_bound(n));
        std::size_t size = 0, zest_size = 0;

        // zest's frame must decode (by libzstd) to the message, with a fresh
        // context (in a child process first) and through the one-shot call.
        std::string failure = run_isolated([&] {
            zest::compressor fresh;
            (void)fresh.set_level(level);
            std::size_t ignored = 0;
            return check_zest_encode(fresh, zest_out, ignored, message);
        });
        zest::compressor zc;
        (void)zc.set_level(level);
        if (failure.empty()) failure = check_zest_encode(zc, zest_out, zest_size, message);
        if (failure.empty()) {
            const auto r = zest::compress(zest_out, message, level);
            if (!r || *r != zest_size) failure = "zest::compress and a compressor at the same level disagree";
        }
        if (!failure.empty())
            meter().message("zest-bench: " + name() + "/" + c_name(n, level, "*") + ": zest: " + failure);

        std::vector<side> sides;
        sides.push_back({"zest",
                         [&] {
                             const auto r = zest::compress(zest_out, message, level);
                             return r && *r == zest_size;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             size = ZSTD_compress(out.data(), out.size(), message.data(), n, level);
                             if (ZSTD_isError(size)) size = 0;
                             return size != 0;
                         }});
        add(env, c_name(n, level, "oneshot"), "compress", level, n, size, sides, zest_size);

        sides.clear();
        sides.push_back({"zest",
                         [&] {
                             const auto r = zc.compress(zest_out, message);
                             return r && *r == zest_size;
                         },
                         failure});
        sides.push_back({"libzstd", [&] {
                             size = ZSTD_compressCCtx(cctx.get(), out.data(), out.size(), message.data(), n, level);
                             if (ZSTD_isError(size)) size = 0;
                             return size != 0;
                         }});
        add(env, c_name(n, level, "reused"), "compress", level, n, size, sides, zest_size);
    }
};

}  // namespace

std::unique_ptr<workload_set> make_context_set() { return std::make_unique<context_set>(); }

}  // namespace zest_bench
