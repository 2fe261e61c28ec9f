#include "core/stage_key.h"

namespace attnlab {

namespace {

struct BlockName {
    Block block;
    std::string_view name;
};

// The one place block names are spelled.
constexpr BlockName kBlockNames[] = {
    {Block::None, ""},
    {Block::EncoderSelf, "encoder_self"},
    {Block::DecoderSelf, "decoder_self"},
    {Block::Cross, "cross"},
};

} // namespace

std::string_view toString(Block block)
{
    for (const auto& [b, name] : kBlockNames) {
        if (b == block)
            return name;
    }
    return {};
}

std::optional<Block> parseBlock(std::string_view name)
{
    for (const auto& [b, n] : kBlockNames) {
        if (n == name)
            return b;
    }
    return std::nullopt;
}

std::vector<std::string> blockNames()
{
    std::vector<std::string> names;
    for (const auto& [b, name] : kBlockNames) {
        if (b != Block::None)
            names.emplace_back(name);
    }
    return names;
}

} // namespace attnlab
