// The `settings` grammar of lesson files (docs/lesson-format.md): "k=v, k=v" on top of a Config.

#include "lesson/lesson_text.h"

#include "core/options.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace attnlab {

namespace {

using namespace lessontext;

/// Every setting a lesson may make: the run's, the attention kind, then the kinds' and the
/// schemes' options (core/options.h).
const std::vector<std::string>& settingKeys()
{
    static const std::vector<std::string> kKeys = [] {
        std::vector<std::string> keys{"d_model", "heads", "seed",  "pe",     "embed_scale", "scale", "mask",      "pad_to",
                                      "weights", "max_tokens", "model", "layers", "d_ff",      "norm",  "activation", "attention"};
        for (const OptionInfo& o : options())
            keys.emplace_back(o.key);
        return keys;
    }();
    return kKeys;
}

/// Positions separated by spaces (the comma separates settings), or none.
std::vector<int> parsePositions(const std::string& key, std::string_view value)
{
    std::vector<int> out;
    if (value == "none")
        return out;
    std::size_t start = 0;
    while (start < value.size()) {
        const std::size_t end = std::min(value.find(' ', start), value.size());
        if (end > start)
            out.push_back(parseInt(key, value.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

/// An attention kind's or a position scheme's option (core/options.h); false when `key` is not one.
/// The ranges are Config's rules (validation), except that a lesson leaves out an option whose
/// negative value means another's (xl's memory, −1 = as many rows as a segment).
bool setOption(Config& c, const std::string& key, std::string_view value)
{
    const OptionInfo* option = optionByKey(key);
    if (!option)
        return false;
    visitOption(*option, c, [&](auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int>>) {
            v = parsePositions(key, value);
        } else if constexpr (std::is_same_v<T, double>) {
            const std::string text(value);
            char* end = nullptr;
            const double number = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size())
                throw std::invalid_argument(key + ": " + quote(value) + " is not a number");
            v = number;
        } else {
            v = parseInt(key, value);
            if (!option->negativeMeans.empty() && v < 0)
                throw std::invalid_argument(key + " (" + std::to_string(v) + ") must be between 0 and "
                                            + std::to_string(ConfigLimits::maxTokens) + " rows; leave " + key
                                            + " out for as many rows as a segment");
        }
    });
    return true;
}

/// Sets one setting (`key` is known, `value` not empty) in `c`. Throws std::invalid_argument.
void setOne(Config& c, const std::string& key, std::string_view value)
{
    if (setOption(c, key, value))
        return;
    if (key == "attention") {
        const auto kind = parseAttentionKind(value);
        if (!kind)
            throw std::invalid_argument("attention: " + unknown("value", value, {"full", "sliding-window", "bigbird", "strided", "linformer",
                                                                              "performer", "linear", "lsh", "flash"}));
        c.attention = *kind;
    } else if (key == "d_model") {
        c.dModel = parseInt(key, value);
    } else if (key == "heads") {
        c.heads = parseInt(key, value);
    } else if (key == "seed") {
        c.seed = parseSeed(value);
    } else if (key == "pe") {
        const auto pe = parsePositionalEncoding(value);
        if (!pe)
            throw std::invalid_argument("pe: " + unknown("value", value, {"sinusoidal", "learned", "none", "rope", "alibi", "relative", "xl"}));
        c.positional = *pe;
    } else if (key == "embed_scale") {
        c.embedScale = parseSwitch(key, value);
    } else if (key == "scale") {
        c.scaleScores = parseSwitch(key, value);
    } else if (key == "mask") {
        const auto mask = parseMaskKind(value);
        if (mask == MaskKind::Custom)
            throw std::invalid_argument("mask: 'custom' cannot be used in a lesson (it needs a matrix drawn by hand)");
        if (!mask)
            throw std::invalid_argument("mask: " + unknown("value", value, {"none", "causal", "padding", "causal+padding"}));
        c.mask = *mask;
    } else if (key == "pad_to") {
        c.padTo = parseInt(key, value);
    } else if (key == "max_tokens") {
        c.maxTokens = parseInt(key, value);
    } else if (key == "model") {
        // A lesson's pretrained model is the folder its header `requires`; the player opens it as
        // a file model. A model the student opened (model=file) cannot be one a lesson relies on.
        const auto model = value == "pretrained" ? std::optional<ModelKind>(ModelKind::File) : parseModelKind(value);
        if (value == "file")
            throw std::invalid_argument("model=file cannot be used in a lesson (use reversal, seeded, or pretrained with the header's "
                                        "'requires:')");
        if (!model)
            throw std::invalid_argument("model: " + unknown("value", value, {"none", "seeded", "reversal", "pretrained"}));
        c.model = *model;
    } else if (key == "layers") {
        c.setLayers(parseInt(key, value));
    } else if (key == "d_ff") {
        c.dFF = parseInt(key, value);
    } else if (key == "norm") {
        const auto norm = parseNormPlacement(value);
        if (!norm)
            throw std::invalid_argument("norm: " + unknown("value", value, {"post", "pre"}));
        c.norm = *norm;
    } else if (key == "activation") {
        const auto act = parseActivation(value);
        if (!act)
            throw std::invalid_argument("activation: " + unknown("value", value, {"relu", "gelu"}));
        c.activation = *act;
    } else if (key == "weights") {
        const auto preset = parseWeightsPreset(value);
        if (!preset)
            throw std::invalid_argument("weights: " + unknown("value", value, {"seeded", "identity"}));
        c.weightsPreset = *preset;
    }
}

} // namespace

namespace lessontext {

Config applySettings(const Config& base, std::string_view text, std::vector<std::string>& seen)
{
    Config c = base;
    seen.clear();
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view pair = trim(text.substr(start, end - start));
        start = end + 1;
        if (pair.empty())
            continue; // a trailing or doubled comma
        const std::size_t eq = pair.find('=');
        if (eq == std::string_view::npos)
            throw std::invalid_argument(quote(pair) + " is not key=value (e.g. heads=2)");
        std::string key(trim(pair.substr(0, eq)));
        const std::string_view value = trim(pair.substr(eq + 1));
        if (key.empty())
            throw std::invalid_argument(quote(pair) + " has no setting name before '='");
        if (key == "weights_preset")
            key = "weights"; // the trace format's name
        if (key == "d_k")
            throw std::invalid_argument("d_k cannot be set: it is d_model / heads");
        if (std::find(settingKeys().begin(), settingKeys().end(), key) == settingKeys().end())
            throw std::invalid_argument(unknown("setting", key, settingKeys()));
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            throw std::invalid_argument(key + " is set twice");
        seen.push_back(key);
        if (value.empty())
            throw std::invalid_argument(key + ": the value is empty");

        setOne(c, key, value);
    }
    return c;
}

} // namespace lessontext

Config applySettings(const Config& base, std::string_view text)
{
    std::vector<std::string> named;
    return lessontext::applySettings(base, text, named);
}

} // namespace attnlab
