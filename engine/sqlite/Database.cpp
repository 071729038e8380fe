#include "engine/sqlite/Database.h"

#include "engine/common/Error.h"

#include <cerrno>
#include <fstream>
#include <sqlite3.h>

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
void checkNotTruncated(const std::string& name, const unsigned char* header, std::size_t headerBytes,
                       std::uintmax_t size) {
    if (headerBytes < 100)
        throw Error(name + ": truncated database: " + std::to_string(size) + " bytes, less than its header");
    std::uint32_t pageSize = bigEndian(header + 16, 2);
    if (pageSize == 1) pageSize = 65536;
    std::uint32_t pages = bigEndian(header + 28, 4);
    if (pages != 0 && static_cast<std::uintmax_t>(pageSize) * pages > size)
        throw Error(name + ": truncated database: header declares " + std::to_string(pages) + " pages of " +
                    std::to_string(pageSize) + " bytes but the file has " + std::to_string(size) + " bytes");
}

void checkNotTruncated(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char h[100] = {};
    in.read(reinterpret_cast<char*>(h), sizeof h);
    checkNotTruncated(path.string(), h, static_cast<std::size_t>(in.gcount()),
                      std::filesystem::file_size(path));
}

bool corrupt(int code) {
    return code == SQLITE_CORRUPT || code == SQLITE_NOTADB;
}
} // namespace

void Database::Close::operator()(sqlite3* db) const {
    sqlite3_close(db);
}

Database::Database(const std::filesystem::path& path, int cacheKiB, std::int64_t mapBytes)
    : Database(path, path, cacheKiB, mapBytes) {}

Database::Database(const std::filesystem::path& file, const std::filesystem::path& name, int cacheKiB,
                   std::int64_t mapBytes)
    : path_(name) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) throw Error(name.string() + ": no such file");
    if (!looksLikeSqlite(file)) throw Error(name.string() + ": not an SQLite database (bad file header)");
    checkNotTruncated(file);
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(db); // closed on every path from here, also when the open itself failed
    if (rc != SQLITE_OK)
        throw Error(name.string() +
                    ": cannot open SQLite database: " + (db ? sqlite3_errmsg(db) : "out of memory"));
    // Sorting and automatic indexes spill to temporary files, so memory stays bounded for any export size.
    // (temp_store=MEMORY would save their file descriptors but sort whole tables in memory: SQLite's sorter
    // never spills when temporary storage is memory.)
    sqlite3_exec(db, ("PRAGMA temp_store=FILE; PRAGMA cache_size=-" + std::to_string(cacheKiB)).c_str(),
                 nullptr, nullptr, nullptr);
    // Pages read through the map skip a system call and a copy each: the exports' tables are read three
    // times over (pre-pass, names pass, records), 7 % of translate's CPU (bench/README.md "Pages mapped").
    // SQLite caps it at its compile-time maximum (2 GiB in Debian's build) and reads the rest with pread.
    if (mapBytes > 0)
        sqlite3_exec(db, ("PRAGMA mmap_size=" + std::to_string(mapBytes)).c_str(), nullptr, nullptr, nullptr);
    readSchema();
}

Database::Database(const std::filesystem::path& name, std::vector<unsigned char> image, int cacheKiB)
    : path_(name), image_(std::move(image)) {
    if (image_.size() < 16 ||
        std::string_view(reinterpret_cast<const char*>(image_.data()), 15) != "SQLite format 3")
        throw Error(name.string() + ": not an SQLite database (bad file header)");
    checkNotTruncated(name.string(), image_.data(), image_.size(), image_.size());
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    db_.reset(db);
    if (rc != SQLITE_OK)
        throw Error(name.string() +
                    ": cannot open SQLite database: " + (db ? sqlite3_errmsg(db) : "out of memory"));
    // The image stays owned by this object (no FREEONCLOSE): it outlives the connection, which closes first.
    auto size = static_cast<sqlite3_int64>(image_.size());
    if (sqlite3_deserialize(db, "main", image_.data(), size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
        throw Error(name.string() + ": cannot open SQLite database: " + sqlite3_errmsg(db));
    sqlite3_exec(db, ("PRAGMA temp_store=MEMORY; PRAGMA cache_size=-" + std::to_string(cacheKiB)).c_str(),
                 nullptr, nullptr, nullptr);
    readSchema();
}

void Database::readSchema() {
    Statement st(*this, "SELECT name FROM sqlite_master WHERE type IN ('table','view')");
    while (st.step()) tables_.emplace(st.text(0));
}

Database::~Database() = default;

void Database::fail(const std::string& what) const {
    throw Error(path_.string() + ": " + what);
}

bool Database::hasTable(std::string_view table) const {
    return tables_.count(std::string(table)) != 0;
}

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

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    // A sort or automatic index that spills needs a temporary file: "unable to open database file" then means
    // the process ran out of file descriptors, which the message says.
    int os = sqlite3_system_errno(db_->handle());
    std::string why = os == EMFILE || os == ENFILE ? "; too many open files, see ulimit -n" : "";
    db_->fail(std::string(corrupt(rc) ? "corrupt database (" : "cannot read database (") +
              sqlite3_errmsg(db_->handle()) + why + ") while running: " + sql_);
}

bool Statement::isNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
Statement::Storage Statement::storage(int col) const {
    switch (sqlite3_column_type(stmt_, col)) {
    case SQLITE_NULL:
        return Storage::Null;
    case SQLITE_INTEGER:
        return Storage::Integer;
    default:
        return Storage::Other;
    }
}
std::int64_t Statement::int64(int col) const {
    return sqlite3_column_int64(stmt_, col);
}
double Statement::real(int col) const {
    return sqlite3_column_double(stmt_, col);
}
std::string_view Statement::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    // A NULL reads as "" (never a null data pointer, which memcmp and friends must not see).
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string_view("");
}
const void* Statement::blob(int col, int& bytes) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    bytes = sqlite3_column_bytes(stmt_, col);
    return p;
}
void Statement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
}
void Statement::reset() {
    sqlite3_reset(stmt_);
}

} // namespace gpueff::sqlite
