// parseSessionJson (io/session_json.h), a session file's text: Error or std::invalid_argument
// for bad text, nothing else. What it accepts keeps the format's promises, its embedded
// weights go through sessionWeights, and a session with valid settings is written by
// sessionJson and read back to the same file.

#include "fuzz.h"

#include "io/config_json.h"
#include "io/session_json.h"

#include <stdexcept>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parsed = fuzz::attempt<std::invalid_argument>([&] { return parseSessionJson(fuzz::text(data, size)); });
    if (!parsed)
        return 0;
    const SessionFile& s = *parsed;

    if (s.customMask) {
        FUZZ_CHECK(s.customMask->rows() == s.customMask->cols());
        FUZZ_CHECK(s.customMask->rows() <= ConfigLimits::maxTokens);
    }
    FUZZ_CHECK(!s.lesson || (!s.lesson->path.empty() && s.lesson->step >= 0));
    FUZZ_CHECK(s.config.model == ModelKind::File || s.modelPath.empty());
    if (s.weights && s.weights->embedded) {
        // Never a file read here: only the embedded copy.
        auto read = [&] { FUZZ_CHECK(sessionWeights(*s.weights).dModel() >= 1); };
        fuzz::accepts<FormatError>(read);
    }

    // Settings that would run are written and read back as they were; the writer is a fixed
    // point after one pass (it leaves out what the reader defaults, e.g. model_path without a model).
    if (!s.config.problems().empty())
        return 0;
    const std::string written = sessionJson(s);
    const SessionFile again = parseSessionJson(written);
    FUZZ_CHECK(sessionJson(again) == written);
    FUZZ_CHECK(again.sentence == s.sentence && configToJson(again.config) == configToJson(s.config) && again.weights == s.weights);
    FUZZ_CHECK(again.customMask.has_value() == s.customMask.has_value() && (!s.customMask || *again.customMask == *s.customMask));
    FUZZ_CHECK(again.step == s.step && again.head == s.head && again.lesson == s.lesson);
    return 0;
}
