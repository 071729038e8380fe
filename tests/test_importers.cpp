// The importers' registry (engine/import): each input recognised once, by its first bytes when they say what
// it is, by its name otherwise; the commands refuse what no importer reads before any work.
#include "engine/common/Error.h"
#include "engine/import/Importers.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <optional>
#include <zlib.h>

namespace {

namespace fs = std::filesystem;
using gpueff::import::InputFormat;
using namespace testsupport;

fs::path writeBytes(const fs::path& dir, const std::string& name, const std::string& bytes) {
    auto p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

fs::path writeGzip(const fs::path& dir, const std::string& name, const std::string& text) {
    auto p = dir / name;
    gzFile f = gzopen(p.c_str(), "wb");
    REQUIRE(f);
    REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    gzclose(f);
    return p;
}

// The format the registry gives, or nothing.
std::optional<InputFormat> formatOf(const fs::path& p) {
    const auto* importer = gpueff::import::sniffInput(p);
    return importer ? std::optional(importer->format) : std::nullopt;
}

} // namespace

TEST_CASE("importers: the real inputs of data/ are recognised by their content") {
    for (const auto& e : realExports()) CHECK(formatOf(e) == InputFormat::NsysExport);
    for (const auto& e : fs::directory_iterator(dataDir() / "kineto"))
        if (e.path().string().ends_with(".json.gz")) CHECK(formatOf(e.path()) == InputFormat::KinetoTrace);
    CHECK(formatOf(dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz") == InputFormat::ParaverTrace);
}

TEST_CASE("importers: content decides over the name, the name decides when content says nothing") {
    auto dir = tempDir("importers-sniff");
    std::string sqlite("SQLite format 3\0 and the rest of a database", 42);
    std::string prv = "#Paraver (01/01/2026 at 00:00):1000_ns:1(1):1:1(1:1)\n";
    std::string kineto = R"({"schemaVersion": 1, "traceEvents": []})";
    // Misnamed files: the bytes win.
    CHECK(formatOf(writeBytes(dir, "export.json", sqlite)) == InputFormat::NsysExport);
    CHECK(formatOf(writeBytes(dir, "trace.sqlite", prv)) == InputFormat::ParaverTrace);
    CHECK(formatOf(writeBytes(dir, "trace.prv", kineto)) == InputFormat::KinetoTrace);
    // Compressed content is looked at decompressed, whatever the name.
    CHECK(formatOf(writeGzip(dir, "t.prv.gz", prv)) == InputFormat::ParaverTrace);
    CHECK(formatOf(writeGzip(dir, "k.json.gz", kineto)) == InputFormat::KinetoTrace);
    CHECK(formatOf(writeGzip(dir, "k.data", kineto)) == InputFormat::KinetoTrace);
    // Empty, damaged or missing files go to the reader their name names, which gives the precise error.
    CHECK(formatOf(writeBytes(dir, "empty.sqlite", "")) == InputFormat::NsysExport);
    CHECK(formatOf(writeBytes(dir, "garbage.prv", "not a header\n")) == InputFormat::ParaverTrace);
    CHECK(formatOf(dir / "missing.prv.gz") == InputFormat::ParaverTrace);
    CHECK(formatOf(dir / "run.nsys-rep") == InputFormat::NsysReport);
    CHECK(formatOf(dir / "missing.json") == InputFormat::KinetoTrace);
    // A JSON document without traceEvents (a report.json) is no trace, whatever its name; nor is a folder.
    CHECK_FALSE(formatOf(writeBytes(dir, "report.json", R"({"schema_version": 3, "devices": []})")));
    CHECK_FALSE(formatOf(writeBytes(dir, "other.json.gz", "[1, 2]")));
    CHECK_FALSE(formatOf(dir));
    CHECK_FALSE(formatOf(writeBytes(dir, "notes.txt", "hello")));
}

TEST_CASE("importers: a JSON document is a Kineto trace when \"traceEvents\" is in its first MiB, wherever") {
    auto dir = tempDir("importers-json-head");
    // Metadata of a given size before the key: the key at 100 kB (past the first 64 KiB block read), across
    // the first block's end (the key's characters on both sides of byte 65536), and past the first MiB.
    auto withKeyAt = [](std::size_t at) {
        std::string text = R"({"deviceProperties": ")";
        text.append(at - text.size() - 3, 'x');
        text += R"(", "traceEvents": []})";
        return text;
    };
    auto at100k = withKeyAt(100000), across = withKeyAt(65536 - 5), pastMiB = withKeyAt((1 << 20) + 10);
    REQUIRE(at100k.find("\"traceEvents\"") == 100000);
    REQUIRE(across.find("\"traceEvents\"") < 65536);
    REQUIRE(across.find("\"traceEvents\"") + 13 > 65536);
    CHECK(formatOf(writeBytes(dir, "a.json", at100k)) == InputFormat::KinetoTrace);
    CHECK(formatOf(writeGzip(dir, "a.json.gz", at100k)) == InputFormat::KinetoTrace);
    CHECK(formatOf(writeBytes(dir, "b.json", across)) == InputFormat::KinetoTrace);
    CHECK_FALSE(formatOf(writeBytes(dir, "c.json", pastMiB)));
    CHECK_THROWS_WITH_AS(gpueff::import::importerOf(dir / "c.json"),
                         doctest::Contains("not a PyTorch profiler (Kineto) trace"), gpueff::Error);
}

TEST_CASE("importers: what no importer reads is refused with the file named") {
    auto dir = tempDir("importers-refused");
    auto notes = writeBytes(dir, "notes.txt", "hello");
    std::string expected = notes.string() + ": not an input gpueff reads";
    CHECK_THROWS_WITH_AS(gpueff::import::importerOf(notes), doctest::Contains(expected.c_str()),
                         gpueff::Error);
    auto report = writeBytes(dir, "report.json", R"({"devices": []})");
    CHECK_THROWS_WITH_AS(gpueff::import::importerOf(report),
                         doctest::Contains("not a PyTorch profiler (Kineto) trace"), gpueff::Error);
    // Before any work: the commands exit with the message and write nothing.
    for (const char* command : {"translate", "analyze", "cut", "filter"}) {
        CAPTURE(command);
        auto out = dir / command;
        std::string args =
            std::string(command) == "analyze" ? " -o " + quoted(out) : " -o " + quoted(out / "t");
        if (std::string(command) != "analyze") fs::create_directories(out);
        if (std::string(command) == "cut") args += " --begin 0 --end 10";
        auto r = run(gpueffBinary().string() + " " + command + " -q " + quoted(notes) + args);
        CHECK(r.exitCode != 0);
        CHECK(r.output.find("notes.txt: not an input gpueff reads") != std::string::npos);
        CHECK_FALSE(fs::exists(out / "t.prv"));
        CHECK_FALSE(fs::exists(out / "report.json"));
    }
}

TEST_CASE("importers: translate refuses a Paraver trace before reading it") {
    auto dir = tempDir("importers-translate-prv");
    auto prv = dataDir() / "paraver" / "epoch" / "epoch_1proc.prv.gz";
    auto r = run(gpueffBinary().string() + " translate -q " + quoted(prv) + " -o " + quoted(dir / "t"));
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("a Paraver trace is not translated") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "t.prv"));
}
