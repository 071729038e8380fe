#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace gpueff::sqlite {

class Database;

// A prepared statement; rows are read in place (no per-row allocation).
class Statement {
public:
    Statement(const Database& db, const std::string& sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement(Statement&& o) noexcept;
    Statement& operator=(Statement&&) = delete;

    bool step(); // false at the end; throws gpueff::Error naming the file and the query on failure
    bool isNull(int col) const;
    // The value's storage class (SQL typeof()).
    enum class Storage { Null, Integer, Other };
    Storage storage(int col) const;
    std::int64_t int64(int col) const;
    double real(int col) const;
    std::string_view text(int col) const;
    const void* blob(int col, int& bytes) const;
    void bind(int index, std::int64_t value);
    void reset();

private:
    const Database* db_;
    sqlite3_stmt* stmt_ = nullptr;
    std::string sql_;
};

// A read-only connection to one SQLite file, with the schema facts every reader needs.
class Database {
public:
    // cacheKiB: SQLite's page cache for this connection, set before the first query (which also bounds the
    // memory each sort uses before spilling to a temporary file). mapBytes: how much of the file SQLite
    // reads through a memory map instead of copying each page out with pread (0: none); mapped pages count
    // in the process's resident memory while the connection is open.
    static constexpr int kDefaultCacheKiB = 16 * 1024;
    explicit Database(const std::filesystem::path& path, int cacheKiB = kDefaultCacheKiB,
                      std::int64_t mapBytes = 0);
    // An in-memory database from a serialized image (sqlite3_deserialize), read-only; `name` stands for the
    // file in messages. Used by the fuzz harness to translate mutated images without touching the disk.
    Database(const std::filesystem::path& name, std::vector<unsigned char> image,
             int cacheKiB = kDefaultCacheKiB);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    const std::filesystem::path& path() const { return path_; }
    bool hasTable(std::string_view table) const;
    const std::set<std::string>& columns(const std::string& table) const;
    bool hasColumn(const std::string& table, std::string_view column) const;
    std::optional<std::int64_t> scalarInt(const std::string& sql) const;
    std::optional<std::string> scalarText(const std::string& sql) const;
    sqlite3* handle() const { return db_.get(); }
    [[noreturn]] void fail(const std::string& what) const;

private:
    // `file` opened, `name` standing for it in messages.
    Database(const std::filesystem::path& file, const std::filesystem::path& name, int cacheKiB,
             std::int64_t mapBytes);
    struct Close {
        void operator()(sqlite3* db) const;
    };
    void readSchema();

    std::filesystem::path path_;
    std::vector<unsigned char> image_; // the serialized database behind an in-memory connection
    // Owned from the moment sqlite3_open returns: a constructor that throws later still closes it.
    std::unique_ptr<sqlite3, Close> db_;
    std::set<std::string> tables_;
    mutable std::map<std::string, std::set<std::string>> columns_;
};

} // namespace gpueff::sqlite
