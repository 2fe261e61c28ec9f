#pragma once
/// What the engine returns: every intermediate matrix of an attention computation, named.
/// Plain value types: the UI looks stages up by id and translates their titles itself.

#include "core/config.h"
#include "core/message.h"
#include "core/stage_key.h"

#include <Eigen/Core>

#include <compare>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

struct AttentionWeights;
struct Seq2SeqModel;

/// Row or column labels, shared between the many matrices that use the same ones.
using Labels = std::shared_ptr<const std::vector<std::string>>;

struct LabeledMatrix {
    std::string name;          ///< e.g. "Q_h", "A", "M"
    Eigen::MatrixXf values;    ///< rows are tokens (queries); n x n matrices have keys as columns
    Labels rowLabels;          ///< one per row
    Labels colLabels;          ///< one per column: tokens, or "d0".., "h1·d3" for features
};

/// One named intermediate result. Its key (id, head, layer, block) is its address in the trace.
struct Stage : StageKey {
    std::string title;          ///< English title; the UI translates by id
    std::string formula;        ///< what it computes, in Unicode math
    std::vector<LabeledMatrix> matrices; ///< the main matrix first
    /// The stages whose main matrices this one was computed from, in the order of its formula
    /// (q: the block's query input; scores: q and k; input: embedding and positional_encoding).
    /// A key may name a stage the trace does not hold when the caller gave that matrix itself
    /// (computeTransformer's src, for example).
    std::vector<StageKey> inputs;
    /// The module whose parameters it used, by its name in the model file
    /// (docs/model-format.md): "encoder.layers.0.self_attn", "decoder.layers.1.norm2",
    /// "generator"; "self_attn" for a single attention block; empty for none.
    std::string module;
    /// A per-head stage of a grouped-query block (nn/blocks.h): the key/value head it read (query
    /// head h reads h / (heads / kv_heads); for k, v and their norms and rotations, the head
    /// itself). None in blocks whose every query head has its own keys and values.
    std::optional<int> kvHead;

    const StageKey& key() const { return *this; }
    const LabeledMatrix& main() const { return matrices.front(); }
};

/// A stage a list computed but did not keep (StageList::setKeep): its key, and where it came
/// (before the kept stage at index `before`).
struct DroppedStage {
    StageKey key;
    std::size_t before = 0;
};

/// The stages of a trace, in the order they were computed. Stages are immutable once added and
/// shared, not copied, between traces (generation steps share the encoder's; a Session's view of
/// one block shares the full trace's).
///
/// A list may keep only some stages (a compact trace of a large model, or `trace --stages`): the
/// others are still computed, each in a scratch stage freed when the next one is added, and
/// their keys are remembered in order (dropped()), so that they can be listed and made again on
/// demand (pretrained/trace_detail.h).
class StageList {
public:
    using Pointer = std::shared_ptr<const Stage>;
    /// True for the keys a list keeps.
    using KeepFilter = std::function<bool(const StageKey&)>;

    /// Iterates as `const Stage&`.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Stage;
        using difference_type = std::ptrdiff_t;
        using pointer = const Stage*;
        using reference = const Stage&;

        const_iterator() = default;
        explicit const_iterator(std::vector<Pointer>::const_iterator it) : m_it(it) {}
        reference operator*() const { return **m_it; }
        pointer operator->() const { return m_it->get(); }
        const_iterator& operator++() { ++m_it; return *this; }
        const_iterator operator++(int) { auto old = *this; ++m_it; return old; }
        const_iterator& operator--() { --m_it; return *this; }
        const_iterator& operator+=(difference_type n) { m_it += n; return *this; }
        const_iterator operator+(difference_type n) const { return const_iterator(m_it + n); }
        difference_type operator-(const const_iterator& o) const { return m_it - o.m_it; }
        reference operator[](difference_type n) const { return *m_it[n]; }
        bool operator==(const const_iterator&) const = default;
        auto operator<=>(const const_iterator&) const = default;

    private:
        std::vector<Pointer>::const_iterator m_it;
    };

    std::size_t size() const { return m_stages.size(); }
    bool empty() const { return m_stages.empty(); }
    const Stage& operator[](std::size_t i) const { return *m_stages[i]; }
    const Stage& front() const { return *m_stages.front(); }
    const Stage& back() const { return *m_stages.back(); }
    const_iterator begin() const { return const_iterator(m_stages.begin()); }
    const_iterator end() const { return const_iterator(m_stages.end()); }
    /// The shared stage at `i`, to put into another list.
    const Pointer& pointer(std::size_t i) const { return m_stages[i]; }

    /// Appends a new, empty stage and returns it for filling in; its address never changes.
    Stage& add();
    /// Appends a new stage with this key, or, when the keep filter refuses the key, returns a
    /// scratch stage that the list drops (remembering the key when asked to).
    Stage& add(const StageKey& key);
    /// From now on keeps only the keys `keep` accepts (null: every key); with `remember`, the
    /// keys of the others are listed in dropped().
    void setKeep(KeepFilter keep, bool remember);
    /// Notes a stage not even computed because the list would not keep it (listed in dropped()
    /// when remembering, like the others).
    void skip(const StageKey& key);
    /// True when a stage with this key would be kept.
    bool keeps(const StageKey& key) const { return !m_keep || m_keep(key); }
    /// Ends filtering: keeps every stage added from now on and frees the scratch stage.
    void endKeep();
    /// The stages computed but not kept, in the order they came.
    const std::vector<DroppedStage>& dropped() const { return m_dropped; }
    /// Every key, kept or dropped, in the order the stages were computed.
    std::vector<StageKey> keys() const;
    /// Appends a stage another list holds (shared, not copied).
    void share(Pointer stage) { m_stages.push_back(std::move(stage)); }
    /// Appends every stage of `other` (shared, not copied).
    void shareAll(const StageList& other);
    void reserve(std::size_t n) { m_stages.reserve(n); }
    /// While `queryHeadsPerKvHead` > 0, every per-head stage added gets its kvHead (isKvHeadStage:
    /// its head; else head / queryHeadsPerKvHead); 0 ends it. A grouped-query block sets it.
    void setKvGroup(int queryHeadsPerKvHead) { m_kvGroup = queryHeadsPerKvHead; }
    std::size_t capacity() const { return m_stages.capacity(); }

private:
    std::vector<Pointer> m_stages;
    KeepFilter m_keep;
    bool m_remember = false;
    std::shared_ptr<Stage> m_scratch;
    std::vector<DroppedStage> m_dropped;
    int m_kvGroup = 0;
};

struct Trace {
    std::vector<std::string> tokens;
    Config config;
    std::vector<Message> warnings;
    StageList stages;
    /// The weights used, shared rather than copied (they can be megabytes).
    std::shared_ptr<const AttentionWeights> weights;
    /// A model's trace (model.h): the decoder's input tokens, <sos> first; empty otherwise.
    std::vector<std::string> targetTokens;
    /// A pretrained model's trace (GPT-2, BERT): the vocabulary id of each token, and BERT's
    /// segment (token type) ids; empty otherwise.
    std::vector<int> tokenIds;
    std::vector<int> segmentIds;
    /// A model's trace: the model (shared); null for a single attention block.
    std::shared_ptr<const Seq2SeqModel> model;
    /// Where find(id, head) looks: layer none and Block::None for a whole trace (every stage of a
    /// single attention block); a layer and block for a view of one attention block of a model.
    std::optional<int> scopeLayer;
    Block scopeBlock = Block::None;

    /// The stage with this id (and head, for per-head stages) in the trace's scope, or nullptr.
    const Stage* find(std::string_view id, std::optional<int> head = std::nullopt) const;
    /// The stage with exactly this id, head, layer and block, or nullptr (Transformer-XL's
    /// per-segment stages: segment 0's).
    const Stage* find(std::string_view id, std::optional<int> head, std::optional<int> layer, Block block) const;
    /// The stage with exactly this key (segment included), or nullptr.
    const Stage* findKey(const StageKey& key) const;
    /// The stage that fed `stage` as its input number `i` (stage.inputs[i]), or nullptr when it
    /// has no such input or the trace does not hold it.
    const Stage* input(const Stage& stage, std::size_t i = 0) const;
};

/// The stage of `stages` with exactly this id, head, layer and block, or nullptr; of
/// Transformer-XL's per-segment stages, the first segment's.
const Stage* findStage(const StageList& stages, std::string_view id, std::optional<int> head, std::optional<int> layer,
                       Block block);
/// The stage of `stages` with exactly this key (segment included), or nullptr.
const Stage* findStage(const StageList& stages, const StageKey& key);

/// Every stage id in the order stages appear (per-head ids repeat once per head).
const std::vector<std::string>& stageIds();
/// True for the ids computed once per head.
bool isPerHeadStage(std::string_view id);
/// True for the per-head ids whose head counts key/value heads in a grouped-query block: k, v,
/// k_norm, k_rotated.
bool isKvHeadStage(std::string_view id);

/// The ids of encoder and decoder layers' own stages (docs/transformer-layers.md), beside the
/// attention ids q .. output that their attention blocks reuse: attn_residual, attn_norm,
/// cross_residual, cross_norm, ffn_hidden, ffn_output, ffn_residual, ffn_norm, layer_output,
/// encoder_output, decoder_output.
const std::vector<std::string>& layerStageIds();
/// The ids of a whole model's output head (docs/model-format.md): logits, probabilities.
const std::vector<std::string>& modelStageIds();
/// The ids only pretrained models' traces hold (pretrained/forward.h): segment_embedding,
/// embedding_sum (BERT's embeddings), rollout (attention rollout over the layers), mlm_transform
/// (BERT's masked-LM head).
const std::vector<std::string>& pretrainedStageIds();
/// True for the LayerNorm stages, whose "mean" and "variance" (n x 1) follow the main matrix:
/// attn_norm, cross_norm, ffn_norm (encoder_output / decoder_output carry them when a final
/// norm is applied).
bool isLayerNormStage(std::string_view id);

} // namespace attnlab
