// configFromJson (io/config_json.h), the settings of a session file: std::invalid_argument for
// a bad object, nothing else. A config it reads is written by configToJson and read back to
// the same JSON.

#include "fuzz.h"

#include "io/config_json.h"

#include <stdexcept>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // Text that is not JSON is the file reader's business (fuzz_session); this harness starts
    // from the parsed object.
    const auto j = nlohmann::json::parse(fuzz::text(data, size), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded())
        return 0;
    const auto read = fuzz::attempt<std::invalid_argument>([&] { return configFromJson(j); });
    if (!read)
        return 0;
    const Config& c = *read;
    const bool valid = c.problems().empty();
    auto validate = [&] { c.validate(); };
    FUZZ_CHECK(fuzz::accepts<std::invalid_argument>(validate) == valid);

    const auto written = configToJson(c);
    const Config again = configFromJson(nlohmann::json::parse(written.dump()));
    FUZZ_CHECK(configToJson(again) == written);
    return 0;
}
