// Dictionaries: parsing the reference's format, preparing the decoding
// tables once, and the public zest::dictionary handle.
#include <cstring>
#include <new>

#include "common/format.hpp"
#include "compress/frame_writer.hpp"
#include "compress/match_finder.hpp"
#include "decompress/literals.hpp"
#include "dictionary/dictionary_data.hpp"
#include "zest/zest.hpp"

namespace zest {
namespace detail {

errc parse_dictionary(dictionary_data& d, bool raw_only, bool full_only) noexcept {
    const std::uint8_t* const p = d.bytes;
    const std::size_t size = d.size;
    const bool magic = size >= 8 && load_le32(p) == dictionary_magic;
    if (raw_only || (!full_only && !magic)) {
        d.content = p;
        d.content_size = size;
        return ok;
    }
    if (!magic) return errc::dictionary_invalid;
    d.id = load_le32(p + 4);
    std::size_t pos = 8, used = 0;
    // Every table description is read as a block would read it; any
    // failure of theirs is the dictionary's.
    const auto fail = [](errc) { return errc::dictionary_invalid; };
    if (errc e = read_huffman_weights(p + pos, size - pos, d.lit_weights, used); e != ok) return fail(e);
    pos += used;
    if (errc e = build_huffman_table(d.lit_weights, d.lit_table); e != ok) return fail(e);
    std::memcpy(&d.lit_table_pairs, &d.lit_table, sizeof d.lit_table);
    build_huffman_pairs(d.lit_table_pairs);
    // Offsets, match lengths, literal lengths: the format's order.
    if (errc e = read_seq_table_description(1, p + pos, size - pos, d.seq.of, d.of_dist, used); e != ok)
        return fail(e);
    pos += used;
    if (errc e = read_seq_table_description(2, p + pos, size - pos, d.seq.ml, d.ml_dist, used); e != ok)
        return fail(e);
    pos += used;
    if (errc e = read_seq_table_description(0, p + pos, size - pos, d.seq.ll, d.ll_dist, used); e != ok)
        return fail(e);
    pos += used;
    if (size - pos < 12) return errc::dictionary_invalid;
    const std::size_t content_size = size - pos - 12;
    for (int i = 0; i < 3; ++i) {
        const std::uint32_t r = load_le32(p + pos + 4 * i);
        // "Each recent offset must have a value <= dictionary content size,
        // and cannot equal 0."
        if (r == 0 || r > content_size) return errc::dictionary_invalid;
        d.rep[i] = r;
    }
    pos += 12;
    // The encoder's view of the same tables.
    if (huffman_ctable_from_weights(d.lit_weights.weight, d.lit_weights.count, d.lit_ctable) == 0)
        return errc::dictionary_invalid;
    fse_build_ctable(d.of_ct, d.of_dist.count, d.of_dist.max_symbol, d.of_dist.accuracy_log);
    fse_build_ctable(d.ml_ct, d.ml_dist.count, d.ml_dist.max_symbol, d.ml_dist.accuracy_log);
    fse_build_ctable(d.ll_ct, d.ll_dist.count, d.ll_dist.max_symbol, d.ll_dist.accuracy_log);
    d.content = p + pos;
    d.content_size = content_size;
    d.entropy = true;
    return ok;
}

const attached_tables* dictionary_data::tables_for(const compression_params& p, std::uint64_t size) const noexcept {
    // A handful of parameter sets at most (levels and sizes of one kind of
    // message share them); tables are no larger than 2^20 entries each.
    constexpr unsigned max_log = 20;
    if (!can_attach_dictionary(p) || p.hash_log > max_log || p.chain_log > max_log || content_size < 8 ||
        content_size >= index_limit || (std::uint64_t(1) << p.window_log) < size + content_size)
        return nullptr;
    const bool dfast = p.strategy == strategy::dfast;
    const unsigned chain_log = dfast ? p.chain_log : 0;
    const auto same = [&](const attached_tables* t) {
        return t->strat == p.strategy && t->hash_log == p.hash_log && t->chain_log == chain_log &&
               t->min_match == p.min_match;
    };
    for (const auto& slot : slots_) {
        const attached_tables* t = slot.load(std::memory_order_acquire);
        if (!t) break;  // slots fill in order
        if (same(t)) return t;
    }
    try {
        const std::lock_guard<std::mutex> lock(attached_mutex_);
        for (const auto& t : attached_)
            if (same(t.get())) return t.get();  // made meanwhile
        if (attached_.size() >= max_attached_sets) return nullptr;
        auto t = std::make_unique<attached_tables>();
        t->strat = p.strategy;
        t->hash_log = p.hash_log;
        t->chain_log = chain_log;
        t->min_match = p.min_match;
        t->hash.reset(new std::uint32_t[std::size_t(1) << p.hash_log]());
        if (dfast) t->chain.reset(new std::uint32_t[std::size_t(1) << chain_log]());
        fill_dictionary_tables(p, content - 1, std::uint32_t(content_size + 1), t->hash.get(), t->chain.get());
        attached_.push_back(std::move(t));
        const attached_tables* made = attached_.back().get();
        slots_[attached_.size() - 1].store(made, std::memory_order_release);
        return made;
    } catch (...) {
        return nullptr;
    }
}

std::size_t dictionary_data::attached_memory() const noexcept {
    const std::lock_guard<std::mutex> lock(attached_mutex_);
    std::size_t n = 0;
    for (const auto& t : attached_)
        n += sizeof(attached_tables) + (((std::size_t(1) << t->hash_log) + (t->chain ? std::size_t(1) << t->chain_log : 0)) * 4);
    return n;
}

}  // namespace detail

result<dictionary> dictionary::load(const void* bytes, std::size_t size, dictionary_content content,
                                    dictionary_storage storage) noexcept {
    if (!bytes && size) return errc::invalid_argument;
    dictionary out;
    // Empty bytes are no dictionary, except where the format is required
    // (as the reference: fewer than 8 bytes cannot be one).
    if (size == 0) {
        if (content == dictionary_content::full) return errc::dictionary_invalid;
        return out;
    }
    std::shared_ptr<detail::dictionary_data> d;
    try {
        d = std::make_shared<detail::dictionary_data>();
    } catch (...) {
        return errc::out_of_memory;
    }
    if (storage == dictionary_storage::copy) {
        d->owned.reset(new (std::nothrow) std::uint8_t[size]);
        if (!d->owned) return errc::out_of_memory;
        std::memcpy(d->owned.get(), bytes, size);
        d->bytes = d->owned.get();
    } else {
        d->bytes = static_cast<const std::uint8_t*>(bytes);
    }
    d->size = size;
    const errc e = detail::parse_dictionary(*d, content == dictionary_content::raw,
                                            content == dictionary_content::full);
    if (e != detail::ok) return e;
    out.data_ = std::move(d);
    return out;
}

result<dictionary> dictionary::load(std::span<const std::byte> bytes, dictionary_content content,
                                    dictionary_storage storage) noexcept {
    return load(bytes.data(), bytes.size(), content, storage);
}

std::uint32_t dictionary::id() const noexcept { return data_ ? data_->id : 0; }
bool dictionary::has_entropy_tables() const noexcept { return data_ && data_->entropy; }
std::size_t dictionary::content_size() const noexcept { return data_ ? data_->content_size : 0; }
std::size_t dictionary::memory_usage() const noexcept {
    if (!data_) return 0;
    return sizeof(detail::dictionary_data) + (data_->owned ? data_->size : 0) + data_->attached_memory();
}

std::uint32_t dictionary_id(std::span<const std::byte> bytes) noexcept {
    const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
    if (bytes.size() < 8 || detail::load_le32(p) != detail::dictionary_magic) return 0;
    return detail::load_le32(p + 4);
}

std::uint32_t frame_dictionary_id(std::span<const std::byte> src) noexcept {
    detail::frame_header h;
    if (detail::parse_frame_header(reinterpret_cast<const std::uint8_t*>(src.data()), src.size(), h) != detail::ok)
        return 0;
    return h.skippable ? 0 : h.dict_id;
}

}  // namespace zest
