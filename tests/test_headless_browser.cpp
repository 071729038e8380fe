// The headless browser client (tests/HeadlessBrowser.h) against a real chromium, on small pages written
// here: readiness, the problems a page reports, timeouts that do not hang, screenshots, and a browser that
// dies or leaks nothing. Skipped when no chromium is installed.
#include "tests/HeadlessBrowser.h"

#include <chrono>
#include <csignal>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>
#include <unistd.h>

using gpueff::test::HeadlessBrowser;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A fresh directory for one test case's pages, removed at its end. Its name holds a space, a '#' and a
// non-ASCII letter, so that every page opened also tests fileUrl's percent-encoding.
class Site {
public:
    Site() : dir_(fs::temp_directory_path() / ("headless browser #\xc3\xa9 " + std::to_string(::getpid()))) {
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    ~Site() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    Site(const Site&) = delete;
    Site& operator=(const Site&) = delete;
    // Writes a page and returns its URL.
    std::string page(const std::string& name, const std::string& html) const {
        std::ofstream(dir_ / name, std::ios::binary) << html;
        return gpueff::test::fileUrl(dir_ / name);
    }

private:
    fs::path dir_;
};

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
    for (const auto& l : lines)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- processes and descriptors, from /proc ----

struct ProcessInfo {
    pid_t pid, parent, group;
    char state;
};

// The /proc entries of processes (their names are all digits); one may end while it is read.
std::vector<pid_t> pids() {
    std::vector<pid_t> out;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") == std::string::npos)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

std::string procFile(pid_t pid, const char* file) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<ProcessInfo> processes() {
    std::vector<ProcessInfo> out;
    for (pid_t pid : pids()) {
        const std::string stat = procFile(pid, "stat");
        auto close = stat.rfind(')'); // the command name, in parentheses, may hold anything
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 1));
        ProcessInfo p{};
        rest >> p.state >> p.parent >> p.group;
        p.pid = pid;
        out.push_back(p);
    }
    return out;
}

// The browser that this process started (the one child of ours whose process group it leads).
pid_t browserPid() {
    for (const auto& p : processes())
        if (p.parent == ::getpid() && p.group == p.pid) return p.pid;
    return -1;
}

// The live processes of a process group: zombies do not count, they wait for init to reap them.
int liveInGroup(pid_t group) {
    int n = 0;
    for (const auto& p : processes()) n += p.group == group && p.state != 'Z';
    return n;
}

// Waits up to 5 s for a count to fall to `atMost` (processes end a moment after they are told to).
int settledCount(const std::function<int()>& count, int atMost) {
    int n = count();
    for (auto start = std::chrono::steady_clock::now(); n > atMost && secondsSince(start) < 5; n = count())
        std::this_thread::sleep_for(50ms);
    return n;
}

int openFds() {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

const char* const kReadyPage = R"(<!doctype html><html><body><ul id="list"></ul>
<script>
  setTimeout(() => {
    for (const word of ["alpha", "beta", "gamma"]) {
      const li = document.createElement("li");
      li.textContent = word;
      document.getElementById("list").appendChild(li);
    }
    window.gpueffReady = true;
  }, 50);
</script></body></html>)";

} // namespace

TEST_CASE("headless browser: a page that becomes ready, its DOM and no problems") {
    auto browser = HeadlessBrowser::launch();
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    Site site;
    auto page = browser->open(site.page("ready.html", kReadyPage));
    CHECK_MESSAGE(page.ready, joined(page.problems));
    CHECK(page.readyMs >= 50);
    CHECK(page.readyMs < 30000);
    CHECK_MESSAGE(page.problems.empty(), joined(page.problems));
    CHECK(browser->evaluate("document.getElementById('list').innerText") == "alpha\nbeta\ngamma");
    CHECK(browser->evaluate("[...document.querySelectorAll('li')].map(li => li.textContent)") ==
          nlohmann::json({"alpha", "beta", "gamma"}));
    CHECK(browser->evaluate("Promise.resolve(6 * 7)") == 42);
    CHECK(browser->evaluate("undefined").is_null());
    CHECK(browser->evaluate("[window.innerWidth, window.innerHeight]") == nlohmann::json({1280, 800}));
    CHECK_THROWS_WITH_AS(browser->evaluate("(() => { throw new Error('thrown here'); })()"),
                         doctest::Contains("thrown here"), std::runtime_error);
    CHECK_THROWS_WITH_AS(browser->evaluate("1 +"), doctest::Contains("SyntaxError"), std::runtime_error);
    CHECK(browser->takeProblems().empty());
}

TEST_CASE("headless browser: console.error, a missing script and an alert are problems") {
    auto browser = HeadlessBrowser::launch();
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    Site site;
    auto page = browser->open(site.page("problems.html", R"(<!doctype html><html><body>
<script>console.log("fine"); console.warn("fine too"); console.error("something broke", 42);</script>
<script src="missing.js"></script>
<script>console.assert(1 === 2, "one is not two"); alert("hello"); window.gpueffReady = true;</script>
</body></html>)"));
    CHECK(page.ready);
    INFO(joined(page.problems));
    CHECK(page.problems.size() == 4);
    CHECK(anyContains(page.problems, "console.error: something broke 42"));
    CHECK(anyContains(page.problems, "problems.html:2"));
    CHECK(anyContains(page.problems, "console.assert: one is not two"));
    CHECK(anyContains(page.problems, "ERR_FILE_NOT_FOUND"));
    CHECK(anyContains(page.problems, "missing.js"));
    CHECK(anyContains(page.problems, "dialog (alert): hello")); // answered, or the page would stop there
    // Problems raised later are kept for takeProblems, and taken once.
    browser->evaluate("console.error('later')");
    auto later = browser->takeProblems();
    CHECK_MESSAGE(anyContains(later, "console.error: later"), joined(later));
    CHECK(browser->takeProblems().empty());
}

TEST_CASE("headless browser: an uncaught exception is a problem with its place") {
    auto browser = HeadlessBrowser::launch();
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    Site site;
    auto url = site.page("throws.html", R"(<!doctype html><html><body>
<script>
  window.gpueffReady = true;
  null.property;
</script>
<script>setTimeout(() => { throw new Error("asynchronous boom"); }, 0);</script>
</body></html>)");
    auto page = browser->open(url);
    CHECK(page.ready);
    // The timer's exception may come after readiness.
    std::this_thread::sleep_for(200ms);
    for (auto& p : browser->takeProblems()) page.problems.push_back(p);
    INFO(joined(page.problems));
    CHECK(page.problems.size() == 2);
    CHECK(anyContains(page.problems, "uncaught exception: TypeError"));
    CHECK(anyContains(page.problems, url + ":4:"));
    CHECK(anyContains(page.problems, "uncaught exception: Error: asynchronous boom"));
}

TEST_CASE("headless browser: pages that never become ready or never load time out") {
    auto browser = HeadlessBrowser::launch();
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    Site site;
    auto start = std::chrono::steady_clock::now();
    auto page = browser->open(site.page("never.html", "<!doctype html><p>never ready</p>"),
                              "window.gpueffReady === true", 1);
    CHECK_FALSE(page.ready);
    CHECK(page.problems.empty());
    CHECK(secondsSince(start) < 5);

    // A page whose script never returns: neither its load event nor an answer comes, and the tab is
    // closed anyway by the next open().
    start = std::chrono::steady_clock::now();
    page = browser->open(site.page("hang.html", "<!doctype html><script>for (;;) {}</script>"),
                         "window.gpueffReady === true", 1);
    CHECK_FALSE(page.ready);
    CHECK_MESSAGE(anyContains(page.problems, "load event"), joined(page.problems));
    CHECK(secondsSince(start) < 5);

    // The readiness poll cannot run: its answer is waited for a grace time past the timeout.
    start = std::chrono::steady_clock::now();
    page = browser->open(site.page("hang-after-load.html", R"(<!doctype html>
<script>addEventListener("load", () => setTimeout(() => { for (;;) {} }, 0));</script>)"),
                         "window.gpueffReady === true", 1);
    CHECK_FALSE(page.ready);
    CHECK_MESSAGE(anyContains(page.problems, "did not answer"), joined(page.problems));
    CHECK(secondsSince(start) < 8);

    page = browser->open(site.page("ready.html", kReadyPage));
    CHECK(page.ready);
    CHECK(browser->evaluate("document.querySelectorAll('li').length") == 3);

    // The navigation itself fails for a missing file: ready false at once, with the reason.
    start = std::chrono::steady_clock::now();
    page = browser->open(gpueff::test::fileUrl("/nonexistent/gpueff/page.html"));
    CHECK_FALSE(page.ready);
    CHECK_MESSAGE(anyContains(page.problems, "ERR_FILE_NOT_FOUND"), joined(page.problems));
    CHECK(secondsSince(start) < 5);

    // An empty readyExpression means ready at the load event.
    page = browser->open(site.page("never.html", "<!doctype html><p>never ready</p>"), "", 5);
    CHECK(page.ready);
    CHECK_THROWS_WITH_AS(browser->open(site.page("never.html", "<p>x</p>"), "1 +", 5),
                         doctest::Contains("SyntaxError"), std::runtime_error);
}

TEST_CASE("headless browser: screenshots and a canvas drawn red") {
    auto browser = HeadlessBrowser::launch(640, 480);
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    Site site;
    auto page = browser->open(site.page("canvas.html", R"(<!doctype html><html><body style="margin:0">
<canvas id="c" width="200" height="100"></canvas>
<script>
  const context = document.getElementById("c").getContext("2d");
  context.fillStyle = "#ff0000";
  context.fillRect(0, 0, 200, 100);
  window.gpueffReady = true;
</script></body></html>)"));
    REQUIRE(page.ready);
    auto png = browser->screenshotPng();
    CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    CHECK(png.size() > 1000);
    // The PNG's IHDR: width and height of the viewport set by launch(640, 480).
    REQUIRE(png.size() > 24);
    auto be32 = [&](std::size_t at) {
        unsigned v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
        return v;
    };
    CHECK(be32(16) == 640);
    CHECK(be32(20) == 480);
    auto red = browser->evaluate(R"(
        (() => {
          const data = document.getElementById("c").getContext("2d").getImageData(0, 0, 200, 100).data;
          let red = 0;
          for (let i = 0; i < data.length; i += 4)
            red += data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0 && data[i + 3] === 255;
          return red;
        })())");
    CHECK(red == 200 * 100);
    CHECK(browser->takeProblems().empty());
}

TEST_CASE("headless browser: twenty pages in a row leak no process or descriptor") {
    const int fdsBefore = openFds();
    pid_t group = -1;
    {
        auto browser = HeadlessBrowser::launch();
        if (!browser) {
            MESSAGE("no chromium: skipped");
            return;
        }
        group = browserPid();
        REQUIRE(group > 0);
        Site site;
        auto url = site.page("ready.html", kReadyPage);
        REQUIRE(browser->open(url).ready);
        const int fdsOpen = openFds();
        const int processesOpen = liveInGroup(group);
        for (int i = 0; i < 20; ++i) {
            auto page = browser->open(url);
            REQUIRE_MESSAGE(page.ready, joined(page.problems));
        }
        CHECK(openFds() == fdsOpen);
        // A closed tab's renderer ends a moment later; the browser may keep one spare.
        CHECK(settledCount([&] { return liveInGroup(group); }, processesOpen + 1) <= processesOpen + 1);
    }
    CHECK(openFds() == fdsBefore);
    CHECK(settledCount([&] { return liveInGroup(group); }, 0) == 0);
}

TEST_CASE("headless browser: a killed renderer or browser makes calls throw at once") {
    auto browser = HeadlessBrowser::launch();
    if (!browser) {
        MESSAGE("no chromium: skipped");
        return;
    }
    const pid_t group = browserPid();
    REQUIRE(group > 0);
    Site site;
    REQUIRE(browser->open(site.page("ready.html", kReadyPage)).ready);
    auto start = std::chrono::steady_clock::now();
    // The renderer: the process of the group whose command line says so and that runs this page. Killing
    // every renderer of the group is simpler and just as good.
    std::vector<pid_t> killed;
    for (pid_t pid : pids())
        if (procFile(pid, "cmdline").find("--type=renderer") != std::string::npos &&
            ::getpgid(pid) == group) {
            ::kill(pid, SIGKILL);
            killed.push_back(pid);
        }
    CHECK_THROWS_WITH_AS(browser->evaluate("1"), doctest::Contains("crashed"), std::runtime_error);
    CHECK(secondsSince(start) < 10);
    // The browser learns of a renderer's end when it reaps it. Until it has reaped them all, a spare
    // renderer it keeps ready (killed too) may still be handed the next page, which then never answers.
    auto unreaped = [&] {
        int n = 0;
        for (pid_t pid : killed) n += fs::exists("/proc/" + std::to_string(pid));
        return n;
    };
    CHECK(settledCount(unreaped, 0) == 0);
    // The browser survives its renderer: a new page opens.
    CHECK(browser->open(site.page("ready.html", kReadyPage)).ready);

    ::kill(group, SIGKILL);
    start = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH_AS(browser->evaluate("1"), doctest::Contains("killed by signal 9"), std::runtime_error);
    CHECK(secondsSince(start) < 10);
    browser.reset(); // reaps it, and whatever of its group is left
    CHECK(settledCount([&] { return liveInGroup(group); }, 0) == 0);
}

TEST_CASE("headless browser: fileUrl is absolute and percent-encoded") {
    CHECK(gpueff::test::fileUrl("/a b/c#d%e/\xc3\xa9.html") == "file:///a%20b/c%23d%25e/%C3%A9.html");
    CHECK(gpueff::test::fileUrl("/x/./y/../z.html") == "file:///x/z.html");
    auto relative = gpueff::test::fileUrl("page.html");
    CHECK(relative.rfind("file:///", 0) == 0);
    CHECK(relative.size() > std::string("file:///page.html").size());
}
