// gpueff_browse: opens a page in headless chromium (tests/HeadlessBrowser.h) and says how long it took to
// become ready and what went wrong on it; for page-load benchmarks of the static site and for screenshots.
//
//   gpueff_browse URL_OR_PATH [--ready EXPR] [--screenshot FILE.png] [--width W] [--height H] [--timeout S]
//                 [--eval EXPR]...
//
// Prints `ready_ms <n>` (or `not_ready`), then `problem: <line>` for each problem, then each --eval result as
// one line of JSON. Exit status: 0 ready without problems, 1 otherwise (or no browser), 2 usage error.
#include "tests/HeadlessBrowser.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string target;
    std::string ready = "window.gpueffReady === true";
    std::string screenshot;
    int width = 1280, height = 800;
    double timeout = 30;
    std::vector<std::string> evals;
};

constexpr const char* kUsage =
    "usage: gpueff_browse URL_OR_PATH [--ready EXPR] [--screenshot FILE.png] [--width W] [--height H]\n"
    "                     [--timeout S] [--eval EXPR]...\n"
    "  --ready EXPR   the page is ready when EXPR is truthy (default: window.gpueffReady === true;\n"
    "                 '' means at its load event)\n"
    "  --timeout S    seconds from the navigation start (default 30)\n"
    "  the browser: $GPUEFF_CHROMIUM, else chromium, chromium-browser or google-chrome on PATH\n";

// Throws std::invalid_argument on a usage error.
Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        auto positive = [&](double v) {
            if (!(v > 0)) throw std::invalid_argument(arg + " must be positive");
            return v;
        };
        try {
            if (arg == "--ready")
                o.ready = value();
            else if (arg == "--screenshot")
                o.screenshot = value();
            else if (arg == "--width")
                o.width = static_cast<int>(positive(std::stoi(value())));
            else if (arg == "--height")
                o.height = static_cast<int>(positive(std::stoi(value())));
            else if (arg == "--timeout")
                o.timeout = positive(std::stod(value()));
            else if (arg == "--eval")
                o.evals.push_back(value());
            else if (arg.rfind("--", 0) == 0 || !o.target.empty())
                throw std::invalid_argument("unexpected " + arg);
            else
                o.target = arg;
        } catch (const std::out_of_range&) {
            throw std::invalid_argument(arg + ": number out of range");
        } catch (const std::invalid_argument& e) {
            // std::stoi's own message is just "stoi": say which option.
            throw std::invalid_argument(std::string(e.what()).rfind("sto", 0) == 0 ? arg + " needs a number"
                                                                                   : e.what());
        }
    }
    if (o.target.empty()) throw std::invalid_argument("no URL or path");
    return o;
}

// A URL as it is (scheme://..., about:, data:), anything else a file path.
std::string urlOf(const std::string& target) {
    bool isUrl = target.find("://") != std::string::npos || target.rfind("about:", 0) == 0 ||
                 target.rfind("data:", 0) == 0;
    return isUrl ? target : gpueff::test::fileUrl(target);
}

int browse(const Options& o) {
    auto browser = gpueff::test::HeadlessBrowser::launch(o.width, o.height);
    if (!browser) {
        std::cerr << "gpueff_browse: no chromium found (set GPUEFF_CHROMIUM)\n";
        return 1;
    }
    auto page = browser->open(urlOf(o.target), o.ready, o.timeout);
    if (page.ready)
        std::printf("ready_ms %.1f\n", page.readyMs);
    else
        std::printf("not_ready\n");
    bool ok = page.ready && page.problems.empty();
    std::vector<std::string> results;
    for (const auto& expression : o.evals) {
        try {
            results.push_back(browser->evaluate(expression).dump());
        } catch (const std::runtime_error& e) {
            results.push_back("eval error: " + std::string(e.what()));
            ok = false;
        }
    }
    if (!o.screenshot.empty()) {
        std::ofstream out(o.screenshot, std::ios::binary);
        out << browser->screenshotPng();
        if (!out.flush()) {
            std::cerr << "gpueff_browse: cannot write " << o.screenshot << "\n";
            ok = false;
        }
    }
    // Problems that the evaluations or the screenshot raised come after those of the load.
    for (auto& p : browser->takeProblems()) page.problems.push_back(std::move(p));
    for (const auto& p : page.problems) std::printf("problem: %s\n", p.c_str());
    for (const auto& r : results) std::printf("%s\n", r.c_str());
    return ok && page.problems.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::cerr << "gpueff_browse: " << e.what() << "\n" << kUsage;
        return 2;
    }
    try {
        return browse(options);
    } catch (const std::exception& e) {
        std::cerr << "gpueff_browse: " << e.what() << "\n";
        return 1;
    }
}
