#include "model/parameters.h"

namespace attnlab {

namespace {

/// Collects the tensors of a model under their file names, skipping the absent ones.
class Collector {
public:
    explicit Collector(const std::set<std::string>& absent)
        : m_absent(absent)
    {
    }

    void matrix(const std::string& name, Eigen::MatrixXf& m) { add(name, m.data(), m.rows(), m.cols(), false); }
    void vector(const std::string& name, Eigen::VectorXf& v) { add(name, v.data(), v.size(), 1, true); }

    void attention(const std::string& p, AttentionWeights& w)
    {
        matrix(p + "in_proj_weight", w.inProjWeight);
        vector(p + "in_proj_bias", w.inProjBias);
        matrix(p + "out_proj.weight", w.outProjWeight);
        vector(p + "out_proj.bias", w.outProjBias);
    }
    void norm(const std::string& p, LayerNormWeights& w)
    {
        vector(p + "weight", w.gamma);
        vector(p + "bias", w.beta);
    }
    void feedForward(const std::string& p, FeedForwardWeights& w)
    {
        matrix(p + "linear1.weight", w.linear1Weight);
        vector(p + "linear1.bias", w.linear1Bias);
        matrix(p + "linear2.weight", w.linear2Weight);
        vector(p + "linear2.bias", w.linear2Bias);
    }

    std::vector<ParameterRef> take() { return std::move(m_out); }

private:
    void add(const std::string& name, float* data, Eigen::Index rows, Eigen::Index cols, bool isVector)
    {
        if (!m_absent.contains(name))
            m_out.push_back({name, data, rows, cols, isVector});
    }

    const std::set<std::string>& m_absent;
    std::vector<ParameterRef> m_out;
};

} // namespace

std::vector<ParameterRef> modelParameters(Seq2SeqModel& m)
{
    Collector c(m.absent);
    for (std::size_t i = 0; i < m.weights.encoder.size(); ++i) {
        const std::string p = "encoder.layers." + std::to_string(i) + ".";
        EncoderLayerWeights& w = m.weights.encoder[i];
        c.attention(p + "self_attn.", w.selfAttn);
        c.feedForward(p, w.ffn);
        c.norm(p + "norm1.", w.norm1);
        c.norm(p + "norm2.", w.norm2);
    }
    for (std::size_t i = 0; i < m.weights.decoder.size(); ++i) {
        const std::string p = "decoder.layers." + std::to_string(i) + ".";
        DecoderLayerWeights& w = m.weights.decoder[i];
        c.attention(p + "self_attn.", w.selfAttn);
        c.attention(p + "multihead_attn.", w.crossAttn);
        c.feedForward(p, w.ffn);
        c.norm(p + "norm1.", w.norm1);
        c.norm(p + "norm2.", w.norm2);
        c.norm(p + "norm3.", w.norm3);
    }
    if (m.spec.finalNorms && m.weights.encoderNorm)
        c.norm("encoder.norm.", *m.weights.encoderNorm);
    if (m.spec.finalNorms && m.weights.decoderNorm)
        c.norm("decoder.norm.", *m.weights.decoderNorm);
    if (!m.openVocabulary()) {
        c.matrix("src_embed.weight", m.srcEmbedding);
        c.matrix("tgt_embed.weight", m.tgtEmbedding);
        if (m.hasHead()) {
            c.matrix("generator.weight", m.generatorWeight);
            c.vector("generator.bias", m.generatorBias);
        }
    }
    return c.take();
}

Eigen::Index parameterCount(const std::vector<ParameterRef>& parameters)
{
    Eigen::Index n = 0;
    for (const ParameterRef& p : parameters)
        n += p.size();
    return n;
}

} // namespace attnlab
