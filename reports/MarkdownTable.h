#pragma once
// A GitHub-flavoured Markdown table; cells are written as given (callers escape them).
#include <string>
#include <vector>

namespace gpueff::reports::detail {

class MarkdownTable {
public:
    // alignment: one character per column, 'l' or 'r' (missing characters mean 'l').
    MarkdownTable(std::vector<std::string> header, std::string alignment)
        : header_(std::move(header)), alignment_(std::move(alignment)) {}

    void row(std::vector<std::string> cells) {
        cells.resize(header_.size());
        rows_.push_back(std::move(cells));
    }
    bool empty() const { return rows_.empty(); }

    std::string str() const {
        std::string out = line(header_) + "|";
        for (std::size_t i = 0; i < header_.size(); ++i)
            out += i < alignment_.size() && alignment_[i] == 'r' ? "---:|" : "---|";
        out += "\n";
        for (const auto& r : rows_) out += line(r);
        return out;
    }

private:
    static std::string line(const std::vector<std::string>& cells) {
        std::string out = "|";
        for (const auto& c : cells) out += " " + (c.empty() ? std::string(" ") : c) + " |";
        return out + "\n";
    }
    std::vector<std::string> header_;
    std::string alignment_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace gpueff::reports::detail
