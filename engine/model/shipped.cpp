#include "model/shipped.h"

#include "io/safetensors.h"
#include "model/messages.h"

#include <exception>

// The file's bytes go straight into the object file's read-only data: no generated source,
// no copy at start-up. ATTNLAB_SHIPPED_MODEL is the file's absolute path (engine/CMakeLists.txt).
asm(".pushsection .rodata\n"
    ".balign 16\n"
    "attnlab_shipped_model_begin:\n"
    ".incbin \"" ATTNLAB_SHIPPED_MODEL "\"\n"
    "attnlab_shipped_model_end:\n"
    ".popsection\n");

extern "C" const char attnlab_shipped_model_begin[];
extern "C" const char attnlab_shipped_model_end[];

namespace attnlab {

std::string_view shippedModelBytes()
{
    return {attnlab_shipped_model_begin, static_cast<std::size_t>(attnlab_shipped_model_end - attnlab_shipped_model_begin)};
}

std::shared_ptr<const Seq2SeqModel> shippedModel()
{
    // Parsed once: every session, lesson step and command shares the same weights. A failure is
    // kept too, so every caller gets the same message.
    struct Cached {
        std::shared_ptr<const Seq2SeqModel> model;
        Message error;
    };
    static const Cached cached = []() -> Cached {
        try {
            auto m = std::make_shared<Seq2SeqModel>(modelFromTensors(parseSafetensors(shippedModelBytes())));
            m->source = "built-in:reversal";
            m->weights.source = m->source;
            return {std::move(m), {}};
        } catch (const std::exception& e) {
            return {nullptr, sayAbout(modelMessage("shipped_model_unreadable"), messageOf(e))};
        }
    }();
    if (!cached.model)
        throw FormatError(cached.error);
    return cached.model;
}

} // namespace attnlab
