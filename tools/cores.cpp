// Core counts for -T0 (cores.hpp).
#include "cores.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <utility>

namespace zest::cli {
namespace {

// The CPUs of a sysfs list such as "0-3,6,8-9", in order; empty when the
// text is not such a list.
std::set<unsigned> cpu_list(const std::string& text) {
    std::set<unsigned> cpus;
    std::size_t i = 0;
    const auto number = [&](unsigned& v) {
        if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
        v = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            v = v * 10 + unsigned(text[i] - '0');
            if (v > 1u << 20) return false;
        }
        return true;
    };
    while (i < text.size() && text[i] != '\n') {
        unsigned a = 0, b = 0;
        if (!number(a)) return {};
        b = a;
        if (i < text.size() && text[i] == '-') {
            ++i;
            if (!number(b) || b < a) return {};
        }
        for (unsigned c = a; c <= b; ++c) cpus.insert(c);
        if (i < text.size() && text[i] == ',') ++i;
    }
    return cpus;
}

bool read_line(const std::string& path, std::string& out) {
    std::ifstream f(path);
    return f && std::getline(f, out) && !out.empty();
}

}  // namespace

unsigned logical_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

unsigned physical_cores() {
    const std::string root = "/sys/devices/system/cpu/";
    std::string online;
    if (!read_line(root + "online", online)) return logical_cores();
    const std::set<unsigned> cpus = cpu_list(online);
    std::set<std::pair<std::string, std::string>> cores;
    for (const unsigned c : cpus) {
        const std::string topo = root + "cpu" + std::to_string(c) + "/topology/";
        std::string package, core;
        if (!read_line(topo + "physical_package_id", package) || !read_line(topo + "core_id", core))
            return logical_cores();
        cores.emplace(package, core);
    }
    return cores.empty() ? logical_cores() : unsigned(cores.size());
}

}  // namespace zest::cli
