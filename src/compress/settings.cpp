// compression_settings: the one place compressor and compress_stream keep
// their options, every setter checked against settings_table.
#include "zest/zest.hpp"

namespace zest {

result<int> compression_settings::set(setting s, int value) noexcept {
    if (frame_open_ || std::size_t(s) >= setting_count) return errc::invalid_argument;
    return set_setting(options_, s, value);
}

result<compression_options> compression_settings::set_options(const compression_options& o) noexcept {
    if (frame_open_ || !valid(o)) return errc::invalid_argument;
    options_ = admitted(o);  // the level clamped, 0 the default
    return options_;
}

result<int> compression_settings::set_fast(int acceleration) noexcept {
    if (acceleration < 1 || acceleration > -min_level) return errc::invalid_argument;
    return set_level(-acceleration);
}

result<zest::strategy> compression_settings::set_strategy(zest::strategy s) noexcept {
    const auto r = set(setting::strategy, int(s));
    if (!r) return r.error();
    return s;
}

result<compression_parameters> compression_settings::set_parameters(const compression_parameters& p) noexcept {
    compression_options o = options_;
    o.parameters = p;
    const auto r = set_options(o);
    if (!r) return r.error();
    return p;
}

result<bool> compression_settings::set_dictionary(zest::dictionary d) noexcept {
    if (frame_open_) return errc::invalid_argument;
    const bool any = !d.empty();
    dict_ = std::move(d);
    return any;
}

result<bool> compression_settings::flag(setting s, bool on) noexcept {
    const auto r = set(s, on);
    if (!r) return r.error();
    return on;
}

result<unsigned> compression_settings::number(setting s, unsigned v) noexcept {
    if (v > unsigned(setting_of(s).upper)) return errc::invalid_argument;
    const auto r = set(s, int(v));
    if (!r) return r.error();
    return unsigned(*r);
}

}  // namespace zest
