// Bad input to `gpueff translate`: one clear message naming the file, a non-zero exit, no PREFIX.* files.
// Bad patterns given to `gpueff analyze`: refused as the command line is read, exit 2, no output directory.
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace testsupport;

namespace {

std::filesystem::path sample() {
    return dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
}

bool anyOutput(const std::filesystem::path& prefix) {
    for (const auto& e : std::filesystem::directory_iterator(prefix.parent_path()))
        if (e.path().filename().string().rfind(prefix.filename().string(), 0) == 0) return true;
    return false;
}

void expectFailure(const std::filesystem::path& input, const std::string& expectedText) {
    auto dir = tempDir("bad-out");
    auto prefix = dir / "trace";
    auto r = run(gpueffBinary().string() + " translate --quiet " + input.string() + " -o " + prefix.string());
    CAPTURE(r.output);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("gpueff: error:") != std::string::npos);
    CHECK(r.output.find(input.filename().string()) != std::string::npos);
    CHECK(r.output.find(expectedText) != std::string::npos);
    CHECK(r.output.find("internal error") == std::string::npos);
    CHECK_FALSE(anyOutput(prefix));
}

std::filesystem::path copyOf(const std::filesystem::path& src, const std::string& name) {
    auto dst = tempDir("bad-in-" + name) / name;
    std::filesystem::copy_file(src, dst);
    std::filesystem::permissions(dst, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    return dst;
}

std::filesystem::path databaseFrom(const std::string& name, const std::string& sql) {
    auto dir = tempDir("bad-db-" + name);
    auto script = dir / (name + ".sql");
    std::ofstream(script) << sql;
    return buildDatabase(script, dir / (name + ".sqlite"));
}

} // namespace

TEST_CASE("a file that is not an SQLite database") {
    auto f = tempDir("bad-text") / "notes.sqlite";
    std::ofstream(f) << "this is a text file, not a database\n";
    expectFailure(f, "not an SQLite database");
}

TEST_CASE("a truncated export") {
    auto f = copyOf(sample(), "truncated.sqlite");
    std::filesystem::resize_file(f, std::filesystem::file_size(f) / 2);
    expectFailure(f, "truncated database");
}

TEST_CASE("a corrupt export") {
    auto f = copyOf(sample(), "corrupt.sqlite");
    auto size = std::filesystem::file_size(f);
    std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
    // Overwrite everything past the schema page: every table's pages are garbage.
    io.seekp(4096);
    std::string garbage(size - 4096, '\xA5');
    io.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    io.close();
    expectFailure(f, "corrupt");
}

TEST_CASE("an export without the kernel table and no GPU activity") {
    auto f = databaseFrom("nokernels",
                          "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                          "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INT, end INT, eventClass INT,"
                          " globalTid INT, correlationId INT, nameId INT, returnValue INT);");
    expectFailure(f, "CUPTI_ACTIVITY_KIND_KERNEL is missing");
}

TEST_CASE("an export whose GPU tables are empty") {
    auto f = databaseFrom("empty", "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                                   "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INT, end INT, deviceId INT,"
                                   " streamId INT, correlationId INT, globalPid INT, demangledName INT);");
    expectFailure(f, "no GPU activity");
}

TEST_CASE("an SQLite file that is not an nsys export") {
    auto f = databaseFrom("other", "CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('ada');");
    expectFailure(f, "StringIds is missing");
}

TEST_CASE("an unknown schema version") {
    auto f =
        databaseFrom("future", "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                               "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);"
                               "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '9.1.0');");
    expectFailure(f, "unsupported export schema version 9.1.0");
}

TEST_CASE("a required column missing from the kernel table") {
    auto f =
        databaseFrom("nocols", "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INT, end INT, deviceId INT);"
                               "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 0);");
    expectFailure(f, "lacks required column");
}

TEST_CASE("an unknown record kind") {
    auto prefix = tempDir("bad-kind") / "trace";
    auto r = run(gpueffBinary().string() + " translate --only kernels,kernal " + sample().string() + " -o " +
                 prefix.string());
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("unknown record kind 'kernal'") != std::string::npos);
    CHECK_FALSE(anyOutput(prefix));
}

TEST_CASE("an unwritable output location") {
    auto r = run(gpueffBinary().string() + " translate --quiet " + sample().string() +
                 " -o /nonexistent-dir/trace");
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("/nonexistent-dir/trace") != std::string::npos);
    auto ro =
        run(gpueffBinary().string() + " translate --quiet " + sample().string() + " -o /proc/gpueff-trace");
    CHECK(ro.exitCode == 1);
    CHECK(ro.output.find("cannot write output") != std::string::npos);
}

TEST_CASE("a .nsys-rep without nsys on PATH says how to export it") {
    auto f = tempDir("rep") / "run.nsys-rep";
    std::ofstream(f) << "binary container";
    auto r = run("PATH=/nonexistent " + gpueffBinary().string() + " translate " + f.string() + " -o " +
                 (f.parent_path() / "t").string());
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("nsys export --type sqlite") != std::string::npos);
}

// --iterations and --gemm-pattern are compiled where the request is read (jobs::userPattern), so a pattern
// that is no ECMAScript regular expression is a usage error (exit 2) naming the option, before any input is
// opened: with an export, no translation runs and no output directory appears; with a .nsys-rep, nsys is
// not even looked for (the exit is 2, not the 1 of a missing nsys).
TEST_CASE("analyze: a bad --iterations or --gemm-pattern exits 2 naming the option, before any work") {
    auto rep = tempDir("bad-pattern-rep") / "run.nsys-rep";
    std::ofstream(rep) << "binary container";
    const std::vector<std::pair<std::string, std::string>> bad = {{"--iterations", "Profiler(Step"},
                                                                  {"--gemm-pattern", "("},
                                                                  {"--gemm-pattern", "gemm[0-9"},
                                                                  {"--iterations", "step\\d{2,1}"}};
    for (const auto& [option, pattern] : bad)
        for (const auto& input : {sample(), rep}) {
            auto out = tempDir("bad-pattern") / "out";
            auto r = run("PATH=/nonexistent " + quoted(gpueffBinary()) + " analyze -q " + quoted(input) +
                         " -o " + quoted(out) + " " + option + " '" + pattern + "'");
            CAPTURE(r.output);
            CHECK(r.exitCode == 2);
            CHECK(r.output.rfind("gpueff: error: " + option + " '" + pattern + "': ", 0) == 0);
            CHECK(r.output.find("(an ECMAScript regular expression, case-insensitive)") != std::string::npos);
            CHECK_FALSE(std::filesystem::exists(out));
        }
}
