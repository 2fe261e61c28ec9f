#pragma once
// The attention weights of a whole trace, by block, layer and head: what the model view (every
// layer × head of one block) and the head view (every head of one layer) draw. Found with
// Trace::find(id, head, layer, block), so they work for every trace whose attention stages carry
// their layer and block (seeded Transformers, the shipped model, GPT-2, BERT) and for one
// attention block (block None, no layer: one "layer").

#include "core/stage_key.h"

#include <QImage>
#include <QString>

#include <Eigen/Core>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;

namespace attnlab {

struct Stage;
struct Trace;

/// The blocks of `trace` that hold attention weights, in the model's order: encoder
/// self-attention, decoder self-attention, cross-attention; Block::None for one attention block.
std::vector<Block> attentionBlocks(const Trace& trace);

/// A block's name for people: "Encoder self-attention", …; "One attention block" for Block::None.
QString attentionBlockTitle(Block block);
/// Lists `blocks` in `box` (the block as item data), without signals; the box and its `label`
/// are hidden when there is only one block to choose.
void fillBlockBox(QComboBox* box, QLabel* label, const std::vector<Block>& blocks);
/// Every block item's text again, in the interface's language.
void retranslateBlockBox(QComboBox* box);

/// The attention weights of one block of a trace.
struct AttentionMaps {
    Block block = Block::None;
    int layers = 0; ///< layers with weights (1 for one attention block)
    int heads = 0;
    std::vector<const Stage*> stages; ///< layer-major: stages[layer * heads + head]; never null

    bool empty() const { return stages.empty(); }
    const Stage& at(int layer, int head) const { return *stages[static_cast<std::size_t>(layer * heads + head)]; }
    /// Rows (queries) and columns (keys) of every map of the block.
    int queries() const;
    int keys() const;
    /// The query tokens (row labels) and key tokens (column labels) as people read them.
    std::vector<QString> queryTokens() const;
    std::vector<QString> keyTokens() const;
};

/// The weights of `block` in `trace`: layers 0, 1, … while layer 0's head 0 … heads−1 are all
/// there (for Block::None, the single block's heads); empty when the block has none.
AttentionMaps attentionMaps(const Trace& trace, Block block);

/// The layer a block's stage is stored under: none for one attention block.
std::optional<int> storedLayer(Block block, int layer);

/// Viridis (the heatmaps' gradient for weights, 0..1) as 256 colours; NaN cells take `nanColor`.
const std::vector<QRgb>& weightColors();
inline constexpr QRgb kNanColor = 0xffc8c8c8;

/// A small picture of `weights` (rows = queries, top to bottom): one pixel per cell when the
/// matrix has at most `maxSide` rows and columns, else each pixel the largest weight of the
/// cells it covers (the peaks of a 1024 × 1024 map stay visible in 128 pixels). Colours run
/// from 0 to `top` (1: the weights' own range; the map's largest weight: its contrast stretched).
QImage weightsImage(const Eigen::MatrixXf& weights, int maxSide, float top = 1.0f);

} // namespace attnlab
