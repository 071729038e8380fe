#include "engine/nsys/TableScan.h"

#include "engine/nsys/RowValidity.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace gpueff::nsys {

ScanSpan scanTable(const NsysExport& ex, const std::string& table, const std::string& keyColumns,
                   int keyCount, const std::function<void(const std::int64_t* keys)>& onKey,
                   const std::function<void(std::int64_t start, std::int64_t end)>& onRow) {
    ScanSpan span;
    // Rows the translation cannot place are left out here as in every query of the table (RowValidity.h),
    // so the span, objects and storage-order verdict are those of the rows translated.
    std::string scope = rowsRead(table, "");
    std::optional<RowCheck> check;
    if (ex.countsLeftOut(table)) check.emplace(ex.db(), table, ex.sessionEnd());
    const bool counting = check && !check->empty();
    const int checkAt = 2 + keyCount;
    sqlite::Statement st(ex.db(), "SELECT start, coalesce(end, start), " + keyColumns +
                                      (counting ? ", " + check->columns() : "") + " FROM " + table +
                                      " WHERE " + (scope.empty() ? "" : scope + " AND ") +
                                      (counting ? "1" : ex.validRows(table)));
    std::map<std::string, std::uint64_t> leftOut;
    std::array<std::int64_t, 4> keys{}, previous{};
    bool any = false;
    Lateness lateness;
    while (st.step()) {
        if (counting) // a row left out: its keys may be NULL
            if (const std::string* why = check->reason(st, checkAt)) {
                ++leftOut[*why];
                continue;
            }
        std::int64_t start = st.int64(0);
        lateness.see(start);
        span.first = std::min(span.first, start);
        span.last = std::max(span.last, st.int64(1));
        for (int k = 0; k < keyCount; ++k) keys[static_cast<std::size_t>(k)] = st.int64(2 + k);
        if (!any || keys != previous) {
            onKey(keys.data());
            previous = keys;
            any = true;
        }
        if (onRow) onRow(start, st.int64(1));
    }
    if (check) ex.countedRows(table, leftOut);
    span.lateness = lateness.worst;
    ex.noteLateness(table, span.lateness);
    return span;
}

} // namespace gpueff::nsys
