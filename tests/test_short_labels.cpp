// Kernel labels for Paraver's histogram headers (engine/paraver/ShortLabels.h): `short [full]`, short names
// made unique, read back to full names. Expected values are worked out by hand from the rule in
// docs/events.md ("Kernel labels"): the function's name without return type, namespaces, template arguments
// and parameters, then `<hint>` from the first template argument that names a function or a type.
#include "engine/paraver/EventCatalog.h"
#include "engine/paraver/EventTypes.h"
#include "engine/paraver/ShortLabels.h"
#include "engine/paraver/TraceLabels.h"

#include <cstdio>
#include <cstdlib>
#include <doctest/doctest.h>
#include <sstream>

using namespace gpueff::paraver;

TEST_CASE("short kernel names: function name, hint from the first naming template argument") {
    // Real names of data/nsys (fuser_matmul_h100, cloverleaf_a100, mfu_2gpu_h100_nccl, cupy), shortened.
    CHECK(
        shortKernelName("void at::native::vectorized_elementwise_kernel<(int)4, "
                        "at::native::FillFunctor<c10::Half>, std::array<char *, (unsigned long)1>>(int, T2, "
                        "T3)") == "vectorized_elementwise_kernel<FillFunctor>");
    CHECK(shortKernelName(
              "void clover::par_ranged2d_kernel<advec_mom_kernel(int, int, clover::Buffer2D<double> "
              "&)::[lambda(int, int) (instance 1)]>(clover::Range2d, T1)") ==
          "par_ranged2d_kernel<advec_mom_kernel>");
    CHECK(shortKernelName("void at::native::vectorized_elementwise_kernel<(int)4, "
                          "at::native::rsqrt_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance "
                          "2)]::operator ()() const::[lambda(float) (instance 1)], std::array<char *, "
                          "(unsigned long)2>>(int, T2, T3)") ==
          "vectorized_elementwise_kernel<rsqrt_kernel_cuda>");
    CHECK(shortKernelName("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned long)4096>)") ==
          "ncclDevKernel_SendRecv");
    CHECK(shortKernelName("<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<<unnamed>::__half, (int)3, "
                          "(int)3>)") == "nvfuser_none_f0_c0_r0_g0");
    CHECK(shortKernelName("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NTN") ==
          "nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NTN");
    CHECK(shortKernelName("cupy_fill") == "cupy_fill");
    // Numbers, casts and built-in types name nothing: no hint.
    CHECK(shortKernelName("void cublasLt::splitKreduce_kernel<(int)32, (int)16, int, double, (bool)1>("
                          "cublasLt::cublasSplitKParams<T6>, const T4 *)") == "splitKreduce_kernel");
    CHECK(shortKernelName("(anonymous namespace)::foo(int)") == "foo");
    CHECK(shortKernelName("saxpy(double *, double *, double, int)") == "saxpy");
    // Not C++ (graph launches share the kernels' values): kept whole.
    CHECK(shortKernelName("CUDA graph 12") == "CUDA graph 12");
    // Brackets that do not pair: cut at the first square bracket, never holding one.
    CHECK(shortKernelName("x<y") == "x<y");
    CHECK(shortKernelName("odd [name") == "odd");
    CHECK(shortKernelName("") == "kernel");
    // At most 64 bytes: "k<" + 59 letters + "...".
    auto longName = "void k<" + std::string(100, 'A') + ">(int)";
    CHECK(shortKernelName(longName) == "k<" + std::string(59, 'A') + "...");
}

TEST_CASE("short labels: `short [full]`, repeated short names numbered in value order, unique names kept") {
    std::vector<std::string> names = {"foo", "void foo<int>(int)", "void foo<(int)2>(int)", "void bar(int)",
                                      "baz"};
    auto labels = shortLabels(names);
    REQUIRE(labels.size() == names.size());
    CHECK(labels[0] == "foo #1 [foo]");
    CHECK(labels[1] == "foo #2 [void foo<int>(int)]");
    CHECK(labels[2] == "foo #3 [void foo<(int)2>(int)]");
    CHECK(labels[3] == "bar [void bar(int)]");
    CHECK(labels[4] == "baz");
    // A number another name already has as its short name is skipped.
    auto skip = shortLabels({"a", "void a(int)", "a #1"});
    CHECK(skip == std::vector<std::string>{"a #2 [a]", "a #3 [void a(int)]", "a #1"});
    for (const auto& [list, decoded] :
         {std::pair{labels, names}, std::pair{skip, std::vector<std::string>{"a", "void a(int)", "a #1"}}})
        for (std::size_t i = 0; i < list.size(); ++i) CHECK(fullNameOf(list[i]) == decoded[i]);
}

TEST_CASE("full names from labels: only gpueff's own `short [full]` form is read back") {
    CHECK(fullNameOf("saxpy [saxpy(double *, int)]") == "saxpy(double *, int)");
    CHECK(fullNameOf("saxpy #12 [saxpy(double *, int)]") == "saxpy(double *, int)");
    // nsys2prv's and older gpueff's plain names, brackets included, stay as they are.
    CHECK(fullNameOf("foo [bar]") == "foo [bar]");
    CHECK(fullNameOf("saxpy #x [saxpy(int)]") == "saxpy #x [saxpy(int)]");
    CHECK(fullNameOf("void f<int [3]>(int)") == "void f<int [3]>(int)");
    CHECK(fullNameOf("k [with T = float]") == "k [with T = float]");
    CHECK(fullNameOf("plain") == "plain");
    TraceLabels labels;
    labels.eventValues[types::kKernel] = {{1, "saxpy [saxpy(int)]"}};
    labels.eventValues[types::kNcclKernel] = {{1, "saxpy [saxpy(int)]"}};
    labels.eventValues[types::kNvtxDefaultDomainBase] = {{1, "saxpy [saxpy(int)]"}};
    useFullKernelNames(labels);
    CHECK(labels.eventValues[types::kKernel].at(1) == "saxpy(int)");
    CHECK(labels.eventValues[types::kNcclKernel].at(1) == "saxpy(int)");
    CHECK(labels.eventValues[types::kNvtxDefaultDomainBase].at(1) ==
          "saxpy [saxpy(int)]"); // not a kernel type
}

TEST_CASE("the catalogue writes kernel labels short for Paraver and full for the analysis") {
    EventCatalog catalog;
    catalog.declare(types::kKernel, "CUDA kernel");
    catalog.declare(types::kCudaApi, "CUDA API call");
    catalog.shareNames({types::kKernel, types::kNcclKernel});
    catalog.labelShort(types::kKernel);
    for (const char* name : {"void b(int)", "a"}) catalog.nameValue(types::kKernel, name);
    catalog.nameValue(types::kCudaApi, "cudaLaunchKernel(int)");
    catalog.assignValues();
    catalog.markUsed(types::kKernel);
    catalog.markUsed(types::kCudaApi);
    auto text = [&](EventCatalog::Names names) {
        char* buffer = nullptr;
        std::size_t size = 0;
        std::FILE* f = open_memstream(&buffer, &size);
        catalog.writePcf(f, names);
        std::fclose(f);
        std::string out(buffer, size);
        std::free(buffer);
        return out;
    };
    auto valuesOf = [](const std::string& pcf) {
        TraceLabels labels;
        std::istringstream in(pcf);
        readPcf(in, "t.pcf", labels);
        return labels.eventValues;
    };
    // Values in byte order: "a" = 1, "void b(int)" = 2; API names are not shortened.
    auto forParaver = valuesOf(text(EventCatalog::Names::ForParaver));
    CHECK(forParaver[types::kKernel].at(1) == "a");
    CHECK(forParaver[types::kKernel].at(2) == "b [void b(int)]");
    CHECK(forParaver[types::kCudaApi].at(1) == "cudaLaunchKernel(int)");
    auto full = valuesOf(text(EventCatalog::Names::Full));
    CHECK(full[types::kKernel].at(2) == "void b(int)");
    CHECK(full[types::kCudaApi].at(1) == "cudaLaunchKernel(int)");
}
