#define DOCTEST_CONFIG_IMPLEMENT
#include <cstdlib>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <unistd.h>

// Every test process, and every gpueff it runs, gets a private temporary directory in the build tree
// (TMPDIR), so that no test reads or leaves anything in the machine's /tmp, and tests running in parallel
// (ctest -j) never see each other's files. It is removed when the tests passed and kept for a look otherwise.
int main(int argc, char** argv) {
    auto tmp = std::filesystem::path(GPUEFF_TEST_TMP) / std::to_string(::getpid());
    std::filesystem::remove_all(tmp);
    std::filesystem::create_directories(tmp);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    doctest::Context context(argc, argv);
    int status = context.run();
    if (status == 0) {
        std::error_code ec;
        std::filesystem::remove_all(tmp, ec);
    }
    return status;
}
