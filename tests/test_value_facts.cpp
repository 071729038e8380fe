// metrics/ValueFacts.h: the facts of a name value are made once and asked many times; the cache is bounded,
// and facts forgotten when it fills are made again, the same.
#include "metrics/ValueFacts.h"

#include <doctest/doctest.h>

TEST_CASE("ValueFacts: each value's facts, made once while they fit, made again after the cache is full") {
    gpueff::metrics::ValueFacts<bool> facts;
    std::size_t made = 0;
    auto even = [&](std::int64_t v) {
        return facts.of(9000, v, [&] {
            ++made;
            return v % 2 == 0;
        });
    };
    // A few names repeated (a typical trace): one make each.
    for (int round = 0; round < 3; ++round)
        for (std::int64_t v = 1; v <= 1000; ++v) CHECK(even(v) == (v % 2 == 0));
    CHECK(made == 1000);
    // Millions of names each seen once (PyTorch's op_ids): every answer right though the cache was
    // emptied on the way, and a value asked twice in a row is made once.
    made = 0;
    const std::int64_t many = 700'000;
    bool right = true;
    for (std::int64_t v = 2'000'000; v < 2'000'000 + many; ++v)
        right = right && even(v) == (v % 2 == 0) && even(v) == (v % 2 == 0);
    CHECK(right);
    CHECK(made == static_cast<std::size_t>(many));
    // The first names were forgotten: asked again, they are made again, alike.
    made = 0;
    CHECK(even(2) == true);
    CHECK(made == 1);
}
