#include "io/trace_json.h"

#include "attention/approximation.h"

#include "io/config_json.h"
#include "model/model.h"
#include "nn/weights.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

// Keys keep their insertion order; number_float_t = float: dump() then writes each value in the shortest form that reads back
// to the same float32 ("0.1", not "0.10000000149011612").
using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool, std::int64_t, std::uint64_t, float>;

Json number(float v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

Json configJson(const Config& c, const std::string& weightsSource)
{
    // The field names live in config_json.cpp; the config holds no floats, so going through
    // text converts between the two JSON flavours exactly.
    Json j = Json::parse(configToJson(c).dump());
    j["weights"] = weightsSource;
    return j;
}

Json matrixJson(const LabeledMatrix& m)
{
    Json j = Json::object();
    j["name"] = m.name;
    j["rows"] = m.values.rows();
    j["cols"] = m.values.cols();
    j["row_labels"] = *m.rowLabels;
    j["col_labels"] = *m.colLabels;
    Json data = Json::array();
    data.get_ref<Json::array_t&>().reserve(static_cast<std::size_t>(m.values.rows()));
    for (Eigen::Index r = 0; r < m.values.rows(); ++r) {
        Json row = Json::array();
        auto& arr = row.get_ref<Json::array_t&>();
        arr.reserve(static_cast<std::size_t>(m.values.cols()));
        for (Eigen::Index c = 0; c < m.values.cols(); ++c)
            arr.push_back(number(m.values(r, c)));
        data.push_back(std::move(row));
    }
    j["data"] = std::move(data);
    return j;
}

/// {"id", "head", "layer", "block"}: how stages are addressed, also in a stage's inputs.
Json keyJson(const StageKey& k)
{
    Json j = Json::object();
    j["id"] = k.id;
    j["head"] = k.head ? Json(*k.head) : Json(nullptr);
    j["layer"] = k.layer ? Json(*k.layer) : Json(nullptr);
    j["block"] = k.block == Block::None ? Json(nullptr) : Json(std::string(toString(k.block)));
    if (k.segment) // Transformer-XL's per-segment stages only
        j["segment"] = *k.segment;
    return j;
}

} // namespace

namespace {

/// One stage as JSON.
Json stageJson(const Stage& s)
{
    Json st = Json::object();
    st["id"] = s.id;
    const Json key = keyJson(s.key());
    for (const char* field : {"head", "layer", "block"})
        st[field] = key.at(field);
    if (s.segment) // Transformer-XL's per-segment stages only
        st["segment"] = *s.segment;
    if (s.kvHead) // grouped-query blocks only: the key/value head the stage read
        st["kv_head"] = *s.kvHead;
    st["title"] = s.title;
    st["formula"] = s.formula;
    Json mats = Json::array();
    for (const auto& m : s.matrices)
        mats.push_back(matrixJson(m));
    st["matrices"] = std::move(mats);
    // How it was made: the stages it read and the module whose weights it used.
    Json inputs = Json::array();
    for (const StageKey& k : s.inputs)
        inputs.push_back(keyJson(k));
    st["inputs"] = std::move(inputs);
    st["module"] = s.module.empty() ? Json(nullptr) : Json(s.module);
    return st;
}

std::string dumped(const Json& j, int indent)
{
    // Invalid UTF-8 cannot reach here (the tokenizer replaced it), but never throw on output.
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// `text` with `spaces` more spaces at the start of every line (JSON strings hold no raw newline).
std::string indented(const std::string& text, int spaces)
{
    const std::string pad(static_cast<std::size_t>(spaces), ' ');
    std::string out = pad;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        out += c;
        if (c == '\n')
            out += pad;
    }
    return out;
}

/// An attention kind's distance from full attention: the first block's numbers (a single block's,
/// or layer 0's, whose input full attention would see too), and in a stack every layer's.
Json approximationJson(const std::vector<Approximation>& all)
{
    const auto numbers = [](const Approximation& a) {
        Json j = Json::object();
        if (a.layer)
            j["layer"] = *a.layer;
        j["output_max_abs"] = a.outputMaxAbs;
        j["output_rel_fro"] = a.outputRelFro;
        return j;
    };
    Json j = numbers(all.front());
    j.erase("layer");
    if (all.size() > 1) {
        j["layers"] = Json::array();
        for (const auto& a : all)
            j["layers"].push_back(numbers(a));
    }
    return j;
}

} // namespace

void writeTraceJson(const Trace& trace, int indent, const std::vector<std::string>& only, const ByteSink& sink)
{
    Json j = Json::object();
    j["format"] = "attention-lab.trace";
    j["version"] = kTraceFormatVersion;
    j["tokens"] = trace.tokens;
    // A model's trace also names the decoder's input (absent for a single attention block).
    if (!trace.targetTokens.empty())
        j["target_tokens"] = trace.targetTokens;
    // A pretrained model's (GPT-2, BERT) vocabulary ids, and BERT's segment ids.
    if (!trace.tokenIds.empty())
        j["token_ids"] = trace.tokenIds;
    if (!trace.segmentIds.empty())
        j["segment_ids"] = trace.segmentIds;
    const std::string weights = trace.weights ? trace.weights->source : trace.model && trace.model->pretrained ? trace.model->source : "seeded";
    j["config"] = configJson(trace.config, weights);
    j["warnings"] = texts(trace.warnings);
    if (const auto a = approximations(trace); !a.empty())
        j["approximation"] = approximationJson(a);
    // The head, then the stages one at a time (a trace's JSON can be a gigabyte): written as
    // nlohmann writes the whole document, key "stages" last.
    std::string head = dumped(j, indent);
    const bool pretty = indent >= 0;
    const std::size_t closing = pretty ? 2 : 1; // the closing "\n}" or "}"
    head.erase(head.size() - std::min(closing, head.size()));
    const std::string pad(pretty ? static_cast<std::size_t>(indent) : 0, ' ');
    head += pretty ? ",\n" + pad + "\"stages\": [" : ",\"stages\":[";
    sink(head);
    bool first = true;
    for (const auto& s : trace.stages) {
        if (!only.empty() && std::find(only.begin(), only.end(), s.id) == only.end())
            continue;
        const std::string st = dumped(stageJson(s), indent);
        sink(first ? "" : ",");
        sink(pretty ? "\n" + indented(st, 2 * indent) : st);
        first = false;
    }
    sink(pretty ? (first ? "]\n}" : "\n" + pad + "]\n}") : "]}");
}

std::string traceToJson(const Trace& trace, int indent, const std::vector<std::string>& only)
{
    std::string out;
    writeTraceJson(trace, indent, only, [&](std::string_view piece) { out += piece; });
    return out;
}

} // namespace attnlab
