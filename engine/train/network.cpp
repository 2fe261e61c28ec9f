#include "train/network.h"
#include "train/messages.h"

#include "model/parameters.h"
#include "nn/embedding.h"

#include <stdexcept>

namespace attnlab::train {

// --- Parameters in one flat buffer ---

const Layout::Entry* Layout::find(const std::string& name) const
{
    for (const Entry& e : entries) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

Layout layoutOf(const Seq2SeqModel& model)
{
    if (model.pretrained || model.openVocabulary())
        throw Error(say(trainMessage("train_own_vocabularies")));
    if (!model.hasHead() || model.spec.decoderLayers < 1)
        throw Error(say(trainMessage("train_no_decoder_or_head")));
    if (model.spec.positional != PositionalEncoding::Sinusoidal && model.spec.positional != PositionalEncoding::None)
        throw Error(say(trainMessage("train_positions")));
    Layout layout;
    // modelParameters only reads through the pointers here.
    for (const ParameterRef& p : modelParameters(const_cast<Seq2SeqModel&>(model))) {
        layout.entries.push_back({p.name, layout.size, p.rows, p.cols, p.vector});
        layout.size += p.size();
    }
    return layout;
}

template <typename T>
Vec<T> flatten(const Seq2SeqModel& model)
{
    const auto params = modelParameters(const_cast<Seq2SeqModel&>(model));
    Vec<T> out(parameterCount(params));
    Eigen::Index at = 0;
    for (const ParameterRef& p : params) {
        out.segment(at, p.size()) = Eigen::Map<const Eigen::VectorXf>(p.data, p.size()).cast<T>();
        at += p.size();
    }
    return out;
}

template <typename T>
void unflatten(const Vec<T>& values, Seq2SeqModel& model)
{
    const auto params = modelParameters(model);
    if (parameterCount(params) != values.size())
        throw std::invalid_argument("the parameters do not fit the model");
    Eigen::Index at = 0;
    for (const ParameterRef& p : params) {
        Eigen::Map<Eigen::VectorXf>(p.data, p.size()) = values.segment(at, p.size()).template cast<float>();
        at += p.size();
    }
}

// --- Batches ---

Batch pack(const std::vector<Example>& examples, std::size_t first, std::size_t last)
{
    Batch b;
    b.encoderSelf.query = {0};
    b.decoderSelf.query = {0};
    for (std::size_t i = first; i < last; ++i) {
        const Example& e = examples[i];
        if (e.source.empty() || e.input.empty() || e.labels.size() != e.input.size())
            throw std::invalid_argument("a training example needs a source, a decoder input and one label per input token");
        b.source.insert(b.source.end(), e.source.begin(), e.source.end());
        b.input.insert(b.input.end(), e.input.begin(), e.input.end());
        b.labels.insert(b.labels.end(), e.labels.begin(), e.labels.end());
        for (std::size_t p = 0; p < e.source.size(); ++p)
            b.sourcePositions.push_back(static_cast<int>(p));
        for (std::size_t p = 0; p < e.input.size(); ++p)
            b.inputPositions.push_back(static_cast<int>(p));
        b.encoderSelf.query.push_back(static_cast<Eigen::Index>(b.source.size()));
        b.decoderSelf.query.push_back(static_cast<Eigen::Index>(b.input.size()));
    }
    b.encoderSelf.key = b.encoderSelf.query;
    b.decoderSelf.key = b.decoderSelf.query;
    b.cross.query = b.decoderSelf.query;
    b.cross.key = b.encoderSelf.query;
    return b;
}

// --- Binding ---

namespace {

template <typename T>
class Binder {
public:
    Binder(const Layout& layout, const T* values, T* grads)
        : m_layout(layout)
        , m_values(values)
        , m_grads(grads)
    {
    }

    /// A weight (out x in) and its optional bias.
    Linear<T> linear(const std::string& weight, const std::string& bias) const
    {
        const Layout::Entry& w = require(weight);
        Linear<T> l;
        l.w = m_values + w.offset;
        l.dw = m_grads + w.offset;
        l.out = w.rows;
        l.in = w.cols;
        l.ld = w.rows;
        if (const Layout::Entry* b = m_layout.find(bias)) {
            l.b = m_values + b->offset;
            l.db = m_grads + b->offset;
        }
        return l;
    }

    AttentionParams<T> attention(const std::string& p, const ModelSpec& spec) const
    {
        AttentionParams<T> a;
        a.inProj = linear(p + "in_proj_weight", p + "in_proj_bias");
        a.outProj = linear(p + "out_proj.weight", p + "out_proj.bias");
        a.heads = spec.heads;
        return a;
    }

    Norm<T> norm(const std::string& p, const ModelSpec& spec) const
    {
        const Layout::Entry& g = require(p + "weight");
        Norm<T> n;
        n.gamma = m_values + g.offset;
        n.dgamma = m_grads + g.offset;
        if (const Layout::Entry* b = m_layout.find(p + "bias")) {
            n.beta = m_values + b->offset;
            n.dbeta = m_grads + b->offset;
        }
        n.d = g.rows;
        n.eps = T(spec.layerNormEps);
        return n;
    }

private:
    const Layout::Entry& require(const std::string& name) const
    {
        const Layout::Entry* e = m_layout.find(name);
        if (!e)
            throw std::invalid_argument("the model has no tensor " + name);
        return *e;
    }

    const Layout& m_layout;
    const T* m_values;
    T* m_grads;
};

} // namespace

template <typename T>
Network<T> bindNetwork(const Layout& layout, const ModelSpec& spec, const T* values, T* grads, int maxLength)
{
    const Binder<T> b(layout, values, grads);
    Network<T> net;
    net.spec = spec;
    for (int i = 0; i < spec.encoderLayers; ++i) {
        const std::string p = "encoder.layers." + std::to_string(i) + ".";
        net.encoder.push_back({b.attention(p + "self_attn.", spec), b.linear(p + "linear1.weight", p + "linear1.bias"),
                               b.linear(p + "linear2.weight", p + "linear2.bias"), b.norm(p + "norm1.", spec),
                               b.norm(p + "norm2.", spec)});
    }
    for (int i = 0; i < spec.decoderLayers; ++i) {
        const std::string p = "decoder.layers." + std::to_string(i) + ".";
        net.decoder.push_back({b.attention(p + "self_attn.", spec), b.attention(p + "multihead_attn.", spec),
                               b.linear(p + "linear1.weight", p + "linear1.bias"), b.linear(p + "linear2.weight", p + "linear2.bias"),
                               b.norm(p + "norm1.", spec), b.norm(p + "norm2.", spec), b.norm(p + "norm3.", spec)});
    }
    if (spec.finalNorms) {
        net.encoderNorm = b.norm("encoder.norm.", spec);
        net.decoderNorm = b.norm("decoder.norm.", spec);
    }
    net.srcEmbed = b.linear("src_embed.weight", "");
    net.tgtEmbed = b.linear("tgt_embed.weight", "");
    net.generator = b.linear("generator.weight", "generator.bias");
    // s and PE exactly as the studio's forward pass uses them: float32 values.
    net.embedScale = T(embeddingScale(spec.dModel, spec.embedScale));
    net.positions = positionalEncoding(spec.positional, maxLength, spec.dModel, spec.seed).cast<T>();
    return net;
}

// --- The forward and backward pass ---

namespace {

/// One sublayer with its residual connection and LayerNorm:
///   Post-LN: out = LN(in + f(in));   Pre-LN: out = in + f(LN(in)).
template <typename T>
struct SublayerCache {
    Mat<T> fin; ///< f's input: `in` (Post-LN) or LN(in) (Pre-LN)
    NormCache<T> norm;
};

/// x ← the sublayer's output; f(fin, fout) computes the sublayer function.
template <typename T, typename F>
void sublayerForward(NormPlacement place, const Norm<T>& norm, Mat<T>& x, SublayerCache<T>& c, F f)
{
    Mat<T> fout;
    if (place == NormPlacement::Pre) {
        layerNormForward(x, norm, c.norm, c.fin);
        f(c.fin, fout);
        x += fout;
        return;
    }
    c.fin = x;
    f(c.fin, fout);
    const Mat<T> r = x + fout;
    layerNormForward(r, norm, c.norm, x);
}

/// dx ← the gradient of the sublayer's input, given that of its output; g(dfout, dfin) is f's backward.
template <typename T, typename G>
void sublayerBackward(NormPlacement place, const Norm<T>& norm, Mat<T>& dx, const SublayerCache<T>& c, G g)
{
    Mat<T> dfin;
    if (place == NormPlacement::Pre) {
        // out = in + f(LN(in)): the residual passes dx straight through, f's path through LN.
        g(dx, dfin);
        Mat<T> dnorm;
        layerNormBackward(dfin, norm, c.norm, dnorm);
        dx += dnorm;
        return;
    }
    // out = LN(in + f(in)): back through LN, then both the residual and f.
    Mat<T> dr;
    layerNormBackward(dx, norm, c.norm, dr);
    g(dr, dfin);
    dx = dr + dfin;
}

template <typename T>
struct FeedForwardCache {
    Mat<T> pre;    ///< (n x d_ff) X·W_1ᵀ + b_1
    Mat<T> hidden; ///< (n x d_ff) act(pre)
};

/// F (n x d) = act(X·W_1ᵀ + b_1)·W_2ᵀ + b_2
template <typename T>
void feedForward(const Linear<T>& l1, const Linear<T>& l2, Activation a, const Mat<T>& x, FeedForwardCache<T>& c, Mat<T>& out)
{
    linearForward(x, l1, c.pre);
    activationForward(a, c.pre, c.hidden);
    linearForward(c.hidden, l2, out);
}

template <typename T>
void feedForwardBackward(const Linear<T>& l1, const Linear<T>& l2, Activation a, const Mat<T>& x, const FeedForwardCache<T>& c,
                         const Mat<T>& dout, Mat<T>& dx)
{
    Mat<T> dhidden, dpre;
    linearBackward(c.hidden, dout, l2, &dhidden);
    activationBackward(a, c.pre, dhidden, dpre);
    linearBackward(x, dpre, l1, &dx);
}

template <typename T>
struct EncoderLayerCache {
    SublayerCache<T> attn, ffn;
    AttentionCache<T> attention;
    FeedForwardCache<T> feedForward;
};

template <typename T>
struct DecoderLayerCache {
    SublayerCache<T> self, cross, ffn;
    AttentionCache<T> selfAttention, crossAttention;
    FeedForwardCache<T> feedForward;
};

/// X (rows x d) = E[ids]·s + PE[positions]
template <typename T>
Mat<T> embed(const Network<T>& net, const Linear<T>& table, const std::vector<int>& ids, const std::vector<int>& positions)
{
    const auto e = table.weight();
    Mat<T> x(static_cast<Eigen::Index>(ids.size()), e.cols());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (positions[i] >= net.positions.rows())
            throw std::invalid_argument("a training sequence is longer than the network was bound for");
        x.row(static_cast<Eigen::Index>(i)) = e.row(ids[i]) * net.embedScale + net.positions.row(positions[i]);
    }
    return x;
}

/// dE[id] += s·dX row by row.
template <typename T>
void embedBackward(const Network<T>& net, const Linear<T>& table, const std::vector<int>& ids, const Mat<T>& dx)
{
    auto de = table.weightGrad();
    for (std::size_t i = 0; i < ids.size(); ++i)
        de.row(ids[i]) += dx.row(static_cast<Eigen::Index>(i)) * net.embedScale;
}

} // namespace

/// Everything the backward pass needs from the forward pass of one batch.
template <typename T>
struct Pass {
    std::vector<EncoderLayerCache<T>> encoder;
    std::vector<DecoderLayerCache<T>> decoder;
    NormCache<T> encoderNorm, decoderNorm;
    Mat<T> memory;        ///< (n x d) the encoder's output
    Mat<T> decoderOutput; ///< (m x d) D
};

namespace {

template <typename T>
void encoderForward(const Network<T>& net, const Batch& batch, Pass<T>& pass)
{
    const ModelSpec& o = net.spec;
    Mat<T> x = embed(net, net.srcEmbed, batch.source, batch.sourcePositions);
    pass.encoder.resize(net.encoder.size());
    for (std::size_t l = 0; l < net.encoder.size(); ++l) {
        const auto& w = net.encoder[l];
        auto& c = pass.encoder[l];
        sublayerForward(o.norm, w.norm1, x, c.attn, [&](const Mat<T>& in, Mat<T>& out) {
            attentionForward(in, in, w.selfAttn, batch.encoderSelf, false, c.attention, out);
        });
        sublayerForward(o.norm, w.norm2, x, c.ffn, [&](const Mat<T>& in, Mat<T>& out) {
            feedForward(w.linear1, w.linear2, o.activation, in, c.feedForward, out);
        });
    }
    if (net.encoderNorm)
        layerNormForward(x, *net.encoderNorm, pass.encoderNorm, pass.memory);
    else
        pass.memory = std::move(x);
}

template <typename T>
void decoderForward(const Network<T>& net, const Batch& batch, Pass<T>& pass)
{
    const ModelSpec& o = net.spec;
    Mat<T> y = embed(net, net.tgtEmbed, batch.input, batch.inputPositions);
    pass.decoder.resize(net.decoder.size());
    for (std::size_t l = 0; l < net.decoder.size(); ++l) {
        const auto& w = net.decoder[l];
        auto& c = pass.decoder[l];
        sublayerForward(o.norm, w.norm1, y, c.self, [&](const Mat<T>& in, Mat<T>& out) {
            attentionForward(in, in, w.selfAttn, batch.decoderSelf, true, c.selfAttention, out);
        });
        sublayerForward(o.norm, w.norm2, y, c.cross, [&](const Mat<T>& in, Mat<T>& out) {
            attentionForward(in, pass.memory, w.crossAttn, batch.cross, false, c.crossAttention, out);
        });
        sublayerForward(o.norm, w.norm3, y, c.ffn, [&](const Mat<T>& in, Mat<T>& out) {
            feedForward(w.linear1, w.linear2, o.activation, in, c.feedForward, out);
        });
    }
    if (net.decoderNorm)
        layerNormForward(y, *net.decoderNorm, pass.decoderNorm, pass.decoderOutput);
    else
        pass.decoderOutput = std::move(y);
}

/// From dD (m x d) back to the decoder's embeddings; dMem (n x d) collects what every
/// cross-attention sends to the memory.
template <typename T>
void decoderBackward(const Network<T>& net, const Batch& batch, const Pass<T>& pass, Mat<T> dy, Mat<T>& dmemory)
{
    const ModelSpec& o = net.spec;
    if (net.decoderNorm) {
        Mat<T> d;
        layerNormBackward(dy, *net.decoderNorm, pass.decoderNorm, d);
        dy = std::move(d);
    }
    dmemory = Mat<T>::Zero(pass.memory.rows(), pass.memory.cols());
    for (std::size_t l = net.decoder.size(); l-- > 0;) {
        const auto& w = net.decoder[l];
        const auto& c = pass.decoder[l];
        sublayerBackward(o.norm, w.norm3, dy, c.ffn, [&](const Mat<T>& dout, Mat<T>& din) {
            feedForwardBackward(w.linear1, w.linear2, o.activation, c.ffn.fin, c.feedForward, dout, din);
        });
        sublayerBackward(o.norm, w.norm2, dy, c.cross, [&](const Mat<T>& dout, Mat<T>& din) {
            Mat<T> dmem;
            attentionBackward(c.cross.fin, pass.memory, dout, w.crossAttn, batch.cross, c.crossAttention, din, dmem);
            dmemory += dmem;
        });
        sublayerBackward(o.norm, w.norm1, dy, c.self, [&](const Mat<T>& dout, Mat<T>& din) {
            Mat<T> dkv;
            attentionBackward(c.self.fin, c.self.fin, dout, w.selfAttn, batch.decoderSelf, c.selfAttention, din, dkv);
            din += dkv;
        });
    }
    embedBackward(net, net.tgtEmbed, batch.input, dy);
}

template <typename T>
void encoderBackward(const Network<T>& net, const Batch& batch, const Pass<T>& pass, Mat<T> dx)
{
    const ModelSpec& o = net.spec;
    if (net.encoderNorm) {
        Mat<T> d;
        layerNormBackward(dx, *net.encoderNorm, pass.encoderNorm, d);
        dx = std::move(d);
    }
    for (std::size_t l = net.encoder.size(); l-- > 0;) {
        const auto& w = net.encoder[l];
        const auto& c = pass.encoder[l];
        sublayerBackward(o.norm, w.norm2, dx, c.ffn, [&](const Mat<T>& dout, Mat<T>& din) {
            feedForwardBackward(w.linear1, w.linear2, o.activation, c.ffn.fin, c.feedForward, dout, din);
        });
        sublayerBackward(o.norm, w.norm1, dx, c.attn, [&](const Mat<T>& dout, Mat<T>& din) {
            Mat<T> dkv;
            attentionBackward(c.attn.fin, c.attn.fin, dout, w.selfAttn, batch.encoderSelf, c.attention, din, dkv);
            din += dkv;
        });
    }
    embedBackward(net, net.srcEmbed, batch.source, dx);
}

} // namespace

template <typename T>
double lossAndGradient(const Network<T>& net, const Batch& batch, double smoothing, double labelTokens, bool gradients)
{
    Pass<T> pass;
    encoderForward(net, batch, pass);
    decoderForward(net, batch, pass);
    // logits: (m x V) = D (m x d) · W_genᵀ (d x V) + b_gen
    Mat<T> z;
    linearForward(pass.decoderOutput, net.generator, z);
    Mat<T> dz;
    const double loss = crossEntropy(z, batch.labels, smoothing, labelTokens, dz);
    if (!gradients)
        return loss;
    Mat<T> dd;
    linearBackward(pass.decoderOutput, dz, net.generator, &dd);
    Mat<T> dmemory;
    decoderBackward(net, batch, pass, std::move(dd), dmemory);
    encoderBackward(net, batch, pass, std::move(dmemory));
    return loss;
}

template <typename T>
std::vector<std::vector<int>> greedyDecode(const Network<T>& net, const std::vector<std::vector<int>>& sources, int sos, int eos,
                                           int maxSteps, const std::function<void(int)>& afterStep)
{
    std::vector<Example> examples;
    for (const auto& s : sources)
        examples.push_back({s, {sos}, {sos}});
    Batch batch = pack(examples, 0, examples.size());
    Pass<T> pass;
    encoderForward(net, batch, pass);
    std::vector<std::vector<int>> out(sources.size());
    std::vector<bool> done(sources.size(), false);
    for (int k = 1; k <= maxSteps; ++k) {
        // Every sequence's decoder input is <sos> + its k − 1 tokens so far (finished ones keep
        // going, their output ignored: all inputs stay k long).
        batch.input.clear();
        batch.inputPositions.clear();
        batch.decoderSelf.query = {0};
        for (std::size_t s = 0; s < sources.size(); ++s) {
            batch.input.push_back(sos);
            batch.input.insert(batch.input.end(), out[s].begin(), out[s].end());
            batch.input.resize(s * static_cast<std::size_t>(k) + static_cast<std::size_t>(k), eos);
            for (int p = 0; p < k; ++p)
                batch.inputPositions.push_back(p);
            batch.decoderSelf.query.push_back(static_cast<Eigen::Index>(batch.input.size()));
        }
        batch.decoderSelf.key = batch.decoderSelf.query;
        batch.cross.query = batch.decoderSelf.query;
        decoderForward(net, batch, pass);
        bool all = true;
        for (std::size_t s = 0; s < sources.size(); ++s) {
            if (done[s])
                continue;
            // The last row of sequence s: its distribution over the next token.
            Mat<T> z;
            const Eigen::Index row = batch.decoderSelf.query[s + 1] - 1;
            linearForward(Mat<T>(pass.decoderOutput.row(row)), net.generator, z);
            Eigen::Index best = 0;
            for (Eigen::Index c = 1; c < z.cols(); ++c) {
                if (z(0, c) > z(0, best))
                    best = c;
            }
            if (best == eos)
                done[s] = true;
            else
                out[s].push_back(static_cast<int>(best));
            all = all && done[s];
        }
        if (afterStep)
            afterStep(k);
        if (all)
            break;
    }
    return out;
}

#define ATTNLAB_TRAIN_NETWORK(T)                                                                                               \
    template Vec<T> flatten<T>(const Seq2SeqModel&);                                                                          \
    template void unflatten<T>(const Vec<T>&, Seq2SeqModel&);                                                                 \
    template Network<T> bindNetwork<T>(const Layout&, const ModelSpec&, const T*, T*, int);                                    \
    template double lossAndGradient<T>(const Network<T>&, const Batch&, double, double, bool);                                \
    template std::vector<std::vector<int>> greedyDecode<T>(const Network<T>&, const std::vector<std::vector<int>>&, int, int, int,   \
                                                           const std::function<void(int)>&);

ATTNLAB_TRAIN_NETWORK(float)
ATTNLAB_TRAIN_NETWORK(double)

} // namespace attnlab::train
