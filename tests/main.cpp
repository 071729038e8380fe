#define DOCTEST_CONFIG_IMPLEMENT
#include <cstdio>
#include <cstdlib>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <string_view>
#include <unistd.h>

namespace {

// ctest runs one test case per process by name (doctest_discover_tests). A name CMake cannot pass whole
// (a ';' splits a CMake list) selects nothing, and doctest then passes without running anything: a test
// that cannot fail. This listener counts the cases the filters selected, so main can refuse an empty run.
unsigned selectedCases = 0;

struct SelectionCounter : doctest::IReporter {
    explicit SelectionCounter(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats& stats) override {
        selectedCases = stats.numTestCasesPassingFilters;
    }
    void test_case_start(const doctest::TestCaseData&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

} // namespace

DOCTEST_REGISTER_LISTENER("selection-counter", 1, SelectionCounter);

// Every test process, and every gpueff it runs, gets a private temporary directory in the build tree
// (TMPDIR), so that no test reads or leaves anything in the machine's /tmp, and tests running in parallel
// (ctest -j) never see each other's files. It is removed when the tests passed and kept for a look otherwise.
int main(int argc, char** argv) {
    auto tmp = std::filesystem::path(GPUEFF_TEST_TMP) / std::to_string(::getpid());
    std::filesystem::remove_all(tmp);
    std::filesystem::create_directories(tmp);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    bool filtered = false, listing = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        filtered = filtered || a.rfind("--test-case=", 0) == 0 || a.rfind("-tc=", 0) == 0;
        listing = listing || a.rfind("--list", 0) == 0 || a.rfind("-ltc", 0) == 0 ||
                  a.rfind("-lts", 0) == 0 || a.rfind("-lr", 0) == 0 || a == "-h" || a == "--help" ||
                  a == "-v" || a == "--version";
    }
    doctest::Context context(argc, argv);
    int status = context.run();
    if (status == 0 && filtered && !listing && selectedCases == 0) {
        std::fprintf(stderr, "gpueff_tests: the --test-case filter selected no test case (a name with ';' "
                             "or a mistyped name): nothing was tested\n");
        status = 1;
    }
    if (status == 0) {
        std::error_code ec;
        std::filesystem::remove_all(tmp, ec);
    }
    return status;
}
