// A model file's metadata (docs/model-format.md), the JSON object under "__metadata__" in the
// safetensors header that carries the ModelSpec and the vocabularies: the input is that object.
// The harness wraps it in a safetensors header, reads it with parseSafetensors and
// modelFromTensors, and gives the reader every tensor it asks for (each "missing tensor 'name'
// [shape]" message names one), so that metadata describing a valid model reaches the end of
// the reader and fuzz::checkModel.

#include "model_checks.h"

#include <charconv>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

constexpr std::size_t kMaxValues = 1 << 18; // the tensors the harness makes, in all

/// The name and shape a "missing tensor 'name' [a, b]" message asks for; false for another message.
bool missingTensor(std::string_view message, std::string& name, std::vector<std::int64_t>& shape)
{
    constexpr std::string_view kStart = "missing tensor '";
    const std::size_t at = message.find(kStart);
    const std::size_t nameEnd = at == std::string_view::npos ? at : message.find("' [", at + kStart.size());
    if (nameEnd == std::string_view::npos)
        return false;
    name = std::string(message.substr(at + kStart.size(), nameEnd - at - kStart.size()));
    shape.clear();
    const char* p = message.data() + nameEnd + 3;
    const char* end = message.data() + message.size();
    while (p < end) {
        std::int64_t v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc() || v < 0)
            return false;
        shape.push_back(v);
        if (next + 2 <= end && next[0] == ',' && next[1] == ' ')
            p = next + 2;
        else
            return next < end && *next == ']';
    }
    return false;
}

/// A tensor of `shape` with small values that differ (a model of zeros would hide too much).
Tensor madeUp(const std::vector<std::int64_t>& shape, std::size_t count)
{
    Tensor t;
    t.dtype = "F32";
    t.shape = shape;
    t.values.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        t.values[i] = 0.01f * static_cast<float>(static_cast<int>(i % 7) - 3);
    return t;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The metadata in a safetensors header of its own: {"__metadata__": <input>}.
    std::string header = "{\"__metadata__\":";
    header.append(fuzz::text(data, size));
    header += '}';
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xFF);
    bytes += header;

    auto parsed = fuzz::attempt<FormatError>([&] { return parseSafetensors(bytes); });
    if (!parsed)
        return 0;
    TensorFile& file = *parsed;
    std::size_t made = 0;
    for (;;) {
        try {
            fuzz::checkModel(modelFromTensors(file));
            return 0;
        } catch (const FormatError& e) {
            std::string name;
            std::vector<std::int64_t> shape;
            if (!missingTensor(e.what(), name, shape))
                return 0; // the metadata is refused for another reason
            FUZZ_CHECK(!file.tensors.contains(name)); // asked for once only
            std::size_t count = 1;
            for (const auto n : shape) {
                if (n > 0 && count > kMaxValues / static_cast<std::size_t>(n))
                    return 0;
                count *= static_cast<std::size_t>(n);
            }
            if (made + count > kMaxValues)
                return 0; // a model too large to make for every input
            made += count;
            file.tensors.emplace(name, madeUp(shape, count));
        }
    }
}
