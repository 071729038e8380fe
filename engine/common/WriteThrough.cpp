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
        bool discard = false;      // the writer failed on its own: its last buffer is dropped, not taken
    } cookie{&put, {}, false};
    auto take = [](void* c, const char* bytes, std::size_t n) -> ssize_t {
        auto& k = *static_cast<Cookie*>(c);
        // 0, not -1: glibc takes a cookie writer's result as a count (a negative one made it read past the
        // caller's buffer); a short count marks the stream failed.
        if (k.discard) return static_cast<ssize_t>(n);
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
    if (!f) throw Error("out of memory for a writer's text");
    // Whichever failed first is reported: the taker (the writer may then fail for its stream's error) or the
    // writer (what it left in the buffer is not taken, so the taker cannot fail on it instead).
    try {
        write(f);
    } catch (...) {
        if (!cookie.thrown) {
            cookie.discard = true;
            std::fclose(f);
            throw;
        }
        std::fclose(f);
        std::rethrow_exception(cookie.thrown);
    }
    bool closed = std::fclose(f) == 0; // its last buffer goes to `put` here
    if (cookie.thrown) std::rethrow_exception(cookie.thrown);
    if (!closed) throw Error("out of memory for a writer's text");
}

} // namespace gpueff
