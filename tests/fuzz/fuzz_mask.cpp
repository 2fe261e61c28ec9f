// parseMaskText (nn/mask.h), a mask file's text: std::invalid_argument for bad text; a mask it
// accepts is square and no larger than the longest sentence.

#include "fuzz.h"

#include "nn/mask.h"

#include <stdexcept>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parsed = fuzz::attempt<std::invalid_argument>([&] { return parseMaskText(fuzz::text(data, size)); });
    if (!parsed)
        return 0;
    const BoolMatrix& m = *parsed;
    FUZZ_CHECK(m.rows() >= 1 && m.rows() == m.cols());
    FUZZ_CHECK(m.rows() <= ConfigLimits::maxTokens);
    // Every value came from a '0' or '1' of the text.
    FUZZ_CHECK(static_cast<std::size_t>(m.size()) <= size);
    return 0;
}
