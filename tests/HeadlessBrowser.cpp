#include "tests/HeadlessBrowser.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace gpueff::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How long a live browser may take to answer one command: far above what any command here needs, so that
// only a hung browser reaches it.
constexpr auto kCallTimeout = 30s;
// The first start reads chromium and its fonts from a cold disk.
constexpr auto kLaunchTimeout = 60s;
// Between Browser.close and SIGKILL: a clean exit lets chromium end its helpers itself.
constexpr auto kCloseGrace = 5s;
// How much longer than the page's own deadline the readiness poll may take to answer: the poll runs on the
// page's main thread, whose timers fire late under load.
constexpr auto kReadyGrace = 2s;

std::string errnoText(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

std::string secondsText(Clock::duration d) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g s", std::chrono::duration<double>(d).count());
    return buffer;
}

// poll()'s timeout in ms until `deadline`, rounded up so that a poll never returns just before it.
int pollTimeoutMs(Clock::time_point deadline) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

// A member of a JSON object, or null: chromium's messages are trusted to be JSON, not to have every field.
const json& field(const json& object, const char* key) {
    static const json null;
    if (!object.is_object()) return null;
    auto it = object.find(key);
    return it == object.end() ? null : *it;
}

std::string text(const json& value) {
    return value.is_string() ? value.get<std::string>() : "";
}

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

// " (url:line:column)" of a CDP location (0-based line and column), "" without a URL.
std::string where(const json& url, const json& line, const json& column) {
    if (text(url).empty()) return "";
    std::string out = " (" + text(url);
    if (line.is_number_integer()) out += ":" + std::to_string(line.get<long>() + 1);
    if (line.is_number_integer() && column.is_number_integer())
        out += ":" + std::to_string(column.get<long>() + 1);
    return out + ")";
}

// A Runtime.RemoteObject as console.log would print it, roughly.
std::string remoteObjectText(const json& object) {
    const json& value = field(object, "value");
    if (value.is_string()) return value.get<std::string>();
    if (!value.is_null()) return value.dump();
    if (!text(field(object, "description")).empty()) return firstLine(text(field(object, "description")));
    if (!text(field(object, "unserializableValue")).empty())
        return text(field(object, "unserializableValue"));
    return text(field(object, "type"));
}

// The message of a Runtime.ExceptionDetails: "Error: boom" rather than its stack.
std::string exceptionText(const json& details) {
    const json& exception = field(details, "exception");
    std::string message = exception.is_null() ? "" : remoteObjectText(exception);
    return message.empty() ? text(field(details, "text")) : message;
}

// The problem line of an event that reports one, nullopt for the others.
std::optional<std::string> problemOf(const std::string& method, const json& params) {
    if (method == "Runtime.exceptionThrown") {
        const json& d = field(params, "exceptionDetails");
        return "uncaught exception: " + exceptionText(d) +
               where(field(d, "url"), field(d, "lineNumber"), field(d, "columnNumber"));
    }
    if (method == "Runtime.consoleAPICalled") {
        const std::string type = text(field(params, "type"));
        if (type != "error" && type != "assert") return std::nullopt;
        std::string message;
        for (const json& arg : field(params, "args").is_array() ? field(params, "args") : json::array())
            message += (message.empty() ? "" : " ") + remoteObjectText(arg);
        const json& frames = field(field(params, "stackTrace"), "callFrames");
        const json& top = frames.is_array() && !frames.empty() ? frames[0] : json();
        return "console." + type + ": " + message +
               where(field(top, "url"), field(top, "lineNumber"), field(top, "columnNumber"));
    }
    if (method == "Log.entryAdded") {
        const json& entry = field(params, "entry");
        if (text(field(entry, "level")) != "error") return std::nullopt;
        return text(field(entry, "source")) + " error: " + text(field(entry, "text")) +
               where(field(entry, "url"), field(entry, "lineNumber"), json());
    }
    return std::nullopt;
}

std::string base64Decode(const std::string& in) {
    std::string out;
    unsigned bits = 0;
    int count = 0;
    for (char c : in) {
        int v = c >= 'A' && c <= 'Z'   ? c - 'A'
                : c >= 'a' && c <= 'z' ? c - 'a' + 26
                : c >= '0' && c <= '9' ? c - '0' + 52
                : c == '+'             ? 62
                : c == '/'             ? 63
                                       : -1;
        if (c == '=') break;
        if (v < 0) throw std::runtime_error("HeadlessBrowser: chromium sent invalid base64");
        bits = (bits << 6) | static_cast<unsigned>(v);
        if ((count += 6) >= 8) out.push_back(static_cast<char>((bits >> (count -= 8)) & 0xff));
    }
    return out;
}

// A script that polls `expression` every 10 ms until it is truthy or `timeoutMs` have passed, as a promise
// of whether it became truthy. The expression stands on a line of its own, so that a trailing // comment
// in it cannot swallow the code after it.
std::string readinessPoll(const std::string& expression, long long timeoutMs) {
    std::string script = R"(new Promise(resolve => {
  const end = performance.now() + @TIMEOUT@;
  const check = () => {
    let ready = false;
    try {
      ready = Boolean(
@EXPRESSION@
      );
    } catch (e) {}
    if (ready || performance.now() >= end) resolve(ready);
    else setTimeout(check, 10);
  };
  check();
}))";
    script.replace(script.find("@TIMEOUT@"), 9, std::to_string(timeoutMs));
    script.replace(script.find("@EXPRESSION@"), 12, expression);
    return script;
}

// ---- starting the browser ----

class UniqueFd {
public:
    explicit UniqueFd(int fd = -1) : fd_(fd) {}
    UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
    UniqueFd& operator=(UniqueFd&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    ~UniqueFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

// A descriptor for the child moved to 10 or above (close-on-exec still set): the spawn maps the child's fds
// 0..4 with dup2, in order, and a source fd among 0..4 could be overwritten before its own dup2.
UniqueFd highFd(int fd, const char* what) {
    UniqueFd original(fd);
    if (fd < 0) throw std::runtime_error(errnoText(std::string("HeadlessBrowser: ") + what));
    int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    if (moved < 0) throw std::runtime_error(errnoText("HeadlessBrowser: fcntl"));
    return UniqueFd(moved);
}

bool isExecutable(const fs::path& path) {
    std::error_code ec;
    return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<fs::path> onPath(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return isExecutable(name) ? std::optional(fs::absolute(name)) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name; // an empty entry is "."
        if (isExecutable(candidate)) return candidate;
    }
    return std::nullopt;
}

std::optional<fs::path> findBrowser() {
    const char* chosen = std::getenv("GPUEFF_CHROMIUM");
    if (chosen && *chosen) {
        if (std::string(chosen) == "none") return std::nullopt;
        if (auto found = onPath(chosen)) return found;
        throw std::runtime_error(std::string("HeadlessBrowser: GPUEFF_CHROMIUM=") + chosen +
                                 " is not an executable (set it to a chromium, or to none to skip)");
    }
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
        if (auto found = onPath(name)) return found;
    return std::nullopt;
}

std::vector<std::string> browserArguments(const fs::path& exe, const fs::path& profile, int width,
                                          int height) {
    return {
        exe.string(),
        "--headless=new",
        "--remote-debugging-pipe",
        "--no-sandbox", // we may run as root, where the sandbox refuses to start
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--user-data-dir=" + profile.string(),
        "--allow-file-access-from-files", // the site's pages fetch their data files from file://
        "--window-size=" + std::to_string(width) + "," + std::to_string(height),
        "--disable-dev-shm-usage", // containers give /dev/shm 64 MiB, too little for a renderer
        // A headless tab counts as hidden: its timers (the readiness poll among them) would be throttled.
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        // Nothing that reaches the network or works in the background: tests run offline, reproducibly.
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-extensions",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-breakpad",
        "--mute-audio",
        "--password-store=basic",
        "about:blank",
    };
}

// This process's environment, with chromium's per-user directories inside the temporary profile: crashpad
// keeps its database in $XDG_CONFIG_HOME/chromium whatever --user-data-dir says, and dconf writes to
// $XDG_CACHE_HOME; a test must leave nothing in the home directory.
std::vector<std::string> browserEnvironment(const fs::path& profile) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        std::string_view entry = *e;
        if (entry.rfind("XDG_CONFIG_HOME=", 0) != 0 && entry.rfind("XDG_CACHE_HOME=", 0) != 0)
            env.emplace_back(entry);
    }
    env.push_back("XDG_CONFIG_HOME=" + (profile / "config").string());
    env.push_back("XDG_CACHE_HOME=" + (profile / "cache").string());
    return env;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

// Starts the browser with the two pipes as its fds 3 and 4, stdin /dev/null, stdout and stderr the log, and
// no other descriptor (closefrom), in its own process group (so that all its helpers can be killed as one)
// with default signal dispositions and mask (an ignored SIGPIPE would otherwise be inherited across exec).
// posix_spawn rather than fork: nothing of this process runs in the child, and a failed exec is reported.
pid_t spawnBrowser(const std::vector<std::string>& args, int browserReads, int browserWrites,
                   const fs::path& log) {
    UniqueFd in = highFd(::open("/dev/null", O_RDONLY | O_CLOEXEC), "open /dev/null");
    UniqueFd out = highFd(::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), "open log");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in.get(), 0);
    posix_spawn_file_actions_adddup2(&actions, out.get(), 1);
    posix_spawn_file_actions_adddup2(&actions, out.get(), 2);
    posix_spawn_file_actions_adddup2(&actions, browserReads, 3);
    posix_spawn_file_actions_adddup2(&actions, browserWrites, 4);
    posix_spawn_file_actions_addclosefrom_np(&actions, 5); // every fd is close-on-exec here: this is for
                                                           // those other code opened without the flag
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const auto env = browserEnvironment(log.parent_path());
    std::vector<char*> argv = pointers(args), envp = pointers(env);
    pid_t pid = -1;
    int error = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (error != 0)
        throw std::runtime_error("HeadlessBrowser: cannot start " + args[0] + ": " + std::strerror(error));
    return pid;
}

fs::path makeProfileDir() {
    std::string dir = (fs::temp_directory_path() / "gpueff-chromium-XXXXXX").string();
    if (!::mkdtemp(dir.data())) throw std::runtime_error(errnoText("HeadlessBrowser: mkdtemp " + dir));
    return dir;
}

// Whether the child has exited, without reaping it (WNOWAIT): while it stays a zombie its pid, and so its
// process group ID, cannot be reused, and killing the group stays safe.
std::optional<siginfo_t> exitOf(pid_t pid) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return std::nullopt;
    return info;
}

std::string exitDescription(pid_t pid) {
    // The pipe closes a moment before the process is gone.
    for (auto until = Clock::now() + 500ms; !exitOf(pid) && Clock::now() < until;)
        std::this_thread::sleep_for(10ms);
    auto info = exitOf(pid);
    if (!info) return "chromium is still running";
    if (info->si_code == CLD_EXITED) return "chromium exited with status " + std::to_string(info->si_status);
    return "chromium was killed by signal " + std::to_string(info->si_status) + " (" +
           strsignal(info->si_status) + ")";
}

// Writing to a pipe whose reader died raises SIGPIPE, which kills the whole test process by default.
// Ignoring it process-wide would leak into every program the tests start (an ignored signal stays ignored
// across exec), so it is blocked in this thread for the write, and a SIGPIPE that the write raised is
// consumed before it is unblocked: the write just fails with EPIPE.
class SigpipeBlocked {
public:
    SigpipeBlocked() {
        sigemptyset(&pipeOnly_);
        sigaddset(&pipeOnly_, SIGPIPE);
        sigset_t pending;
        sigpending(&pending);
        wasPending_ = sigismember(&pending, SIGPIPE) == 1; // someone else's: leave it
        pthread_sigmask(SIG_BLOCK, &pipeOnly_, &previous_);
    }
    ~SigpipeBlocked() {
        int savedErrno = errno;
        const timespec zero{0, 0};
        if (!wasPending_)
            while (sigtimedwait(&pipeOnly_, nullptr, &zero) < 0 && errno == EINTR) {
            }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
        errno = savedErrno;
    }
    SigpipeBlocked(const SigpipeBlocked&) = delete;
    SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

private:
    sigset_t pipeOnly_, previous_;
    bool wasPending_ = false;
};

// Crashpad's handlers leave the browser's process group (they detach themselves, to outlive a crash) and
// end only some seconds after the browser, when it was killed; they are recognized by the temporary
// profile in their command line (--database), a name no other process has.
void killProfileUsers(const fs::path& profile) {
    std::error_code ec;
    for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(it->path() / "cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (cmdline.find(profile.string()) != std::string::npos)
            ::kill(static_cast<pid_t>(std::stol(name)), SIGKILL);
    }
}

} // namespace

// ---- launch and shutdown ----

std::unique_ptr<HeadlessBrowser> HeadlessBrowser::launch(int width, int height) {
    auto exe = findBrowser();
    if (!exe) return nullptr;
    const fs::path profile = makeProfileDir();
    std::unique_ptr<HeadlessBrowser> browser;
    try {
        int toChild[2], fromChild[2];
        if (::pipe2(toChild, O_CLOEXEC) != 0) throw std::runtime_error(errnoText("HeadlessBrowser: pipe"));
        UniqueFd browserReads = highFd(toChild[0], "pipe"), ourWrites(toChild[1]);
        if (::pipe2(fromChild, O_CLOEXEC) != 0) throw std::runtime_error(errnoText("HeadlessBrowser: pipe"));
        UniqueFd ourReads(fromChild[0]), browserWrites = highFd(fromChild[1], "pipe");
        // Our ends never block: every wait is a poll() with a deadline.
        for (int fd : {ourWrites.get(), ourReads.get()})
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        pid_t pid = spawnBrowser(browserArguments(*exe, profile, width, height), browserReads.get(),
                                 browserWrites.get(), profile / "chromium.log");
        browser.reset(
            new HeadlessBrowser(pid, ourWrites.release(), ourReads.release(), profile, width, height));
    } catch (...) {
        std::error_code ec;
        fs::remove_all(profile, ec);
        throw;
    }
    // From here the destructor kills, reaps and cleans up, also when the browser does not come up.
    browser->call("Browser.getVersion", json::object(), false, Clock::now() + kLaunchTimeout);
    return browser;
}

HeadlessBrowser::HeadlessBrowser(pid_t pid, int toBrowser, int fromBrowser, std::filesystem::path profileDir,
                                 int width, int height)
    : pid_(pid), toBrowser_(toBrowser), fromBrowser_(fromBrowser), profileDir_(std::move(profileDir)),
      width_(width), height_(height) {}

HeadlessBrowser::~HeadlessBrowser() {
    shutDown();
}

void HeadlessBrowser::shutDown() {
    // Ask first, so that chromium ends its helpers and closes its profile itself; one that does not answer
    // (hung, or dead already) is killed below.
    try {
        send({{"id", nextId_++}, {"method", "Browser.close"}}, Clock::now() + 1s, "Browser.close");
    } catch (const std::exception&) {
    }
    for (auto until = Clock::now() + kCloseGrace; !exitOf(pid_) && Clock::now() < until;) {
        // Keep reading what it still sends, so that it never blocks on a full pipe while closing.
        pollfd p{fromBrowser_, POLLIN, 0};
        if (::poll(&p, 1, 10) > 0) {
            char discard[4096];
            ssize_t n = ::read(fromBrowser_, discard, sizeof discard);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                ::close(fromBrowser_);
                fromBrowser_ = -1; // poll() ignores it from now on, and just sleeps
            }
        }
    }
    // The helpers (zygote, renderers) share the browser's process group: this ends any straggler, and the
    // browser itself when it did not close in time. Its pid is not reaped yet, so the group is still ours.
    ::kill(-pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    killProfileUsers(profileDir_);
    if (toBrowser_ >= 0) ::close(toBrowser_);
    if (fromBrowser_ >= 0) ::close(fromBrowser_);
    std::error_code ec;
    fs::remove_all(profileDir_, ec);
}

std::string HeadlessBrowser::logTail() const {
    std::ifstream in(profileDir_ / "chromium.log", std::ios::binary);
    std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (log.empty()) return "";
    if (log.size() > 3000) log = "..." + log.substr(log.size() - 3000);
    return "\nchromium's output:\n" + log;
}

void HeadlessBrowser::fail(const std::string& what) const {
    throw std::runtime_error("HeadlessBrowser: " + what + logTail());
}

// ---- the pipe ----

void HeadlessBrowser::send(const json& message, Clock::time_point deadline, const std::string& what) {
    // Invalid UTF-8 in a caller's expression is replaced rather than thrown about as a json type_error.
    std::string bytes = message.dump(-1, ' ', false, json::error_handler_t::replace);
    bytes.push_back('\0');
    SigpipeBlocked sigpipeBlocked;
    for (std::size_t done = 0; done < bytes.size();) {
        ssize_t n = ::write(toBrowser_, bytes.data() + done, bytes.size() - done);
        if (n >= 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (errno == EINTR) continue;
        if (errno == EPIPE)
            fail("the pipe to chromium is closed (" + exitDescription(pid_) + ") on sending " + what);
        if (errno != EAGAIN && errno != EWOULDBLOCK) fail(errnoText("writing to chromium"));
        // The pipe is full: wait until chromium reads it, reading what it sends meanwhile so that neither
        // side waits on the other.
        pollfd fds[2] = {{toBrowser_, POLLOUT, 0}, {fromBrowser_, POLLIN, 0}};
        int ready = ::poll(fds, 2, pollTimeoutMs(deadline));
        if (ready < 0 && errno != EINTR) fail(errnoText("poll"));
        if (ready == 0 && Clock::now() >= deadline) fail("chromium did not read " + what + " in time");
        if (ready > 0 && (fds[1].revents & (POLLIN | POLLHUP)) && !readAvailable())
            fail("chromium closed its pipe (" + exitDescription(pid_) + ") on sending " + what);
    }
}

// Appends one read of the pipe to received_ (one: the callers' deadlines are checked between reads, and
// chromium may write without end); false at its end (chromium is gone).
bool HeadlessBrowser::readAvailable() {
    char chunk[65536];
    for (;;) {
        ssize_t n = ::read(fromBrowser_, chunk, sizeof chunk);
        if (n > 0) received_.append(chunk, static_cast<std::size_t>(n));
        if (n >= 0) return n > 0;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
        if (errno != EINTR) fail(errnoText("reading from chromium"));
    }
}

// The next message from chromium, nullopt when none came by the deadline.
std::optional<json> HeadlessBrowser::receive(Clock::time_point deadline, const std::string& what) {
    for (;;) {
        if (auto end = received_.find('\0'); end != std::string::npos) {
            std::string message = received_.substr(0, end);
            received_.erase(0, end + 1);
            try {
                return json::parse(message);
            } catch (const json::parse_error& e) {
                fail("chromium sent a message that is not JSON (" + std::string(e.what()) +
                     ") while waiting for " + what);
            }
        }
        pollfd p{fromBrowser_, POLLIN, 0};
        int ready = ::poll(&p, 1, pollTimeoutMs(deadline));
        if (ready < 0 && errno != EINTR) fail(errnoText("poll"));
        if (ready == 0 && Clock::now() >= deadline) return std::nullopt;
        if (ready > 0 && !readAvailable())
            fail("chromium closed its pipe (" + exitDescription(pid_) + ") while waiting for " + what);
    }
}

// ---- commands and events ----

std::optional<json> HeadlessBrowser::exchange(const std::string& method, const json& params, bool inPage,
                                              Clock::time_point deadline) {
    if (inPage && sessionId_.empty())
        throw std::runtime_error("HeadlessBrowser: " + method + " needs a page: call open() first");
    const std::string what = "the answer to " + method;
    const long id = nextId_++;
    json message = {{"id", id}, {"method", method}, {"params", params}};
    if (inPage) message["sessionId"] = sessionId_;
    send(message, deadline, method);
    for (;;) {
        // A crashed page never answers: say so now rather than at the deadline.
        if (inPage && !pageLost_.empty()) fail(pageLost_ + " while waiting for " + what);
        auto reply = receive(deadline, what);
        if (!reply) return std::nullopt;
        if (reply->contains("method"))
            handleEvent(*reply);
        else if (field(*reply, "id") == id)
            return reply;
        // Anything else is the late answer to a command given up on: dropped. A page that floods the pipe
        // with events must not keep us past the deadline either:
        if (Clock::now() >= deadline) return std::nullopt;
    }
}

json HeadlessBrowser::call(const std::string& method, const json& params, bool inPage,
                           Clock::time_point deadline) {
    const auto started = Clock::now();
    auto reply = exchange(method, params, inPage, deadline);
    if (!reply) fail("chromium did not answer " + method + " within " + secondsText(deadline - started));
    if (const json& error = field(*reply, "error"); !error.is_null())
        throw std::runtime_error(
            "HeadlessBrowser: " + method + " failed: " + text(field(error, "message")) +
            (text(field(error, "data")).empty() ? "" : " (" + text(field(error, "data")) + ")"));
    const json& result = field(*reply, "result");
    return result.is_null() ? json::object() : result;
}

json HeadlessBrowser::callInPage(const std::string& method, const json& params) {
    return call(method, params, true, Clock::now() + kCallTimeout);
}

void HeadlessBrowser::handleEvent(const json& message) {
    const std::string method = text(field(message, "method"));
    const json& params = field(message, "params");
    if (sessionId_.empty()) return;
    if (method == "Target.detachedFromTarget" && text(field(params, "sessionId")) == sessionId_) {
        pageLost_ = "the page was detached (closed, or its renderer died)";
        return;
    }
    if (text(field(message, "sessionId")) != sessionId_) return; // from a tab closed since
    if (method == "Inspector.targetCrashed") {
        pageLost_ = "the page's renderer crashed";
    } else if (method == "Page.javascriptDialogOpening") {
        // An alert() stops the page until someone answers it: a problem, answered here without waiting (the
        // reply is dropped as that of a command given up on), so that the page goes on.
        problems_.push_back("dialog (" + text(field(params, "type")) +
                            "): " + text(field(params, "message")));
        send({{"id", nextId_++},
              {"method", "Page.handleJavaScriptDialog"},
              {"params", {{"accept", true}}},
              {"sessionId", sessionId_}},
             Clock::now() + kCallTimeout, "Page.handleJavaScriptDialog");
    } else if (method == "Page.lifecycleEvent") {
        if (text(field(params, "name")) == "load") loadedLoaders_.insert(text(field(params, "loaderId")));
    } else if (auto problem = problemOf(method, params)) {
        problems_.push_back(*problem);
    }
}

// Handles the events that arrive until `until`, or those already in the pipe when it has passed: a sleep
// that keeps up with the page. A page that floods the pipe with events holds it at most 100 ms longer.
void HeadlessBrowser::pump(Clock::time_point until) {
    const auto limit = std::max(until, Clock::now()) + 100ms;
    while (auto message = receive(until, "events")) {
        if (message->contains("method")) handleEvent(*message);
        if (Clock::now() >= limit) return;
    }
}

// ---- pages ----

void HeadlessBrowser::closePage() {
    if (targetId_.empty()) return;
    const std::string target = std::exchange(targetId_, "");
    sessionId_.clear();
    // A page that crashed may be gone already: an error answer is fine, no answer is not.
    if (!exchange("Target.closeTarget", {{"targetId", target}}, false, Clock::now() + kCallTimeout))
        fail("chromium did not answer Target.closeTarget within " + secondsText(kCallTimeout));
}

void HeadlessBrowser::newPage() {
    const auto deadline = Clock::now() + kCallTimeout;
    targetId_ =
        text(field(call("Target.createTarget", {{"url", "about:blank"}}, false, deadline), "targetId"));
    if (targetId_.empty()) fail("Target.createTarget gave no targetId");
    // flatten: the page's messages travel on this same pipe, tagged with the sessionId.
    json attached =
        call("Target.attachToTarget", {{"targetId", targetId_}, {"flatten", true}}, false, deadline);
    sessionId_ = text(field(attached, "sessionId"));
    if (sessionId_.empty()) fail("Target.attachToTarget gave no sessionId");
    pageLost_.clear();
    loadedLoaders_.clear();
    problems_.clear();
    // Enabled before the navigation, so that nothing the page reports is missed.
    for (const char* domain : {"Page", "Runtime", "Log", "Inspector"})
        callInPage(std::string(domain) + ".enable");
    callInPage("Page.setLifecycleEventsEnabled", {{"enabled", true}});
    callInPage("Emulation.setDeviceMetricsOverride",
               {{"width", width_}, {"height", height_}, {"deviceScaleFactor", 1}, {"mobile", false}});
}

// Waits for the "load" lifecycle event of the document that the navigation created (Page.loadEventFired
// does not say which document it is about, and the tab's initial about:blank has one of its own).
bool HeadlessBrowser::waitLoaded(const std::string& loaderId, Clock::time_point deadline) {
    if (loaderId.empty()) return true; // a same-document navigation: nothing to load
    while (!loadedLoaders_.count(loaderId)) {
        if (!pageLost_.empty()) fail(pageLost_ + " while waiting for the page's load event");
        auto message = receive(deadline, "the page's load event");
        if (!message) return false;
        if (message->contains("method")) handleEvent(*message);
        if (!loadedLoaders_.count(loaderId) && Clock::now() >= deadline) return false; // a flood of events
    }
    return true;
}

// Polls the expression inside the page (a setTimeout loop every 10 ms in a promise that one Runtime.evaluate
// awaits) rather than with a command per poll: readyMs is not rounded up to a poll interval of ours. An
// exception while evaluating it means "not yet" (the page may not have defined what it reads); a syntax
// error throws, as the expression is parsed with the loop.
bool HeadlessBrowser::waitReady(const std::string& expression, Clock::time_point deadline) {
    while (Clock::now() < deadline) {
        const auto leftMs = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        const std::string poll = readinessPoll(expression, leftMs);
        auto reply = exchange("Runtime.evaluate",
                              {{"expression", poll}, {"awaitPromise", true}, {"returnByValue", true}}, true,
                              deadline + kReadyGrace);
        if (!reply) {
            problems_.push_back("the page did not answer the readiness poll (its main thread is busy?)");
            return false;
        }
        const json& result = field(*reply, "result");
        if (result.is_null()) { // an error: the page navigated away meanwhile (its context is gone), again
            pump(std::min(Clock::now() + 50ms, deadline));
            continue;
        }
        if (const json& details = field(result, "exceptionDetails"); !details.is_null())
            throw std::runtime_error("HeadlessBrowser: readyExpression " + expression + ": " +
                                     exceptionText(details));
        return field(field(result, "result"), "value") == true;
    }
    return false;
}

HeadlessBrowser::Page HeadlessBrowser::open(const std::string& url, const std::string& readyExpression,
                                            double timeoutSeconds) {
    closePage();
    newPage();
    Page page;
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(std::max(timeoutSeconds, 0.0)));
    json navigation = callInPage("Page.navigate", {{"url", url}});
    if (std::string error = text(field(navigation, "errorText")); !error.empty())
        problems_.push_back("cannot open " + url + ": " + error);
    else if (!waitLoaded(text(field(navigation, "loaderId")), deadline))
        problems_.push_back("the load event of " + url + " did not come within " +
                            secondsText(deadline - start));
    else if (readyExpression.empty() || waitReady(readyExpression, deadline))
        page.ready = true;
    if (page.ready) page.readyMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    page.problems = takeProblems();
    return page;
}

json HeadlessBrowser::evaluate(const std::string& expression) {
    json result = callInPage("Runtime.evaluate",
                             {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
    if (const json& details = field(result, "exceptionDetails"); !details.is_null())
        throw std::runtime_error("HeadlessBrowser: evaluate: " + exceptionText(details));
    const json& value = field(result, "result");
    if (value.contains("value")) return value["value"];
    if (value.contains("unserializableValue")) return value["unserializableValue"]; // NaN, Infinity, 1n
    return nullptr;                                                                 // undefined
}

std::string HeadlessBrowser::screenshotPng() {
    return base64Decode(text(field(callInPage("Page.captureScreenshot", {{"format", "png"}}), "data")));
}

std::vector<std::string> HeadlessBrowser::takeProblems() {
    // Events that already arrived but wait in the pipe are reported too.
    if (!sessionId_.empty()) pump(Clock::now());
    return std::exchange(problems_, {});
}

std::string fileUrl(const std::filesystem::path& path) {
    static const char hex[] = "0123456789ABCDEF";
    std::string url = "file://";
    for (unsigned char c : fs::absolute(path).lexically_normal().generic_string()) {
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                     c == '-' || c == '.' || c == '_' || c == '~';
        if (plain) {
            url += static_cast<char>(c);
        } else {
            url += '%';
            url += hex[c >> 4];
            url += hex[c & 15];
        }
    }
    return url;
}

} // namespace gpueff::test
