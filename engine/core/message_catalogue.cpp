// The message tables of the engine's folders (core/message.h, "Message tables"): one line per
// table. A folder's new table is one line here.

#include "core/message.h"

#include "attention/messages.h"
#include "compare/messages.h"
#include "core/messages.h"
#include "demo/messages.h"
#include "families/messages.h"
#include "io/messages.h"
#include "lesson/messages.h"
#include "model/messages.h"
#include "nn/messages.h"
#include "pretrained/messages.h"
#include "text/messages.h"
#include "train/messages.h"

#include <span>

namespace attnlab {

namespace {

const std::span<const MessageTemplate> kTables[] = {
    kAttentionMessages,
    kCompareMessages,
    kCoreMessages,
    kDemoMessages,
    kFamiliesMessages,
    kIoMessages,
    kLessonMessages,
    kModelMessages,
    kNnMessages,
    kPretrainedMessages,
    kTextMessages,
    kTrainMessages,
};

} // namespace

const std::vector<const MessageTemplate*>& messageTemplates()
{
    static const std::vector<const MessageTemplate*> all = [] {
        std::vector<const MessageTemplate*> out;
        for (const auto& table : kTables) {
            for (const MessageTemplate& t : table)
                out.push_back(&t);
        }
        return out;
    }();
    return all;
}

} // namespace attnlab
