#include <string>
#include <vector>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

// An XML export of a shop's product catalogue, the kind a PIM system or a
// marketplace feed produces: categories holding products, each with prices,
// stock, specifications, images and customer reviews.

const char* const categories[] = {
    "Kitchen &amp; Dining", "Home Office", "Garden &amp; Outdoor", "Lighting", "Bathroom",
    "Tools &amp; Hardware", "Sports &amp; Fitness", "Camping", "Toys &amp; Games", "Pet Supplies",
    "Audio", "Computer Accessories", "Storage &amp; Organisation", "Bedding", "Travel"};
const char* const brands[] = {
    "Nordvik", "Acme", "Kessler &amp; S&#246;hne", "BlueRidge", "Hartmann", "Solano", "Vantage",
    "Ostara", "Pinecrest", "Lumeo", "Brightwell", "Tundra Gear", "Marlowe", "Caspian", "Fennick",
    "Orla", "Quill &amp; Co.", "Redwood", "Sabel", "Zephyr"};
const char* const adjectives[] = {
    "Classic", "Compact", "Premium", "Foldable", "Adjustable", "Portable", "Heavy-Duty",
    "Ergonomic", "Wireless", "Rechargeable", "Stackable", "Waterproof", "Lightweight", "Deluxe",
    "Minimalist", "Insulated", "Non-Slip", "Reversible", "Modular", "Vintage"};
const char* const materials[] = {
    "Stainless Steel", "Bamboo", "Oak", "Aluminium", "Cotton", "Ceramic", "Glass", "Silicone",
    "Leather", "Linen", "Walnut", "Cast Iron", "Recycled Plastic", "Wool", "Copper"};
const char* const nouns[] = {
    "Chef Knife", "Cutting Board", "Desk Lamp", "Storage Box", "Water Bottle", "Backpack",
    "Cookware Set", "Office Chair", "Floor Lamp", "Shelf", "Blanket", "Pillow", "Tent",
    "Headphones", "Keyboard", "Mouse Pad", "Dog Bed", "Laundry Basket", "Towel Set", "Kettle",
    "Coffee Grinder", "Planter", "Garden Hose", "Yoga Mat", "Dumbbell Set", "Suitcase",
    "Bluetooth Speaker", "Monitor Stand", "Drawer Organiser", "Picnic Set"};
const char* const colors[] = {"black", "white", "grey", "navy", "red", "green", "natural",
                              "sand", "charcoal", "olive", "blue", "silver"};
const char* const warehouses[] = {"DE-FRA-2", "DE-HAM-1", "NL-AMS-1", "FR-LYS-3", "PL-WAW-1",
                                  "ES-MAD-2"};
const char* const statuses[] = {"active", "active", "active", "active", "active", "active",
                                "discontinued", "preorder", "draft"};

// Words of product copy and review text, most frequent first so the Zipf
// draw favours them the way real copy does.
const char* const words[] = {
    "the", "and", "a", "for", "with", "to", "of", "is", "it", "in", "this", "your", "great",
    "easy", "quality", "use", "very", "design", "made", "perfect", "product", "on", "not", "but",
    "good", "price", "my", "durable", "clean", "we", "size", "I", "comfortable", "from", "as",
    "stylish", "home", "everyday", "that", "fits", "love", "would", "recommend", "well", "after",
    "weeks", "colour", "sturdy", "feels", "than", "expected", "delivery", "fast", "little", "bit",
    "small", "large", "works", "nice", "looks", "handle", "surface", "space", "kitchen", "office",
    "garden", "travel", "storage", "heat", "water", "resistant", "dishwasher", "safe", "finish",
    "material", "soft", "solid", "practical", "every", "day", "all", "features", "includes",
    "guarantee", "years", "warranty", "natural", "handmade", "sustainable", "sourced",
    "responsibly", "compact", "lightweight", "carry", "assembly", "required", "minutes",
    "instructions", "clear", "packaging", "arrived", "damaged", "replacement", "quickly",
    "customer", "service", "helpful", "returned", "smaller", "bigger", "pictures",
    "exactly", "described", "value", "money", "bought", "second", "one", "gift", "family",
    "friends", "kids", "dog", "cat", "outdoor", "indoor", "winter", "summer", "battery", "lasts",
    "hours", "charge", "cable", "included", "sound", "light", "bright", "warm", "cool", "quiet",
    "noise", "smell", "strong", "first", "wash", "machine", "washable", "hand", "only", "also"};

// Appends every piece to `out`. Pieces are evaluated in an unspecified
// order, so callers make their random draws first, in separate statements,
// to get the same bytes from every compiler.
template <class... Pieces>
void add(std::string& out, const Pieces&... pieces) {
    (out += ... += pieces);
}

// Rarer words of the copy (model names, features, jargon): pronounceable
// pseudo-words built from syllables, forming the long tail of the vocabulary.
std::string rare_word(rng& r) {
    static const char* const heads[] = {"b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s",
                                        "t", "v", "z", "br", "cr", "fl", "gr", "pr", "st", "tr", "sh"};
    static const char* const vowels[] = {"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou"};
    static const char* const tails[] = {"", "", "n", "r", "s", "t", "x", "l", "m", "nd", "rk", "ft"};
    std::string w;
    const auto syllables = r.between(2, 3);
    for (std::int64_t i = 0; i < syllables; ++i) {
        w += pick(r, heads);
        w += pick(r, vowels);
    }
    w += pick(r, tails);
    return w;
}

// Appends `v` with at least two digits.
void add_two(std::string& out, std::uint64_t v) {
    if (v < 10) out += '0';
    out += std::to_string(v);
}

// Appends day `day` counted from 2020-01-01 as YYYY-MM-DD.
void add_date(std::string& out, unsigned day) {
    unsigned year = 2020;
    for (;;) {
        const unsigned len = year % 4 == 0 ? 366 : 365;  // valid for 1901..2099
        if (day < len) break;
        day -= len;
        ++year;
    }
    const unsigned month_len[] = {31, year % 4 == 0 ? 29u : 28u, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    unsigned month = 0;
    while (day >= month_len[month]) day -= month_len[month++];
    out += std::to_string(year);
    out += '-';
    add_two(out, month + 1);
    out += '-';
    add_two(out, day + 1);
}

// Appends an ISO 8601 UTC timestamp on day `day` at a random second.
void add_timestamp(std::string& out, rng& r, unsigned day) {
    const std::uint64_t second_of_day = r.below(86400);
    add_date(out, day);
    out += 'T';
    add_two(out, second_of_day / 3600);
    out += ':';
    add_two(out, second_of_day / 60 % 60);
    out += ':';
    add_two(out, second_of_day % 60);
    out += 'Z';
}

// Shop prices in cents: mostly ending in .99, .95, .90, .49 or .00.
std::int64_t price_cents(rng& r) {
    static const int endings[] = {99, 99, 95, 90, 49, 0, 50};
    const std::int64_t euros = r.chance(0.7) ? r.between(2, 99) : r.between(100, 1499);
    return 100 * euros + pick(r, endings);
}

void add_money(std::string& out, std::int64_t cents) {
    out += std::to_string(cents / 100);
    out += '.';
    add_two(out, static_cast<std::uint64_t>(cents % 100));
}

}  // namespace

bytes make_markup(std::size_t size, std::uint64_t seed) {
    rng r(seed);
    std::vector<std::string> vocabulary(std::begin(words), std::end(words));
    for (int i = 0; i < 3000; ++i) vocabulary.push_back(rare_word(r));
    const zipf word_rank(vocabulary.size(), 1.0);
    const zipf brand_rank(std::size(brands), 0.9);
    const zipf color_rank(std::size(colors), 1.0);
    const zipf reviewer(30000, 1.05);

    std::string text;
    text.reserve(size + 4096);
    // One sentence of product copy or review text.
    const auto add_sentence = [&](int min_words, int max_words) {
        const auto n = r.between(min_words, max_words);
        for (std::int64_t i = 0; i < n; ++i) {
            if (i > 0) text += r.chance(0.06) ? ", " : " ";
            if (r.chance(0.03)) {  // a measurement
                text += std::to_string(r.between(2, 60));
                if (r.chance(0.5)) text += " cm";
                continue;
            }
            const std::string& w = vocabulary[word_rank(r)];
            if (i == 0 && w[0] >= 'a' && w[0] <= 'z') {
                text += static_cast<char>(w[0] - 'a' + 'A');
                text.append(w, 1);
            } else {
                text += w;
            }
        }
        text += r.chance(0.9) ? "." : "!";
    };

    text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    text += "<catalog xmlns=\"urn:example:catalog:2.1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            " exported=\"2024-05-14T03:00:00Z\" source=\"pim-export\" locale=\"en_GB\">\n";
    std::uint64_t product_id = 1004213;
    std::uint64_t review_id = 5000000;
    unsigned category_id = 0;
    while (text.size() < size) {
        const std::size_t cat = r.below(std::size(categories));
        add(text, "  <category id=\"c", std::to_string(++category_id), "\" name=\"", categories[cat],
            "\" parent=\"c", std::to_string(1 + cat % 4), "\">\n");
        const auto products = r.between(3, 40);
        for (std::int64_t p = 0; p < products && text.size() < size; ++p) {
            product_id += 1 + (r.chance(0.2) ? r.below(30) : 0);
            const std::string id = std::to_string(product_id);
            const auto created = static_cast<unsigned>(r.between(0, 1550));
            const char* const brand = brands[brand_rank(r)];
            const char* const color = colors[color_rank(r)];
            const char* const material = pick(r, materials);
            const char* const noun = pick(r, nouns);
            const char* const adjective = pick(r, adjectives);
            const char* const status = pick(r, statuses);

            // <product id="P-1004214" sku="ID-22567-B" ...>: the SKU encodes
            // category, product line, a number and the colour.
            const char sku_line[] = {static_cast<char>('A' + cat), static_cast<char>('A' + r.below(26)), '\0'};
            const std::string sku_number = std::to_string(r.between(10000, 99999));
            const char sku_color[] = {static_cast<char>(color[0] - 'a' + 'A'), '\0'};
            add(text, "    <product id=\"P-", id, "\" sku=\"", sku_line, "-", sku_number, "-", sku_color,
                "\" status=\"", status, "\" created=\"");
            add_date(text, created);
            text += "\">\n";

            add(text, "      <title>", adjective, " ", material, " ", noun);
            if (r.chance(0.4)) add(text, ", ", std::to_string(r.between(1, 12) * 10), " cm");
            text += "</title>\n";
            add(text, "      <brand>", brand, "</brand>\n");
            add(text, "      <gtin>40", std::to_string(r.between(10000000000, 99999999999)), "</gtin>\n");

            const std::int64_t cents = price_cents(r);
            add(text, "      <price currency=\"EUR\" vat=\"", r.chance(0.9) ? "19" : "7", "\">");
            add_money(text, cents);
            text += "</price>\n";
            if (r.chance(0.2)) {
                text += "      <sale_price currency=\"EUR\">";
                add_money(text, cents * r.between(50, 90) / 100);
                text += "</sale_price>\n";
            }
            const std::uint64_t stock = r.chance(0.1) ? 0 : r.below(500);
            const char* const state = stock == 0 ? (r.chance(0.7) ? "out_of_stock" : "backorder")
                                      : stock < 20 ? "low_stock"
                                                   : "in_stock";
            const char* const warehouse = pick(r, warehouses);
            add(text, "      <availability stock=\"", std::to_string(stock), "\" warehouse=\"", warehouse, "\">",
                state, "</availability>\n");
            text += "      <updated>";
            add_timestamp(text, r, created + static_cast<unsigned>(r.below(200)));
            text += "</updated>\n";

            // Copy written in an editor that wraps it in CDATA, or escaped.
            const bool cdata = r.chance(0.25);
            text += cdata ? "      <description><![CDATA[<p>" : "      <description>";
            const auto sentences = r.between(1, 4);
            for (std::int64_t s = 0; s < sentences; ++s) {
                if (s > 0) text += ' ';
                add_sentence(6, 18);
            }
            if (!cdata && r.chance(0.2)) add(text, " Made of &quot;", material, "&quot; &#8211; ", color, ".");
            text += cdata ? "</p>]]></description>\n" : "</description>\n";

            text += "      <specs>\n";
            add(text, "        <spec name=\"color\">", color, "</spec>\n");
            add(text, "        <spec name=\"material\">", material, "</spec>\n");
            if (r.chance(0.8))
                add(text, "        <spec name=\"weight\" unit=\"g\">", std::to_string(r.between(50, 12000)), "</spec>\n");
            if (r.chance(0.6)) {
                const auto w = r.between(5, 120);
                const auto d = r.between(5, 120);
                const auto h = r.between(1, 80);
                add(text, "        <spec name=\"dimensions\" unit=\"cm\">", std::to_string(w), " x ",
                    std::to_string(d), " x ", std::to_string(h), "</spec>\n");
            }
            if (r.chance(0.3))
                add(text, "        <spec name=\"warranty\" unit=\"years\">", std::to_string(r.between(1, 5)), "</spec>\n");
            text += "      </specs>\n";

            const auto images = r.between(1, 4);
            text += "      <images>\n";
            for (std::int64_t i = 1; i <= images; ++i)
                add(text, "        <image url=\"https://cdn.example.com/catalog/P-", id, "/", std::to_string(i),
                    ".jpg\" width=\"1200\" height=\"", r.chance(0.7) ? "1200" : "900", "\"",
                    i == 1 ? " primary=\"true\"" : "", "/>\n");
            text += "      </images>\n";

            const auto reviews = r.chance(0.4) ? 0 : r.between(1, r.chance(0.2) ? 8 : 3);
            if (reviews == 0) {
                text += "      <reviews count=\"0\"/>\n";
                text += "    </product>\n";
                continue;
            }
            add(text, "      <reviews count=\"", std::to_string(reviews), "\">\n");
            for (std::int64_t i = 0; i < reviews; ++i) {
                review_id += 1 + r.below(50);
                const auto rating = r.chance(0.6) ? 5 : r.between(1, 4);
                add(text, "        <review id=\"R-", std::to_string(review_id), "\" rating=\"", std::to_string(rating),
                    "\" verified=\"", r.chance(0.8) ? "true" : "false", "\">\n");
                add(text, "          <author>customer", std::to_string(reviewer(r) * 7 + 1000), "</author>\n");
                text += "          <date>";
                add_date(text, created + static_cast<unsigned>(r.between(10, 400)));
                text += "</date>\n";
                text += "          <text>";
                add_sentence(3, 14);
                if (r.chance(0.5)) {
                    text += ' ';
                    add_sentence(3, 14);
                }
                text += "</text>\n";
                text += "        </review>\n";
            }
            text += "      </reviews>\n";
            text += "    </product>\n";
        }
        text += "  </category>\n";
    }
    text.resize(size);
    bytes out;
    out.reserve(size);
    append(out, text);
    return out;
}

}  // namespace zest_bench
