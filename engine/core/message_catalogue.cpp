// The message tables of the engine's folders (core/message.h, "Message tables"): one line per
// table. A folder's new table is one line here.

#include "core/message.h"

#include "families/messages.h"
#include "io/messages.h"
#include "model/messages.h"
#include "pretrained/messages.h"
#include "text/messages.h"

#include <span>

namespace attnlab {

namespace {

const std::span<const MessageTemplate> kTables[] = {
    kIoMessages,
    kFamiliesMessages,
    kModelMessages,
    kPretrainedMessages,
    kTextMessages,
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
