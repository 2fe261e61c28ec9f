// applySettings (lesson/lesson.h), the "k=v, k=v" grammar of a lesson's `settings` lines, on
// arbitrary text: std::invalid_argument for bad text, nothing else.

#include "fuzz.h"

#include "lesson/lesson.h"

#include <stdexcept>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto applied = fuzz::attempt<std::invalid_argument>([&] { return applySettings(Config{}, fuzz::text(data, size)); });
    if (!applied)
        return 0;
    const Config& c = *applied;
    // Only the grammar is checked: the result may break a rule, and problems() says which.
    FUZZ_CHECK(c.mask != MaskKind::Custom);
    const bool valid = c.problems().empty();
    auto validate = [&] { c.validate(); };
    FUZZ_CHECK(fuzz::accepts<std::invalid_argument>(validate) == valid);
    return 0;
}
