#include "trace.h"

#include <algorithm>

namespace attnlab {

const Stage* Trace::find(std::string_view id, std::optional<int> head) const
{
    for (const auto& s : stages) {
        if (s.id == id && s.head == head)
            return &s;
    }
    return nullptr;
}

const std::vector<std::string>& stageIds()
{
    static const std::vector<std::string> kIds{
        "embedding", "positional_encoding", "input", "q", "k", "v", "scores", "scaled",
        "mask", "masked_scores", "weights", "head_output", "concat", "output",
    };
    return kIds;
}

bool isPerHeadStage(std::string_view id)
{
    static constexpr std::string_view kPerHead[] = {"q", "k", "v", "scores", "scaled", "masked_scores", "weights", "head_output"};
    return std::find(std::begin(kPerHead), std::end(kPerHead), id) != std::end(kPerHead);
}

} // namespace attnlab
