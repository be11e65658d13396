// The "capi" set: the context workload (set_context.cpp) through the
// zstd-compatible C API, zest's libzest_zstd.so against the system libzstd,
// both called through the same zstd.h functions. Both libraries export the
// same names, so zest's is loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND)
// and called through pointers; where that is not possible (an
// AddressSanitizer build, or no library at the path) zest's side is marked
// unavailable. ZEST_BENCH_CAPI_SO overrides the library's path.
#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "cases.hpp"
#include "workloads.hpp"

#ifndef ZEST_BENCH_CAPI_SO
#define ZEST_BENCH_CAPI_SO ""
#endif

#if defined(__SANITIZE_ADDRESS__)
#define ZEST_BENCH_NO_DEEPBIND 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZEST_BENCH_NO_DEEPBIND 1
#endif
#endif

namespace zest_bench {
namespace {

constexpr int frame_level = 3;

inline void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

std::string d_name(std::size_t n, const char* how) { return "capi-d-" + size_tag(n) + "-" + how; }
std::string c_name(std::size_t n, int level, const char* how) {
    return "capi-c-" + size_tag(n) + "-l" + std::to_string(level) + "-" + how;
}

// The C API functions the set calls, from one library.
struct api {
    ZSTD_DCtx* (*createDCtx)();
    std::size_t (*freeDCtx)(ZSTD_DCtx*);
    ZSTD_CCtx* (*createCCtx)();
    std::size_t (*freeCCtx)(ZSTD_CCtx*);
    std::size_t (*decompress)(void*, std::size_t, const void*, std::size_t);
    std::size_t (*decompressDCtx)(ZSTD_DCtx*, void*, std::size_t, const void*, std::size_t);
    std::size_t (*compress)(void*, std::size_t, const void*, std::size_t, int);
    std::size_t (*compressCCtx)(ZSTD_CCtx*, void*, std::size_t, const void*, std::size_t, int);
    unsigned (*isError)(std::size_t);
};

api system_api() {
    return {ZSTD_createDCtx, ZSTD_freeDCtx, ZSTD_createCCtx, ZSTD_freeCCtx, ZSTD_decompress,
            ZSTD_decompressDCtx, ZSTD_compress, ZSTD_compressCCtx, ZSTD_isError};
}

// zest's C API, or the reason it cannot be loaded.
std::string load_zest_api(api& out) {
#ifdef ZEST_BENCH_NO_DEEPBIND
    (void)out;
    return "not loaded in a sanitizer build (RTLD_DEEPBIND)";
#else
    const char* env = std::getenv("ZEST_BENCH_CAPI_SO");
    const std::string path = env && *env ? env : ZEST_BENCH_CAPI_SO;
    if (path.empty()) return "built without the C API library";
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!h) return std::string("cannot load ") + path;
    bool missing = false;
    const auto sym = [&](const char* name) {
        void* p = dlsym(h, name);
        missing |= p == nullptr;
        return p;
    };
    out.createDCtx = reinterpret_cast<decltype(out.createDCtx)>(sym("ZSTD_createDCtx"));
    out.freeDCtx = reinterpret_cast<decltype(out.freeDCtx)>(sym("ZSTD_freeDCtx"));
    out.createCCtx = reinterpret_cast<decltype(out.createCCtx)>(sym("ZSTD_createCCtx"));
    out.freeCCtx = reinterpret_cast<decltype(out.freeCCtx)>(sym("ZSTD_freeCCtx"));
    out.decompress = reinterpret_cast<decltype(out.decompress)>(sym("ZSTD_decompress"));
    out.decompressDCtx = reinterpret_cast<decltype(out.decompressDCtx)>(sym("ZSTD_decompressDCtx"));
    out.compress = reinterpret_cast<decltype(out.compress)>(sym("ZSTD_compress"));
    out.compressCCtx = reinterpret_cast<decltype(out.compressCCtx)>(sym("ZSTD_compressCCtx"));
    out.isError = reinterpret_cast<decltype(out.isError)>(sym("ZSTD_isError"));
    if (missing) return path + " lacks a ZSTD_ function";
    return {};
#endif
}

class capi_set final : public workload_set {
public:
    std::string name() const override { return "capi"; }
    std::string description() const override {
        return "the context workload through the zstd C API: libzest_zstd against libzstd";
    }

    std::vector<std::string> case_names(const options&, const std::vector<named_input>&) const override {
        std::vector<std::string> names{"capi-dctx-create-free", "capi-cctx-create-free"};
        for (const auto n : context_message_sizes)
            for (const char* how : {"oneshot", "newctx", "reused"}) names.push_back(d_name(n, how));
        for (const int level : context_levels)
            for (const auto n : context_message_sizes)
                for (const char* how : {"oneshot", "reused"}) names.push_back(c_name(n, level, how));
        return names;
    }

    void run(const bench_env& env) override {
        unavailable_ = load_zest_api(zest_);
        env.out.begin_table("capi: the context workload through the zstd C API (libzest_zstd vs libzstd), "
                            "nanoseconds per call, median of " +
                                std::to_string(env.opts.rounds) + (env.opts.rounds == 1 ? " round" : " rounds"),
                            case_names(env.opts, env.files));
        create_free(env);
        for (const auto n : context_message_sizes) decompress_message(env, n);
        for (const int level : context_levels)
            for (const auto n : context_message_sizes) compress_message(env, n, level);
    }

private:
    api zest_{};
    api ref_ = system_api();
    std::string unavailable_;

    // Both sides from one body, called with each library's functions.
    template <class F>
    void add(const bench_env& env, const std::string& case_name, const char* op, int level, std::size_t input,
             const std::size_t& compressed, const std::size_t& zest_compressed, F body) {
        std::vector<side> sides;
        side z{"zest", [&] { return body(zest_, true); }};
        z.unavailable = unavailable_;
        sides.push_back(std::move(z));
        sides.push_back({"libzstd", [&] { return body(ref_, false); }});
        case_result r;
        r.m = measure(sides, input, timing(env.opts, name(), case_name));
        const bool zest_ok = r.m.sides[0].ok();
        r.info = {name(), case_name, op, level, input, compressed, zest_ok ? zest_compressed : 0, unit::ns_per_call};
        env.out.add(std::move(r));
    }

    void create_free(const bench_env& env) {
        const std::size_t none = 0;
        add(env, "capi-dctx-create-free", "context", 0, 0, none, none, [](const api& a, bool) {
            ZSTD_DCtx* d = a.createDCtx();
            escape(d);
            return a.freeDCtx(d) == 0 && d != nullptr;
        });
        add(env, "capi-cctx-create-free", "context", 0, 0, none, none, [](const api& a, bool) {
            ZSTD_CCtx* c = a.createCCtx();
            escape(c);
            return a.freeCCtx(c) == 0 && c != nullptr;
        });
    }

    void decompress_message(const bench_env& env, std::size_t n) {
        const bytes message = make_json_logs(n);
        const zstd_cctx cctx(ZSTD_createCCtx());
        if (!cctx) throw std::runtime_error("libzstd: cannot create a context");
        const bytes frame = zstd_compress(cctx.get(), message, frame_level);
        bytes zest_out(n), ref_out(n);
        // Each side's output is checked on the first call of every row.
        const auto decoded = [&](bool zest_side) { return (zest_side ? zest_out : ref_out) == message; };
        ZSTD_DCtx* const zd = unavailable_.empty() ? zest_.createDCtx() : nullptr;
        ZSTD_DCtx* const rd = ref_.createDCtx();
        const std::size_t fsize = frame.size(), none = 0;
        bool checked[2] = {false, false};
        const auto once = [&](bool zest_side, bool ok) {
            if (!ok) return false;
            if (checked[zest_side]) return true;
            checked[zest_side] = true;
            return decoded(zest_side);
        };
        add(env, d_name(n, "oneshot"), "decompress", frame_level, n, fsize, none, [&](const api& a, bool z) {
            bytes& out = z ? zest_out : ref_out;
            return once(z, a.decompress(out.data(), n, frame.data(), frame.size()) == n);
        });
        checked[0] = checked[1] = false;
        add(env, d_name(n, "newctx"), "decompress", frame_level, n, fsize, none, [&](const api& a, bool z) {
            bytes& out = z ? zest_out : ref_out;
            ZSTD_DCtx* d = a.createDCtx();
            const std::size_t k = a.decompressDCtx(d, out.data(), n, frame.data(), frame.size());
            a.freeDCtx(d);
            return once(z, k == n);
        });
        checked[0] = checked[1] = false;
        add(env, d_name(n, "reused"), "decompress", frame_level, n, fsize, none, [&](const api& a, bool z) {
            bytes& out = z ? zest_out : ref_out;
            return once(z, a.decompressDCtx(z ? zd : rd, out.data(), n, frame.data(), frame.size()) == n);
        });
        if (zd) zest_.freeDCtx(zd);
        ref_.freeDCtx(rd);
    }

    void compress_message(const bench_env& env, std::size_t n, int level) {
        const bytes message = make_json_logs(n);
        bytes zest_out(ZSTD_compressBound(n)), ref_out(ZSTD_compressBound(n));
        std::size_t zest_size = 0, ref_size = 0;
        ZSTD_CCtx* const zc = unavailable_.empty() ? zest_.createCCtx() : nullptr;
        ZSTD_CCtx* const rc = ref_.createCCtx();
        const zstd_dctx dctx(ZSTD_createDCtx());
        // zest's frames must decode (by libzstd) to the message.
        const auto decodes = [&](std::size_t size) {
            bytes back(n);
            return ZSTD_decompressDCtx(dctx.get(), back.data(), n, zest_out.data(), size) == n && back == message;
        };
        bool checked = false;
        const auto result = [&](const api& a, bool z, std::size_t k) {
            if (a.isError(k) || k == 0) return false;
            (z ? zest_size : ref_size) = k;
            if (z && !checked) {
                checked = true;
                return decodes(k);
            }
            return true;
        };
        add(env, c_name(n, level, "oneshot"), "compress", level, n, ref_size, zest_size, [&](const api& a, bool z) {
            bytes& out = z ? zest_out : ref_out;
            return result(a, z, a.compress(out.data(), out.size(), message.data(), n, level));
        });
        checked = false;
        add(env, c_name(n, level, "reused"), "compress", level, n, ref_size, zest_size, [&](const api& a, bool z) {
            bytes& out = z ? zest_out : ref_out;
            return result(a, z, a.compressCCtx(z ? zc : rc, out.data(), out.size(), message.data(), n, level));
        });
        if (zc) zest_.freeCCtx(zc);
        ref_.freeCCtx(rc);
    }
};

}  // namespace

std::unique_ptr<workload_set> make_capi_set() { return std::make_unique<capi_set>(); }

}  // namespace zest_bench
