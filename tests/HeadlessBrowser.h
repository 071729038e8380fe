#pragma once
// A small client of the Chrome DevTools Protocol for tests that drive a real headless browser on the static
// web site, opened from file://. It talks over --remote-debugging-pipe (chromium reads NUL-terminated JSON
// messages on its fd 3 and writes them on its fd 4), so it needs neither a websocket nor node.
//
// Robustness is the point: every wait has a deadline, so a hung or crashed chromium makes a call throw
// std::runtime_error that says what it waited for (with the end of chromium's log) instead of hanging the
// suite; the browser runs in its own process group, which the destructor empties.
#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gpueff::test {

class HeadlessBrowser {
public:
    // nullptr when no browser is found: $GPUEFF_CHROMIUM when set (a path or a name on PATH; "none" skips the
    // browser tests on purpose), else chromium, chromium-browser, google-chrome on PATH. A browser that is
    // found but does not start, or a $GPUEFF_CHROMIUM that names nothing executable, throws: a broken setup
    // must not pass as "no browser". Launches it headless in a fresh temporary profile (under $TMPDIR),
    // window width x height.
    static std::unique_ptr<HeadlessBrowser> launch(int width = 1280, int height = 800);
    // Closes the browser (Browser.close, then SIGKILL to its process group after a grace time), reaps the
    // child and removes the temporary profile. Never throws.
    ~HeadlessBrowser();
    HeadlessBrowser(const HeadlessBrowser&) = delete;
    HeadlessBrowser& operator=(const HeadlessBrowser&) = delete;

    struct Page {
        bool ready = false; // readyExpression became true before the timeout
        double readyMs = 0; // from navigation start to ready (wall clock measured here)
        // One line each, with the URL:line:column when known: uncaught exceptions, console.error and failed
        // console.assert, errors of the Log domain (failed loads such as a missing script), dialogs (an
        // alert() is answered, so that the page goes on).
        std::vector<std::string> problems;
    };
    // Opens `url` in a fresh tab (closing the previous one), viewport width x height, waits for its load
    // event, then until `readyExpression` is truthy or `timeoutSeconds` (counted from the navigation start)
    // have passed ("" means ready at the load event). A page that does not load or become ready in time
    // gives ready == false (with a problem line when it did not load or did not answer); a dead browser, a
    // crashed page or a syntax error in readyExpression throws.
    Page open(const std::string& url, const std::string& readyExpression = "window.gpueffReady === true",
              double timeoutSeconds = 30);
    // Runtime.evaluate in the current page, promises awaited, the result by value (null for undefined).
    // Throws std::runtime_error with the exception's text when the expression throws.
    nlohmann::json evaluate(const std::string& expression);
    std::string screenshotPng();             // the PNG bytes of the viewport (Page.captureScreenshot)
    std::vector<std::string> takeProblems(); // the problems reported since open() or the previous call

private:
    using Clock = std::chrono::steady_clock;

    HeadlessBrowser(pid_t pid, int toBrowser, int fromBrowser, std::filesystem::path profileDir, int width,
                    int height);
    // Sends a command and returns chromium's reply to it ({"result": ...} or {"error": ...}), handling the
    // events that arrive meanwhile; nullopt when no reply came by the deadline.
    std::optional<nlohmann::json> exchange(const std::string& method, const nlohmann::json& params,
                                           bool inPage, Clock::time_point deadline);
    // exchange() whose timeouts and error replies throw: the "result".
    nlohmann::json call(const std::string& method, const nlohmann::json& params, bool inPage,
                        Clock::time_point deadline);
    nlohmann::json callInPage(const std::string& method,
                              const nlohmann::json& params = nlohmann::json::object());
    void send(const nlohmann::json& message, Clock::time_point deadline, const std::string& what);
    std::optional<nlohmann::json> receive(Clock::time_point deadline, const std::string& what);
    bool readAvailable();
    void pump(Clock::time_point until);
    void handleEvent(const nlohmann::json& message);
    void newPage();
    void closePage();
    bool waitLoaded(const std::string& loaderId, Clock::time_point deadline);
    bool waitReady(const std::string& expression, Clock::time_point deadline);
    void shutDown();
    [[noreturn]] void fail(const std::string& what) const;
    std::string logTail() const;

    pid_t pid_;
    int toBrowser_;   // our end of the pipe that chromium reads as fd 3
    int fromBrowser_; // our end of the pipe that chromium writes as fd 4
    std::filesystem::path profileDir_;
    int width_, height_;
    std::string received_; // bytes read from chromium, not yet a whole message
    long nextId_ = 1;
    std::string targetId_, sessionId_;    // the current tab and its flattened session ("" before open())
    std::string pageLost_;                // why the current tab is gone (crashed, detached), "" while alive
    std::set<std::string> loadedLoaders_; // loaderIds of the current tab's documents that fired "load"
    std::vector<std::string> problems_;
};

// The absolute, percent-encoded file:// URL of a path (relative paths are made absolute first).
std::string fileUrl(const std::filesystem::path& path);

} // namespace gpueff::test
