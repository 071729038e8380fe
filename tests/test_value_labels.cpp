// engine/paraver/ValueLabels.h: a .pcf's value labels held compactly give what a map of them gives (the
// oracle here: std::map filled from the same lines), in any order of the lines; engine/common/SpilledText.h:
// text kept on a temporary file reads back the same, whole and in parallel readers; the arena and the
// FILE* taker they are built on.
#include "engine/common/Error.h"
#include "engine/common/SpilledText.h"
#include "engine/common/TextArena.h"
#include "engine/common/WriteThrough.h"
#include "engine/paraver/TraceLabels.h"
#include "engine/paraver/ValueLabels.h"

#include <doctest/doctest.h>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>

using gpueff::paraver::ValueLabels;

namespace {

std::map<std::int64_t, std::string> asMap(const ValueLabels& labels) {
    std::map<std::int64_t, std::string> out;
    for (const auto& [value, text] : labels) CHECK(out.emplace(value, std::string(text)).second);
    return out;
}

} // namespace

TEST_CASE("ValueLabels: values in any order, a value labelled again keeps its latest label, as a map would") {
    std::mt19937_64 random(7);
    for (int round = 0; round < 20; ++round) {
        ValueLabels labels;
        std::map<std::int64_t, std::string> oracle;
        // The first rounds span several blocks of slots (32 Ki each).
        const int n = round < 2 ? 80000 + round : 1 + static_cast<int>(random() % 3000);
        const bool inOrder = round % 2 == 0;
        for (int i = 0; i < n; ++i) {
            std::int64_t value =
                inOrder ? i * 3 - 100 : static_cast<std::int64_t>(random() % (n / 4 + 500)) - 250;
            // Labels of every size, empty and larger than an arena chunk (256 KiB) among them.
            std::size_t size = i % 997 == 5 ? (300u << 10) : random() % 40;
            std::string text(size, static_cast<char>('a' + random() % 26));
            labels.set(value, text);
            oracle[value] = text;
        }
        labels.seal();
        CHECK(labels.size() == oracle.size());
        CHECK(asMap(labels) == oracle);
        for (std::int64_t v = -260; v < 260; ++v) {
            auto found = labels.find(v);
            auto it = oracle.find(v);
            REQUIRE(found.has_value() == (it != oracle.end()));
            if (found) CHECK(*found == it->second);
        }
        ValueLabels copy = labels; // a deep copy: the original may go
        labels = ValueLabels{};
        CHECK(asMap(copy) == oracle);
        CHECK(copy == ValueLabels(copy));
    }
}

TEST_CASE("ValueLabels: read only once in order, relabelled in place, equal by content") {
    ValueLabels labels;
    labels.set(5, "five");
    labels.set(2, "two");
    CHECK_THROWS_AS(labels.find(5), std::logic_error); // out of order until sealed
    labels.seal();
    CHECK(labels.at(2) == "two");
    CHECK(labels.at(5) == "five");
    CHECK_THROWS_AS(labels.at(3), std::out_of_range);
    labels.relabel([](std::string_view text) { return std::string(text) + "!"; });
    CHECK(labels == ValueLabels{{2, "two!"}, {5, "five!"}});
    CHECK_FALSE(labels == ValueLabels{{2, "two!"}});
    CHECK_FALSE(labels == ValueLabels{{2, "two!"}, {5, "five"}});
    ValueLabels moved = std::move(labels);
    labels.set(1, "reused after a move"); // NOLINT(bugprone-use-after-move): a moved-from object is reusable
    labels.seal();
    CHECK(labels == ValueLabels{{1, "reused after a move"}});
    CHECK(moved.size() == 2);
}

TEST_CASE(
    "readPcf: value lines out of order and repeated, shared by the types of a block, as a map reads them") {
    std::string pcf = "EVENT_TYPE\n0 10 first\n0 11 second\nVALUES\n3 three\n1 one\n2 two\n1 one again\n\n"
                      "EVENT_TYPE\n0 10 first, more values\nVALUES\n0 End\n7 seven\n";
    std::istringstream in(pcf);
    gpueff::paraver::TraceLabels labels;
    gpueff::paraver::readPcf(in, "t.pcf", labels);
    std::map<std::int64_t, std::string> ten{
        {0, "End"}, {1, "one again"}, {2, "two"}, {3, "three"}, {7, "seven"}};
    std::map<std::int64_t, std::string> eleven{{1, "one again"}, {2, "two"}, {3, "three"}};
    CHECK(asMap(labels.eventValues.at(10)) == ten);
    CHECK(asMap(labels.eventValues.at(11)) == eleven);
    // A second .pcf read into the same labels adds to them, its labels winning, as into a map.
    std::istringstream more("EVENT_TYPE\n0 10 first\nVALUES\n2 two, later\n5 five\n");
    gpueff::paraver::readPcf(more, "u.pcf", labels);
    ten[2] = "two, later";
    ten[5] = "five";
    CHECK(asMap(labels.eventValues.at(10)) == ten);
    // A malformed line is named by its line in the file, also when the reader is fed lines written.
    std::istringstream bad("EVENT_TYPE\n0 x label\n");
    CHECK_THROWS_WITH_AS(gpueff::paraver::readPcf(bad, "bad.pcf", labels),
                         doctest::Contains("bad.pcf:2: bad event type"), gpueff::Error);
}

TEST_CASE("SpilledText: a writer's text on a temporary file, read back whole by several readers at once") {
    auto dir = std::filesystem::temp_directory_path();
    std::string expected;
    for (int i = 0; i < 20000; ++i)
        expected += std::to_string(i) + " label of value " + std::to_string(i) + "\n";
    gpueff::SpilledText text(dir, ".gpueff-test-text",
                             [&](std::FILE* f) { std::fputs(expected.c_str(), f); });
    CHECK(text.size() == expected.size());
    auto a = text.open(), b = text.open();
    std::string line, fromA, fromB;
    // Interleaved: each reader keeps its own place.
    while (true) {
        bool gotA = static_cast<bool>(std::getline(*a, line));
        if (gotA) fromA += line + "\n";
        bool gotB = static_cast<bool>(std::getline(*b, line));
        if (gotB) fromB += line + "\n";
        if (!gotA && !gotB) break;
    }
    CHECK(fromA == expected);
    CHECK(fromB == expected);
    char* buffer = nullptr;
    std::size_t size = 0;
    std::FILE* out = open_memstream(&buffer, &size);
    text.copyTo(out);
    std::fclose(out);
    CHECK(std::string(buffer, size) == expected);
    std::free(buffer);
    gpueff::SpilledText empty(dir, ".gpueff-test-text", {});
    CHECK(empty.size() == 0);
    CHECK(empty.open()->get() == std::char_traits<char>::eof());
}

TEST_CASE("SpilledText: moved, empty and default texts read as empty, and a writer's error is the caller's") {
    auto dir = std::filesystem::temp_directory_path();
    gpueff::SpilledText text(dir, ".gpueff-test-text", [](std::FILE* f) { std::fputs("a\nb\n", f); });
    gpueff::SpilledText moved(std::move(text));
    CHECK(moved.size() == 4);
    CHECK(text.size() == 0); // NOLINT(bugprone-use-after-move): a moved-from text is empty, not dangling
    CHECK(text.open()->get() == std::char_traits<char>::eof());
    gpueff::SpilledText none;
    CHECK(none.open()->get() == std::char_traits<char>::eof());
    CHECK_THROWS_WITH(gpueff::SpilledText(dir, ".gpueff-test-text",
                                          [](std::FILE*) { throw gpueff::Error("the writer failed"); }),
                      "the writer failed");
}

TEST_CASE("TextArena: texts stay where they were put, across chunks and beside texts larger than a chunk") {
    gpueff::TextArena arena(1 << 13); // chunks of 4 and 8 KiB
    std::vector<std::pair<std::string_view, std::string>> kept;
    std::mt19937 random(7);
    for (int i = 0; i < 5000; ++i) {
        std::string text(random() % 3 == 0 ? random() % 20000 : random() % 40,
                         static_cast<char>('a' + i % 26));
        kept.emplace_back(arena.copy(text), text);
    }
    for (const auto& [view, text] : kept) CHECK(view == text);
    CHECK(arena.copy("").empty());
}

TEST_CASE("writeThrough: a writer's bytes in order, and an error of the taker is rethrown after the stream "
          "closes") {
    std::string big(300000, 'x');
    for (std::size_t i = 0; i < big.size(); i += 97) big[i] = static_cast<char>('a' + i % 26);
    std::string got;
    gpueff::writeThrough([&](std::FILE* f) { std::fwrite(big.data(), 1, big.size(), f); },
                         [&](std::string_view bytes) { got.append(bytes); });
    CHECK(got == big);
    std::size_t calls = 0;
    CHECK_THROWS_WITH(gpueff::writeThrough([&](std::FILE* f) { std::fwrite(big.data(), 1, big.size(), f); },
                                           [&](std::string_view) {
                                               ++calls;
                                               throw gpueff::Error("disk full");
                                           }),
                      "disk full");
    CHECK(calls == 1); // nothing more is taken once an error is pending
}

TEST_CASE("writeThrough: whichever failed first is reported, the writer or the taker") {
    auto failingTaker = [](std::string_view) { throw gpueff::Error("disk full"); };
    // The writer fails with bytes still buffered: they are not taken, so the taker cannot fail instead.
    CHECK_THROWS_WITH(gpueff::writeThrough(
                          [](std::FILE* f) {
                              std::fputs("a short line\n", f);
                              throw gpueff::Error("the writer's own error");
                          },
                          failingTaker),
                      "the writer's own error");
    // The taker fails first; the writer, seeing its stream's error, fails too: the taker's error is the
    // cause.
    std::string big(100000, 'x');
    CHECK_THROWS_WITH(gpueff::writeThrough(
                          [&](std::FILE* f) {
                              std::fwrite(big.data(), 1, big.size(), f);
                              if (std::ferror(f)) throw gpueff::Error("a write failed");
                          },
                          failingTaker),
                      "disk full");
    // A writer that fails with nothing taken yet, and a taker that never fails.
    std::string got;
    CHECK_THROWS_WITH(gpueff::writeThrough([](std::FILE*) { throw gpueff::Error("nothing written"); },
                                           [&](std::string_view bytes) { got.append(bytes); }),
                      "nothing written");
    CHECK(got.empty());
}
