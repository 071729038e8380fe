// Number, name and escaping helpers declared in ReportMarkdown.h, shared by the report and the comparison.
#include "reports/ReportMarkdown.h"
#include "reports/SvgFrame.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace gpueff::reports {

namespace {

std::string printf1(const char* format, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

// Cuts at a byte boundary that does not split a UTF-8 sequence.
std::string cutUtf8(std::string_view s, std::size_t max) {
    std::size_t cut = std::min(max, s.size());
    while (cut > 0 && cut < s.size() && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return std::string(s.substr(0, cut));
}

bool startsWith(std::string_view s, std::size_t at, std::string_view prefix) {
    return s.substr(at, prefix.size()) == prefix;
}

// The name up to its parameter list: the first '(' outside template arguments that does not open
// "(anonymous namespace)" or belong to "operator()".
std::string_view withoutParameters(std::string_view s) {
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (c == '(' && depth == 0) {
            if (startsWith(s, i, "(anonymous namespace)")) {
                i += std::string_view("(anonymous namespace)").size() - 1;
                continue;
            }
            if (i >= 8 && s.substr(i - 8, 8) == "operator") {
                ++i; // skip "()" of operator()
                continue;
            }
            if (i > 0) return s.substr(0, i);
        }
    }
    return s;
}

// Template arguments nested at depth >= `depth` replaced by "<…>".
std::string collapseTemplates(std::string_view s, int depth) {
    std::string out;
    int level = 0;
    for (char c : s) {
        if (c == '<') {
            ++level;
            if (level == depth) out += "<\xE2\x80\xA6>";
            if (level < depth) out += c;
        } else if (c == '>' && level > 0) {
            if (level < depth) out += c;
            --level;
        } else if (level < depth) {
            out += c;
        }
    }
    return out;
}

// Scans the qualified name at the start of s ("at::native::kernel" of "at::native::kernel<…>"): returns where
// it ends (its template or parameter list, a space, or the end) and sets `namespaces` to the position after
// its last "::". A component that opens with '<' or '(' is a namespace ("<unnamed>", "(anonymous
// namespace)"), not a list.
std::size_t qualifiedNameEnd(std::string_view s, std::size_t& namespaces) {
    namespaces = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        bool componentStart = i == 0 || (i >= 2 && s.substr(i - 2, 2) == "::");
        if ((c == '<' || c == '(') && componentStart) {
            auto close = s.find(c == '<' ? '>' : ')', i);
            if (close == std::string_view::npos) return s.size();
            i = close + 1;
        } else if (c == '<' || c == '(' || c == ' ') {
            return i;
        } else if (s.substr(i, 2) == "::") {
            namespaces = i += 2;
        } else {
            ++i;
        }
    }
    return i;
}

// Where the name proper begins after its namespaces, or 0.
std::size_t namespacesEnd(std::string_view s) {
    std::size_t namespaces = 0;
    qualifiedNameEnd(s, namespaces);
    return namespaces < s.size() ? namespaces : 0;
}

// The '<' that opens the name's template arguments, or npos.
std::size_t templateOpen(std::string_view s) {
    std::size_t namespaces = 0, end = qualifiedNameEnd(s, namespaces);
    return end < s.size() && s[end] == '<' ? end : std::string::npos;
}

// Namespace qualifiers dropped inside template arguments ("Tile<at::native::Op<…>>" -> "Tile<Op<…>>"): the
// kernel's own qualified name says where it lives; its arguments' namespaces rarely tell kernels apart.
std::string stripArgumentQualifiers(const std::string& s) {
    auto open = templateOpen(s);
    if (open == std::string::npos) return s;
    std::string out = s.substr(0, open);
    for (std::size_t i = open; i < s.size(); ++i) {
        if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
            while (!out.empty() &&
                   (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == '_'))
                out.pop_back();
            ++i;
            continue;
        }
        out += s[i];
    }
    return out;
}

// Characters (not bytes) of the longest run without a space.
std::size_t longestWord(std::string_view s) {
    std::size_t longest = 0, word = 0;
    for (char c : s) {
        if (c == ' ')
            word = 0;
        else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            longest = std::max(longest, ++word);
    }
    return longest;
}

} // namespace

std::string efficiencyColour(std::optional<double> f) {
    if (!f || !std::isfinite(*f)) return "";
    if (*f >= 0.8) return "\xF0\x9F\x9F\xA9"; // green square
    if (*f >= 0.7) return "\xF0\x9F\x9F\xA8"; // yellow square
    if (*f >= 0.6) return "\xF0\x9F\x9F\xA7"; // orange square
    return "\xF0\x9F\x9F\xA5";                // red square
}

std::string formatPercent(std::optional<double> f) {
    if (!f || !std::isfinite(*f)) return "n/a";
    return printf1("%.2f %%", *f * 100.0);
}

std::string formatEfficiency(std::optional<double> f) {
    if (!f || !std::isfinite(*f)) return "n/a";
    return efficiencyColour(f) + " " + formatPercent(f);
}

std::string formatDuration(std::optional<double> ns) {
    if (!ns || !std::isfinite(*ns)) return "n/a";
    // The unit of the rounded value: 999999999 ns is "1.000 s", not "1000.000 ms".
    double a = std::fabs(*ns);
    if (a < 999.5) return printf1("%.0f ns", *ns);
    if (a < 999999.5) return printf1("%.3f \xC2\xB5s", *ns / 1e3);
    if (a < 999999999.5) return printf1("%.3f ms", *ns / 1e6);
    return printf1("%.3f s", *ns / 1e9);
}

// Markdown's own specials get a backslash; <, > and & become the entities SVG text uses too, since
// GitHub renders inline HTML.
std::string escapeMarkdown(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (char c : s) {
        switch (c) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '~':
            out += '\\';
            out += c;
            break;
        case '\n':
        case '\r':
            out += ' ';
            break;
        case '<':
        case '>':
        case '&':
            out += svg::escapeXml(std::string_view(&c, 1));
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string codeSpan(std::string_view text) {
    std::string body(text);
    std::size_t run = 0, longest = 0;
    for (char& c : body) {
        if (c == '\n' || c == '\r') c = ' ';
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    // A space on each side when the text begins or ends with a backtick; Markdown strips one space there.
    bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " + body + " " : body) + fence;
}

std::string shortenKernelName(std::string_view name, std::size_t maxLength) {
    std::string_view s = name;
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    if (startsWith(s, 0, "void ")) s.remove_prefix(5);
    s = withoutParameters(s);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty()) s = name;
    std::string out(s);
    if (out.size() > maxLength) out = collapseTemplates(out, 2);
    if (out.size() > maxLength) out = stripArgumentQualifiers(out);
    if (out.size() > maxLength && maxLength > 1) out = cutUtf8(out, maxLength - 1) + "\xE2\x80\xA6";
    return out;
}

std::string shortenForTable(std::string_view name, std::size_t maxLength, std::size_t maxWord) {
    // Each step only while the name or a word is too long: the name's own namespaces first (what tells
    // kernels apart is at the end of a qualified name), then shortenKernelName's steps.
    std::string out = shortenKernelName(name, std::string::npos);
    if (out.size() > maxLength || longestWord(out) > maxWord) out.erase(0, namespacesEnd(out));
    out = shortenKernelName(out, maxLength);
    if (longestWord(out) > maxWord) out = collapseTemplates(out, 2);
    if (longestWord(out) > maxWord) out = stripArgumentQualifiers(out);
    std::size_t word = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == ' ') {
            word = 0;
        } else if ((static_cast<unsigned char>(out[i]) & 0xC0) != 0x80 && ++word > maxWord) {
            // out[i] starts the word's (maxWord + 1)-th character: it and the rest give way to "…".
            bool cutBefore = i >= 3 && out.compare(i - 3, 3, "\xE2\x80\xA6") == 0; // no "……"
            return out.substr(0, cutBefore ? i - 3 : i) + "\xE2\x80\xA6";
        }
    }
    return out;
}

std::string formatCount(std::optional<double> v) {
    if (!v) return "n/a";
    return std::to_string(std::llround(*v));
}

std::string formatFixed(std::optional<double> v, const char* format) {
    if (!v) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, *v);
    return buffer;
}

} // namespace gpueff::reports
