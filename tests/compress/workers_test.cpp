// Compression with workers: the frame is the same for every number of
// workers from 1 up (and, for an input of one job, the same as on the
// calling thread), decodes with libzstd and zest, and an error in a worker
// is reported once, as the error one thread would give. Jobs are set small
// (512 KiB, the least) so that a few MiB make several of them.
#include <gtest/gtest.h>
#include <zstd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "compress/parallel.hpp"
#include "corpus.hpp"
#include "zest/zest.hpp"

namespace {

using zest::test::bytes;

constexpr unsigned small_job = 512 << 10;

// `w` workers and jobs of 512 KiB, the rest the defaults.
zest::compression_options small_jobs(unsigned w) {
    zest::compression_options o;
    o.workers = w;
    o.job_size = small_job;
    return o;
}

bytes compress_with(zest::compressor& c, const bytes& in) {
    bytes out(zest::compress_bound(in.size()));
    const auto r = c.compress(std::span<std::byte>(out), std::span<const std::byte>(in));
    EXPECT_TRUE(r) << r.message();
    out.resize(r ? *r : 0);
    return out;
}

void expect_decodes(const bytes& frame, const bytes& in) {
    bytes back(in.size() + 1);
    const std::size_t n = ZSTD_decompress(back.data(), back.size(), frame.data(), frame.size());
    ASSERT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    ASSERT_EQ(n, in.size());
    EXPECT_EQ(std::memcmp(back.data(), in.data(), n), 0);
    zest::decompressor d;
    const auto r = d.decompress(std::span<std::byte>(back), std::span<const std::byte>(frame));
    ASSERT_TRUE(r) << r.message();
    ASSERT_EQ(*r, in.size());
    EXPECT_EQ(std::memcmp(back.data(), in.data(), n), 0);
}

struct workers_case {
    int level;
    bool checksum;
    bool ldm;
    std::size_t size;
};

class Workers : public ::testing::TestWithParam<workers_case> {};

TEST_P(Workers, TheFrameIsTheSameForEveryCount) {
    const workers_case k = GetParam();
    for (const char* name : {"mixed", "text", "int32"}) {
        SCOPED_TRACE(name);
        const auto& shape = zest::test::corpus_shape(name);
        const bytes in = shape.make(k.size, 7);
        zest::compression_options o;
        o.level = k.level;
        o.checksum = k.checksum;
        o.job_size = small_job;
        if (k.ldm) o.parameters.ldm.mode = zest::ldm_mode::enabled;
        bytes first;
        for (unsigned w = 1; w <= 4; ++w) {
            SCOPED_TRACE("workers " + std::to_string(w));
            zest::compressor c;
            o.workers = w;
            ASSERT_TRUE(c.set_options(o));
            const bytes frame = compress_with(c, in);
            if (w == 1) {
                expect_decodes(frame, in);
                first = frame;
            } else {
                ASSERT_EQ(frame.size(), first.size());
                EXPECT_TRUE(frame == first) << "frames differ";
            }
            // A context reused for a second frame writes the same one.
            EXPECT_TRUE(compress_with(c, in) == first);
        }
        // On the calling thread: the same frame when the input is one job,
        // and smaller otherwise (jobs this small lose up to 7% on mixed
        // inputs, whose matches reach far back; default jobs: see bench).
        zest::compressor single;
        o.workers = 0;
        ASSERT_TRUE(single.set_options(o));
        const bytes alone = compress_with(single, in);
        if (in.size() <= small_job) {
            EXPECT_TRUE(alone == first);
        }
        EXPECT_LE(double(first.size()), double(alone.size()) * 1.10 + 64);
    }
}

std::string case_name(const ::testing::TestParamInfo<workers_case>& i) {
    const workers_case& k = i.param;
    std::string s = "level" + (k.level < 0 ? "_minus" + std::to_string(-k.level) : std::to_string(k.level));
    s += "_" + std::to_string(k.size);
    if (k.checksum) s += "_checksum";
    if (k.ldm) s += "_ldm";
    return s;
}

INSTANTIATE_TEST_SUITE_P(Levels, Workers,
                         ::testing::Values(workers_case{-5, false, false, 3 << 20},
                                           workers_case{1, true, false, 3 << 20},
                                           workers_case{3, false, false, (3 << 20) + 7},
                                           workers_case{3, true, false, small_job},
                                           workers_case{3, false, false, small_job + 1},
                                           workers_case{3, false, false, 1},
                                           workers_case{9, false, false, 2 << 20},
                                           workers_case{3, false, true, (3 << 20) + 5},
                                           workers_case{9, true, true, 2 << 20},
                                           workers_case{16, false, true, (1 << 20) + 9},
                                           workers_case{19, true, false, (1 << 20) + 3},
                                           workers_case{22, false, false, (1 << 20) + 100}),
                         case_name);

// A stream with workers, fed in pieces of `piece` bytes into output room of
// `room` bytes, flushing every `flush_every` pieces (0: never).
bytes stream_with(const zest::compression_options& o, const bytes& in, std::size_t piece, std::size_t room,
                  std::size_t flush_every, bool pledge = false) {
    zest::compress_stream cs;
    EXPECT_TRUE(cs.set_options(o));
    if (pledge) {
        EXPECT_TRUE(cs.set_pledged_size(in.size()));
    }
    bytes out, buf(room);
    std::size_t pos = 0, pieces = 0;
    for (bool end = false; !end;) {
        const std::size_t n = std::min(piece, in.size() - pos);
        end = pos + n == in.size();
        const bool flush = !end && flush_every && ++pieces % flush_every == 0;
        const zest::directive d = end ? zest::directive::end : flush ? zest::directive::flush : zest::directive::proceed;
        zest::in_buffer ib{in.data() + pos, n, 0};
        for (int calls = 0;; ++calls) {
            zest::out_buffer ob{buf.data(), buf.size(), 0};
            const auto r = cs.compress(ob, ib, d);
            if (!r) {
                ADD_FAILURE() << r.message();
                return {};
            }
            out.insert(out.end(), buf.begin(), buf.begin() + std::ptrdiff_t(ob.pos));
            if (d == zest::directive::proceed ? ib.pos == ib.size : *r == 0 && ib.pos == ib.size) break;
            if (calls > 1 << 22) {
                ADD_FAILURE() << "no progress";
                return {};
            }
        }
        pos += n;
    }
    return out;
}

TEST(WorkersStream, EveryBufferAndFlushPatternGivesTheFrameOfOneWorker) {
    const bytes in = zest::test::corpus_shape("mixed").make((5 << 20) + 3, 11);
    zest::compression_options o = small_jobs(1);
    o.level = 3;
    o.checksum = true;
    struct pattern {
        std::size_t piece, room, flush_every;
    };
    for (const pattern p : {pattern{1 << 20, 1 << 16, 0}, pattern{1000, 333, 0}, pattern{131072, 131075, 0},
                            pattern{100000, 1 << 20, 7}, pattern{3 << 20, 17, 1}}) {
        SCOPED_TRACE(std::to_string(p.piece) + " " + std::to_string(p.room) + " " + std::to_string(p.flush_every));
        o.workers = 1;
        const bytes one = stream_with(o, in, p.piece, p.room, p.flush_every);
        expect_decodes(one, in);
        for (unsigned w : {2u, 3u, 8u}) {
            o.workers = w;
            EXPECT_TRUE(stream_with(o, in, p.piece, p.room, p.flush_every) == one) << "workers " << w;
        }
    }
}

TEST(WorkersStream, APledgedSizeIsCheckedAndTheStreamIsReusable) {
    const bytes in = zest::test::corpus_shape("text").make(2 << 20, 2);
    zest::compress_stream cs;
    ASSERT_TRUE(cs.set_workers(2));
    ASSERT_TRUE(cs.set(zest::setting::job_size, int(small_job)));
    ASSERT_TRUE(cs.set_pledged_size(in.size() - 1));
    bytes out(zest::compress_bound(in.size()));
    zest::in_buffer ib{in.data(), in.size(), 0};
    zest::out_buffer ob{out.data(), out.size(), 0};
    const auto r = cs.compress(ob, ib, zest::directive::end);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::content_size_mismatch);
    cs.reset();
    ib = {in.data(), in.size(), 0};
    ob = {out.data(), out.size(), 0};
    const auto again = cs.compress(ob, ib, zest::directive::proceed);
    ASSERT_TRUE(again);
    ib = {in.data(), 0, 0};
    ASSERT_TRUE(cs.compress(ob, ib, zest::directive::end));
    out.resize(ob.pos);
    expect_decodes(out, in);
}

TEST(Workers, TheOverlapSeedsEachJob) {
    const bytes in = zest::test::corpus_shape("text").make(4 << 20, 9);
    zest::compression_options o = small_jobs(2);
    std::size_t sizes[2];
    for (int k = 0; k < 2; ++k) {
        o.overlap_log = k == 0 ? 1 : 9;  // none, then the whole window
        zest::compressor c;
        ASSERT_TRUE(c.set_options(o));
        const bytes frame = compress_with(c, in);
        expect_decodes(frame, in);
        sizes[k] = frame.size();
    }
    EXPECT_LT(double(sizes[1]), double(sizes[0]) * 0.99) << sizes[0] << " " << sizes[1];
}

// Level 19 frames of 16 to 32 MiB are one job of four windows by the job
// size alone; the plan cuts them in two, the first longer by what the
// second's history costs, and cuts larger ones as the job size says.
TEST(JobPlan, TheOptimalStrategiesCutMediumFramesIntoBalancedJobs) {
    namespace d = zest::detail;
    zest::compression_options o;
    o.level = 19;
    for (const std::uint64_t size : {std::uint64_t(16) << 20, std::uint64_t(24) << 20,
                                     std::uint64_t(64) << 20, std::uint64_t(200) << 20}) {
        const d::compression_params p = d::params_for_level(19, size);
        ASSERT_EQ(p.strategy, zest::strategy::btultra2);
        const std::size_t block = std::min<std::size_t>(d::block_size_max, std::size_t(1) << p.window_log);
        const std::size_t job = d::job_size_for(p, o), overlap = d::overlap_for(p, o);
        const d::job_plan plan = d::plan_jobs(p, o, size);
        EXPECT_EQ(plan.first % block, 0u) << size;
        EXPECT_EQ(plan.rest % block, 0u) << size;
        EXPECT_GT(plan.first, plan.rest) << size;
        const std::uint64_t k = std::max<std::uint64_t>(2, (size + job - 1) / job);
        // k jobs: the first and k - 1 others cover the frame, one fewer does not.
        EXPECT_GE(plan.first + (k - 1) * plan.rest, size) << size;
        EXPECT_LT(plan.first + (k - 2) * plan.rest, size) << size;
        // Balanced: first = rest + 6/8 of the history (within the rounding).
        const double history = double(std::min<std::size_t>(overlap, plan.first));
        const double expect = double(plan.rest) + history * d::history_cost_eighths / 8;
        EXPECT_NEAR(double(plan.first), expect, double(k * block)) << size;
        EXPECT_TRUE(d::in_jobs(p, [&] { auto w = o; w.workers = 1; return w; }(), size)) << size;
        // The workers never change it.
        for (unsigned w : {1u, 2u, 8u}) {
            zest::compression_options ow = o;
            ow.workers = w;
            const d::job_plan again = d::plan_jobs(p, ow, size);
            EXPECT_EQ(again.first, plan.first);
            EXPECT_EQ(again.rest, plan.rest);
        }
    }
    // Unchanged: unknown sizes, smaller frames (below 8 MiB, or below two
    // windows), other strategies, a caller's job size, rsyncable.
    const auto plain = [&](const d::compression_params& p, const zest::compression_options& oo, std::uint64_t size) {
        const d::job_plan plan = d::plan_jobs(p, oo, size);
        const std::size_t job = d::job_size_for(p, oo);
        return plan.first == job && plan.rest == job;
    };
    const d::compression_params p19 = d::params_for_level(19, std::uint64_t(16) << 20);
    ASSERT_EQ(p19.window_log, 23u);
    EXPECT_TRUE(plain(p19, o, (std::uint64_t(16) << 20) - 1));
    const d::compression_params small_window = d::params_for_level(19, std::uint64_t(8) << 20, [] {
        zest::compression_parameters w;
        w.window_log = 20;
        return w;
    }());
    EXPECT_FALSE(plain(small_window, o, std::uint64_t(8) << 20));
    EXPECT_TRUE(plain(p19, o, d::content_size_unknown));
    EXPECT_TRUE(plain(p19, o, (std::uint64_t(8) << 20) - 1));
    EXPECT_TRUE(plain(d::params_for_level(12, std::uint64_t(16) << 20), o, std::uint64_t(16) << 20));
    zest::compression_options sized = o;
    sized.job_size = 4 << 20;
    EXPECT_TRUE(plain(p19, sized, std::uint64_t(16) << 20));
    zest::compression_options rs = o;
    rs.rsyncable = true;
    EXPECT_TRUE(plain(p19, rs, std::uint64_t(16) << 20));
}

// The plan at work, on a cheap optimal strategy (btopt with the least
// search): 8 MiB is cut in two, so its frame differs from the calling
// thread's, is the same for 1 and 2 workers, one-shot and streamed with its
// size pledged, and is within 0.5% of the one-job frame.
TEST(JobPlan, AMediumFrameIsTwoJobsAtTheSizeOfOne) {
    const bytes in = zest::test::corpus_shape("text").make(8 << 20, 21);
    zest::compression_options o;
    o.level = 16;
    o.parameters.strategy = zest::strategy::btopt;
    o.parameters.window_log = 20;
    o.parameters.hash_log = 12;
    o.parameters.chain_log = 12;
    o.parameters.search_log = 1;
    o.parameters.target_length = 8;
    bytes frames[3];
    for (unsigned w = 0; w < 3; ++w) {
        o.workers = w;
        zest::compressor c;
        ASSERT_TRUE(c.set_options(o));
        frames[w] = compress_with(c, in);
    }
    EXPECT_NE(frames[0], frames[1]);
    EXPECT_EQ(frames[1], frames[2]);
    EXPECT_LT(double(frames[1].size()), double(frames[0].size()) * 1.005) << frames[0].size() << " " << frames[1].size();
    expect_decodes(frames[1], in);
    // Streamed with the size pledged: the same jobs, with 2 and 8 workers
    // (as many job buffers as the frame has jobs), in small pieces into a
    // small output buffer; with flushes, the same frame for 1, 2 and 8.
    for (unsigned w : {2u, 8u}) {
        o.workers = w;
        EXPECT_EQ(stream_with(o, in, 100000, 4096, 0, true), frames[1]) << w;
    }
    o.workers = 1;
    const bytes flushed = stream_with(o, in, 1 << 20, 1 << 16, 3, true);
    expect_decodes(flushed, in);
    for (unsigned w : {2u, 8u}) {
        o.workers = w;
        EXPECT_EQ(stream_with(o, in, 1 << 20, 1 << 16, 3, true), flushed) << w;
    }
}

// An input whose second half repeats its first, 1.5 MiB back: no job's
// overlap reaches that far, the long matches of its window do.
bytes far_repeat() {
    bytes in = zest::test::corpus_shape("random").make(3 << 19, 5);
    in.insert(in.end(), in.begin(), in.end());
    return in;
}

zest::compression_options far_ldm(unsigned w) {
    zest::compression_options o = small_jobs(w);
    o.parameters.ldm.mode = zest::ldm_mode::enabled;
    o.parameters.window_log = 22;
    o.overlap_log = 1;  // no overlap: only the long matches see the repeat
    return o;
}

TEST(WorkersLdm, LongMatchesReachAcrossJobs) {
    const bytes in = far_repeat();
    bytes first;
    for (unsigned w : {1u, 2u, 3u}) {
        SCOPED_TRACE("workers " + std::to_string(w));
        zest::compressor c;
        ASSERT_TRUE(c.set_options(far_ldm(w)));
        const bytes frame = compress_with(c, in);
        expect_decodes(frame, in);
        // The repeat costs a few sequences, not another 1.5 MiB.
        EXPECT_LT(double(frame.size()), double(in.size()) * 0.52);
        if (w == 1) first = frame;
        EXPECT_TRUE(frame == first) << "frames differ";
        // A stream's long matches are found in the same window.
        for (std::size_t piece : {std::size_t(1) << 20, std::size_t(70001)}) {
            const bytes streamed = stream_with(far_ldm(w), in, piece, 1 << 16, 0);
            expect_decodes(streamed, in);
            EXPECT_LT(double(streamed.size()), double(in.size()) * 0.52);
        }
    }
    // Without long matches the second half is compressed again.
    zest::compression_options o = far_ldm(2);
    o.parameters.ldm.mode = zest::ldm_mode::disabled;
    zest::compressor c;
    ASSERT_TRUE(c.set_options(o));
    EXPECT_GT(double(compress_with(c, in).size()), double(in.size()) * 0.9);
}

TEST(WorkersLdm, PositionsLoweredOnLongStreamsChangeNothing) {
    // The long matches' table lowers its positions before they pass a
    // limit (2^31; here 2^23 so that 12 MiB pass it twice, with a window
    // of 4 MiB): only samples out of the window's reach go, so the frame
    // stays the same, and the repeats 3 MiB back are still found.
    bytes in = far_repeat();
    for (int k = 0; k < 3; ++k) in.insert(in.end(), in.begin(), in.begin() + (3 << 20));
    zest::compression_options o = far_ldm(2);
    const bytes plain = stream_with(o, in, 1 << 20, 1 << 20, 0);
    EXPECT_LT(plain.size(), in.size() / 4);
    const std::uint32_t saved = zest::detail::stream_position_limit;
    zest::detail::stream_position_limit = 1u << 23;
    const bytes lowered = stream_with(o, in, 1 << 20, 1 << 20, 0);
    zest::compressor c;
    ASSERT_TRUE(c.set_options(o));
    const bytes one_shot = compress_with(c, in);
    zest::detail::stream_position_limit = saved;
    expect_decodes(lowered, in);
    EXPECT_TRUE(lowered == plain);
    expect_decodes(one_shot, in);
}

void expect_decodes_with(const bytes& frame, const bytes& in, const zest::dictionary& dict, const bytes& raw) {
    bytes back(in.size() + 1);
    ZSTD_DCtx* const dc = ZSTD_createDCtx();
    const std::size_t n = ZSTD_decompress_usingDict(dc, back.data(), back.size(), frame.data(), frame.size(),
                                                    raw.data(), raw.size());
    ZSTD_freeDCtx(dc);
    ASSERT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
    ASSERT_EQ(n, in.size());
    EXPECT_EQ(std::memcmp(back.data(), in.data(), n), 0);
    EXPECT_EQ(ZSTD_getDictID_fromFrame(frame.data(), frame.size()), dict.id());
}

std::atomic<int> first_jobs_with_dict{0};

TEST(WorkersDictionary, TheFirstJobStartsWithTheDictionary) {
    const bytes text = zest::test::corpus_shape("text").make(3 << 20, 12);
    const std::vector<std::size_t> sizes(64, 2000);
    const auto raw = zest::train_dictionary(std::span<const std::byte>(text.data(), 64 * 2000), sizes, 16 << 10);
    ASSERT_TRUE(raw) << raw.message();
    const bytes dict_bytes(raw->begin(), raw->end());
    const auto dict = zest::dictionary::load(std::span<const std::byte>(dict_bytes));
    ASSERT_TRUE(dict) << dict.message();
    // The input: fresh text of the same shape (the dictionary helps its start).
    const bytes in = zest::test::corpus_shape("text").make(2 << 20, 99);
    for (int level : {1, 3, 16}) {
        SCOPED_TRACE("level " + std::to_string(level));
        zest::compression_options o = small_jobs(1);
        o.level = level;
        o.checksum = true;
        bytes first, plain;
        for (unsigned w : {1u, 2u, 3u}) {
            o.workers = w;
            zest::compressor c;
            ASSERT_TRUE(c.set_options(o));
            ASSERT_TRUE(c.set_dictionary(*dict));
            // The frame goes to the workers, its first job with the dictionary.
            first_jobs_with_dict = 0;
            zest::detail::worker_pool::fail_job = [](const zest::detail::compress_job& j) noexcept {
                if (j.first && j.dict) first_jobs_with_dict.fetch_add(1);
                return false;
            };
            const bytes frame = compress_with(c, in);
            zest::detail::worker_pool::fail_job = nullptr;
            EXPECT_EQ(first_jobs_with_dict.load(), 1);
            if (w == 1) {
                expect_decodes_with(frame, in, *dict, dict_bytes);
                first = frame;
            }
            EXPECT_TRUE(frame == first) << "frames differ, workers " << w;
            if (w != 2) continue;
            // A stream with workers starts from the same dictionary.
            zest::compress_stream cs;
            ASSERT_TRUE(cs.set_options(o));
            ASSERT_TRUE(cs.set_dictionary(*dict));
            bytes streamed(zest::compress_bound(in.size()));
            zest::in_buffer ib{in.data(), in.size(), 0};
            zest::out_buffer ob{streamed.data(), streamed.size(), 0};
            const auto r = cs.compress(ob, ib, zest::directive::end);
            ASSERT_TRUE(r && *r == 0) << (r ? "output left" : r.message());
            streamed.resize(ob.pos);
            expect_decodes_with(streamed, in, *dict, dict_bytes);
        }
        // Without it, the first job's start costs more.
        zest::compressor c;
        ASSERT_TRUE(c.set_options(o));
        plain = compress_with(c, in);
        EXPECT_LT(first.size(), plain.size());
    }
}

// The bytes that differ between two frames once their common start and
// end are set aside: the header (whose content sizes differ, frames of the
// same flags and field sizes) and the checksum left out.
std::size_t differing(const bytes& a, const bytes& b) {
    const std::size_t n = std::min(a.size(), b.size()) - 4;
    std::size_t head = zest::detail::frame_header_size_max, tail = 0;
    while (head < n && a[head] == b[head]) ++head;
    while (tail < n - head && a[a.size() - 5 - tail] == b[b.size() - 5 - tail]) ++tail;
    return b.size() - 4 - head - tail;
}

TEST(Rsyncable, AChangeEarlyLeavesTheRestOfTheFrameTheSame) {
    const bytes in = zest::test::corpus_shape("text").make(6 << 20, 4);
    bytes changed(in.begin(), in.begin() + (1 << 20));
    for (int i = 0; i < 100; ++i) changed.push_back(std::byte(i));
    changed.insert(changed.end(), in.begin() + (1 << 20), in.end());
    zest::compression_options o = small_jobs(2);
    o.checksum = true;
    std::size_t damage[2], size[2];
    for (int k = 0; k < 2; ++k) {
        o.rsyncable = k == 1;
        zest::compressor c;
        ASSERT_TRUE(c.set_options(o));
        const bytes a = compress_with(c, in), b = compress_with(c, changed);
        expect_decodes(a, in);
        expect_decodes(b, changed);
        damage[k] = differing(a, b);
        size[k] = a.size();
    }
    // Without it the rest of the frame moves; with it, a little around the change.
    EXPECT_GT(damage[0], size[0] / 2);
    EXPECT_LT(damage[1], size[1] / 20) << damage[1] << " of " << size[1];
    EXPECT_LT(double(size[1]), double(size[0]) * 1.02);
}

TEST(Rsyncable, CutsDependOnTheContentAloneNotOnWorkersOrPieces) {
    const bytes in = zest::test::corpus_shape("mixed").make((4 << 20) + 77, 6);
    zest::compression_options o = small_jobs(1);
    o.level = 1;
    o.rsyncable = true;
    bytes one_shot, streamed;
    for (unsigned w : {1u, 2u, 4u}) {
        SCOPED_TRACE(w);
        o.workers = w;
        zest::compressor c;
        ASSERT_TRUE(c.set_options(o));
        const bytes f = compress_with(c, in);
        if (w == 1) {
            expect_decodes(f, in);
            one_shot = f;
        }
        EXPECT_TRUE(f == one_shot);
        for (std::size_t piece : {std::size_t(1000), std::size_t(65536), std::size_t(3) << 20}) {
            const bytes s = stream_with(o, in, piece, 1 << 16, 0);
            if (streamed.empty()) {
                expect_decodes(s, in);
                streamed = s;
            }
            EXPECT_TRUE(s == streamed) << "pieces of " << piece;
        }
    }
}

TEST(WorkersErrors, TooSmallADestinationIsReportedAsOneThreadReportsIt) {
    const bytes in = zest::test::corpus_shape("text").make(3 << 20, 1);
    zest::compressor c;
    ASSERT_TRUE(c.set_options(small_jobs(2)));
    const bytes frame = compress_with(c, in);
    bytes out(frame.size() - 1);
    const auto r = c.compress(std::span<std::byte>(out), std::span<const std::byte>(in));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), zest::errc::destination_too_small);
    EXPECT_TRUE(compress_with(c, in) == frame);  // and the context goes on working
}

std::atomic<int> jobs_seen{0};
int fail_at = -1;

TEST(WorkersErrors, AFailedAllocationInAWorkerIsOneCleanError) {
    const bytes in = zest::test::corpus_shape("mixed").make(4 << 20, 3);
    zest::compressor c;
    ASSERT_TRUE(c.set_options(small_jobs(3)));
    const bytes good = compress_with(c, in);
    for (int k : {0, 1, 5, 7}) {
        SCOPED_TRACE(k);
        jobs_seen = 0;
        fail_at = k;
        zest::detail::worker_pool::fail_job = [](const zest::detail::compress_job&) noexcept {
            return jobs_seen.fetch_add(1) == fail_at;
        };
        bytes out(zest::compress_bound(in.size()));
        const auto r = c.compress(std::span<std::byte>(out), std::span<const std::byte>(in));
        zest::detail::worker_pool::fail_job = nullptr;
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error(), zest::errc::out_of_memory);
        EXPECT_TRUE(compress_with(c, in) == good);
    }
}

TEST(WorkersErrors, MemoryIsReportedAndWorkersStopWithTheContext) {
    const bytes in = zest::test::corpus_shape("text").make(2 << 20, 5);
    zest::compressor c;
    ASSERT_TRUE(c.set_workers(2));
    ASSERT_TRUE(c.set(zest::setting::job_size, int(small_job)));
    const std::size_t before = c.memory_usage();
    (void)compress_with(c, in);
    EXPECT_GT(c.memory_usage(), before + 2 * small_job);  // job outputs and the workers' tables
    zest::compressor moved(std::move(c));
    EXPECT_FALSE(compress_with(moved, in).empty());
}

}  // namespace
