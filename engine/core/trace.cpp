#include "core/trace.h"

#include "core/stage_ids.h"

#include <algorithm>

namespace attnlab {

Stage& StageList::add()
{
    auto stage = std::make_shared<Stage>();
    Stage& s = *stage;
    m_stages.push_back(std::move(stage));
    return s;
}

Stage& StageList::add(const StageKey& key)
{
    if (m_keep && !m_keep(key)) {
        if (m_remember)
            m_dropped.push_back({key, m_stages.size()});
        m_scratch = std::make_shared<Stage>(); // the previous scratch stage's matrices are freed
        static_cast<StageKey&>(*m_scratch) = key;
        return *m_scratch;
    }
    Stage& s = add();
    static_cast<StageKey&>(s) = key;
    if (m_kvGroup > 0 && key.head && isPerHeadStage(key.id))
        s.kvHead = isKvHeadStage(key.id) ? *key.head : *key.head / m_kvGroup;
    return s;
}

void StageList::skip(const StageKey& key)
{
    if (m_remember)
        m_dropped.push_back({key, m_stages.size()});
}

void StageList::setKeep(KeepFilter keep, bool remember)
{
    m_keep = std::move(keep);
    m_remember = remember;
}

void StageList::endKeep()
{
    m_keep = nullptr;
    m_remember = false;
    m_scratch.reset();
}

std::vector<StageKey> StageList::keys() const
{
    std::vector<StageKey> out;
    out.reserve(m_stages.size() + m_dropped.size());
    auto dropped = m_dropped.begin();
    for (std::size_t i = 0; i <= m_stages.size(); ++i) {
        for (; dropped != m_dropped.end() && dropped->before == i; ++dropped)
            out.push_back(dropped->key);
        if (i < m_stages.size())
            out.push_back(m_stages[i]->key());
    }
    return out;
}

void StageList::shareAll(const StageList& other)
{
    m_stages.insert(m_stages.end(), other.m_stages.begin(), other.m_stages.end());
}

const Stage* Trace::find(std::string_view id, std::optional<int> head) const
{
    return find(id, head, scopeLayer, scopeBlock);
}

const Stage* Trace::find(std::string_view id, std::optional<int> head, std::optional<int> layer, Block block) const
{
    return findStage(stages, id, head, layer, block);
}

const Stage* Trace::input(const Stage& stage, std::size_t i) const
{
    return i < stage.inputs.size() ? findKey(stage.inputs[i]) : nullptr;
}

const Stage* Trace::findKey(const StageKey& key) const
{
    return findStage(stages, key);
}

const Stage* findStage(const StageList& stages, const StageKey& key)
{
    for (const Stage& s : stages) {
        if (s.key() == key)
            return &s;
    }
    return nullptr;
}

const Stage* findStage(const StageList& stages, std::string_view id, std::optional<int> head, std::optional<int> layer,
                       Block block)
{
    for (const Stage& s : stages) {
        if (s.id == id && s.head == head && s.layer == layer && s.block == block)
            return &s;
    }
    return nullptr;
}

const std::vector<std::string>& stageIds()
{
    static const std::vector<std::string> kIds = stageIdsOf(StageGroup::Attention);
    return kIds;
}

bool isPerHeadStage(std::string_view id)
{
    const StageIdInfo* s = stageIdInfo(id);
    return s && s->perHead;
}

bool isKvHeadStage(std::string_view id)
{
    const StageIdInfo* s = stageIdInfo(id);
    return s && s->kvHead;
}

const std::vector<std::string>& layerStageIds()
{
    static const std::vector<std::string> kIds = stageIdsOf(StageGroup::Layer);
    return kIds;
}

const std::vector<std::string>& modelStageIds()
{
    static const std::vector<std::string> kIds = stageIdsOf(StageGroup::Model);
    return kIds;
}

const std::vector<std::string>& pretrainedStageIds()
{
    static const std::vector<std::string> kIds = stageIdsOf(StageGroup::Pretrained);
    return kIds;
}

bool isLayerNormStage(std::string_view id)
{
    return id == "attn_norm" || id == "cross_norm" || id == "ffn_norm";
}

} // namespace attnlab
