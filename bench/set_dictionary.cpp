// The "dictionary" set: the context workload with a dictionary, as message
// systems run it. Messages of 256 B to 4 KiB (JSON logs, binary records)
// and a 16 KiB dictionary libzstd trains on 1,500 other messages of the
// same kind (fewer below --size 1M; zest trains it when the
// libzstd loaded has no trainer), prepared once by each side (zest::dictionary; ZSTD_CDict and
// ZSTD_DDict); per message a fresh context ("oneshot": libzstd's
// ZSTD_createDCtx + ZSTD_decompress_usingDDict + free, zest's one-shot call)
// or a reused one. Then the training itself: time per training, and the
// held-out messages' compressed size with each library's dictionary (both
// compressed by libzstd, so that only the dictionaries differ).
#include <dlfcn.h>

#include <algorithm>
#include <string>

#include "cases.hpp"
#include "isolate.hpp"
#include "workloads.hpp"

namespace zest_bench {
namespace {

constexpr int level = 3;

// libzstd's trainer, looked up when the set runs: a libzstd built without
// its dictionary builder (the reference build of 1.5.7 is) has none, and a
// direct call would end the process at the lookup. Without it, zest's
// trainer makes the dictionary both sides use, and the training row
// measures zest alone.
using zdict_train_fn = std::size_t (*)(void*, std::size_t, const void*, const std::size_t*, unsigned);
zdict_train_fn libzstd_trainer() {
    static const auto f = reinterpret_cast<zdict_train_fn>(dlsym(RTLD_DEFAULT, "ZDICT_trainFromBuffer"));
    return f;
}

// A 16 KiB dictionary for `train`: libzstd's when it has a trainer, else zest's.
bytes shared_dictionary(const std::vector<std::byte>& all, const std::vector<std::size_t>& sizes) {
    if (const zdict_train_fn train = libzstd_trainer()) {
        bytes dict(16 * 1024);
        const std::size_t n = train(dict.data(), dict.size(), all.data(), sizes.data(), unsigned(sizes.size()));
        if (ZSTD_isError(n)) throw std::runtime_error(std::string("ZDICT_trainFromBuffer: ") + ZSTD_getErrorName(n));
        dict.resize(n);
        return dict;
    }
    auto z = zest::train_dictionary(all, sizes, 16 * 1024);
    if (!z) throw std::runtime_error(std::string("zest::train_dictionary: ") + zest::error_message(z.error()));
    return bytes(z->begin(), z->end());
}
constexpr std::size_t dict_capacity = 16 * 1024;
constexpr std::size_t dict_message_sizes[] = {256, 1024, 4096};

struct kind {
    const char* name;
    bytes (*make)(std::size_t size, std::uint64_t seed);
};
constexpr kind kinds[] = {{"json", make_json_logs}, {"records", make_records}};

// `count` messages of `size` bytes, cut from one generated stream.
std::vector<bytes> cut(const kind& k, std::size_t count, std::size_t size, std::uint64_t seed) {
    const bytes all = k.make(count * size, seed);
    std::vector<bytes> out;
    for (std::size_t i = 0; i < count; ++i)
        out.emplace_back(all.begin() + std::ptrdiff_t(i * size), all.begin() + std::ptrdiff_t((i + 1) * size));
    return out;
}

struct samples {
    bytes all;
    std::vector<std::size_t> sizes;
};
samples concat(const std::vector<bytes>& v) {
    samples s;
    for (const bytes& b : v) {
        s.all.insert(s.all.end(), b.begin(), b.end());
        s.sizes.push_back(b.size());
    }
    return s;
}

class dictionary_set final : public workload_set {
public:
    std::string name() const override { return "dictionary"; }
    std::string description() const override {
        return "messages of 256 B to 4 KiB with a 16 KiB trained dictionary prepared once, new or reused contexts; "
               "training time and the size each library's dictionary gives";
    }

    std::vector<std::string> case_names(const options&, const std::vector<named_input>&) const override {
        std::vector<std::string> names;
        for (const kind& k : kinds) {
            for (const auto n : dict_message_sizes)
                for (const char* how : {"d-oneshot", "d-reused", "c-oneshot", "c-reused"})
                    names.push_back(std::string(k.name) + "-" + size_tag(n) + "-" + how);
            names.push_back(std::string(k.name) + "-train");
        }
        return names;
    }

    void run(const bench_env& env) override {
        env.out.begin_table("dictionary: nanoseconds per call (lower is faster; zest/libzstd is zest's speed-up), "
                            "16 KiB dictionary trained by libzstd, level 3, median of " +
                                std::to_string(env.opts.rounds) + (env.opts.rounds == 1 ? " round" : " rounds"),
                            case_names(env.opts, env.files));
        // 1,500 samples from --size 1M up (both runs' sizes: the dictionary
        // and its figures do not depend on which run), fewer below (at
        // least 60: the smoke tests run with --size 64K).
        const std::size_t n_samples = std::clamp<std::size_t>(env.opts.size * 1500 / (1u << 20), 60, 1500);
        for (const kind& k : kinds) {
            const samples train = concat(cut(k, n_samples, 500, 61));
            const bytes dict = shared_dictionary(train.all, train.sizes);
            for (const auto n : dict_message_sizes) messages(env, k, n, dict);
            training(env, k, train);
        }
    }

private:
    // `compressed` is read after the measurement (compression rows learn it then).
    void add(const bench_env& env, const std::string& case_name, const char* op, std::size_t input,
             const std::size_t& compressed, std::vector<side>& sides, std::size_t zest_compressed = 0) {
        case_result r;
        r.m = measure(sides, input, timing(env.opts, name(), case_name));
        const bool zest_ok = !r.m.sides.empty() && r.m.sides[0].ok();
        r.info = {name(), case_name, op, level, input, compressed, zest_ok ? zest_compressed : 0, unit::ns_per_call};
        env.out.add(std::move(r));
    }

    void messages(const bench_env& env, const kind& k, std::size_t n, const bytes& dict_bytes) {
        const std::string tag = std::string(k.name) + "-" + size_tag(n) + "-";
        const bytes message = cut(k, 1, n, 62)[0];
        ZSTD_CDict* const cdict = ZSTD_createCDict(dict_bytes.data(), dict_bytes.size(), level);
        ZSTD_DDict* const ddict = ZSTD_createDDict(dict_bytes.data(), dict_bytes.size());
        const zstd_cctx cctx(ZSTD_createCCtx());
        const zstd_dctx dctx(ZSTD_createDCtx());
        if (!cdict || !ddict || !cctx || !dctx) throw std::runtime_error("libzstd: cannot prepare the dictionary");
        auto zd = zest::dictionary::load(dict_bytes);
        std::string failure = zd ? "" : std::string("zest cannot load the dictionary: ") + zest::error_message(zd.error());
        const zest::dictionary dict = zd ? *zd : zest::dictionary();

        bytes frame(ZSTD_compressBound(n));
        frame.resize(ZSTD_compress_usingCDict(cctx.get(), frame.data(), frame.size(), message.data(), n, cdict));
        bytes zest_out(n), ref_out(n), zframe(zest::compress_bound(n)), rframe(ZSTD_compressBound(n));
        std::size_t zest_size = 0, ref_size = 0;
        if (failure.empty()) {
            failure = run_isolated([&]() -> std::string {
                const auto r = zest::decompress(zest_out, frame, dict);
                if (!r || *r != n || zest_out != message) return "zest does not decode libzstd's frame";
                const auto w = zest::compress(zframe, message, dict, level);
                if (!w) return "zest cannot compress with the dictionary";
                const std::size_t back = ZSTD_decompress_usingDDict(dctx.get(), ref_out.data(), n, zframe.data(), *w, ddict);
                if (back != n || ref_out != message) return "libzstd does not decode zest's frame";
                return {};
            });
        }
        if (failure.empty()) {
            const auto w = zest::compress(zframe, message, dict, level);
            zest_size = w ? *w : 0;
        }
        if (!failure.empty())
            meter().message("zest-bench: " + name() + "/" + tag + "*: zest: " + failure);

        std::vector<side> sides;
        sides.push_back({"zest", [&] { const auto r = zest::decompress(zest_out, frame, dict); return r && *r == n; },
                         failure});
        sides.push_back({"libzstd", [&] {
                             ZSTD_DCtx* d = ZSTD_createDCtx();
                             const std::size_t k2 = ZSTD_decompress_usingDDict(d, ref_out.data(), n, frame.data(), frame.size(), ddict);
                             ZSTD_freeDCtx(d);
                             return k2 == n;
                         }});
        add(env, tag + "d-oneshot", "decompress", n, frame.size(), sides);

        zest::decompressor zdec;
        zdec.set_dictionary(dict);
        sides.clear();
        sides.push_back({"zest", [&] { const auto r = zdec.decompress(zest_out, frame); return r && *r == n; }, failure});
        sides.push_back({"libzstd", [&] {
                             return ZSTD_decompress_usingDDict(dctx.get(), ref_out.data(), n, frame.data(), frame.size(), ddict) == n;
                         }});
        add(env, tag + "d-reused", "decompress", n, frame.size(), sides);

        sides.clear();
        sides.push_back({"zest", [&] { const auto r = zest::compress(zframe, message, dict, level); return r && *r == zest_size; },
                         failure});
        sides.push_back({"libzstd", [&] {
                             ZSTD_CCtx* c = ZSTD_createCCtx();
                             ref_size = ZSTD_compress_usingCDict(c, rframe.data(), rframe.size(), message.data(), n, cdict);
                             ZSTD_freeCCtx(c);
                             return !ZSTD_isError(ref_size);
                         }});
        add(env, tag + "c-oneshot", "compress", n, ref_size, sides, zest_size);

        zest::compressor zenc;
        (void)zenc.set_level(level);
        (void)zenc.set_dictionary(dict);
        sides.clear();
        sides.push_back({"zest", [&] { const auto r = zenc.compress(zframe, message); return r && *r == zest_size; }, failure});
        sides.push_back({"libzstd", [&] {
                             ref_size = ZSTD_compress_usingCDict(cctx.get(), rframe.data(), rframe.size(), message.data(), n, cdict);
                             return !ZSTD_isError(ref_size);
                         }});
        add(env, tag + "c-reused", "compress", n, ref_size, sides, zest_size);
        ZSTD_freeCDict(cdict);
        ZSTD_freeDDict(ddict);
    }

    // Training time per call; the sizes are the held-out messages' total
    // with libzstd's dictionary (compressed column) and zest's (zest column),
    // both written by libzstd at level 3.
    void training(const bench_env& env, const kind& k, const samples& train) {
        const std::vector<bytes> held = cut(k, 300, 500, 63);
        std::size_t plain = 0;
        for (const bytes& m : held) plain += m.size();
        bytes lib(dict_capacity);
        std::vector<std::byte> zdict;
        const auto total_with = [&](const bytes& d) {
            const zstd_cctx c(ZSTD_createCCtx());
            std::size_t total = 0;
            bytes out(ZSTD_compressBound(600));
            for (const bytes& m : held) {
                const std::size_t w = ZSTD_compress_usingDict(c.get(), out.data(), out.size(), m.data(), m.size(), d.data(), d.size(), level);
                total += ZSTD_isError(w) ? m.size() : w;
            }
            return total;
        };
        std::vector<side> sides;
        std::string failure;
        sides.push_back({"zest", [&] {
                             auto r = zest::train_dictionary(train.all, train.sizes, dict_capacity);
                             if (!r) return false;
                             zdict = std::move(*r);
                             return true;
                         }, failure});
        const zdict_train_fn trainer = libzstd_trainer();
        sides.push_back({"libzstd",
                         [&] {
                             lib.resize(dict_capacity);
                             const std::size_t n = trainer(lib.data(), lib.size(), train.all.data(), train.sizes.data(),
                                                           unsigned(train.sizes.size()));
                             if (ZSTD_isError(n)) return false;
                             lib.resize(n);
                             return true;
                         },
                         {},
                         trainer ? "" : "this libzstd has no dictionary builder"});
        case_result r;
        r.m = measure(sides, train.all.size(), timing(env.opts, name(), std::string(k.name) + "-train"));
        const std::size_t with_lib = trainer ? total_with(lib) : 0, with_zest = zdict.empty() ? 0 : total_with(zdict);
        r.info = {name(), std::string(k.name) + "-train", "train", level, plain, with_lib, with_zest, unit::ns_per_call};
        env.out.add(std::move(r));
    }
};

}  // namespace

std::unique_ptr<workload_set> make_dictionary_set() { return std::make_unique<dictionary_set>(); }

}  // namespace zest_bench
