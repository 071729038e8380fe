#include "engine/sqlite/Database.h"

#include <sqlite3.h>

#include <fstream>

#include "engine/common/Error.h"

namespace gpueff::sqlite {

namespace {
bool looksLikeSqlite(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[16] = {};
    in.read(magic, sizeof magic);
    return in.gcount() == 16 && std::string_view(magic, 15) == "SQLite format 3";
}

std::uint32_t bigEndian(const unsigned char* p, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

// SQLite only notices a truncated file when a query reaches a missing page; the header says how many pages
// there should be, so check before anything is read.
void checkNotTruncated(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char h[100] = {};
    in.read(reinterpret_cast<char*>(h), sizeof h);
    std::uint32_t pageSize = bigEndian(h + 16, 2);
    if (pageSize == 1) pageSize = 65536;
    std::uint32_t pages = bigEndian(h + 28, 4);
    auto size = std::filesystem::file_size(path);
    if (in.gcount() < 100 || (pages != 0 && static_cast<std::uintmax_t>(pageSize) * pages > size))
        throw Error(path.string() + ": truncated database: header declares " + std::to_string(pages) +
                    " pages of " + std::to_string(pageSize) + " bytes but the file has " + std::to_string(size) +
                    " bytes");
}

bool corrupt(int code) { return code == SQLITE_CORRUPT || code == SQLITE_NOTADB; }
} // namespace

Database::Database(const std::filesystem::path& path) : path_(path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path.string() + ": no such file");
    if (!looksLikeSqlite(path)) throw Error(path.string() + ": not an SQLite database (bad file header)");
    checkNotTruncated(path);
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw Error(path.string() + ": cannot open SQLite database: " + msg);
    }
    // Sorting and automatic indexes spill to temporary files, so memory stays bounded for any export size.
    sqlite3_exec(db_, "PRAGMA temp_store=FILE; PRAGMA cache_size=-16384;", nullptr, nullptr, nullptr);
    Statement st(*this, "SELECT name FROM sqlite_master WHERE type IN ('table','view')");
    while (st.step()) tables_.emplace(st.text(0));
}

Database::~Database() { sqlite3_close(db_); }

void Database::fail(const std::string& what) const { throw Error(path_.string() + ": " + what); }

void Database::setCacheKiB(int kib) const {
    std::string pragma = "PRAGMA cache_size=-" + std::to_string(kib);
    sqlite3_exec(db_, pragma.c_str(), nullptr, nullptr, nullptr);
}

bool Database::hasTable(std::string_view table) const { return tables_.count(std::string(table)) != 0; }

const std::set<std::string>& Database::columns(const std::string& table) const {
    auto it = columns_.find(table);
    if (it != columns_.end()) return it->second;
    std::set<std::string> cols;
    if (hasTable(table)) {
        Statement st(*this, "SELECT name FROM pragma_table_info('" + table + "')");
        while (st.step()) cols.emplace(st.text(0));
    }
    return columns_.emplace(table, std::move(cols)).first->second;
}

bool Database::hasColumn(const std::string& table, std::string_view column) const {
    return columns(table).count(std::string(column)) != 0;
}

std::optional<std::int64_t> Database::scalarInt(const std::string& sql) const {
    Statement st(*this, sql);
    if (!st.step() || st.isNull(0)) return std::nullopt;
    return st.int64(0);
}

std::optional<std::string> Database::scalarText(const std::string& sql) const {
    Statement st(*this, sql);
    if (!st.step() || st.isNull(0)) return std::nullopt;
    return std::string(st.text(0));
}

Statement::Statement(const Database& db, const std::string& sql) : db_(&db), sql_(sql) {
    int rc = sqlite3_prepare_v2(db.handle(), sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(db.handle());
        sqlite3_finalize(stmt_);
        stmt_ = nullptr;
        db.fail((corrupt(rc) ? "corrupt database (" : "query failed (") + msg + "): " + sql);
    }
}

Statement::Statement(Statement&& o) noexcept : db_(o.db_), stmt_(o.stmt_), sql_(std::move(o.sql_)) {
    o.stmt_ = nullptr;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_->fail(std::string(corrupt(rc) ? "corrupt database (" : "cannot read database (") +
              sqlite3_errmsg(db_->handle()) + ") while running: " + sql_);
}

bool Statement::isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::real(int col) const { return sqlite3_column_double(stmt_, col); }
std::string_view Statement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : std::string_view();
}
const void* Statement::blob(int col, int& bytes) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    bytes = sqlite3_column_bytes(stmt_, col);
    return p;
}
void Statement::bind(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
void Statement::reset() { sqlite3_reset(stmt_); }

} // namespace gpueff::sqlite
