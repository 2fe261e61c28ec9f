#pragma once
/// What names a stage in a trace: its id, head, layer, the attention block it belongs to and,
/// for Transformer-XL's per-segment stages, its segment.
/// Blocks are a type here; their names ("encoder_self", "decoder_self", "cross") are spelled
/// once, in stage_key.cpp, for the trace JSON, lesson files and the command line.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

/// The attention block a stage belongs to in a Transformer (docs/transformer-layers.md).
enum class Block : std::uint8_t {
    /// Outside any block: every stage of a single attention block, and a model's stages after
    /// its stacks (encoder_output, decoder_output, logits, probabilities).
    None,
    /// The encoder's self-attention and the rest of an encoder layer; for embedding,
    /// positional_encoding and input, the source side.
    EncoderSelf,
    /// The decoder's (masked) self-attention, its Add & Norm and its FFN; for embedding,
    /// positional_encoding and input, the target side.
    DecoderSelf,
    /// Cross-attention: queries from the decoder, keys and values from the encoder output.
    Cross,
};

/// "", "encoder_self", "decoder_self", "cross".
std::string_view toString(Block block);
/// The block of a name as toString() spells it ("" is Block::None); nothing for another name.
std::optional<Block> parseBlock(std::string_view name);
/// The names of the blocks of a Transformer, in order: "encoder_self", "decoder_self", "cross"
/// (what a lesson's `block:` and the command line's --block accept).
std::vector<std::string> blockNames();

/// A stage's address in a trace. Every stage has exactly one; no two stages of a trace share one.
struct StageKey {
    StageKey() = default;
    StageKey(std::string id, std::optional<int> head = std::nullopt, std::optional<int> layer = std::nullopt,
             Block block = Block::None, std::optional<int> segment = std::nullopt)
        : id(std::move(id))
        , head(head)
        , layer(layer)
        , block(block)
        , segment(segment)
    {
    }

    /// Stable id: "embedding", "q", "weights", "attn_norm", ... (docs/engine.md, section 6;
    /// layer stages in docs/transformer-layers.md).
    std::string id;
    /// 0-based head of a per-head stage.
    std::optional<int> head;
    /// 0-based encoder or decoder layer of a layer's stage; none outside the layers.
    std::optional<int> layer;
    Block block = Block::None;
    /// 0-based segment τ of Transformer-XL's per-segment stages (position/xl.h); none elsewhere.
    std::optional<int> segment;

    bool operator==(const StageKey&) const = default;
};

} // namespace attnlab
