#include "file_names.hpp"

#include <sys/stat.h>

#include <cerrno>

#include "file_io.hpp"

namespace zest::cli {

namespace {

struct suffix_rule {
    std::string_view suffix;
    std::string_view replacement;  ///< what the decompressed name ends with instead
};

// The names zest decompresses, zstd's and the other formats' (whatever the
// data turns out to be, and whether or not their libraries were built in).
constexpr suffix_rule decompressible[] = {{".zst", ""},  {".tzst", ".tar"}, {".zstd", ""}, {".gz", ""},
                                          {".tgz", ".tar"}, {".xz", ""},     {".txz", ".tar"}, {".lzma", ""},
                                          {".lz4", ""},  {".tlz4", ".tar"}};

// Already compressed files, which --exclude-compressed leaves alone: zstd's
// list since 1.5.6 (programs/fileio.c, compressedFileExtensions: its own
// suffixes, those of the formats it knows, then archives, media and
// documents that are compressed inside), and .zstd. Matched as zstd matches
// them: the name's last suffix, case included.
constexpr std::string_view compressed[] = {
    ".zst", ".tzst", ".gz", ".tgz", ".lzma", ".xz", ".txz", ".lz4", ".tlz4", ".7z", ".aa3", ".aac", ".aar", ".ace",
    ".alac", ".ape", ".apk", ".apng", ".arc", ".archive", ".arj", ".ark", ".asf", ".avi", ".avif", ".ba", ".br",
    ".bz2", ".cab", ".cdx", ".chm", ".cr2", ".divx", ".dmg", ".dng", ".docm", ".docx", ".dotm", ".dotx", ".dsft",
    ".ear", ".eftx", ".emz", ".eot", ".epub", ".f4v", ".flac", ".flv", ".gho", ".gif", ".gifv", ".gnp", ".iso",
    ".jar", ".jpeg", ".jpg", ".jxl", ".lz", ".lzh", ".m4a", ".m4v", ".mkv", ".mov", ".mp2", ".mp3", ".mp4", ".mpa",
    ".mpc", ".mpe", ".mpeg", ".mpg", ".mpl", ".mpv", ".msi", ".odp", ".ods", ".odt", ".ogg", ".ogv", ".otp",
    ".ots", ".ott", ".pea", ".png", ".pptx", ".qt", ".rar", ".s7z", ".sfx", ".sit", ".sitx", ".sqx", ".svgz",
    ".swf", ".tbz2", ".tib", ".tlz", ".vob", ".war", ".webm", ".webp", ".wma", ".wmv", ".woff", ".woff2", ".wvl",
    ".xlsx", ".xpi", ".xps", ".zip", ".zipx", ".zoo", ".zpaq", ".zstd"};

// True when `name` ends with `suffix` and has a file name before it
// ("dir/.zst" names no file).
bool ends_with_suffix(std::string_view name, std::string_view suffix) {
    return name.size() > suffix.size() && name.ends_with(suffix) && name[name.size() - suffix.size() - 1] != '/';
}

// Makes one directory; an existing directory is fine.
void make_directory(const std::string& dir, mode_t mode) {
    if (::mkdir(dir.c_str(), mode) == 0) return;
    const int err = errno;
    struct stat st {};
    if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
    throw errno_error(dir, err == EEXIST ? ENOTDIR : err);
}

}  // namespace

std::optional<std::string> decompressed_name(const std::string& input) {
    for (const suffix_rule& r : decompressible) {
        if (!ends_with_suffix(input, r.suffix)) continue;
        std::string out = input.substr(0, input.size() - r.suffix.size());
        out.append(r.replacement);
        return out;
    }
    return std::nullopt;
}

std::string decompressible_suffixes() {
    std::string list;
    constexpr std::size_t n = std::size(decompressible);
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0) list += i + 1 == n ? " or " : ", ";
        list += decompressible[i].suffix;
    }
    return list;
}

bool has_decompressible_suffix(std::string_view name) {
    for (const suffix_rule& r : decompressible)
        if (ends_with_suffix(name, r.suffix)) return true;
    return false;
}

bool has_compressed_suffix(std::string_view name) {
    for (std::string_view s : compressed)
        if (ends_with_suffix(name, s)) return true;
    return false;
}

std::string_view base_name(std::string_view path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string flat_output_path(const std::string& dir, std::string_view name) {
    std::string out = dir;
    if (!out.ends_with('/')) out.push_back('/');
    out.append(base_name(name));
    return out;
}

std::optional<std::string> mirrored_output_path(const std::string& dir, std::string_view name) {
    for (std::size_t at = 0; at <= name.size();) {
        const std::size_t end = std::min(name.find('/', at), name.size());
        if (name.substr(at, end - at) == "..") return std::nullopt;
        at = end + 1;
    }
    while (name.starts_with('/')) name.remove_prefix(1);
    std::string out = dir;
    if (!out.ends_with('/')) out.push_back('/');
    out.append(name);
    return out;
}

void make_directories(const std::string& dir) {
    for (std::size_t at = 1; at <= dir.size(); ++at) {
        if (at < dir.size() && dir[at] != '/') continue;
        if (dir[at - 1] == '/') continue;  // "a//b", or a trailing '/'
        make_directory(dir.substr(0, at), 0777);
    }
}

void make_mirror_directories(const std::string& dir, std::string_view name) {
    make_directories(dir);
    const std::string_view parent = name.substr(0, name.size() - base_name(name).size());
    std::string out = dir;
    if (!out.ends_with('/')) out.push_back('/');
    // Each directory of the input's path, in turn: its mirror under `dir`
    // gets its permissions ("/" itself is not mirrored).
    for (std::size_t at = 1; at <= parent.size(); ++at) {
        if (at < parent.size() && parent[at] != '/') continue;
        if (parent[at - 1] == '/') continue;
        const std::string source(parent.substr(0, at));
        std::string_view relative = source;
        while (relative.starts_with('/')) relative.remove_prefix(1);
        struct stat st {};
        const mode_t mode = ::stat(source.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? st.st_mode & 07777 : 0755;
        make_directory(out + std::string(relative), mode);
    }
}

}  // namespace zest::cli
