#pragma once
// Shared by the libFuzzer harnesses (tests/fuzz/README.md): the input as text, the rule that a
// reader's documented errors are normal rejections, and invariant checks that stop the run.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <type_traits>

namespace attnlab::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

/// Runs `read()`. Returns false when it throws one of `Rejections` — the reader's documented
/// errors, the normal answer to bad bytes — and true when it returns. Any other exception
/// (std::out_of_range, a nlohmann::json error, std::bad_alloc …) is not caught: it reaches
/// std::terminate and libFuzzer reports the input, as it reports crashes and sanitizer findings.
template <class Read>
bool accepts(Read& read)
{
    read();
    return true;
}

template <class First, class... Rest, class Read>
bool accepts(Read& read)
{
    try {
        return accepts<Rest...>(read);
    } catch (const First&) {
        return false;
    }
}

/// What `read()` returns, or nothing when it throws one of `Rejections` (see accepts).
template <class... Rejections, class Read>
std::optional<std::invoke_result_t<Read&>> attempt(Read read)
{
    std::optional<std::invoke_result_t<Read&>> out;
    auto store = [&] { out.emplace(read()); };
    accepts<Rejections...>(store);
    return out;
}

/// An invariant of what a reader accepted. A broken one stops the run like a crash.
inline void check(bool ok, const char* what, const char* file, int line)
{
    if (!ok) {
        std::fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
        std::abort();
    }
}

} // namespace attnlab::fuzz

#define FUZZ_CHECK(condition) ::attnlab::fuzz::check((condition), #condition, __FILE__, __LINE__)
