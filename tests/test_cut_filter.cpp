// `gpueff cut` and `gpueff filter` (issue 11): what a cut or a filter keeps is recomputed here from the
// input's lines by plain scans, independently of the engine's stages.
#include "engine/paraver/EventTypes.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;
namespace types = gpueff::paraver::types;

namespace {

std::string bin() {
    return quoted(gpueffBinary());
}

std::vector<std::string> lines(const fs::path& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
}

// The body: lines after the header, the communicator lines and the comments.
std::vector<std::string> body(const fs::path& path) {
    auto all = lines(path);
    std::size_t i = 1;
    while (i < all.size() && (all[i].rfind("#", 0) == 0 || all[i].rfind("c:", 0) == 0)) ++i;
    return {all.begin() + static_cast<long>(i), all.end()};
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string f;
    while (std::getline(in, f, ':')) out.push_back(f);
    return out;
}

std::int64_t headerEnd(const fs::path& prv) {
    auto header = lines(prv).front();
    auto close = header.find("):");
    return std::stoll(header.substr(close + 2));
}

bool noFilesWith(const fs::path& dir) {
    return fs::is_empty(dir);
}

const json& at(const json& o, const std::string& key) {
    static const json none;
    return o.is_object() && o.contains(key) ? o[key] : none;
}

// Kernels (compute and NCCL) of each task whose interval has a part of positive length inside [b, e]: the
// kernels a cut keeps (a kernel is the begin record of type 63000006/63000007 with a value and the next
// record of its row setting the type to 0).
std::map<int, std::int64_t> kernelsInside(const fs::path& prv, std::int64_t b, std::int64_t e) {
    std::map<int, std::int64_t> out;
    std::map<std::pair<std::string, std::string>, std::int64_t> open; // (object, type) -> begin
    for (const auto& line : body(prv)) {
        if (line.rfind("2:", 0) != 0) continue;
        auto f = fields(line);
        std::string object = f[2] + ":" + f[3] + ":" + f[4];
        std::int64_t t = std::stoll(f[5]);
        for (std::size_t i = 6; i + 1 < f.size(); i += 2) {
            auto type = std::stoul(f[i]);
            if (type != types::kKernel && type != types::kNcclKernel) continue;
            auto key = std::pair{object, f[i]};
            if (f[i + 1] != "0") {
                open[key] = t;
            } else if (auto it = open.find(key); it != open.end()) {
                if (std::min(t, e) > std::max(it->second, b)) ++out[std::stoi(f[3])];
                open.erase(it);
            }
        }
    }
    return out;
}

json analyze(const std::string& input, const fs::path& dir, const std::string& window) {
    auto r = run(bin() + " analyze " + input + " -o " + quoted(dir) + " -q " + window);
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::ifstream in(dir / "report.json");
    return json::parse(in);
}

// The duration types of `gpueff filter --min-duration` (its --help lists them).
bool durationType(std::uint32_t t) {
    if (t == types::kCudaApi || t == types::kMemoryOperation || t == types::kKernel ||
        t == types::kNcclKernel || t == types::kGraphLaunch || t == types::kSynchronization ||
        t == types::kNvtxStartEndRange || t == types::kOpenAccOtherKind || t == types::kOpenAccDataKind ||
        t == types::kOpenAccLaunchKind || t == types::kOsRuntime || t == types::kPthread)
        return true;
    if (t >= types::kMpiPointToPoint && t <= types::kMpiIo) return true;
    if (t >= 63000400 && t < 63000497) return true;
    if (t < 9500 || t > 81099 || (t > 9500 && t < 9600)) return false;
    return t % 100 < 97;
}

} // namespace

TEST_CASE("cut of every real export: analyze of the cut trace = analyze of that window of the full run") {
    for (const auto& exportPath : realExports()) {
        CAPTURE(exportPath);
        auto dir = tempDir("cut_real_" + exportPath.stem().string());
        auto full = dir / "full";
        auto r = run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(full) + " -q");
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        auto end = headerEnd(dir / "full.prv");
        // A window well inside the run, bounds not on record times (kernels cross both).
        std::int64_t b = end / 3 + 7, e = 2 * (end / 3) + 11;
        auto window = " --begin " + std::to_string(b) + " --end " + std::to_string(e);
        auto whole = analyze(quoted(exportPath), dir / "whole", window);
        r = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(dir / "cut") + " -q" + window);
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        CHECK(headerEnd(dir / "cut.prv") == e - b);
        auto cutLines = lines(dir / "cut.prv");
        CHECK(std::count(cutLines.begin(), cutLines.end(),
                         "# gpueff cut: time 0 = " + std::to_string(b) + " ns of " + exportPath.string()) ==
              1);
        auto part =
            analyze(quoted(dir / "cut.prv"), dir / "part", " --begin 0 --end " + std::to_string(e - b));

        // The device model is a function of the kernels' and copies' time inside the window, clipped to it:
        // the cut keeps exactly that time, shifted by b, so these are equal to the unit.
        REQUIRE(at(part, "devices").size() == at(whole, "devices").size());
        auto kernels = kernelsInside(dir / "full.prv", b, e);
        for (std::size_t d = 0; d < at(whole, "devices").size(); ++d) {
            const auto &w = whole["devices"][d], &p = part["devices"][d];
            CAPTURE(d);
            for (const char* k : {"id", "gpu", "task", "rows", "useful_ns", "communication_ns", "idle_ns",
                                  "compute_ns", "nccl_ns", "memory_ns"})
                CHECK_MESSAGE(at(p, k) == at(w, k), k);
            // `kernels` counts every kernel of the trace (the full run's is not windowed): in the cut it is
            // the kernels with time inside the window, counted here from the full trace.
            CHECK(at(p, "kernels").get<std::int64_t>() == kernels[at(w, "task").get<int>()]);
        }
        for (const char* convention : {"nccl_as_communication", "nccl_as_useful"})
            CHECK_MESSAGE(at(at(part, "efficiency"), convention) == at(at(whole, "efficiency"), convention),
                          convention);
        // Time-in-window distributions are the same measure of the same spans.
        for (const char* k : {"kernels_in_flight", "overlap", "nccl_overlap"})
            CHECK_MESSAGE(at(part, k) == at(whole, k), k);
        // The window itself differs (shifted by b), and so may the kernel summary and duration
        // distributions: they describe whole kernels of the trace, which in the cut are the parts inside.
        CHECK(at(at(part, "window"), "begin_ns") == 0);
        CHECK(at(at(whole, "window"), "begin_ns") == b);
    }
}

TEST_CASE("cut of a .prv equals the cut of the export it was translated from, byte for byte") {
    for (const auto& exportPath : realExports()) {
        CAPTURE(exportPath);
        auto dir = tempDir("cut_prv_" + exportPath.stem().string());
        REQUIRE(run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q")
                    .exitCode == 0);
        auto end = headerEnd(dir / "full.prv");
        auto window = " --begin " + std::to_string(end / 4) + " --end " + std::to_string(end / 2 + 3);
        auto a =
            run(bin() + " cut " + quoted(dir / "full.prv") + " -o " + quoted(dir / "a") + " -q" + window);
        auto b = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(dir / "b") + " -q" + window);
        REQUIRE_MESSAGE(a.exitCode == 0, a.output);
        REQUIRE_MESSAGE(b.exitCode == 0, b.output);
        CHECK(lines(dir / "a.prv").front() == lines(dir / "b.prv").front());
        CHECK(body(dir / "a.prv") == body(dir / "b.prv"));
        CHECK(readText(dir / "a.pcf") == readText(dir / "full.pcf"));
        CHECK(readText(dir / "a.row") == readText(dir / "full.row"));
        CHECK(readText(dir / "b.pcf") == readText(dir / "full.pcf"));
    }
}

TEST_CASE("cut by NVTX region and occurrence: the window is the span a scan of the trace finds") {
    auto exportPath = dataDir() / "nsys" / "fuser_matmul_h100.sqlite"; // ranges repeated on one thread
    auto dir = tempDir("cut_region");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    // Ranges of the default domain (type 9600: a value opens, 0 closes the innermost), per thread.
    auto names = readPcfValues(dir / "full.pcf")[types::kNvtxDefaultDomainBase];
    std::map<std::int64_t, std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>>> ranges;
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>>
        stacks; // object -> (value, begin)
    for (const auto& line : body(dir / "full.prv")) {
        if (line.rfind("2:", 0) != 0) continue;
        auto f = fields(line);
        std::string object = f[2] + ":" + f[3] + ":" + f[4];
        for (std::size_t i = 6; i + 1 < f.size(); i += 2) {
            if (std::stoul(f[i]) != types::kNvtxDefaultDomainBase) continue;
            std::int64_t v = std::stoll(f[i + 1]), t = std::stoll(f[5]);
            auto& s = stacks[object];
            if (v != 0)
                s.push_back({v, t});
            else if (!s.empty()) {
                ranges[s.back().first][object].push_back({s.back().second, t});
                s.pop_back();
            }
        }
    }
    // A name with two ranges or more on some thread.
    std::int64_t value = 0;
    for (const auto& [v, byObject] : ranges)
        for (const auto& [o, list] : byObject)
            if (list.size() >= 2 && names.count(v) && !value) value = v;
    REQUIRE(value != 0);
    std::string name = names[value];
    // Occurrence 2: on each thread the second range of that name (in the order they begin); the window spans
    // them.
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    std::size_t most = 0;
    for (auto [o, list] : ranges[value]) {
        std::sort(list.begin(), list.end());
        most = std::max(most, list.size());
        if (list.size() >= 2) first = std::min(first, list[1].first), last = std::max(last, list[1].second);
    }
    auto r = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(dir / "second") + " -q --region '" +
                 name + "' --occurrence 2");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(headerEnd(dir / "second.prv") == last - first);
    auto cut = lines(dir / "second.prv");
    CHECK(std::any_of(cut.begin(), cut.end(), [&](const std::string& l) {
        return l.rfind("# gpueff cut: time 0 = " + std::to_string(first) + " ns of ", 0) == 0;
    }));
    // The same from the .prv (a first streaming pass finds the span there).
    r = run(bin() + " cut " + quoted(dir / "full.prv") + " -o " + quoted(dir / "second_prv") +
            " -q --region '" + name + "' --occurrence 2");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(body(dir / "second_prv.prv") == body(dir / "second.prv"));

    SUBCASE("an occurrence beyond the ranges is refused, nothing written") {
        auto out = tempDir("cut_region_beyond");
        r = run(bin() + " cut " + quoted(dir / "full.prv") + " -o " + quoted(out / "x") + " --region '" +
                name + "' --occurrence " + std::to_string(most + 1));
        CHECK(r.exitCode == 1);
        CHECK(r.output.find("--occurrence " + std::to_string(most + 1) + ": the range occurs " +
                            std::to_string(most) + " times at most on one thread") != std::string::npos);
        CHECK(noFilesWith(out));
    }
    SUBCASE("a region that is not in the trace is refused, nothing written") {
        auto out = tempDir("cut_region_absent");
        r = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(out / "x") +
                " --region no-such-range");
        CHECK(r.exitCode == 1);
        CHECK(r.output.find("--region 'no-such-range': no NVTX range of that name") != std::string::npos);
        CHECK(noFilesWith(out));
    }
}

TEST_CASE("cut: bad windows are usage errors and leave no output, previous outputs intact") {
    auto exportPath = dataDir() / "nsys" / "power_iteration_t4.sqlite";
    auto out = tempDir("cut_bad");
    { std::ofstream(out / "x.prv") << "previous"; }
    struct Case {
        std::string args, message;
        int code;
    };
    for (const auto& c : std::vector<Case>{
             {"--begin 500 --end 500", "--begin 500 must be before --end 500", 2},
             {"--begin 900 --end 100", "--begin 900 must be before --end 100", 2},
             {"", "give the window: --begin/--end or --region", 2},
             {"--occurrence 2", "--occurrence requires --region", 2},
             {"--region r --begin 4", "excludes", 2},
             {"--begin 0 --end 999999999999999", "after the trace's end", 1},
         }) {
        CAPTURE(c.args);
        auto r = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(out / "x") + " " + c.args);
        CHECK(r.exitCode == c.code);
        CHECK_MESSAGE(r.output.find(c.message) != std::string::npos, r.output);
        CHECK(readText(out / "x.prv") == "previous");
        CHECK(!fs::exists(out / "x.pcf"));
    }
}

TEST_CASE("filter --types keeps exactly the events of those types") {
    auto exportPath = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    auto dir = tempDir("filter_types");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    auto keep = [](std::uint32_t t) { return t == types::kKernel || (t >= 9400 && t <= 9499); };
    auto count = [&](const fs::path& prv, std::map<std::uint32_t, std::int64_t>& pairs, std::int64_t& comms,
                     std::int64_t& eventLines) {
        for (const auto& line : body(prv)) {
            auto f = fields(line);
            if (f[0] == "3") ++comms;
            if (f[0] != "2") continue;
            bool any = false;
            for (std::size_t i = 6; i + 1 < f.size(); i += 2) {
                auto t = static_cast<std::uint32_t>(std::stoul(f[i]));
                ++pairs[t];
                any = any || keep(t);
            }
            eventLines += any;
        }
    };
    std::map<std::uint32_t, std::int64_t> in, out;
    std::int64_t commsIn = 0, commsOut = 0, linesIn = 0, linesOut = 0, ignored = 0;
    count(dir / "full.prv", in, commsIn, linesIn);
    for (const auto& input : {dir / "full.prv", exportPath}) {
        CAPTURE(input);
        out.clear();
        commsOut = linesOut = 0;
        auto r = run(bin() + " filter " + quoted(input) + " -o " + quoted(dir / "f") +
                     " -q --types 63000006,9400-9499");
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        count(dir / "f.prv", out, commsOut, ignored);
        for (const auto& [t, n] : out) CHECK(keep(t));
        for (const auto& [t, n] : in)
            if (keep(t)) CHECK(out[t] == n);
        CHECK(out[types::kKernel] > 0);
        CHECK(commsOut == commsIn); // states and communications are not events
        CHECK(static_cast<std::int64_t>(body(dir / "f.prv").size()) == linesIn + commsIn);
        CHECK(lines(dir / "f.prv").front() == lines(dir / "full.prv").front()); // every object kept
        // The .row of a translated export names the application after the export, not the trace file.
        CHECK(readRowLevel(dir / "f.row", "THREAD") == readRowLevel(dir / "full.row", "THREAD"));
    }
    auto r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "g") + " --types 9x");
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("--types: '9x' is not a number") != std::string::npos);
    CHECK(!fs::exists(dir / "g.prv"));
}

TEST_CASE("filter --min-duration drops exactly the begin/end pairs a brute-force scan finds shorter") {
    for (const auto& name : {"mfu_2gpu_h100_nccl", "saxpy_mpi_a100_rank0"}) {
        auto exportPath = dataDir() / "nsys" / (std::string(name) + ".sqlite");
        CAPTURE(exportPath);
        auto dir = tempDir(std::string("filter_min_") + name);
        REQUIRE(run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q")
                    .exitCode == 0);
        const std::int64_t d = 20000;
        auto in = body(dir / "full.prv");
        std::set<std::size_t> dropped;
        std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::size_t, std::int64_t>>> open;
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (in[i].rfind("2:", 0) != 0) continue;
            auto f = fields(in[i]);
            if (!durationType(static_cast<std::uint32_t>(std::stoul(f[6])))) continue;
            auto& stack = open[{f[2] + ":" + f[3] + ":" + f[4], f[6]}];
            std::int64_t t = std::stoll(f[5]);
            if (f[7] != "0") {
                stack.push_back({i, t});
            } else if (!stack.empty()) {
                if (t - stack.back().second < d) dropped.insert(stack.back().first), dropped.insert(i);
                stack.pop_back();
            }
        }
        REQUIRE(!dropped.empty());
        std::vector<std::string> expected;
        for (std::size_t i = 0; i < in.size(); ++i)
            if (!dropped.count(i)) expected.push_back(in[i]);
        auto r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "f") +
                     " -q --min-duration " + std::to_string(d));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        CHECK(body(dir / "f.prv") == expected);
    }
}

TEST_CASE("filter --tasks and --devices keep the rows asked for and every object of the header") {
    auto exportPath = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    auto dir = tempDir("filter_rows");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    auto threads = readRowLevel(dir / "full.row", "THREAD");
    auto r =
        run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "t") + " -q --tasks 2");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    std::int64_t expected = 0;
    for (const auto& line : body(dir / "full.prv")) {
        auto f = fields(line);
        if (f[0] == "3" ? (f[3] == "2" && f[9] == "2") : f[3] == "2") ++expected;
    }
    auto kept = body(dir / "t.prv");
    CHECK(static_cast<std::int64_t>(kept.size()) == expected);
    for (const auto& line : kept) CHECK(fields(line)[3] == "2");
    CHECK(lines(dir / "t.prv").front() == lines(dir / "full.prv").front());

    // --devices 1: GPU rows of device 1 stay, those of device 0 go, CPU rows stay.
    r = run(bin() + " filter " + quoted(exportPath) + " -o " + quoted(dir / "d") + " -q --devices 1");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto header = lines(dir / "full.prv").front();
    // Thread index (header order) of each record's object, to name its row.
    std::vector<int> perTask;
    {
        auto part = header.substr(header.rfind(":2(") + 3);
        std::stringstream s(part);
        std::string item;
        while (std::getline(s, item, ',')) perTask.push_back(std::stoi(item));
    }
    auto rowOf = [&](const std::vector<std::string>& f, std::size_t at) {
        int index = 0;
        for (int t = 1; t < std::stoi(f[at]); ++t) index += perTask[static_cast<std::size_t>(t - 1)];
        return threads.at(static_cast<std::size_t>(index + std::stoi(f[at + 1]) - 1));
    };
    std::int64_t device0 = 0, device1 = 0;
    for (const auto& line : body(dir / "d.prv")) {
        auto row = rowOf(fields(line), 3);
        device0 += row.rfind("CUDA-D0.", 0) == 0 || row == "Metrics GPU0";
        device1 += row.rfind("CUDA-D1.", 0) == 0;
    }
    CHECK(device0 == 0);
    CHECK(device1 > 0);
    // The same from the translated .prv, whose devices come from its .row.
    r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "d_prv") +
            " -q --devices 1");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(body(dir / "d_prv.prv") == body(dir / "d.prv"));
    r = run(bin() + " filter " + quoted(exportPath) + " -o " + quoted(dir / "e") + " --devices 7");
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("--devices: no GPU rows of those devices (the trace's devices: 0, 1)") !=
          std::string::npos);
    CHECK(!fs::exists(dir / "e.prv"));
    r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "e") + " --tasks 3");
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("--tasks 3: the trace has tasks 1..2") != std::string::npos);
    r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "e") + " --only kernel");
    CHECK(r.exitCode == 2);
    r = run(bin() + " filter " + quoted(dir / "full.prv") + " -o " + quoted(dir / "e"));
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("nothing to filter") != std::string::npos);
    CHECK(!fs::exists(dir / "e.prv"));
}

TEST_CASE("cut of Paraver traces of other writers (nsys2prv: rows not merged in time order)") {
    // nsys2prv writes thread after thread, and within a thread kind after kind: what each row has open at the
    // window's begin must still be written at 0, so the device model of the cut equals the window's.
    for (const auto* name :
         {"power_iteration_t4.nsys2prv", "cloverleaf_a100.nsys2prv", "mfu_2gpu_h100_nccl.gpueff"}) {
        auto trace = dataDir() / "paraver" / "fidelity" / "traces" / (std::string(name) + ".prv.gz");
        CAPTURE(trace);
        auto dir = tempDir(std::string("cut_foreign_") + name);
        auto r = run("zcat " + quoted(trace) + " | head -1");
        auto header = r.output;
        auto end = std::stoll(header.substr(header.find("):") + 2));
        std::int64_t b = end / 3, e = 2 * (end / 3);
        auto whole = analyze(quoted(trace), dir / "whole",
                             " --begin " + std::to_string(b) + " --end " + std::to_string(e));
        r = run(bin() + " cut " + quoted(trace) + " -o " + quoted(dir / "cut") + " -q --begin " +
                std::to_string(b) + " --end " + std::to_string(e));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        auto part =
            analyze(quoted(dir / "cut.prv"), dir / "part", " --begin 0 --end " + std::to_string(e - b));
        REQUIRE(at(part, "devices").size() == at(whole, "devices").size());
        for (std::size_t d = 0; d < at(whole, "devices").size(); ++d)
            for (const char* k :
                 {"useful_ns", "communication_ns", "idle_ns", "compute_ns", "nccl_ns", "memory_ns"})
                CHECK_MESSAGE(at(part["devices"][d], k) == at(whole["devices"][d], k), k);
        CHECK(at(part, "efficiency") == at(whole, "efficiency"));
        CHECK(at(part, "kernels_in_flight") == at(whole, "kernels_in_flight"));
    }
}
