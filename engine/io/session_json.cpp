// Session files (docs/session-format.md): JSON text <-> SessionFile.

#include "io/session_json.h"

#include "core/message.h"
#include "io/base64.h"
#include "io/config_json.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <limits>

namespace attnlab {

namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "attention-lab.session";
constexpr int kVersion = 1;
/// No session file comes near these: the deepest nesting is a mask's rows in the file (2 levels
/// below the top), and the most values a 1024 x 1024 mask. Beyond them the JSON is refused before
/// it can take gigabytes (each value costs tens of bytes in memory) or deep recursion.
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxValues = 2'000'000;

/// The text, parsed, within the limits above. Throws Error.
Json parseLimited(std::string_view text)
{
    std::size_t values = 0;
    const Json::parser_callback_t limit = [&values](int depth, Json::parse_event_t event, Json&) {
        if (depth > kMaxDepth || (event == Json::parse_event_t::value && ++values > kMaxValues))
            throw Error(messages::sessionJsonLimits(kMaxDepth, static_cast<long long>(kMaxValues)));
        return true;
    };
    try {
        return Json::parse(text, limit);
    } catch (const Json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error …", or
        // "[json.exception.out_of_range.406] number overflow parsing '1e400'": the part after the
        // library's tag.
        std::string detail = e.what();
        if (const auto tag = detail.find("] "); detail.starts_with("[json.exception.") && tag != std::string::npos)
            detail.erase(0, tag + 2);
        throw Error(messages::sessionNotJson(detail));
    }
}

/// The value of `key` in `o`, or nullptr when it is missing or null.
const Json* find(const Json& o, const char* key)
{
    const auto it = o.find(key);
    return it == o.end() || it->is_null() ? nullptr : &*it;
}

std::string stringOr(const Json& o, const char* key, const std::string& name, std::string fallback)
{
    const Json* v = find(o, key);
    if (!v)
        return fallback;
    if (!v->is_string())
        throw Error(messages::sessionType(name, "string"));
    return v->get<std::string>();
}

std::string requiredString(const Json& o, const char* key, const std::string& name)
{
    if (!find(o, key))
        throw Error(messages::sessionMissing(name));
    return stringOr(o, key, name, {});
}

/// A whole number within int, or nothing when the key is missing or null.
std::optional<int> optionalInt(const Json& o, const char* key, const char* expected = "integer_or_null")
{
    const Json* v = find(o, key);
    if (!v)
        return std::nullopt;
    if (v->is_number_unsigned() && v->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT_MAX))
        return static_cast<int>(v->get<std::uint64_t>());
    if (v->is_number_integer() && !v->is_number_unsigned() && v->get<std::int64_t>() >= INT_MIN && v->get<std::int64_t>() <= INT_MAX)
        return static_cast<int>(v->get<std::int64_t>());
    throw Error(messages::sessionType(key, expected));
}

int intOr(const Json& o, const char* key, int fallback)
{
    return optionalInt(o, key, "integer").value_or(fallback);
}

/// The version as the message shows it: its JSON text, cut short.
std::string versionText(const Json* v)
{
    std::string text = v ? v->dump(-1, ' ', false, Json::error_handler_t::replace) : "null";
    if (text.size() > 40) {
        std::size_t cut = 40;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut; // not inside a character
        text = text.substr(0, cut) + "\xE2\x80\xA6";
    }
    return text;
}

std::optional<SessionWeights> weightsFromJson(const Json& j)
{
    const Json* w = find(j, "weights");
    if (!w)
        throw Error(messages::sessionMissing("weights"));
    if (!w->is_object())
        throw Error(messages::sessionType("weights", "object"));
    // "seeded" or "identity": made from the config's weights_preset.
    if (stringOr(*w, "source", "weights.source", {}) != "file")
        return std::nullopt;
    SessionWeights out;
    out.path = stringOr(*w, "path", "weights.path", {});
    const std::string key = "weights.embedded_safetensors_base64";
    if (find(*w, "embedded_safetensors_base64")) {
        out.embedded = fromBase64(stringOr(*w, "embedded_safetensors_base64", key, {}));
        if (!out.embedded)
            throw Error(messages::sessionType(key, "base64"));
    }
    return out;
}

/// "custom_mask": n rows of n values 0 or 1 (1 = masked).
std::optional<BoolMatrix> maskFromJson(const Json& j)
{
    const Json* rows = find(j, "custom_mask");
    if (!rows)
        return std::nullopt;
    if (!rows->is_array())
        throw Error(messages::sessionType("custom_mask", "mask_rows"));
    const auto n = static_cast<Eigen::Index>(rows->size());
    if (n > ConfigLimits::maxTokens)
        throw Error(messages::sessionMaskSize(n, ConfigLimits::maxTokens));
    BoolMatrix m(n, n);
    for (Eigen::Index r = 0; r < n; ++r) {
        const Json& row = (*rows)[static_cast<std::size_t>(r)];
        if (!row.is_array())
            throw Error(messages::sessionType("custom_mask", "mask_rows"));
        if (static_cast<Eigen::Index>(row.size()) != n)
            throw Error(messages::sessionMaskNotSquare());
        for (Eigen::Index c = 0; c < n; ++c) {
            const Json& v = row[static_cast<std::size_t>(c)];
            if (!v.is_number_integer() || (v != 0 && v != 1))
                throw Error(messages::sessionType("custom_mask", "mask_rows"));
            m(r, c) = v == 1;
        }
    }
    return m;
}

std::optional<SessionLesson> lessonFromJson(const Json& j)
{
    const Json* l = find(j, "lesson");
    if (!l)
        return std::nullopt; // files written before lessons were kept
    if (!l->is_object())
        throw Error(messages::sessionType("lesson", "object"));
    SessionLesson out{requiredString(*l, "path", "lesson.path"), intOr(*l, "step", 0)};
    if (out.path.empty() || out.step < 0)
        throw Error(messages::sessionLessonPlace());
    return out;
}

/// Where the user was: the stage and head, and in a Transformer the layer, block and decoder input.
void placeFromJson(const Json& j, SessionFile& s)
{
    s.step = stringOr(j, "step", "step", "weights");
    s.head = intOr(j, "head", 0);
    s.transformer = j.contains("step_layer") || j.contains("step_block") || j.contains("target") || j.contains("generation_step");
    s.stepLayer = optionalInt(j, "step_layer");
    s.stepBlock = parseBlock(stringOr(j, "step_block", "step_block", {})).value_or(Block::None);
    if (const Json* t = find(j, "target")) {
        if (!t->is_string())
            throw Error(messages::sessionType("target", "string_or_null"));
        s.target = t->get<std::string>();
    }
    s.generationStep = intOr(j, "generation_step", -1);
    if (s.config.model == ModelKind::File)
        s.modelPath = stringOr(j, "model_path", "model_path", {});
}

std::optional<SessionComparison> comparisonFromJson(const Json& j)
{
    const Json* c = find(j, "comparison");
    if (!c || c->is_null())
        return std::nullopt; // files written before comparisons
    if (!c->is_object())
        throw Error(messages::sessionType("comparison", "object"));
    SessionComparison out;
    if (const Json* on = find(*c, "on"); on) {
        if (!on->is_boolean())
            throw Error(messages::sessionType("comparison.on", "boolean"));
        out.on = on->get<bool>();
    }
    out.b = requiredString(*c, "b", "comparison.b");
    return out;
}

} // namespace

SessionFile parseSessionJson(std::string_view text)
{
    const Json j = parseLimited(text);
    if (!j.is_object() || !j.contains("format") || j.at("format") != kFormat)
        throw Error(messages::sessionFormat());
    const Json* version = find(j, "version");
    if (!version || !version->is_number() || *version != kVersion)
        throw Error(messages::sessionVersion(versionText(version)));

    SessionFile s;
    s.sentence = requiredString(j, "sentence", "sentence");
    const Json* config = find(j, "config");
    if (!config)
        throw Error(messages::sessionMissing("config"));
    s.config = configFromJson(*config);
    s.weights = weightsFromJson(j);
    s.customMask = maskFromJson(j);
    placeFromJson(j, s);
    s.lesson = lessonFromJson(j);
    s.comparison = comparisonFromJson(j);
    return s;
}

std::string sessionJson(const SessionFile& s)
{
    using Ordered = nlohmann::ordered_json;
    Ordered j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["sentence"] = s.sentence;
    j["config"] = configToJson(s.config);
    if (s.weights) {
        // The path for the user, and the weights themselves so the file travels alone.
        j["weights"] = {{"source", "file"}, {"path", s.weights->path}};
        if (s.weights->embedded)
            j["weights"]["embedded_safetensors_base64"] = toBase64(*s.weights->embedded);
    } else {
        j["weights"] = {{"source", toString(s.config.weightsPreset)}};
    }
    if (s.customMask) {
        Ordered rows = Ordered::array();
        for (Eigen::Index i = 0; i < s.customMask->rows(); ++i) {
            Ordered row = Ordered::array();
            for (Eigen::Index k = 0; k < s.customMask->cols(); ++k)
                row.push_back((*s.customMask)(i, k) ? 1 : 0);
            rows.push_back(std::move(row));
        }
        j["custom_mask"] = std::move(rows);
    } else {
        j["custom_mask"] = nullptr;
    }
    j["step"] = s.step;
    j["head"] = s.head;
    if (s.transformer) {
        // Where in the Transformer, and what the decoder reads.
        j["step_layer"] = s.stepLayer ? Ordered(*s.stepLayer) : Ordered(nullptr);
        j["step_block"] = std::string(toString(s.stepBlock));
        j["target"] = s.target ? Ordered(*s.target) : Ordered(nullptr);
        j["generation_step"] = s.generationStep;
        if (s.config.model == ModelKind::File)
            j["model_path"] = s.modelPath;
    }
    if (s.lesson)
        j["lesson"] = {{"path", s.lesson->path}, {"step", s.lesson->step}};
    if (s.comparison)
        j["comparison"] = {{"on", s.comparison->on}, {"b", s.comparison->b}};
    // Text the user typed may hold bytes that are not UTF-8: they are written as U+FFFD.
    return j.dump(1, ' ', false, Ordered::error_handler_t::replace) + "\n";
}

AttentionWeights sessionWeights(const SessionWeights& w)
{
    if (!w.embedded)
        return loadAttentionWeights(w.path);
    AttentionWeights loaded = attentionWeightsFromTensors(parseSafetensors(*w.embedded));
    loaded.source = "file:" + w.path;
    return loaded;
}

} // namespace attnlab
