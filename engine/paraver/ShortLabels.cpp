#include "engine/paraver/ShortLabels.h"

#include "engine/paraver/EventTypes.h"
#include "engine/paraver/TraceLabels.h"

#include <map>
#include <set>

namespace gpueff::paraver {

namespace {

bool identifierChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

bool wordAt(std::string_view s, std::size_t i, std::string_view word) {
    if (s.substr(i, word.size()) != word) return false;
    bool before = i == 0 || !identifierChar(s[i - 1]);
    bool after = i + word.size() >= s.size() || !identifierChar(s[i + word.size()]);
    return before && after;
}

// How deep in brackets ((), <>, []) each character of a demangled name lies; a bracket counts as outside
// its own group. `operator<`, `operator()` and `->` are not brackets. Empty when the brackets do not pair.
std::vector<int> bracketDepths(std::string_view s) {
    std::vector<int> depth(s.size(), 0);
    std::string open;
    auto closes = [](char o, char c) {
        return (o == '(' && c == ')') || (o == '<' && c == '>') || (o == '[' && c == ']');
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const int d = static_cast<int>(open.size());
        if (wordAt(s, i, "operator")) {
            std::size_t j = i + 8;
            while (j < s.size() && s[j] == ' ') ++j;
            if (s.substr(j, 2) == "()" || s.substr(j, 2) == "[]")
                j += 2;
            else
                while (j < s.size() &&
                       std::string_view("<>=!+-*/%^&|~,").find(s[j]) != std::string_view::npos)
                    ++j;
            for (std::size_t k = i; k < j; ++k) depth[k] = d;
            i = j - 1;
            continue;
        }
        char c = s[i];
        if (c == '(' || c == '<' || c == '[') {
            depth[i] = d;
            open.push_back(c);
        } else if ((c == ')' || c == ']' || c == '>') && !(c == '>' && i > 0 && s[i - 1] == '-')) {
            if (open.empty() || !closes(open.back(), c)) return {};
            open.pop_back();
            depth[i] = d - 1;
        } else {
            depth[i] = d;
        }
    }
    if (!open.empty()) return {};
    return depth;
}

// `s` cut to at most kMaxShortName bytes (on a UTF-8 character boundary, "..." marking the cut).
std::string capped(std::string s) {
    if (s.size() <= kMaxShortName) return s;
    std::size_t n = kMaxShortName - 3;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    s.resize(n);
    return s + "...";
}

// A name that cannot be read as C++: what comes before its first bracket of Paraver's short form.
std::string fallbackShortName(std::string_view full) {
    auto cut = full.find_first_of("[]");
    std::string s(full.substr(0, cut));
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.empty() ? "kernel" : capped(s);
}

bool builtinType(std::string_view word) {
    static const std::set<std::string_view> builtins = {
        "bool",    "char",    "short",   "int",     "long",     "float",    "double",   "void",
        "half",    "__half",  "wchar_t", "char8_t", "char16_t", "char32_t", "size_t",   "int8_t",
        "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "__int128"};
    return builtins.count(word) > 0;
}

// The function or type a template argument names: the last identifier of its leading qualified name
// (`at::native::FillFunctor<c10::Half>` -> FillFunctor, `void ns::impl<...>(...)` -> impl,
// `advec_mom_kernel(int, ...)` -> advec_mom_kernel); empty for a number, a cast, a built-in type.
std::string argumentName(std::string_view arg) {
    std::size_t i = 0;
    auto skipSpaces = [&] {
        while (i < arg.size() && arg[i] == ' ') ++i;
    };
    auto identifier = [&] {
        std::size_t b = i;
        while (i < arg.size() && identifierChar(arg[i])) ++i;
        return arg.substr(b, i - b);
    };
    auto anonymous = [&] {
        for (std::string_view a : {"<unnamed>", "(anonymous namespace)"})
            if (arg.substr(i, a.size()) == a) {
                i += a.size();
                return true;
            }
        return false;
    };
    std::string_view last;
    for (;;) {
        skipSpaces();
        if (anonymous()) break;
        auto word = identifier();
        if (word.empty() || (word[0] >= '0' && word[0] <= '9')) return "";
        static const std::set<std::string_view> qualifiers = {"const", "volatile", "struct",   "class",
                                                              "enum",  "typename", "unsigned", "signed"};
        bool prefix = qualifiers.count(word) || word == "void";
        if (prefix && i < arg.size() && arg[i] == ' ') continue; // a qualifier or a return type
        last = word;
        break;
    }
    while (arg.substr(i, 2) == "::") {
        i += 2;
        if (anonymous()) continue;
        auto word = identifier();
        if (word.empty()) break;
        last = word;
    }
    return last.empty() || builtinType(last) ? "" : std::string(last);
}

} // namespace

std::string shortKernelName(std::string_view full) {
    auto depth = bracketDepths(full);
    if (depth.size() != full.size()) return fallbackShortName(full);
    // The parameter list: the first top-level "(...)" not followed by "::" ("(anonymous namespace)::f()").
    std::size_t nameEnd = full.size();
    for (std::size_t i = 0; i < full.size(); ++i) {
        if (depth[i] != 0 || full[i] != '(') continue;
        std::size_t close = i + 1;
        while (close < full.size() && !(depth[close] == 0 && full[close] == ')')) ++close;
        if (full.substr(close + 1, 2) != "::") {
            nameEnd = i;
            break;
        }
        i = close;
    }
    // The last top-level word (no return type, when there is a parameter list: "CUDA graph 5" is not C++),
    // then its last top-level "::" component.
    const bool function = nameEnd < full.size();
    std::size_t begin = 0;
    for (std::size_t i = 0; i < nameEnd; ++i) {
        if (depth[i] != 0) continue;
        if (full[i] == ' ' && function && i + 1 < nameEnd) begin = i + 1;
        if (full[i] == ':' && i + 2 < nameEnd && full[i + 1] == ':') begin = i + 2;
    }
    std::size_t lt = begin;
    while (lt < nameEnd && !(depth[lt] == 0 && full[lt] == '<')) ++lt;
    std::string base(full.substr(begin, lt - begin));
    while (!base.empty() && base.back() == ' ') base.pop_back();
    if (base.empty() || base.find_first_of("[]<>() ") != std::string::npos) return fallbackShortName(full);
    // The first template argument that names something.
    std::string hint;
    for (std::size_t a = lt + 1; lt < nameEnd && a < nameEnd && hint.empty();) {
        std::size_t e = a;
        // Arguments are separated by commas inside the group and end at its closing '>' (outside it).
        while (e < nameEnd && !(depth[e] == 1 && full[e] == ',') && !(depth[e] == 0 && full[e] == '>')) ++e;
        hint = argumentName(full.substr(a, e - a));
        if (e >= nameEnd || full[e] == '>') break;
        a = e + 1;
    }
    return capped(hint.empty() ? base : base + "<" + hint + ">");
}

std::vector<std::string> shortLabels(const std::vector<std::string>& fullNames) {
    std::vector<std::string> shorts;
    std::map<std::string, std::size_t> count;
    for (const auto& name : fullNames) ++count[shorts.emplace_back(shortKernelName(name))];
    // Labels already taken: the short names that are unique as they are.
    std::set<std::string> taken;
    for (const auto& [s, n] : count)
        if (n == 1) taken.insert(s);
    std::map<std::string, std::size_t> numbered;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < fullNames.size(); ++i) {
        std::string label = shorts[i];
        if (count[label] > 1) {
            do {
                label = shorts[i] + " #" + std::to_string(++numbered[shorts[i]]);
            } while (!taken.insert(label).second);
        }
        labels.push_back(label == fullNames[i] ? label : label + " [" + fullNames[i] + "]");
    }
    return labels;
}

std::string fullNameOf(std::string_view label) {
    auto open = label.find(" [");
    if (open == std::string_view::npos || label.back() != ']') return std::string(label);
    auto shortName = label.substr(0, open);
    auto full = label.substr(open + 2, label.size() - open - 3);
    if (shortName.find_first_of("[]") != std::string_view::npos) return std::string(label);
    auto expected = shortKernelName(full);
    if (shortName == expected) return std::string(full);
    std::string_view rest = shortName;
    if (rest.substr(0, expected.size()) != expected || rest.substr(expected.size(), 2) != " #")
        return std::string(label);
    rest.remove_prefix(expected.size() + 2);
    bool number = !rest.empty() && rest.find_first_not_of("0123456789") == std::string_view::npos;
    return number ? std::string(full) : std::string(label);
}

void useFullKernelNames(TraceLabels& labels) {
    for (std::uint32_t type : {types::kKernel, types::kNcclKernel, types::kGraphLaunch}) {
        auto it = labels.eventValues.find(type);
        if (it == labels.eventValues.end()) continue;
        it->second.relabel([](std::string_view label) { return fullNameOf(label); });
    }
}

} // namespace gpueff::paraver
