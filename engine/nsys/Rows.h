#pragma once
// The rows a record source decodes, by column: a query's result on an nsys export (SqlRows), or rows a
// Kineto trace holds in memory in the same columns (engine/nsys/KinetoRows.h). One decoder per kind of
// record serves both inputs, so both are encoded alike.
#include "engine/sqlite/Database.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gpueff::nsys {

class Rows {
public:
    virtual ~Rows() = default;
    virtual bool step() = 0; // the next row; false at the end
    virtual bool isNull(int col) const = 0;
    virtual std::int64_t int64(int col) const = 0;
    virtual double real(int col) const = 0;
    virtual std::string_view text(int col) const = 0;
};

class SqlRows final : public Rows {
public:
    explicit SqlRows(sqlite::Statement st) : st_(std::move(st)) {}
    bool step() override { return st_.step(); }
    bool isNull(int col) const override { return st_.isNull(col); }
    std::int64_t int64(int col) const override { return st_.int64(col); }
    double real(int col) const override { return st_.real(col); }
    std::string_view text(int col) const override { return st_.text(col); }

private:
    sqlite::Statement st_;
};

// The rows of `sql` on `db`.
inline std::unique_ptr<Rows> query(const sqlite::Database& db, const std::string& sql) {
    return std::make_unique<SqlRows>(sqlite::Statement(db, sql));
}

} // namespace gpueff::nsys
