// The dashboard as a user meets it: its pages opened from file:// in headless Chromium (HeadlessBrowser.h,
// skipped when no browser is installed; scripts/test installs Debian's chromium). Every figure a page shows
// from its data names its JSON path and value (reports/site/common.js), so the numbers on screen are
// checked against report.json and the index's data; no page may log an error; every chart must be drawn
// (pixels on its canvas); every link must lead to a file. Screenshots of each page (1280 x 800) are left in
// the test's directory to look at.
#include "DashboardFixture.h"
#include "HeadlessBrowser.h"
#include "TestSupport.h"

#include <doctest/doctest.h>
#include <fstream>
#include <set>

using namespace testsupport;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The value at a data-path: keys joined by '.', a '.' or '\' inside a key escaped with '\', array indexes
// as numbers.
const json* atPath(const json& root, const std::string& path) {
    std::vector<std::string> keys(1);
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '\\' && i + 1 < path.size())
            keys.back() += path[++i];
        else if (path[i] == '.')
            keys.emplace_back();
        else
            keys.back() += path[i];
    }
    const json* at = &root;
    for (const auto& k : keys) {
        if (at->is_array()) {
            std::size_t i = std::stoul(k);
            if (i >= at->size()) return nullptr;
            at = &(*at)[i];
        } else if (at->is_object() && at->contains(k)) {
            at = &(*at)[k];
        } else {
            return nullptr;
        }
    }
    return at;
}

// Every [data-path] element of the page: its path, data-value and text.
json shownFigures(gpueff::test::HeadlessBrowser& browser, const std::string& within = "document") {
    return browser.evaluate("[..." + within +
                            ".querySelectorAll('[data-path]')].map(e => ({path: e.dataset.path, value: "
                            "e.dataset.value, text: e.textContent}))");
}

// Each shown figure is the value at its path in `data`; returns how many were checked.
std::size_t checkFigures(const json& shown, const json& data) {
    std::size_t checked = 0;
    for (const auto& f : shown) {
        // JSON.stringify leaves out an undefined data-value: a text cell names its path only.
        if (!f.contains("value") || !f["value"].is_string()) continue;
        auto path = f["path"].get<std::string>(), value = f["value"].get<std::string>();
        CAPTURE(path);
        const json* expected = atPath(data, path);
        REQUIRE_MESSAGE(expected, "a figure whose path is not in the data");
        if (expected->is_number()) {
            CHECK(std::stod(value) == doctest::Approx(expected->get<double>()).epsilon(1e-12));
        } else if (expected->is_null()) {
            CHECK(value == "null");
        } else if (expected->is_string()) {
            CHECK(value == expected->get<std::string>());
        }
        ++checked;
    }
    return checked;
}

// Charts on view with nothing drawn: containers .chart whose canvases hold no opaque pixel (a chart inside a
// folded section has no size until it opens).
json emptyCharts(gpueff::test::HeadlessBrowser& browser) {
    return browser.evaluate(
        R"js([...document.querySelectorAll('.chart')].filter(c => c.offsetParent !== null).filter(c => ![...c.querySelectorAll('canvas')].some(cv => {
        if (!cv.width || !cv.height) return false;
        const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
        for (let i = 3; i < d.length; i += 4) if (d[i]) return true;
        return false;
    })).map(c => c.dataset.chart || c.id || 'a chart'))js");
}

// Links to files (the site's pages, run files, images) that do not exist.
std::vector<std::string> brokenLinks(gpueff::test::HeadlessBrowser& browser) {
    auto urls =
        browser.evaluate("[...document.querySelectorAll('a[href], img[src]')].map(e => e.href || e.src)");
    std::vector<std::string> broken;
    for (const auto& u : urls) {
        auto url = u.get<std::string>();
        if (url.rfind("file://", 0) != 0) continue;
        url = url.substr(7, url.find_first_of("?#") - 7);
        std::string path;
        for (std::size_t i = 0; i < url.size(); ++i)
            if (url[i] == '%' && i + 2 < url.size())
                path += static_cast<char>(std::stoi(url.substr(i + 1, 2), nullptr, 16)), i += 2;
            else
                path += url[i];
        if (!fs::exists(path)) broken.push_back(path);
    }
    return broken;
}

void screenshot(gpueff::test::HeadlessBrowser& browser, const fs::path& file) {
    auto png = browser.screenshotPng();
    CHECK(png.rfind("\x89PNG", 0) == 0);
    std::ofstream(file, std::ios::binary) << png;
}

} // namespace

TEST_CASE("dashboard in a browser: the pages show report.json's numbers, draw their charts, log no error") {
    auto browser = gpueff::test::HeadlessBrowser::launch(1280, 800);
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    auto dir = tempDir("dashboard_browser");
    auto site = dir / "site";
    std::ofstream(dir / "runs.csv") << "run,config\nbefore,a\nafter,b\n"; // a tag to filter by
    auto r = run(quoted(gpueffBinary()) + " dashboard " + quoted(analyzedPair() / "before") + " " +
                 quoted(analyzedPair() / "after") + " --runs " + quoted(dir / "runs.csv") + " -q -o " +
                 quoted(site) + " 2>&1");
    REQUIRE_MESSAGE(r.exitCode == 0, r.output);
    auto index = scriptData(site / "data" / "index.js", "gpueffIndex");

    SUBCASE("the index") {
        auto page = browser->open(gpueff::test::fileUrl(site / "index.html"));
        REQUIRE(page.ready);
        CHECK(page.problems.empty());
        for (const auto& p : page.problems) MESSAGE(p);
        auto shown = shownFigures(*browser, "document.getElementById('runs')");
        // Two rows of devices, iteration time, four factors, global efficiency and speedup.
        CHECK(checkFigures(shown, index) >= 2 * 8);
        CHECK(emptyCharts(*browser).empty());
        CHECK(browser->evaluate("document.querySelectorAll('.chart').length").get<int>() >= 3);
        CHECK(brokenLinks(*browser).empty());
        CHECK(browser->evaluate("document.querySelectorAll('#runs tbody tr').length") == 2);
        // Sorting by iteration time one way, then the other, puts each run on top in turn.
        std::set<std::string> tops;
        for (int click = 0; click < 2; ++click) {
            browser->evaluate("[...document.querySelectorAll('#runs th button')].find(b => b.textContent === "
                              "'Iteration time').click()");
            tops.insert(
                browser->evaluate("document.querySelector('#runs tbody tr').dataset.run").get<std::string>());
        }
        CHECK(tops == std::set<std::string>{"r0001", "r0002"});
        // The tag filter keeps the runs with that tag's value.
        browser->evaluate("(() => { const s = document.getElementById('tag-filter'); s.value = 'config=b'; "
                          "s.dispatchEvent(new Event('change')); })()");
        CHECK(browser->evaluate("[...document.querySelectorAll('#runs tbody tr')].map(r => r.dataset.run)") ==
              json::array({"r0002"}));
        screenshot(*browser, dir / "index.png");
        CHECK(browser->takeProblems().empty());
    }
    SUBCASE("a run's page") {
        auto report = json::parse(readText(analyzedPair() / "before" / "report.json"));
        auto page = browser->open(gpueff::test::fileUrl(site / "run.html") + "?run=r0001");
        REQUIRE(page.ready);
        CHECK(page.problems.empty());
        for (const auto& p : page.problems) MESSAGE(p);
        CHECK(checkFigures(shownFigures(*browser), report) > 200);
        auto empty = emptyCharts(*browser);
        CHECK_MESSAGE(empty.empty(), empty.dump());
        CHECK(browser->evaluate("document.querySelectorAll('.chart').length").get<int>() >= 2);
        auto broken = brokenLinks(*browser);
        CHECK_MESSAGE(broken.empty(), (broken.empty() ? std::string() : broken.front()));
        // The Paraver trace is linked from its page.
        CHECK(browser->evaluate("[...document.querySelectorAll('a')].some(a => a.href.endsWith('.prv'))") ==
              true);
        screenshot(*browser, dir / "run.png");
        CHECK(browser->takeProblems().empty());
    }
    SUBCASE("the scaling page, and a run that does not exist") {
        auto page = browser->open(gpueff::test::fileUrl(site / "scaling.html"));
        REQUIRE(page.ready);
        CHECK(page.problems.empty());
        page = browser->open(gpueff::test::fileUrl(site / "run.html") + "?run=r0099");
        REQUIRE(page.ready); // an error box, never a blank page
        CHECK(browser->evaluate("document.querySelector('.error') !== null") == true);
    }
}
