// sqlite::Database's memory map (mapBytes): the connection reads the file through a map of the size asked
// (SQLite's PRAGMA mmap_size says so), and the rows read through it are the rows read with pread, on a real
// export: every kernel's start, end and name id, summed apart in SQL.
#include "engine/sqlite/Database.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <sqlite3.h>

using namespace testsupport;

namespace {

struct Kernels {
    std::int64_t rows = 0, starts = 0, ends = 0, names = 0;
    bool operator==(const Kernels&) const = default;
};

Kernels readKernels(const gpueff::sqlite::Database& db) {
    gpueff::sqlite::Statement st(db, "SELECT start, end, shortName FROM CUPTI_ACTIVITY_KIND_KERNEL");
    Kernels k;
    while (st.step()) {
        ++k.rows;
        k.starts += st.int64(0) % 1000003;
        k.ends += st.int64(1) % 1000003;
        k.names += st.int64(2);
    }
    return k;
}

} // namespace

TEST_CASE("Database: an export read through a memory map gives the rows read without one") {
    auto path = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    gpueff::sqlite::Database plain(path, 64), mapped(path, 64, 1 << 20);
    CHECK(plain.scalarInt("PRAGMA mmap_size") == 0);
    CHECK(mapped.scalarInt("PRAGMA mmap_size") == 1 << 20);
    auto a = readKernels(plain), b = readKernels(mapped);
    CHECK(a.rows > 1000);
    CHECK(a == b);
    gpueff::sqlite::Database whole(path, 64, std::int64_t{1} << 40); // beyond the file: SQLite caps it
    CHECK(whole.scalarInt("PRAGMA mmap_size") > 0);
    CHECK(readKernels(whole) == a);
}
