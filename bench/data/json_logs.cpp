#include <cstdio>
#include <string>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

const char* const services[] = {"api-gateway", "checkout", "inventory", "auth", "search",
                                "payments", "notifications", "recommendations", "cart",
                                "shipping", "user-profile", "pricing"};
const char* const levels[] = {"INFO", "DEBUG", "WARN", "ERROR"};
const char* const methods[] = {"GET", "GET", "GET", "POST", "GET", "PUT", "DELETE", "POST", "PATCH"};
const char* const resources[] = {"users", "orders", "items", "carts", "sessions", "products",
                                 "payments", "addresses", "reviews", "shipments"};
const char* const messages[] = {"request completed", "request completed", "request completed",
                                "cache hit", "cache miss", "upstream call finished",
                                "token refreshed", "retrying request", "slow query detected",
                                "connection pool exhausted", "rate limit applied"};
const char* const errors[] = {
    "context deadline exceeded", "connection refused", "upstream returned 503 Service Unavailable",
    "invalid token signature", "duplicate key value violates unique constraint \\\"orders_pkey\\\"",
    "read tcp 10.0.4.12:443: i/o timeout"};
const char* const agents[] = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "okhttp/4.12.0", "python-requests/2.31.0", "Go-http-client/2.0", "curl/8.4.0"};
const int statuses[] = {200, 200, 200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 404, 409, 500, 503};

std::string hex(rng& r, int digits) {
    static const char* const d = "0123456789abcdef";
    std::string s;
    std::uint64_t v = 0;
    for (int i = 0; i < digits; ++i) {
        if (i % 16 == 0) v = r.next();
        s += d[v & 15];
        v >>= 4;
    }
    return s;
}

}  // namespace

bytes make_json_logs(std::size_t size, std::uint64_t seed) {
    rng r(seed);
    const zipf service_rank(std::size(services), 0.8);
    const zipf level_rank(std::size(levels), 2.2);
    const zipf resource_rank(std::size(resources), 1.0);
    const zipf user_rank(20000, 1.1);
    std::uint64_t ms = 1715678493000ull;  // 2024-05-14
    std::string text;
    text.reserve(size + 1024);
    char buf[128];
    while (text.size() < size) {
        ms += r.below(40);
        const std::uint64_t secs = ms / 1000;
        const std::uint64_t day = secs / 86400, sod = secs % 86400;
        std::snprintf(buf, sizeof buf, "2024-05-%02uT%02u:%02u:%02u.%03uZ", unsigned(14 + day % 14),
                      unsigned(sod / 3600), unsigned(sod / 60 % 60), unsigned(sod % 60), unsigned(ms % 1000));
        const std::string ts(buf);
        const std::size_t svc = service_rank(r);
        const std::string level = levels[level_rank(r)];
        const int instance = static_cast<int>(r.below(3 + svc % 5));
        std::snprintf(buf, sizeof buf, "ip-10-0-%u-%u", unsigned(svc), unsigned(10 + instance * 7));
        // One draw per statement: the operands of + are evaluated in an
        // unspecified order, and the data must not depend on the compiler.
        const std::string trace_id = hex(r, 32);
        const std::string span_id = hex(r, 16);
        std::string line = "{\"ts\":\"";
        line += ts;
        line += "\",\"level\":\"";
        line += level;
        line += "\",\"service\":\"";
        line += services[svc];
        line += "\",\"host\":\"";
        line += buf;
        line += "\",\"pid\":";
        line += std::to_string(1000 + svc * 131 + static_cast<std::size_t>(instance) * 17);
        line += ",\"trace_id\":\"";
        line += trace_id;
        line += "\",\"span_id\":\"";
        line += span_id;
        line += "\"";
        if (r.chance(0.8)) {
            const int status = pick(r, statuses);
            const auto version = r.below(2);
            std::string path = "/api/v";
            path += std::to_string(1 + version);
            path += "/";
            path += resources[resource_rank(r)];
            if (r.chance(0.7)) {
                path += "/";
                path += std::to_string(user_rank(r) * 37 + 1000);
            }
            if (r.chance(0.4)) {
                path += "/";
                path += resources[resource_rank(r)];
            }
            const double u1 = r.unit();
            const double u2 = r.unit();
            std::snprintf(buf, sizeof buf, "%.2f", 0.3 + u1 * u2 * 250.0);
            const char* method = pick(r, methods);
            const auto bytes_out = r.below(status == 204 ? 1 : 40000);
            line += ",\"http\":{\"method\":\"";
            line += method;
            line += "\",\"path\":\"";
            line += path;
            line += "\",\"status\":";
            line += std::to_string(status);
            line += ",\"duration_ms\":";
            line += buf;
            line += ",\"bytes_out\":";
            line += std::to_string(bytes_out);
            line += "}";
            if (r.chance(0.3)) {
                line += ",\"user_agent\":\"";
                line += pick(r, agents);
                line += "\"";
            }
            if (r.chance(0.6)) {
                line += ",\"user_id\":";
                line += std::to_string(user_rank(r) + 100000);
            }
        }
        line += ",\"msg\":\"";
        line += pick(r, messages);
        line += "\"";
        if (level == "ERROR" || level == "WARN") {
            line += ",\"error\":\"";
            line += pick(r, errors);
            const auto retry = r.below(4);
            line += "\",\"retry\":";
            line += std::to_string(retry);
        }
        line += "}\n";
        text += line;
    }
    text.resize(size);
    bytes out;
    append(out, text);
    return out;
}

}  // namespace zest_bench
