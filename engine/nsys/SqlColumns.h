#pragma once
#include "engine/sqlite/Database.h"

#include <string>

namespace gpueff::nsys {

// Column expression that tolerates schema drift: the column if the table has it, else `fallback`.
inline std::string columnOr(const sqlite::Database& db, const std::string& table, const std::string& column,
                            const std::string& fallback = "NULL") {
    return db.hasColumn(table, column) ? column : fallback;
}

// Fails with a message naming the table when a column a reader cannot do without is missing.
inline void requireColumns(const sqlite::Database& db, const std::string& table,
                           std::initializer_list<const char*> columns) {
    for (const char* c : columns)
        if (!db.hasColumn(table, c)) db.fail("table " + table + " lacks required column '" + c + "'");
}

} // namespace gpueff::nsys
