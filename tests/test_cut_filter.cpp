// `gpueff cut` and `gpueff filter` (issue 11): what a cut or a filter keeps is recomputed here from the
// input's lines by plain scans, independently of the engine's stages.
#include "engine/paraver/EventTypes.h"
#include "engine/pipeline/CutStage.h"
#include "jobs/CutJob.h"
#include "jobs/FilterJob.h"
#include "jobs/JobInputs.h"
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

// The '#' lines after the header.
std::vector<std::string> comments(const fs::path& prv) {
    auto all = lines(prv);
    std::vector<std::string> out;
    for (std::size_t i = 1; i < all.size() && (all[i].rfind("#", 0) == 0 || all[i].rfind("c:", 0) == 0); ++i)
        if (all[i].rfind("#", 0) == 0) out.push_back(all[i]);
    return out;
}

// Copies NAME.prv (or the text of a .prv.gz) with its .pcf and .row to DIR/STEM.*, with `tail` appended.
fs::path copyTrace(const fs::path& prv, const fs::path& dir, const std::string& stem,
                   const std::string& tail) {
    auto s = prv.string();
    bool gz = s.size() > 3 && s.compare(s.size() - 3, 3, ".gz") == 0;
    auto base = fs::path(s.substr(0, s.size() - (gz ? 7 : 4)));
    auto out = dir / (stem + ".prv");
    auto r = run((gz ? "zcat " : "cat ") + quoted(prv) + " > " + quoted(out));
    REQUIRE(r.exitCode == 0);
    std::ofstream(out, std::ios::app) << tail;
    fs::copy_file(fs::path(base.string() + ".pcf"), dir / (stem + ".pcf"));
    fs::copy_file(fs::path(base.string() + ".row"), dir / (stem + ".row"));
    return out;
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

TEST_CASE(
    "analyze, cut and filter share one check of their inputs: a trace among exports, or two traces, is a "
    "usage error (exit 2), nothing written or exported") {
    auto exportPath = dataDir() / "nsys" / "concurrent_kernels_gtx1060.sqlite";
    auto dir = tempDir("inputs_mixed");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    // A .nsys-rep would be exported (nsys run) before its use: the check comes first, so nothing is tried.
    { std::ofstream(dir / "run.nsys-rep") << "not a report"; }
    auto prv = quoted(dir / "full.prv");
    struct Case {
        std::string inputs, message;
    };
    for (const auto& c : std::vector<Case>{
             {prv + " " + quoted(exportPath), ": a Paraver trace cannot be mixed with nsys exports"},
             {quoted(exportPath) + " " + prv, ": a Paraver trace cannot be mixed with nsys exports"},
             {quoted(dir / "run.nsys-rep") + " " + prv,
              ": a Paraver trace cannot be mixed with nsys exports"},
             {prv + " " + prv, " takes one Paraver trace (or several nsys exports of one run), got 2 traces"},
         }) {
        for (const auto& [command, options] : std::vector<std::pair<std::string, std::string>>{
                 {"analyze", " -o " + quoted(dir / "report")},
                 {"cut", " -o " + quoted(dir / "out") + " --begin 0 --end 1000"},
                 {"filter", " -o " + quoted(dir / "out") + " --types 63000006"}}) {
            CAPTURE(command);
            CAPTURE(c.inputs);
            auto r = run(bin() + " " + command + " " + c.inputs + options);
            CHECK(r.exitCode == 2);
            CHECK_MESSAGE(r.output.find("gpueff: error: " + command) != std::string::npos, r.output);
            CHECK_MESSAGE(r.output.find(c.message) != std::string::npos, r.output);
            CHECK(!fs::exists(dir / "report"));
            CHECK(!fs::exists(dir / "out.prv"));
            CHECK(!fs::exists(dir / "run.sqlite"));
        }
    }
}

TEST_CASE("cut and filter are library calls: requests that cannot run are RequestErrors, bad inputs Errors") {
    namespace jobs = gpueff::jobs;
    auto exportPath = (dataDir() / "nsys" / "concurrent_kernels_gtx1060.sqlite").string();
    auto dir = tempDir("cut_filter_jobs");
    jobs::CutRequest cut;
    cut.stream.inputs = {exportPath};
    cut.stream.prefix = (dir / "c").string();
    cut.stream.quiet = true;
    CHECK_THROWS_AS(jobs::cutTrace(cut), jobs::RequestError); // no window
    cut.region = "r";
    cut.begin = 4;
    CHECK_THROWS_AS(jobs::cutTrace(cut), jobs::RequestError); // region and begin
    cut.region.clear();
    cut.end = 999'999'999'999'999;
    try {
        jobs::cutTrace(cut);
        FAIL("a window past the trace's end was accepted");
    } catch (const jobs::RequestError&) {
        FAIL("the input's end is not a usage error");
    } catch (const gpueff::Error& e) {
        CHECK(std::string(e.what()).find("after the trace's end") != std::string::npos);
    }
    CHECK(noFilesWith(dir));
    jobs::FilterRequest filter;
    filter.stream.command = "filter";
    filter.stream.inputs = {exportPath};
    filter.stream.prefix = (dir / "f").string();
    CHECK_THROWS_WITH_AS(jobs::filterTrace(filter), doctest::Contains("nothing to filter"),
                         jobs::RequestError);
    CHECK_THROWS_AS(jobs::inputKind({}, "cut"), jobs::RequestError);
    CHECK(jobs::inputKind({"a.prv.gz"}, "cut") == jobs::InputKind::ParaverTrace);
    CHECK(jobs::inputKind({"a.sqlite", "b.nsys-rep"}, "cut") == jobs::InputKind::Profiles);
    // The kept window, counted by the job: every kernel begin of the export inside [begin, end] is kept.
    cut.end = 300'000'000;
    cut.stream.prefix = (dir / "ok").string();
    auto result = jobs::cutTrace(cut);
    CHECK(result.begin == 4);
    CHECK(headerEnd(dir / "ok.prv") == 300'000'000 - 4);
    CHECK(result.counts.recordsKept == body(dir / "ok.prv").size());
}

TEST_CASE(
    "cut --region of nsys exports: the span SQL finds in the export, in trace time from the first record of "
    "any kind") {
    // fuser_matmul's first CUDA call comes before its first NVTX range: a first pass that took the NVTX
    // records alone as the trace would start time 0 at the wrong record.
    auto db = dataDir() / "nsys" / "fuser_matmul_h100.sqlite";
    auto dir = tempDir("cut_region_sql");
    const std::string ranges = "FROM NVTX_EVENTS WHERE eventType IN (59, 60) AND end IS NOT NULL";
    auto name = query(db, "SELECT text " + ranges +
                              " GROUP BY globalTid, text HAVING count(*) >= 2 ORDER BY text LIMIT 1")
                    .at(0)
                    .at(0);
    REQUIRE(!name.empty());
    std::int64_t firstApi = queryInt(db, "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
    std::int64_t firstNvtx =
        queryInt(db, "SELECT min(start) FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)");
    REQUIRE(firstApi < firstNvtx);
    // --only nvtx,api: time 0 is the first CUDA call or NVTX event, whichever comes first.
    const std::int64_t origin = std::min(firstApi, firstNvtx);
    auto quotedName = "'" + name + "'";
    struct Case {
        std::string occurrence, sql;
    };
    for (const auto& c : std::vector<Case>{
             {"", "SELECT min(start), max(end) " + ranges + " AND text = " + quotedName},
             {" --occurrence 2", "SELECT min(start), max(end) FROM (SELECT start, end, row_number() OVER "
                                 "(PARTITION BY globalTid "
                                 "ORDER BY start) AS k " +
                                     ranges + " AND text = " + quotedName + ") WHERE k = 2"},
         }) {
        CAPTURE(c.occurrence);
        auto span = query(db, c.sql).at(0);
        std::int64_t first = std::stoll(span.at(0)) - origin, last = std::stoll(span.at(1)) - origin;
        auto r = run(bin() + " cut " + quoted(db) + " -o " + quoted(dir / "r") +
                     " -q --only nvtx,api --region " + quotedName + c.occurrence);
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        CHECK(headerEnd(dir / "r.prv") == last - first);
        auto lines = comments(dir / "r.prv");
        CHECK(std::count(lines.begin(), lines.end(),
                         "# gpueff cut: time 0 = " + std::to_string(first) + " ns of " + db.string() +
                             " (NVTX region \"" + name + "\"" +
                             (c.occurrence.empty() ? std::string() : ", occurrence 2") + ")") == 1);
    }
    auto r = run(bin() + " cut " + quoted(db) + " -o " + quoted(dir / "x") + " --skip nvtx --region " +
                 quotedName);
    CHECK(r.exitCode == 2);
    CHECK(r.output.find("needs the NVTX ranges, which --only/--skip leave out") != std::string::npos);
    CHECK(!fs::exists(dir / "x.prv"));
}

TEST_CASE("cut --region of every real export with NVTX ranges = the same cut of its translated .prv") {
    // The .prv's first pass reads every record of the full translation; the export's reads its NVTX ranges
    // only, in the same trace time: the windows, and so the cut traces, must be the same.
    std::size_t checked = 0;
    for (const auto& exportPath : realExports()) {
        CAPTURE(exportPath);
        auto dir = tempDir("cut_region_all_" + exportPath.stem().string());
        REQUIRE(run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q")
                    .exitCode == 0);
        // The default domain's most frequent range name, and its span by a sweep over the .prv's lines.
        auto names = readPcfValues(dir / "full.pcf")[types::kNvtxDefaultDomainBase];
        std::map<std::int64_t, int> opened;
        std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> stacks;
        std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> spans;
        for (const auto& line : body(dir / "full.prv")) {
            if (line.rfind("2:", 0) != 0) continue;
            auto f = fields(line);
            for (std::size_t i = 6; i + 1 < f.size(); i += 2) {
                if (std::stoul(f[i]) != types::kNvtxDefaultDomainBase) continue;
                std::int64_t v = std::stoll(f[i + 1]), t = std::stoll(f[5]);
                auto& s = stacks[f[2] + ":" + f[3] + ":" + f[4]];
                if (v != 0) {
                    s.push_back({v, t});
                    ++opened[v];
                } else if (!s.empty()) {
                    auto [value, begin] = s.back();
                    s.pop_back();
                    auto it = spans.try_emplace(value, begin, t).first;
                    it->second.first = std::min(it->second.first, begin);
                    it->second.second = std::max(it->second.second, t);
                }
            }
        }
        std::int64_t value = 0;
        for (const auto& [v, n] : opened)
            if (spans.count(v) && names.count(v) && names[v].find('\'') == std::string::npos &&
                (!value || n > opened[value]))
                value = v;
        if (!value) continue;
        ++checked;
        auto [first, last] = spans[value];
        if (first == last) continue;
        auto region = " -q --region '" + names[value] + "'";
        auto a = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(dir / "a") + region);
        auto b = run(bin() + " cut " + quoted(dir / "full.prv") + " -o " + quoted(dir / "b") + region);
        REQUIRE_MESSAGE(a.exitCode == 0, a.output);
        REQUIRE_MESSAGE(b.exitCode == 0, b.output);
        CHECK(headerEnd(dir / "a.prv") == last - first);
        CHECK(lines(dir / "a.prv").front() == lines(dir / "b.prv").front());
        CHECK(body(dir / "a.prv") == body(dir / "b.prv"));
    }
    CHECK(checked >= 4); // concurrent_kernels, fuser_matmul, mfu_2gpu, power_iteration, saxpy_mpi
}

TEST_CASE("cut of a trace gpueff wrote stops reading at the window's end: other writers' traces are read to "
          "their end") {
    auto exportPath = dataDir() / "nsys" / "mfu_2gpu_h100_nccl.sqlite";
    auto dir = tempDir("cut_early_end");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    auto end = headerEnd(dir / "full.prv");
    // A line no parser accepts at the end of the file: reading it fails, naming its line.
    auto lineCount = lines(dir / "full.prv").size();
    auto damaged = copyTrace(dir / "full.prv", dir, "damaged", "2:not a record\n");
    auto window = " --begin " + std::to_string(end / 20) + " --end " + std::to_string(end / 10);
    auto r = run(bin() + " cut " + quoted(damaged) + " -o " + quoted(dir / "early") + " -q" + window);
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    // The same cut as of the export, which is translated whole: nothing of the window was left unread.
    r = run(bin() + " cut " + quoted(exportPath) + " -o " + quoted(dir / "whole") + " -q" + window);
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(lines(dir / "early.prv").front() == lines(dir / "whole.prv").front());
    CHECK(body(dir / "early.prv") == body(dir / "whole.prv"));
    CHECK(readText(dir / "early.pcf") == readText(dir / "full.pcf"));
    CHECK(readText(dir / "early.row") == readText(dir / "full.row"));
    // A window to the trace's end reaches the bad line.
    r = run(bin() + " cut " + quoted(damaged) + " -o " + quoted(dir / "late") + " -q --begin " +
            std::to_string(end / 2));
    CHECK(r.exitCode == 1);
    CHECK_MESSAGE(r.output.find("damaged.prv:" + std::to_string(lineCount + 1) + ":") != std::string::npos,
                  r.output);
    CHECK(!fs::exists(dir / "late.prv"));

    // nsys2prv writes thread after thread: records of the window may follow any record past its end.
    auto foreign = dataDir() / "paraver" / "fidelity" / "traces" / "power_iteration_t4.nsys2prv.prv.gz";
    auto copy = copyTrace(foreign, dir, "foreign", "2:not a record\n");
    r = run(bin() + " cut " + quoted(copy) + " -o " + quoted(dir / "f") + " -q --begin 0 --end " +
            std::to_string(headerEnd(copy) / 10));
    CHECK(r.exitCode == 1);
    CHECK_MESSAGE(r.output.find("foreign.prv:") != std::string::npos, r.output);
    CHECK(!fs::exists(dir / "f.prv"));
}

TEST_CASE("cut: a trace that says gpueff wrote it but is out of order is read on, not cut short") {
    auto dir = tempDir("cut_disorder");
    const std::string header = "#Paraver (01/01/2026 at 00:00):1000_ns:1(2):1:1(2:1)\n"
                               "# gpueff 0.1.0 translate: time 0 = 0 ns since the UNIX epoch (UTC)\n";
    // Row 2's range closes at 50, inside [0, 100], after row 1's record at 900: the order is broken at the
    // record at 5 already, so the record at 900 does not end the reading.
    {
        std::ofstream(dir / "t.prv") << header
                                     << "2:1:1:1:1:10:9600:1\n2:1:1:1:2:5:9600:2\n2:1:1:1:1:900:9600:0\n"
                                     << "2:1:1:1:2:50:9600:0\n";
    }
    auto r =
        run(bin() + " cut " + quoted(dir / "t.prv") + " -o " + quoted(dir / "c") + " -q --begin 0 --end 100");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto cut = body(dir / "c.prv");
    CHECK(std::count(cut.begin(), cut.end(), "2:1:1:1:2:50:9600:0") == 1);
    // In order, the reading ends at the record past the window: the bad line after it is never read.
    {
        std::ofstream(dir / "u.prv") << header
                                     << "2:1:1:1:2:5:9600:2\n2:1:1:1:1:10:9600:1\n2:1:1:1:2:50:9600:0\n"
                                     << "2:1:1:1:1:900:9600:0\n2:not a record\n";
    }
    r = run(bin() + " cut " + quoted(dir / "u.prv") + " -o " + quoted(dir / "d") + " -q --begin 0 --end 100");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    CHECK(body(dir / "d.prv") == std::vector<std::string>{"2:1:1:1:2:5:9600:2", "2:1:1:1:1:10:9600:1",
                                                          "2:1:1:1:2:50:9600:0", "2:1:1:1:1:100:9600:0"});
}

TEST_CASE("cut and filter outputs name no sidecar JSON: they have none") {
    auto exportPath = dataDir() / "nsys" / "concurrent_kernels_gtx1060.sqlite";
    auto dir = tempDir("cut_no_sidecar");
    REQUIRE(
        run(bin() + " translate " + quoted(exportPath) + " -o " + quoted(dir / "full") + " -q").exitCode ==
        0);
    auto translated = comments(dir / "full.prv").at(0);
    const std::string see = "; see full.json";
    REQUIRE(translated.size() > see.size());
    REQUIRE(translated.compare(translated.size() - see.size(), see.size(), see) == 0);
    auto translateLine = translated.substr(0, translated.size() - see.size());
    auto end = headerEnd(dir / "full.prv");
    auto window = " --begin " + std::to_string(end / 4) + " --end " + std::to_string(end / 2);
    for (const auto& [name, command] : std::vector<std::pair<std::string, std::string>>{
             {"cut_export", " cut " + quoted(exportPath) + window},
             {"cut_prv", " cut " + quoted(dir / "full.prv") + window},
             {"filter_export", " filter " + quoted(exportPath) + " --types 63000006"},
             {"filter_prv", " filter " + quoted(dir / "full.prv") + " --types 63000006"},
         }) {
        CAPTURE(name);
        auto r = run(bin() + command + " -q -o " + quoted(dir / name));
        REQUIRE_MESSAGE(r.exitCode == 0, r.output);
        CHECK(!fs::exists(dir / (name + ".json")));
        auto found = comments(dir / (name + ".prv"));
        REQUIRE(!found.empty());
        CHECK(found.front() == translateLine);
        for (const auto& c : found) CHECK_MESSAGE(c.find("see ") == std::string::npos, c);
    }
    // A cut of a cut keeps the lines, the later cut's last.
    auto r = run(bin() + " cut " + quoted(dir / "cut_prv.prv") + " -q -o " + quoted(dir / "again") +
                 " --begin 10 --end 20");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto again = comments(dir / "again.prv");
    REQUIRE(again.size() == 3);
    CHECK(again[0] == translateLine);
    CHECK(again[1] ==
          "# gpueff cut: time 0 = " + std::to_string(end / 4) + " ns of " + (dir / "full.prv").string());
    CHECK(again[2] == "# gpueff cut: time 0 = 10 ns of " + (dir / "cut_prv.prv").string());
}

TEST_CASE(
    "a cut of an nsys2prv trace says where its time 0 is: an export's time = trace time + the cuts' shift") {
    auto trace = dataDir() / "paraver" / "fidelity" / "traces" / "power_iteration_t4.nsys2prv.prv.gz";
    auto db = dataDir() / "nsys" / "power_iteration_t4.sqlite"; // the export nsys2prv translated
    auto dir = tempDir("cut_nsys2prv_origin");
    auto header = run("zcat " + quoted(trace) + " | head -1").output;
    auto end = std::stoll(header.substr(header.find("):") + 2));
    std::int64_t b1 = end / 3, b2 = 12345;
    auto r = run(bin() + " cut " + quoted(trace) + " -q -o " + quoted(dir / "one") + " --begin " +
                 std::to_string(b1) + " --end " + std::to_string(2 * (end / 3)));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    r = run(bin() + " cut " + quoted(dir / "one.prv") + " -q -o " + quoted(dir / "two") + " --begin " +
            std::to_string(b2));
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto origin = gpueff::paraver::readProvenance(comments(dir / "two.prv")).cutOrigin();
    REQUIRE(origin);
    CHECK(origin->shift == b1 + b2);
    CHECK(origin->unit == "ns");
    CHECK(origin->cuts == 2);
    CHECK(origin->source == trace.string());
    // Kernels that begin inside the cut (not carried in at 0) began at trace time + shift in the export.
    std::set<std::int64_t> starts;
    for (const auto& row : query(db, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL"))
        starts.insert(std::stoll(row.at(0)));
    std::size_t kernels = 0;
    for (const auto& line : body(dir / "two.prv")) {
        auto f = fields(line);
        if (f[0] != "2" || f[6] != std::to_string(types::kKernel) || f[7] == "0" || f[5] == "0") continue;
        ++kernels;
        CHECK(starts.count(std::stoll(f[5]) + origin->shift) == 1);
    }
    CHECK(kernels > 0);
    // analyze of the cut says so, with the shift, instead of "an export's time = trace time".
    auto report = run(bin() + " analyze " + quoted(dir / "two.prv") + " -o " + quoted(dir / "report"));
    REQUIRE_MESSAGE(report.exitCode == 0, report.output);
    CHECK(report.output.find("an export's time = trace time + " + std::to_string(b1 + b2) + " ns") !=
          std::string::npos);
    CHECK(report.output.find("(an export's time = trace time)") == std::string::npos);
    CHECK(readText(dir / "report" / "report.json").find("\"cut_shift_ns\": " + std::to_string(b1 + b2)) !=
          std::string::npos);
    CHECK(!gpueff::paraver::readProvenance(
               {"# gpueff cut: time 0 = 5 ns of a", "# gpueff cut: time 0 = 2 us of b"})
               .cutOrigin());
    CHECK(!gpueff::paraver::readProvenance({"# gpueff cut: time 0 = x ns of a"}).cutOrigin());
    CHECK(!gpueff::paraver::readProvenance(
               {"# gpueff cut: time 0 = 9223372036854775807 ns of a", "# gpueff cut: time 0 = 1 ns of b"})
               .cutOrigin());
    CHECK(!gpueff::paraver::readProvenance(
               {"# gpueff 0.1.0 translate: time 0 = 0 ns since the UNIX epoch (UTC)"})
               .cutOrigin());
}
