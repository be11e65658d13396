#include <array>
#include <cctype>
#include <string>

#include "data/data.hpp"
#include "data/rng.hpp"

namespace zest_bench {
namespace {

// The most frequent English words, roughly in frequency order; the Zipf draw
// gives them the head of the distribution, as in real prose.
const char* const common_words[] = {
    "the", "of", "and", "to", "a", "in", "that", "is", "was", "he", "for", "it", "with", "as",
    "his", "on", "be", "at", "by", "i", "this", "had", "not", "are", "but", "from", "or", "have",
    "an", "they", "which", "one", "you", "were", "her", "all", "she", "there", "would", "their",
    "we", "him", "been", "has", "when", "who", "will", "more", "no", "if", "out", "so", "said",
    "what", "up", "its", "about", "into", "than", "them", "can", "only", "other", "new", "some",
    "could", "time", "these", "two", "may", "then", "do", "first", "any", "my", "now", "such",
    "like", "our", "over", "man", "me", "even", "most", "made", "after", "also", "did", "many",
    "before", "must", "through", "back", "years", "where", "much", "your", "way", "well", "down",
    "should", "because", "each", "just", "those", "people", "how", "too", "little", "state",
    "good", "very", "make", "world", "still", "own", "see", "men", "work", "long", "get", "here",
    "between", "both", "life", "being", "under", "never", "day", "same", "another", "know",
    "while", "last", "might", "us", "great", "old", "year", "off", "come", "since", "against",
    "go", "came", "right", "used", "take", "three", "himself", "few", "house", "use", "during",
    "without", "again", "place", "around", "however", "home", "small", "found", "thought",
    "went", "say", "part", "once", "general", "high", "upon", "school", "every", "does", "got",
    "united", "left", "number", "course", "war", "until", "always", "away", "something", "fact",
    "though", "water", "less", "public", "put", "think", "almost", "hand", "enough", "far",
    "took", "head", "yet", "government", "system", "better", "set", "told", "nothing", "night",
    "end", "why", "called", "didn", "eyes", "find", "going", "look", "asked", "later", "knew",
    "point", "next", "program", "city", "business", "give", "group", "toward", "young", "days",
    "let", "room", "president", "side", "social", "present", "given", "several", "order",
    "national", "possible", "rather", "second", "face", "per", "among", "form", "important",
    "often", "things", "looked", "early", "white", "case", "john", "become", "large", "big",
    "need", "four", "within", "felt", "along", "children", "saw", "best", "church", "ever",
    "least", "power", "development", "light", "thing", "seemed", "family", "interest", "want",
    "members", "mind", "country", "area", "others", "although", "turned", "done", "open",
};

// Frequent multi-word phrases: real prose repeats these, which is where LZ
// matches longer than one word come from.
const char* const phrases[] = {
    "of the", "in the", "to the", "on the", "and the", "for the", "at the", "from the",
    "it was", "there was", "he had", "one of the", "as well as", "at the same time",
    "in order to", "on the other hand", "for the first time", "the end of the",
    "in the middle of", "as a result of", "it is not", "there is no", "he said", "she said",
    "at least", "out of the", "by the way", "in spite of", "the rest of the", "no longer",
};

const char* const onsets[] = {"b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t",
                              "v", "w", "br", "ch", "cl", "cr", "dr", "fl", "gr", "pl", "pr",
                              "sh", "sl", "st", "str", "th", "tr", "wh", "", "", ""};
const char* const nuclei[] = {"a", "e", "i", "o", "u", "a", "e", "i", "o", "ea",
                              "ee", "ou", "ai", "oa", "ie", "y", "e", "a"};
const char* const codas[] = {"", "", "", "n", "r", "s", "t", "l", "nd", "nt", "st",
                             "ck", "ng", "rd", "m", "th", "ss", "ll", "rt", "x"};
const char* const suffixes[] = {"", "", "", "", "", "s", "ed", "ing", "ly", "er", "tion",
                                "ness", "ment", "al", "ous", "ity", "ful", "able"};

std::string pseudo_word(rng& r) {
    std::string w;
    const int syllables = 1 + static_cast<int>(r.below(3)) + (r.chance(0.2) ? 1 : 0);
    for (int i = 0; i < syllables; ++i) {
        w += pick(r, onsets);
        w += pick(r, nuclei);
        if (i + 1 == syllables || r.chance(0.3)) w += pick(r, codas);
    }
    w += pick(r, suffixes);
    return w;
}

std::string roman(int n) {
    static const struct { int v; const char* s; } table[] = {
        {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}};
    std::string out;
    for (const auto& t : table)
        while (n >= t.v) out += t.s, n -= t.v;
    return out;
}

}  // namespace

bytes make_text(std::size_t size, std::uint64_t seed) {
    rng r(seed);
    std::vector<std::string> vocabulary(std::begin(common_words), std::end(common_words));
    const std::size_t tail = 12000;
    for (std::size_t i = 0; i < tail; ++i) vocabulary.push_back(pseudo_word(r));
    const zipf word_rank(vocabulary.size(), 1.05);
    // Each word has a few favourite successors, so word pairs recur the way
    // collocations do in real prose (a unigram draw alone repeats too little).
    std::vector<std::array<std::uint32_t, 4>> successors(vocabulary.size());
    for (auto& next : successors)
        for (auto& n : next) n = static_cast<std::uint32_t>(word_rank(r));

    bytes out;
    out.reserve(size + 256);
    std::string line;
    int chapter = 0;
    const auto flush_line = [&] {
        line += '\n';
        append(out, line);
        line.clear();
    };
    const auto emit_word = [&](const std::string& w) {
        if (!line.empty() && line.size() + 1 + w.size() > 72) flush_line();
        if (!line.empty()) line += ' ';
        line += w;
    };

    while (out.size() < size) {
        if (r.chance(0.02) || out.empty()) {
            append(out, "CHAPTER " + roman(++chapter % 60 + 1) + ".\n\n");
        }
        const int sentences = static_cast<int>(r.between(2, 9));
        for (int s = 0; s < sentences; ++s) {
            const int words = static_cast<int>(r.between(4, 16) + r.between(0, 12));
            bool capital = true;
            std::size_t previous = vocabulary.size();  // none yet
            for (int i = 0; i < words; ++i) {
                std::string w;
                if (r.chance(0.08)) {
                    previous = vocabulary.size();
                    w = pick(r, phrases);
                } else if (r.chance(0.01)) {
                    w = std::to_string(r.chance(0.5) ? r.between(1700, 2024) : r.between(2, 500));
                } else {
                    previous = previous < vocabulary.size() && r.chance(0.45)
                                   ? successors[previous][r.below(4)]
                                   : word_rank(r);
                    w = vocabulary[previous];
                    if (w == "i") w = "I";
                    if (r.chance(0.025)) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));  // names
                }
                if (capital) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
                capital = false;
                if (i + 1 < words && r.chance(0.07)) w += r.chance(0.85) ? "," : ";";
                if (i + 1 == words) {
                    const double p = r.unit();
                    w += p < 0.86 ? "." : p < 0.95 ? "?" : "!";
                }
                emit_word(w);
            }
        }
        if (!line.empty()) flush_line();
        out.push_back(std::byte{'\n'});
    }
    out.resize(size);
    return out;
}

}  // namespace zest_bench
