// Compressed input: the one reader (GzipStream) under the Paraver and the Kineto parsers, and its one
// end-of-file rule. The gzip files are made here with zlib's deflate (independent of the reader's inflate),
// then cut or damaged at known places.
#include "engine/common/Error.h"
#include "engine/common/GzipStream.h"
#include "engine/kineto/ChromeTrace.h"
#include "engine/paraver/PrvReader.h"
#include "tests/TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <zlib.h>

using namespace testsupport;
using gpueff::GzipStream;

namespace {

// One gzip member holding `text` (deflate with a gzip wrapper: windowBits 15 + 16).
std::string gzipMember(const std::string& text) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::filesystem::path writeBytes(const std::filesystem::path& dir, const std::string& name,
                                 const std::string& bytes) {
    auto path = dir / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// Everything GzipStream gives, in reads of an odd size (so reads straddle its input blocks and members).
std::string readAll(const std::filesystem::path& path) {
    GzipStream in(path);
    std::string text;
    char block[7777];
    while (auto n = in.read(block, sizeof block)) text.append(block, n);
    CHECK(in.contentPosition() == text.size());
    CHECK(in.filePosition() == std::filesystem::file_size(path));
    return text;
}

// Bytes that barely compress (a linear congruential generator), so the compressed file spans several of the
// reader's 256 KiB input blocks.
std::string noise(std::size_t size) {
    std::string text(size, '\0');
    std::uint32_t x = 12345;
    for (auto& c : text) {
        x = x * 1103515245u + 12345u;
        c = static_cast<char>(x >> 24);
    }
    return text;
}

void expectRefused(const std::function<void()>& read, const std::filesystem::path& path, const char* why) {
    try {
        read();
        FAIL("no error for " << path);
    } catch (const gpueff::Error& e) {
        std::string message = e.what();
        CAPTURE(message);
        CHECK(message.starts_with(path.string() + ": truncated or corrupt gzip file: "));
        CHECK(message.find(why) != std::string::npos);
    }
}

// A trace of one thread with three events (one line each), and a Kineto trace with four events, both by hand.
const std::string kPrv = "#Paraver (01/01/2024 at 00:00):1000_ns:1(1):1:1(1:1)\n"
                         "2:1:1:1:1:10:100:5\n"
                         "2:1:1:1:1:20:100:6\n"
                         "2:1:1:1:1:30:100:0\n";
const std::string kKineto = R"({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunch", "pid": 10, "tid": 10, "ts": 100.0, "dur": 2.5},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110.0, "dur": 10.0},
  {"ph": "X", "cat": "kernel", "name": "relu", "pid": 0, "tid": 7, "ts": 125.0, "dur": 5.0},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 10, "ts": 130.0, "dur": 1.0}]})";

std::size_t prvEvents(const std::filesystem::path& path) {
    auto trace = gpueff::paraver::readPrv(path);
    std::size_t n = 0;
    for (const auto& th : trace.threads) n += th.eventTime.size();
    return n;
}

std::size_t kinetoEvents(const std::filesystem::path& path) {
    std::size_t n = 0;
    gpueff::kineto::readChromeTrace(path, [&](const gpueff::kineto::ChromeEvent&) { ++n; });
    return n;
}

} // namespace

TEST_CASE("GzipStream: a plain file, one gzip member and members back to back read as their content") {
    auto dir = tempDir("gzip-stream");
    std::string a = noise(700'000), b = "the second member\n", c = noise(300'000);
    CHECK(readAll(writeBytes(dir, "plain.bin", a)) == a);
    CHECK(readAll(writeBytes(dir, "one.gz", gzipMember(a))) == a);
    CHECK(readAll(writeBytes(dir, "three.gz", gzipMember(a) + gzipMember(b) + gzipMember(c))) == a + b + c);
    CHECK(readAll(writeBytes(dir, "empty.bin", "")).empty());
    CHECK(readAll(writeBytes(dir, "empty.gz", gzipMember(""))).empty());
    // A one-byte file cannot hold gzip's two-byte magic number: it is plain.
    CHECK(readAll(writeBytes(dir, "one-byte.bin", "\x1f")) == "\x1f");
    CHECK_THROWS_WITH_AS(GzipStream(dir / "missing.gz"), doctest::Contains("missing.gz: cannot open"),
                         gpueff::Error);
}

TEST_CASE("GzipStream: a member cut short, damaged data, a wrong checksum and trailing bytes are refused") {
    auto dir = tempDir("gzip-stream-bad");
    std::string text = noise(400'000);
    std::string member = gzipMember(text);
    auto refused = [&](const std::string& name, const std::string& bytes, const char* why) {
        auto path = writeBytes(dir, name, bytes);
        expectRefused([&] { readAll(path); }, path, why);
    };
    // The gzip trailer is the CRC-32 and the length (8 bytes): without its last byte the content is all
    // there.
    refused("no-length.gz", member.substr(0, member.size() - 1), "ends inside a compressed member");
    refused("half.gz", member.substr(0, member.size() / 2), "ends inside a compressed member");
    refused("header-only.gz", member.substr(0, 10), "ends inside a compressed member");
    refused("second-cut.gz", member + member.substr(0, 20), "ends inside a compressed member");
    std::string badCrc = member;
    badCrc[badCrc.size() - 8] = static_cast<char>(badCrc[badCrc.size() - 8] ^ 1); // the CRC-32's first byte
    refused("crc.gz", badCrc, "incorrect data check");
    std::string badData = member;
    badData[member.size() / 2] = static_cast<char>(~badData[member.size() / 2]);
    refused("data.gz", badData, "");
    refused("trailing.gz", member + "garbage", "bytes that are not gzip data follow");
    refused("trailing-byte.gz", member + "\x1f", "bytes that are not gzip data follow");
}

TEST_CASE("a truncated .prv.gz and a truncated .json.gz are refused alike, naming the file") {
    auto dir = tempDir("gzip-parsers");
    // Cut by their last byte: the text is whole (a reader that ignored the trailer would parse it all).
    std::string prvMember = gzipMember(kPrv), kinetoMember = gzipMember(kKineto);
    auto prv = writeBytes(dir, "cut.prv.gz", prvMember.substr(0, prvMember.size() - 1));
    auto kineto = writeBytes(dir, "cut.json.gz", kinetoMember.substr(0, kinetoMember.size() - 1));
    expectRefused([&] { prvEvents(prv); }, prv, "ends inside a compressed member");
    expectRefused([&] { kinetoEvents(kineto); }, kineto, "ends inside a compressed member");

    // The same texts plain and as two members (split inside a line) read whole: 3 event lines, 4 events.
    CHECK(prvEvents(writeBytes(dir, "plain.prv", kPrv)) == 3);
    CHECK(prvEvents(writeBytes(dir, "two.prv.gz",
                               gzipMember(kPrv.substr(0, 70)) + gzipMember(kPrv.substr(70)))) == 3);
    CHECK(kinetoEvents(writeBytes(dir, "plain.json", kKineto)) == 4);
    CHECK(kinetoEvents(writeBytes(dir, "two.json.gz",
                                  gzipMember(kKineto.substr(0, 100)) + gzipMember(kKineto.substr(100)))) ==
          4);
}
