#include "engine/common/WriteThrough.h"

#include "engine/common/Error.h"

#include <exception>
#include <sys/types.h>

namespace gpueff {

void writeThrough(const std::function<void(std::FILE*)>& write,
                  const std::function<void(std::string_view)>& put) {
    struct Cookie {
        const std::function<void(std::string_view)>* put;
        std::exception_ptr thrown; // by put: kept until the C library's frames are left
    } cookie{&put, {}};
    auto take = [](void* c, const char* bytes, std::size_t n) -> ssize_t {
        auto& k = *static_cast<Cookie*>(c);
        // 0, not -1: glibc takes a cookie writer's result as a count (a negative one made it read past the
        // caller's buffer); a short count marks the stream failed.
        if (k.thrown) return 0;
        try {
            (*k.put)(std::string_view(bytes, n));
        } catch (...) {
            k.thrown = std::current_exception();
            return 0;
        }
        return static_cast<ssize_t>(n);
    };
    std::FILE* f = fopencookie(&cookie, "w", cookie_io_functions_t{nullptr, take, nullptr, nullptr});
    if (!f) throw Error("out of memory for a trace's labels");
    bool open = true;
    try {
        write(f);
    } catch (...) {
        std::fclose(f);
        if (!cookie.thrown) throw;
        open = false;
    }
    bool closed = !open || std::fclose(f) == 0; // its last buffer goes to `put` here
    if (cookie.thrown) std::rethrow_exception(cookie.thrown);
    if (!closed) throw Error("out of memory for a trace's labels");
}

} // namespace gpueff
