#include "engine/common/Error.h"
#include "tools/gpueff/Commands.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>

int main(int argc, char** argv) {
    // Started by mpirun: the processes of one distributed run (MPI initialised before the command line is
    // read). An error on one of them ends them all, with its exit status.
    std::unique_ptr<gpueff::jobs::Peers> peers;
    try {
        peers = gpueff::jobs::launchedPeers(argc, argv);
    } catch (const gpueff::Error& e) {
        std::fprintf(stderr, "gpueff: error: %s\n", e.what());
        return 2;
    }
    CLI::App app{
        "gpueff: GPU efficiency analysis of Nsight Systems traces through Paraver semantics.\n"
        "Translates nsys SQLite exports and PyTorch profiler (Kineto) traces into Paraver traces "
        "(.prv/.pcf/.row) whose event types match\n"
        "BSC's nsys2prv, so Paraver cfgs written for it work unchanged, and evaluates Paraver cfgs on\n"
        "Paraver traces with Paraver's semantics (histogram, modelfactors). `analyze` gives the GPU\n"
        "efficiency model, kernels in flight, overlap, tensor-core and kernel statistics as report.json\n"
        "and a Markdown report; `compare` sets runs side by side; `dashboard` makes a static web site\n"
        "of many runs.",
        "gpueff"};
    app.set_version_flag("--version", "gpueff " GPUEFF_VERSION);
    app.require_subcommand(1);
    auto translate = gpueff::cli::addTranslate(app);
    auto analyze = gpueff::cli::addAnalyze(app, peers.get());
    auto histogram = gpueff::cli::addHistogram(app);
    auto modelfactors = gpueff::cli::addModelFactors(app);
    auto compare = gpueff::cli::addCompare(app);
    auto cut = gpueff::cli::addCut(app);
    auto filter = gpueff::cli::addFilter(app);
    auto dashboard = gpueff::cli::addDashboard(app);
    // Exit status: 0 success (--help and --version included), 1 bad input or an output problem, 2 bad usage
    // (the command line), 3 an internal error, which is a bug in gpueff whatever the input.
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e); // prints CLI11's message and the --help hint
        return 2;
    }
    bool distributed = peers && peers->size() > 1;
    // The error lines of processes other than rank 0 say which process they come from.
    std::string who = distributed && peers->rank() != 0
                          ? "gpueff (rank " + std::to_string(peers->rank()) + ")"
                          : std::string("gpueff");
    int status = 0;
    try {
        if (distributed && !app.got_subcommand("analyze"))
            throw gpueff::cli::UsageError("under mpirun only `gpueff analyze` runs distributed: run " +
                                          app.get_subcommands().front()->get_name() + " as one process");
        if (app.got_subcommand("translate")) return translate();
        if (app.got_subcommand("analyze")) status = analyze();
        if (app.got_subcommand("histogram")) return histogram();
        if (app.got_subcommand("modelfactors")) return modelfactors();
        if (app.got_subcommand("compare")) return compare();
        if (app.got_subcommand("cut")) return cut();
        if (app.got_subcommand("filter")) return filter();
        if (app.got_subcommand("dashboard")) return dashboard();
    } catch (const gpueff::cli::UsageError& e) {
        std::fprintf(stderr, "%s: error: %s\n", who.c_str(), e.what());
        status = 2;
    } catch (const gpueff::Error& e) {
        if (::isatty(STDERR_FILENO)) std::fputs("\r\x1b[K", stderr); // clear a progress line
        std::fprintf(stderr, "%s: error: %s\n", who.c_str(), e.what());
        status = 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: internal error: %s\n", who.c_str(), e.what());
        status = 3;
    }
    if (distributed && status != 0) {
        std::fflush(stderr);
        // Most errors are met by every process alike (an input, a --region absent from the trace): rank 0
        // is given a moment to meet it too, remove its staged outputs and end the run itself.
        if (peers->rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));
        peers->abort(status);
    }
    return status;
}
