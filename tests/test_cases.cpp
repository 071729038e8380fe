// Tests as data (tests/cases/README.md): every folder tests/cases/<name>/ holding a case.json is one case, a
// command run in-process through its job (jobs/AnalyzeJob.h, TranslateJob.h, HistogramJob.h) on the inputs
// the case names, into a fresh temporary directory; then each output file the case lists is compared with its
// expected JSON subset (tests/JsonSubset.h). A difference names the case, the file, the JSON pointer and both
// values. Where each expected value comes from is written in the case (its "provenance"), never in this file.
#include "jobs/AnalyzeJob.h"
#include "jobs/HistogramJob.h"
#include "jobs/TranslateJob.h"
#include "metrics/Analysis.h"
#include "tests/JsonSubset.h"
#include "tests/TestSupport.h"

#include <algorithm>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace testsupport;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path casesDir() {
    return sourceDir() / "tests" / "cases";
}

struct Case {
    std::string name;
    fs::path dir;
    json spec;
};

json readJson(const fs::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    try {
        return json::parse(in);
    } catch (const json::exception& e) {
        throw std::runtime_error(path.string() + ": " + e.what());
    }
}

std::vector<Case> discoverCases() {
    std::vector<Case> cases;
    for (const auto& entry : fs::directory_iterator(casesDir()))
        if (fs::exists(entry.path() / "case.json"))
            cases.push_back({entry.path().filename().string(), entry.path(), {}});
    std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
    return cases;
}

// "data:X" is the repository's data/X, "repo:X" the repository's X; anything else is relative to the case.
fs::path resolve(const Case& c, const std::string& path) {
    if (path.rfind("data:", 0) == 0) return dataDir() / path.substr(5);
    if (path.rfind("repo:", 0) == 0) return sourceDir() / path.substr(5);
    return c.dir / path;
}

// An input as given: a path, an SQL script (built into an export named after it, or after "name"), or
// {"sql": script, "extra_sql": statements run after it, "name": file name} for a variant of a fixture.
std::string prepareInput(const Case& c, const json& input, const fs::path& work) {
    json in = input.is_string() ? json{{"path", input}} : input;
    for (const auto& [key, value] : in.items())
        if (key != "path" && key != "sql" && key != "extra_sql" && key != "name")
            throw std::runtime_error("input " + input.dump() + ": unknown key " + key);
    std::string given = in.contains("sql") ? in["sql"].get<std::string>() : in.at("path").get<std::string>();
    auto path = resolve(c, given);
    if (path.extension() != ".sql") return path.string();
    auto db = work / in.value("name", path.stem().string() + ".sqlite");
    return buildDatabase(path, db, in.value("extra_sql", std::string())).string();
}

// The case's "args", each given to its setter; a key no setter takes is an error (a misspelt option must not
// be ignored silently).
using Setters = std::map<std::string, std::function<void(const json&)>>;
void applyArgs(const json& args, const Setters& setters) {
    for (const auto& [key, value] : args.items()) {
        auto it = setters.find(key);
        if (it == setters.end()) throw std::runtime_error("unknown argument \"" + key + "\"");
        it->second(value);
    }
}

template <typename T>
std::function<void(const json&)> into(T& field) {
    return [&field](const json& v) { field = v.get<T>(); };
}

std::set<std::string> kinds(const json& v) {
    return v.get<std::set<std::string>>();
}

void runAnalyze(const std::vector<std::string>& inputs, const json& args, const fs::path& out) {
    gpueff::jobs::AnalyzeRequest r;
    r.inputs = inputs;
    r.outDir = out.string();
    r.gemm = gpueff::metrics::kDefaultGemmPattern; // the CLI's default
    r.quiet = true;
    applyArgs(args, {{"begin", [&](const json& v) { r.begin = v.get<std::int64_t>(); }},
                     {"end", [&](const json& v) { r.end = v.get<std::int64_t>(); }},
                     {"region", into(r.region)},
                     {"iterations", into(r.iterations)},
                     {"iterations_from", into(r.iterationsFrom)},
                     {"name", into(r.name)},
                     {"gemm_pattern", into(r.gemm)},
                     {"no_trace", [&](const json& v) { r.writeTrace = !v.get<bool>(); }},
                     {"unaligned", into(r.unaligned)}});
    gpueff::jobs::analyzeToDirectory(r);
}

// A path of this run as the same text on every machine: the temporary directory as $WORK, the repository as
// $REPO.
std::string portablePaths(std::string line, const fs::path& work) {
    for (const auto& [dir, name] :
         {std::pair{work.string() + "/", "$WORK/"}, std::pair{sourceDir().string() + "/", "$REPO/"}})
        for (auto at = line.find(dir); at != std::string::npos; at = line.find(dir, at + 1))
            line.replace(at, dir.size(), name);
    return line;
}

// The sidecar is out/<name>.json; the warnings the CLI would print go to out/warnings.json (an array, paths
// as portablePaths writes them).
void runTranslate(const std::vector<std::string>& inputs, const json& args, const fs::path& work,
                  const fs::path& out) {
    gpueff::jobs::TranslateRequest request;
    auto& o = request.import;
    for (const auto& in : inputs) o.inputs.emplace_back(in);
    std::string name = "trace";
    applyArgs(args, {{"name", into(name)},
                     {"only", [&](const json& v) { o.only = kinds(v); }},
                     {"skip", [&](const json& v) { o.skip = kinds(v); }},
                     {"thread_names", into(o.threadNames)},
                     {"unaligned", into(o.unaligned)}});
    request.prefix = out / name;
    json warnings = json::array();
    o.warn = [&](const std::string& line) { warnings.push_back(portablePaths(line, work)); };
    gpueff::jobs::translateToPrefix(request, [](const std::string&) {});
    std::ofstream(out / "warnings.json") << warnings.dump(2) << "\n";
}

// One trace (the first input), every cfg of "cfgs" on it: out/<cfg>.json (histograms) or .csv (timelines).
void runHistogram(const Case& c, const std::vector<std::string>& inputs, const json& args,
                  const fs::path& out) {
    gpueff::jobs::HistogramRequest r;
    if (inputs.size() != 1) throw std::runtime_error("histogram takes one trace");
    r.trace = inputs[0];
    r.outputDir = out.string();
    r.json = r.quiet = true;
    applyArgs(args, {{"cfgs",
                      [&](const json& v) {
                          for (const auto& cfg : v)
                              r.cfgs.push_back(resolve(c, cfg.get<std::string>()).string());
                      }},
                     {"lenient", into(r.lenient)},
                     {"memory_limit", into(r.memoryLimit)}});
    gpueff::jobs::runHistogram(r);
}

void runCommand(const Case& c, const fs::path& work, const fs::path& out) {
    std::vector<std::string> inputs;
    for (const auto& in : c.spec.at("inputs")) inputs.push_back(prepareInput(c, in, work));
    const auto& command = c.spec.at("command").get_ref<const std::string&>();
    const json args = c.spec.value("args", json::object());
    fs::create_directories(out);
    if (command == "analyze") return runAnalyze(inputs, args, out);
    if (command == "translate") return runTranslate(inputs, args, work, out);
    if (command == "histogram") return runHistogram(c, inputs, args, out);
    throw std::runtime_error("unknown command \"" + command + "\"");
}

// Every report.json a case writes must follow docs/report.schema.json, whatever its expected subset says.
void checkSchema(const Case& c, const fs::path& out) {
    if (!fs::exists(out / "report.json")) return;
    auto violation = reportSchemaViolation(readJson(out / "report.json"));
    if (!violation.empty())
        FAIL_CHECK("case " << c.name << ": report.json does not follow docs/report.schema.json: " << violation);
}

// A misspelt key of case.json ("expect", "tolerence") would quietly fall back to a default: refused.
void checkKeys(const Case& c) {
    static const std::set<std::string> known = {"description", "command",   "inputs",    "args",
                                                "expected",    "tolerance", "provenance"};
    for (const auto& [key, value] : c.spec.items())
        REQUIRE_MESSAGE(known.count(key),
                        "case " << c.name << ": case.json has an unknown key \"" << key << "\"");
    const json tolerance = c.spec.value("tolerance", json::object());
    for (const auto& [key, value] : tolerance.items())
        REQUIRE_MESSAGE((key == "relative" || key == "absolute"),
                        "case " << c.name << ": tolerance has an unknown key \"" << key << "\"");
    REQUIRE_MESSAGE(c.spec.contains("provenance"), "case " << c.name << ": no provenance");
}

void runCase(Case& c) {
    c.spec = readJson(c.dir / "case.json");
    checkKeys(c);
    auto work = tempDir("case-" + c.name);
    auto out = work / "out";
    try {
        runCommand(c, work, out);
    } catch (const std::exception& e) {
        FAIL("case " << c.name << ": " << c.spec.value("command", "?") << " failed: " << e.what());
    }
    checkSchema(c, out);
    const json expected = c.spec.value("expected", json{{"report.json", "expected.json"}});
    REQUIRE_MESSAGE(!expected.empty(), "case " << c.name << ": expects nothing");
    const json given = c.spec.value("tolerance", json::object());
    NumberTolerance tolerance{given.value("relative", 0.0), given.value("absolute", 0.0)};
    for (const auto& [output, subsetFile] : expected.items()) {
        json actual, subset;
        try {
            actual = readJson(out / output);
            subset = readJson(c.dir / subsetFile.get<std::string>());
        } catch (const std::exception& e) {
            FAIL_CHECK("case " << c.name << ": " << e.what());
            continue;
        }
        std::string differences;
        for (const auto& d : subsetDifferences(subset, actual, tolerance))
            differences += "\n  case " + c.name + ": " + output + "#" + d;
        CHECK_MESSAGE(differences.empty(), "case " << c.name << ", " << output << ":" << differences);
    }
}

} // namespace

TEST_CASE("tests/cases: every case's outputs hold its expected subset") {
    auto cases = discoverCases();
    REQUIRE_FALSE(cases.empty());
    for (auto& c : cases) {
        SUBCASE(c.name.c_str()) {
            runCase(c);
        }
    }
}

// The comparison itself: each matcher both accepts what it should and names what it rejects (a case whose
// subset cannot fail would be worthless).
TEST_CASE("tests/cases: the expected subset names the pointer and both values of each difference") {
    const json actual = json::parse(R"({"devices": [{"id": "a", "ns": 10}, {"id": "b", "ns": 20}],
        "ratio": 0.5, "notes": ["1 row skipped", "no GPU metrics"], "name": "x/y"})");
    CHECK(subsetDifferences(json::parse(R"({"devices": [{"id": "a"}, {}], "ratio": 0.5})"), actual).empty());
    CHECK(subsetDifferences(json::parse(R"({"devices": [{"id": "a"}]})"), actual) ==
          std::vector<std::string>{"/devices: expected 1 elements, got 2"});
    CHECK(subsetDifferences(json::parse(R"({"devices": [{"ns": 11}, {}]})"), actual) ==
          std::vector<std::string>{"/devices/0/ns: expected 11, got 10"});
    CHECK(subsetDifferences(json::parse(R"({"missing": 1})"), actual) ==
          std::vector<std::string>{"/missing: expected 1, key missing"});
    CHECK(subsetDifferences(json::parse(R"({"ratio": 0.5000001})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"ratio": 0.5000001})"), actual, {1e-6, 0}).empty());
    CHECK(subsetDifferences(json::parse(R"({"ratio": {"$approx": 0.51, "$abs": 0.02}})"), actual).empty());
    CHECK(subsetDifferences(json::parse(R"({"ratio": {"$approx": 0.6, "$abs": 0.02}})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"ratio": {"$approx": 0.5}})"), actual).size() ==
          1); // no tolerance
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$length": 2}})"), actual).empty());
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$length": 1}})"), actual) ==
          std::vector<std::string>{"/devices: expected 1 elements, got 2"});
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$each": {"ns": 10}}})"), actual) ==
          std::vector<std::string>{"/devices/1/ns: expected 10, got 20"});
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$key": "id", "$items": [{"id": "b", "ns": 20}]}})"),
                            actual)
              .empty());
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$key": "id", "$items": [{"id": "b", "ns": 2}]}})"),
                            actual) == std::vector<std::string>{"/devices/1/ns: expected 2, got 20"});
    CHECK(subsetDifferences(json::parse(R"({"devices": {"$key": "id", "$items": [{"id": "c"}]}})"), actual)
              .size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"notes": {"$contains": ["skipped", "GPU"]}})"), actual).empty());
    CHECK(subsetDifferences(json::parse(R"({"notes": {"$contains": "3 rows"}})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"devices": [{}, {}, {}]})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"ratio": {"$absent": true}})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"other": {"$absent": true}})"), actual).empty());
    CHECK(subsetDifferences(json::parse(R"({"ratio": {"$typo": 1}})"), actual).size() == 1);
    CHECK(subsetDifferences(json::parse(R"({"name": "x/z"})"), actual) ==
          std::vector<std::string>{"/name: expected \"x/z\", got \"x/y\""});
    CHECK(subsetDifferences(json::parse(R"({"x/y": 1})"), json::parse(R"({"x/y": 2})")) ==
          std::vector<std::string>{"/x~1y: expected 1, got 2"});
}
