// Bad rows in an Nsight Systems export (NULL, text or reversed times, INT64 extremes, times outside the
// session, ids beyond int, invalid UTF-8): each is skipped, counted per table and reason in the sidecar,
// warned about on stderr and noted in report.json, and the numbers are those of the export without it.
// Session-level values that every time depends on (the UTC session start) are refused instead.
#include "engine/common/Error.h"
#include "engine/common/NameDictionary.h"
#include "engine/common/Utf8.h"
#include "engine/sqlite/Database.h"
#include "jobs/TranslateJob.h"
#include "tests/AnalyzeOracle.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace testsupport;
using json = nlohmann::json;

namespace {

const char* const kKernels = "CUPTI_ACTIVITY_KIND_KERNEL";

std::filesystem::path sample() {
    return dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
}

// The same table without its NOT NULL constraints (nsys declares start/end NOT NULL; a damaged or
// hand-made export need not), so that NULLs can be injected.
std::string unconstrained(const std::string& table) {
    return "CREATE TABLE loose AS SELECT * FROM " + table + "; DROP TABLE " + table +
           "; ALTER TABLE loose RENAME TO " + table + ";";
}

// A writable copy of `src` with `sql` applied (SQLite directly: the test's own view of the file).
std::filesystem::path variant(const std::filesystem::path& src, const std::string& name,
                              const std::string& sql) {
    auto dst = tempDir("bad-rows-" + name) / (name + ".sqlite");
    std::filesystem::copy_file(src, dst);
    std::filesystem::permissions(dst, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    execute(dst, sql);
    return dst;
}

json readJson(const std::filesystem::path& p) {
    std::ifstream in(p);
    REQUIRE(in.good());
    return json::parse(in);
}

struct Analyzed {
    CommandResult result;
    json report, sidecar;
};

Analyzed analyzeQuiet(const std::filesystem::path& db) {
    auto dir = db.parent_path() / "out";
    Analyzed a;
    a.result = run(gpueffBinary().string() + " analyze --quiet " + db.string() + " -o " + dir.string() +
                   " --name run");
    INFO(a.result.output);
    REQUIRE(a.result.exitCode == 0);
    a.report = readJson(dir / "report.json");
    a.sidecar = readJson(dir / "run.json");
    CHECK(reportSchemaViolation(a.report) == "");
    return a;
}

bool hasNote(const json& report, const std::string& text) {
    for (const auto& n : report.at("notes"))
        if (n.get<std::string>().find(text) != std::string::npos) return true;
    return false;
}

// One bad row injected by `damage` into the sample: the analysis equals that of the sample with the row
// deleted (the export "without the bad part"), and the skip is reported everywhere it should be.
void checkSkipped(const std::string& name, const std::string& table, const std::string& damage,
                  const std::string& reason, const std::string& rowCondition) {
    auto bad = variant(sample(), name, damage);
    auto clean = variant(sample(), name + "-clean", "DELETE FROM " + table + " WHERE " + rowCondition);
    auto a = analyzeQuiet(bad);
    auto b = analyzeQuiet(clean);
    std::string line = bad.filename().string() + ": " + table + ": 1 row skipped (" + reason + ")";
    CAPTURE(a.result.output);
    CHECK(a.result.output.find("gpueff: warning: " + bad.string() + ": " + table + ": 1 row skipped (" +
                               reason + ")") != std::string::npos);
    CHECK(a.result.output.find("internal error") == std::string::npos);
    CHECK(a.sidecar["skipped_rows"][table][reason] == 1);
    CHECK(a.sidecar["inputs"][0]["skipped_rows"][table][reason] == 1);
    CHECK(hasNote(a.report, line));
    CHECK(b.sidecar["skipped_rows"].empty());
    CHECK(a.report["efficiency"] == b.report["efficiency"]);
    CHECK(a.report["devices"] == b.report["devices"]);
    CHECK(a.report["window"] == b.report["window"]);
}

} // namespace

TEST_CASE("bad kernel rows are skipped: the numbers equal those of the export without them") {
    const std::string first = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)";
    const std::string last = "rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL)";
    auto update = [&](const std::string& set, const std::string& where) {
        return unconstrained(kKernels) + "UPDATE " + kKernels + " SET " + set + " WHERE " + where;
    };
    SUBCASE("end before start") {
        checkSkipped("end-before-start", kKernels, update("end = start - 5000000", last), "end before start",
                     last);
    }
    SUBCASE("NULL start") {
        checkSkipped("null-start", kKernels, update("start = NULL", first), "start is NULL", first);
    }
    SUBCASE("NULL end") {
        checkSkipped("null-end", kKernels, update("end = NULL", last), "end is NULL", last);
    }
    SUBCASE("text start") {
        checkSkipped("text-start", kKernels, update("start = 'soon'", first), "start is not an integer",
                     first);
    }
    SUBCASE("blob end") {
        checkSkipped("blob-end", kKernels, update("end = X'0102'", first), "end is not an integer", first);
    }
    SUBCASE("INT64_MAX end") {
        checkSkipped("max-end", kKernels, update("end = 9223372036854775807", last), "end beyond 2^61 ns",
                     last);
    }
    SUBCASE("INT64_MIN start") {
        checkSkipped("min-start", kKernels, update("start = -9223372036854775808", first),
                     "start is negative (before the session start)", first);
    }
    SUBCASE("negative start") {
        checkSkipped("negative-start", kKernels, update("start = -1000", first),
                     "start is negative (before the session start)", first);
    }
    SUBCASE("start after the session end") {
        // ANALYSIS_DETAILS.duration is the session's length; this kernel would stretch the window by 1 s.
        checkSkipped(
            "after-session", kKernels,
            update("start = (SELECT duration FROM ANALYSIS_DETAILS) + 1000000000, end = (SELECT duration "
                   "FROM ANALYSIS_DETAILS) + 1000001000",
                   last),
            "start after the session end (ANALYSIS_DETAILS.duration)", last);
    }
    SUBCASE("deviceId beyond int") {
        checkSkipped("huge-device", kKernels, update("deviceId = 4294967296", last),
                     "deviceId outside 0..2147483647", last);
    }
    SUBCASE("NULL stream") {
        checkSkipped("null-stream", kKernels, update("streamId = NULL", last),
                     "streamId is NULL or not an integer", last);
    }
}

TEST_CASE("bad rows of the host tables are skipped: API calls, NVTX ranges, memory operations, sync") {
    SUBCASE("an API call with a text start") {
        const std::string row = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_RUNTIME)";
        checkSkipped("api-text-start", "CUPTI_ACTIVITY_KIND_RUNTIME",
                     "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = 'x' WHERE " + row,
                     "start is not an integer", row);
    }
    SUBCASE("an API call with NULL end") {
        const std::string row = "rowid = (SELECT max(rowid) FROM CUPTI_ACTIVITY_KIND_RUNTIME)";
        checkSkipped("api-null-end", "CUPTI_ACTIVITY_KIND_RUNTIME",
                     unconstrained("CUPTI_ACTIVITY_KIND_RUNTIME") +
                         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = NULL WHERE " + row,
                     "end is NULL", row);
    }
    SUBCASE("an NVTX range ending before it starts") {
        const std::string row = "rowid = (SELECT min(rowid) FROM NVTX_EVENTS WHERE eventType = 59)";
        checkSkipped("nvtx-reversed", "NVTX_EVENTS", "UPDATE NVTX_EVENTS SET end = start - 1 WHERE " + row,
                     "end before start", row);
    }
    SUBCASE("a memset with INT64_MIN end") {
        const std::string row = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_MEMSET)";
        checkSkipped("memset-min-end", "CUPTI_ACTIVITY_KIND_MEMSET",
                     "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET end = -9223372036854775808 WHERE " + row,
                     "end before start", row);
    }
    SUBCASE("a memcpy with a NULL device") {
        const std::string row = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_MEMCPY)";
        checkSkipped("memcpy-null-device", "CUPTI_ACTIVITY_KIND_MEMCPY",
                     unconstrained("CUPTI_ACTIVITY_KIND_MEMCPY") +
                         "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = NULL WHERE " + row,
                     "deviceId is NULL or not an integer", row);
    }
    SUBCASE("a synchronization with a real start") {
        const std::string row = "rowid = (SELECT min(rowid) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)";
        checkSkipped("sync-real-start", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                     "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET start = start + 0.5 WHERE " + row,
                     "start is not an integer", row);
    }
}

TEST_CASE("one reversed kernel no longer changes the parallel efficiency: useful time is the SQL union") {
    // The case: one kernel row with end < start made the parallel efficiency of a run jump. The
    // device's compute time must be the union of the other kernels, computed here from SQL alone.
    auto bad = variant(sample(), "reversed-union",
                       "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 1 WHERE rowid = (SELECT max(rowid) FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL)");
    auto a = analyzeQuiet(bad);
    auto clean = variant(sample(), "reversed-union-clean",
                         "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = (SELECT max(rowid) FROM "
                         "CUPTI_ACTIVITY_KIND_KERNEL)");
    auto devices = analyzeoracle::loadDevices(clean);
    REQUIRE(devices.size() == 1);
    const auto& d = devices.begin()->second;
    REQUIRE(a.report["devices"].size() == 1);
    CHECK(a.report["devices"][0]["kernels"] == d.kernels);
    CHECK(
        a.report["devices"][0]["compute_ns"] ==
        analyzeoracle::length(analyzeoracle::merged(d.compute, INT64_MIN, INT64_MAX), INT64_MIN, INT64_MAX));
    CHECK(queryInt(bad, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") == d.kernels + 1);
}

TEST_CASE("skipped rows are counted per table and reason, several at once") {
    auto bad = variant(
        sample(), "many",
        unconstrained(kKernels) +
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1 WHERE rowid IN (SELECT rowid FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid LIMIT 3);"
            "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid = (SELECT max(rowid) FROM "
            "CUPTI_ACTIVITY_KIND_KERNEL);"
            "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = 'main' WHERE rowid IN (SELECT rowid FROM "
            "CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid LIMIT 2)");
    auto dir = tempDir("bad-rows-many-out");
    auto r =
        run(gpueffBinary().string() + " translate --quiet " + bad.string() + " -o " + (dir / "t").string());
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    CHECK(r.output.find(": CUPTI_ACTIVITY_KIND_KERNEL: 3 rows skipped (end before start)") !=
          std::string::npos);
    CHECK(r.output.find(": CUPTI_ACTIVITY_KIND_KERNEL: 1 row skipped (start is NULL)") != std::string::npos);
    CHECK(r.output.find(
              ": CUPTI_ACTIVITY_KIND_RUNTIME: 2 rows skipped (globalTid is NULL or not an integer)") !=
          std::string::npos);
    auto side = readJson(dir / "t.json");
    CHECK(side["skipped_rows"] ==
          json{{"CUPTI_ACTIVITY_KIND_KERNEL", {{"end before start", 3}, {"start is NULL", 1}}},
               {"CUPTI_ACTIVITY_KIND_RUNTIME", {{"globalTid is NULL or not an integer", 2}}}});
    // The begin records of kernels are the valid rows only (63000006: compute kernels).
    std::int64_t valid =
        queryInt(bad, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE typeof(start) = "
                      "'integer' AND end >= start");
    CHECK(side["begins_by_event_type"]["63000006"].get<std::int64_t>() +
              side["begins_by_event_type"].value("63000007", std::int64_t{0}) ==
          valid);
}

TEST_CASE("skipped rows: a synchronization without its API call is counted and warned about like any row") {
    // data/synthetic/sync_orphan.sql: of its two synchronizations, the one with correlation id 99 has no
    // CUDA API call, hence no thread: skipped once, said in the three places; the other is translated.
    auto dir = tempDir("bad-rows-sync-orphan");
    auto db = buildDatabase(sourceDir() / "data" / "synthetic" / "sync_orphan.sql", dir / "sync.sqlite");
    auto a = analyzeQuiet(db);
    CAPTURE(a.result.output);
    const std::string table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    const std::string reason = "no CUDA API call with its correlation id (no thread to put it on)";
    const std::string line = db.string() + ": " + table + ": 1 row skipped (" + reason + ")";
    CHECK(a.result.output.find("gpueff: warning: " + line + "\n") != std::string::npos);
    CHECK(a.result.output.find("gpueff: warning:") == a.result.output.rfind("gpueff: warning:")); // one
    CHECK(hasNote(a.report, line));
    CHECK(a.sidecar["skipped_rows"] == json{{table, {{reason, 1}}}});
    CHECK(a.sidecar["inputs"][0]["skipped_rows"] == json{{table, {{reason, 1}}}});
    CHECK(a.sidecar["begins_by_event_type"]["63000009"] == 1);
}

TEST_CASE("a clean export has no skipped rows and no warning") {
    auto dir = tempDir("bad-rows-clean-out");
    auto r = run(gpueffBinary().string() + " translate --quiet " + sample().string() + " -o " +
                 (dir / "t").string());
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    CHECK(r.output.find("warning") == std::string::npos);
    auto side = readJson(dir / "t.json");
    CHECK(side["skipped_rows"].empty());
    CHECK(side["repaired_text"].empty());
}

TEST_CASE("a session start the clock arithmetic cannot take is refused, previous outputs intact") {
    for (std::string value : {"9223372036854775807", "-1", "'yesterday'"}) {
        CAPTURE(value);
        auto bad = variant(sample(), "utc-" + std::to_string(std::hash<std::string>{}(value) % 1000),
                           "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = " + value);
        auto dir = tempDir("bad-rows-utc-out");
        auto prefix = (dir / "t").string();
        auto ok = run(gpueffBinary().string() + " translate --quiet " + sample().string() + " -o " + prefix);
        REQUIRE(ok.exitCode == 0);
        std::ifstream before(prefix + ".prv");
        std::string old((std::istreambuf_iterator<char>(before)), {});
        auto r = run(gpueffBinary().string() + " translate --quiet " + bad.string() + " -o " + prefix);
        CAPTURE(r.output);
        CHECK(r.exitCode == 1);
        CHECK(r.output.find("gpueff: error: " + bad.string() +
                            ": TARGET_INFO_SESSION_START_TIME row 1 (rowid 1): utcEpochNs") !=
              std::string::npos);
        CHECK(r.output.find("internal error") == std::string::npos);
        std::ifstream after(prefix + ".prv");
        CHECK(std::string((std::istreambuf_iterator<char>(after)), {}) == old);
        std::size_t files = 0;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            CAPTURE(e.path());
            ++files;
        }
        CHECK(files == 5); // the previous .prv/.pcf/.row/.json and .cfgs/, no temporary
    }
}

TEST_CASE("invalid UTF-8 in names is repaired at the import: valid .pcf, sidecar and report.json") {
    // One kernel name and one NVTX range text get a stray 0xFF byte and a truncated sequence.
    auto bad =
        variant(sample(), "utf8",
                "UPDATE StringIds SET value = CAST(X'6B65726E656CFF5FE282' AS TEXT) WHERE id = (SELECT "
                "demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid LIMIT 1);"
                "UPDATE NVTX_EVENTS SET text = CAST(X'72616E6765C0AF' AS TEXT) WHERE rowid = (SELECT "
                "min(rowid) FROM NVTX_EVENTS WHERE eventType = 59)");
    auto a = analyzeQuiet(bad);
    CAPTURE(a.result.output);
    CHECK(a.result.output.find("internal error") == std::string::npos);
    CHECK(a.result.output.find(": StringIds: 1 string with invalid UTF-8 (bytes replaced by U+FFFD)") !=
          std::string::npos);
    CHECK(a.sidecar["repaired_text"]["StringIds"] == 1);
    CHECK(a.sidecar["repaired_text"]["NVTX_EVENTS"].get<int>() >= 1);
    CHECK(hasNote(a.report, "StringIds: 1 string with invalid UTF-8"));
    // The repaired names, as the Unicode standard's maximal subparts: FF -> U+FFFD, E2 82 -> one U+FFFD,
    // C0 -> U+FFFD, AF -> U+FFFD.
    std::ifstream pcf(bad.parent_path() / "out" / "run.pcf");
    std::string text((std::istreambuf_iterator<char>(pcf)), {});
    CHECK(text.find("kernel\xEF\xBF\xBD_\xEF\xBF\xBD") != std::string::npos);
    CHECK(text.find("range\xEF\xBF\xBD\xEF\xBF\xBD") != std::string::npos);
    bool named = false;
    for (const auto& k : a.report["kernel_summary"]["overall"])
        named = named || k["name"] == "kernel\xEF\xBF\xBD_\xEF\xBF\xBD";
    CHECK(named);
}

TEST_CASE("MPI calls the run ended in (NULL end) stay zero-length calls, not skipped rows") {
    auto dir = tempDir("bad-rows-mpi");
    auto db =
        buildDatabase(sourceDir() / "data" / "synthetic" / "mpi_rank0.sql", dir / "rank0.sqlite",
                      "UPDATE MPI_COLLECTIVES_EVENTS SET end = NULL WHERE rowid = (SELECT max(rowid) FROM "
                      "MPI_COLLECTIVES_EVENTS)");
    auto r =
        run(gpueffBinary().string() + " translate --quiet " + db.string() + " -o " + (dir / "t").string());
    CAPTURE(r.output);
    REQUIRE(r.exitCode == 0);
    CHECK(r.output.find("warning") == std::string::npos);
    CHECK(readJson(dir / "t.json")["skipped_rows"].empty());
}

TEST_CASE("UTF-8 repair: well-formed text unchanged, each maximal ill-formed subpart one U+FFFD") {
    const std::string r = "\xEF\xBF\xBD";
    CHECK(gpueff::isValidUtf8("plain ascii"));
    CHECK(gpueff::isValidUtf8("gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80"));
    CHECK(gpueff::repairUtf8("gr\xC3\xBC\xC3\x9F") == "gr\xC3\xBC\xC3\x9F");
    CHECK_FALSE(gpueff::isValidUtf8("a\xFF"));
    CHECK(gpueff::repairUtf8("a\xFF"
                             "b") == "a" + r + "b");
    CHECK(gpueff::repairUtf8("\xC0\xAF") == r + r);         // overlong '/': two bytes, two replacements
    CHECK(gpueff::repairUtf8("\xE2\x82") == r);             // truncated euro sign: one maximal subpart
    CHECK(gpueff::repairUtf8("\xED\xA0\x80") == r + r + r); // a UTF-16 surrogate is not UTF-8
    CHECK(gpueff::repairUtf8("\xF4\x90\x80\x80") == r + r + r + r); // above U+10FFFF
    CHECK(gpueff::repairUtf8("\xF0\x9F\x98") == r);
    CHECK(gpueff::isValidUtf8(gpueff::repairUtf8("\x80\xBF\xFE\xFF\xC2")));
}

TEST_CASE("an export given as an SQLite image (the fuzz route) translates like the file") {
    auto dir = tempDir("bad-rows-image");
    auto file = sourceDir() / "fuzz" / "corpus" / "nsys_import" / "gpu_metrics.sqlite";
    std::ifstream in(file, std::ios::binary);
    std::vector<unsigned char> image((std::istreambuf_iterator<char>(in)), {});
    REQUIRE(image.size() > 1000);
    gpueff::jobs::TranslateRequest fromImage;
    fromImage.import.inputs = {file};
    fromImage.import.images = {image};
    fromImage.prefix = dir / "image";
    gpueff::jobs::translateToPrefix(fromImage, {});
    auto r = run(gpueffBinary().string() + " translate --quiet " + file.string() + " -o " +
                 (dir / "file").string());
    REQUIRE(r.exitCode == 0);
    auto body = [](const std::filesystem::path& p) {
        std::ifstream f(p);
        std::string s((std::istreambuf_iterator<char>(f)), {});
        // the header line carries the date of the run, the comment after it the sidecar's name
        return s.substr(s.find('\n', s.find('\n') + 1));
    };
    CHECK(body(dir / "image.prv") == body(dir / "file.prv"));

    // A damaged image is refused like a damaged file: bad header, truncated, corrupt schema page.
    auto refused = [&](std::vector<unsigned char> bytes, const std::string& words) {
        gpueff::jobs::TranslateRequest o = fromImage;
        o.import.images = {std::move(bytes)};
        o.prefix = dir / "damaged";
        try {
            gpueff::jobs::translateToPrefix(o, {});
            FAIL("accepted a damaged image");
        } catch (const gpueff::Error& e) {
            CHECK(std::string(e.what()).find(words) != std::string::npos);
        }
        CHECK_FALSE(std::filesystem::exists(dir / "damaged.prv"));
    };
    refused({}, "not an SQLite database");
    refused(std::vector<unsigned char>(image.begin(), image.begin() + static_cast<long>(image.size() / 2)),
            "truncated database");
    auto corrupt = image;
    for (std::size_t i = 100; i < 1024; ++i) corrupt[i] = 0xA5; // the sqlite_master page after the header
    refused(corrupt, "gpu_metrics.sqlite");
}

TEST_CASE("a database whose schema cannot be read is refused and its handle closed") {
    // Under LeakSanitizer (the sanitizer build) a handle left open by the throwing constructor is a leak.
    auto dir = tempDir("bad-rows-schema");
    auto src = sourceDir() / "fuzz" / "corpus" / "nsys_import" / "nccl_payload.sqlite";
    auto f = dir / "schema.sqlite";
    std::filesystem::copy_file(src, f);
    {
        std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
        io.seekp(100);
        std::string junk(900, '\xA5');
        io.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    CHECK_THROWS_AS(gpueff::sqlite::Database{f}, gpueff::Error);
}

TEST_CASE("an empty name is a name like any other (no memcmp on a null pointer)") {
    gpueff::NameDictionary names;
    names.valueOf(std::string_view());
    names.valueOf("x");
    CHECK(names.valueOf(std::string_view("")) == names.valueOf(std::string_view()));
    names.assignValues();
    CHECK(names.valueOf(std::string_view()) == 1); // the empty name sorts first
    CHECK(names.valueOf(std::string_view("")) == 1);
    CHECK(names.valueOf("x") == 2);
}
