#pragma once
// A GitHub-flavoured Markdown table; cells are written as given (callers escape them), except that the
// numbers of right-aligned columns keep their units (glued()).
#include <cctype>
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
        std::vector<std::string> header = header_;
        for (std::size_t i = 0; i < header.size(); ++i)
            if (right(i)) header[i] = glued(header[i]); // "Time %", "≥ 9"
        std::string out = line(header) + "|";
        for (std::size_t i = 0; i < header_.size(); ++i) out += right(i) ? "---:|" : "---|";
        out += "\n";
        for (const auto& r : rows_) {
            std::vector<std::string> cells = r;
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (right(i)) cells[i] = glued(cells[i]);
            out += line(cells);
        }
        return out;
    }

    // A right-aligned cell holds figures: "12.5 ms", "🟩 85.00 %", "1 µs - 4 µs". A table a little too
    // wide for the page (GitHub: 900 px) shrinks every column that can wrap, so the spaces that hold a figure
    // together are made non-breaking (U+00A0): between a number and its unit (after a digit, unless a dash
    // or a parenthesis follows), after a colour square, and between a word and a digit or '%' ("≥ 9",
    // "Time %"). The headers and names wrap, never a number away from its unit; the other spaces (" - ",
    // " -> ", ", ", " (") still break.
    static std::string glued(const std::string& cell) {
        auto digit = [&](std::size_t i) { return i < cell.size() && cell[i] >= '0' && cell[i] <= '9'; };
        std::string out;
        out.reserve(cell.size() + 8);
        for (std::size_t i = 0; i < cell.size(); ++i) {
            bool inside = i > 0 && i + 1 < cell.size();
            bool afterDigit = inside && digit(i - 1) && cell[i + 1] != '-' && cell[i + 1] != '(';
            bool afterSquare = i >= 4 && static_cast<unsigned char>(cell[i - 4]) == 0xF0; // a 4-byte emoji
            bool afterWord = inside && (std::isalpha(static_cast<unsigned char>(cell[i - 1])) ||
                                        (static_cast<unsigned char>(cell[i - 1]) & 0x80)); // "≥", "Time"
            bool beforeFigure = afterWord && (digit(i + 1) || cell[i + 1] == '%');
            if (cell[i] == ' ' && inside && (afterDigit || afterSquare || beforeFigure))
                out += "\xC2\xA0";
            else
                out += cell[i];
        }
        return out;
    }

private:
    bool right(std::size_t column) const { return column < alignment_.size() && alignment_[column] == 'r'; }
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
