#include "pretrained/weights.h"

#include "io/tensor_eigen.h"
#include "text/printable.h"

#include <map>
#include <set>

namespace attnlab {

namespace {

using detail::shapeText;

/// The checkpoint's tensors under their names without the family's prefix, with old names
/// mapped to new ones; records which were read so that the rest can be reported as unknown.
class NameIndex {
public:
    NameIndex(const MappedSafetensors& file, const std::string& prefix)
        : m_file(file)
    {
        for (const auto& [name, entry] : file.tensors()) {
            std::string canonical = name.starts_with(prefix) ? name.substr(prefix.size()) : name;
            // Checkpoints converted from TensorFlow name LayerNorm's γ and β the old way.
            for (const auto& [old, now] : {std::pair{"LayerNorm.gamma", "LayerNorm.weight"}, std::pair{"LayerNorm.beta", "LayerNorm.bias"}}) {
                if (canonical.ends_with(old))
                    canonical = canonical.substr(0, canonical.size() - std::string_view(old).size()) + now;
            }
            const auto [it, added] = m_names.emplace(canonical, name);
            if (!added)
                throw FormatError("tensor " + inQuotes(canonical) + " appears twice, as " + inQuotes(it->second) + " and " + inQuotes(name));
        }
    }

    bool has(const std::string& name) const { return m_names.contains(name); }

    /// Marks a tensor the model does not use (a buffer, a head it does not compute) as read.
    void ignore(const std::string& name)
    {
        if (has(name))
            m_used.insert(name);
    }

    /// A required tensor of this shape, as float32.
    FloatSpan take(const std::string& name, const std::vector<std::int64_t>& shape)
    {
        const auto it = m_names.find(name);
        if (it == m_names.end())
            throw FormatError("missing tensor " + inQuotes(name) + " " + shapeText(shape));
        const TensorEntry& entry = *m_file.find(it->second);
        if (entry.shape != shape)
            throw FormatError("tensor " + inQuotes(name) + " has shape " + shapeText(entry.shape) + " but must be " + shapeText(shape));
        if (entry.dtype != "F32" && entry.dtype != "F16" && entry.dtype != "BF16")
            throw FormatError("tensor " + inQuotes(name) + " is " + entry.dtype + "; Attention Lab reads F32, F16 and BF16");
        m_used.insert(name);
        return m_file.floats(it->second);
    }

    Eigen::VectorXf vector(const std::string& name, std::int64_t size)
    {
        const FloatSpan s = take(name, {size});
        return Eigen::Map<const Eigen::VectorXf>(s.data, size);
    }

    LayerNormWeights norm(const std::string& name, std::int64_t d)
    {
        return {vector(name + ".weight", d), vector(name + ".bias", d)};
    }

    /// nn.Linear (weight [out, in]) or, with inOut, GPT-2's Conv1D (weight [in, out]).
    LinearLayer linear(const std::string& name, std::int64_t in, std::int64_t out, bool inOut)
    {
        LinearLayer l;
        l.in = in;
        l.out = out;
        l.inOut = inOut;
        l.weight = take(name + ".weight", inOut ? std::vector<std::int64_t>{in, out} : std::vector<std::int64_t>{out, in});
        l.bias = vector(name + ".bias", out);
        return l;
    }

    EmbeddingTable table(const std::string& name, std::int64_t rows, std::int64_t cols)
    {
        return {take(name, {rows, cols}), rows, cols};
    }

    /// Throws for the first tensor not read: `expected` says what the checkpoint may hold.
    void rejectUnknown(const std::string& expected) const
    {
        for (const auto& [name, actual] : m_names) {
            if (!m_used.contains(name))
                throw FormatError("unknown tensor " + inQuotes(name) + " " + shapeText(m_file.find(actual)->shape) + ": " + expected);
        }
    }

private:
    const MappedSafetensors& m_file;
    std::map<std::string, std::string> m_names; ///< canonical name -> name in the file
    std::set<std::string> m_used;
};

void readGpt2(const HfConfig& c, NameIndex& r, PretrainedWeights& w)
{
    const std::int64_t d = c.dModel;
    const std::int64_t ff = c.dFF;
    w.tokens = r.table("wte.weight", c.vocabulary, d);
    w.positions = r.table("wpe.weight", c.positions, d);
    for (int i = 0; i < c.layers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        Gpt2Layer l;
        l.ln1 = r.norm(h + "ln_1", d);
        l.attention = r.linear(h + "attn.c_attn", d, 3 * d, true);
        l.projection = r.linear(h + "attn.c_proj", d, d, true);
        l.ln2 = r.norm(h + "ln_2", d);
        l.fc = r.linear(h + "mlp.c_fc", d, ff, true);
        l.fcProjection = r.linear(h + "mlp.c_proj", ff, d, true);
        // The causal mask and the masked value, kept as buffers by older versions.
        r.ignore(h + "attn.bias");
        r.ignore(h + "attn.masked_bias");
        w.gpt2.push_back(std::move(l));
    }
    w.finalNorm = r.norm("ln_f", d);
    if (r.has("lm_head.weight"))
        w.lmHead = r.table("lm_head.weight", c.vocabulary, d);
    r.rejectUnknown("a GPT-2 checkpoint holds wte, wpe, h.0 … h." + std::to_string(c.layers - 1)
                    + " (ln_1, attn.c_attn, attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj), ln_f and lm_head");
}

void readBert(const HfConfig& c, NameIndex& r, PretrainedWeights& w)
{
    const std::int64_t d = c.dModel;
    const std::int64_t ff = c.dFF;
    w.tokens = r.table("embeddings.word_embeddings.weight", c.vocabulary, d);
    w.positions = r.table("embeddings.position_embeddings.weight", c.positions, d);
    w.tokenTypes = r.table("embeddings.token_type_embeddings.weight", c.typeVocabulary, d);
    w.embeddingNorm = r.norm("embeddings.LayerNorm", d);
    r.ignore("embeddings.position_ids");
    for (int i = 0; i < c.layers; ++i) {
        const std::string p = "encoder.layer." + std::to_string(i) + ".";
        BertLayer l;
        l.query = r.linear(p + "attention.self.query", d, d, false);
        l.key = r.linear(p + "attention.self.key", d, d, false);
        l.value = r.linear(p + "attention.self.value", d, d, false);
        l.attentionOutput = r.linear(p + "attention.output.dense", d, d, false);
        l.attentionNorm = r.norm(p + "attention.output.LayerNorm", d);
        l.intermediate = r.linear(p + "intermediate.dense", d, ff, false);
        l.output = r.linear(p + "output.dense", ff, d, false);
        l.outputNorm = r.norm(p + "output.LayerNorm", d);
        w.bert.push_back(std::move(l));
    }
    // What a BertModel or BertForPreTraining also holds, and Attention Lab does not compute.
    for (const char* unused : {"pooler.dense.weight", "pooler.dense.bias", "cls.seq_relationship.weight", "cls.seq_relationship.bias"})
        r.ignore(unused);
    const bool head = r.has("cls.predictions.bias") || r.has("cls.predictions.decoder.bias") || r.has("cls.predictions.transform.dense.weight");
    if (head) {
        MlmHead m;
        m.transform = r.linear("cls.predictions.transform.dense", d, d, false);
        m.norm = r.norm("cls.predictions.transform.LayerNorm", d);
        // The bias lives in cls.predictions.bias; older checkpoints name it decoder.bias too.
        m.bias = r.vector(r.has("cls.predictions.bias") ? "cls.predictions.bias" : "cls.predictions.decoder.bias", c.vocabulary);
        r.ignore("cls.predictions.decoder.bias");
        m.decoder = r.has("cls.predictions.decoder.weight") ? r.table("cls.predictions.decoder.weight", c.vocabulary, d) : w.tokens;
        w.mlm = std::move(m);
    }
    r.rejectUnknown("a BERT checkpoint holds embeddings, encoder.layer.0 … encoder.layer." + std::to_string(c.layers - 1)
                    + ", pooler and cls (predictions, seq_relationship)");
}

} // namespace

Eigen::MatrixXf LinearLayer::apply(const Eigen::Ref<const Eigen::MatrixXf>& x) const
{
    Eigen::MatrixXf y(x.rows(), out);
    if (inOut)
        y.noalias() = x * stored();
    else
        y.noalias() = x * stored().transpose();
    y.rowwise() += bias.transpose();
    return y;
}

const EmbeddingTable* PretrainedWeights::outputTable() const
{
    if (mlm)
        return &mlm->decoder;
    if (config.family == PretrainedFamily::Gpt2)
        return lmHead ? &*lmHead : &tokens;
    return nullptr;
}

PretrainedWeights readPretrainedWeights(const HfConfig& config, std::shared_ptr<const MappedSafetensors> file)
{
    PretrainedWeights w;
    w.config = config;
    NameIndex names(*file, config.family == PretrainedFamily::Gpt2 ? "transformer." : "bert.");
    if (config.family == PretrainedFamily::Gpt2)
        readGpt2(config, names, w);
    else
        readBert(config, names, w);
    w.file = std::move(file);
    return w;
}

} // namespace attnlab
