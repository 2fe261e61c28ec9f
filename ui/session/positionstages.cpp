// The texts of the position schemes' steps (issue 14, docs/position-schemes.md): RoPE, ALiBi,
// relative positions and Transformer-XL.

#include "session/positionstages.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// The same translation context as the other stage texts (session/stages.cpp).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

/// Transformer-XL's formulas (position/inside.h): its own stages, and those it computes per segment.
QString xlStepFormula(const QString& id, const ModelSpec& spec)
{
    if (id == u"xl_w_r")
        return Stages::tr("W_R,h: d_k \u00D7 d_model, projects the sinusoid R_{i\u2212j} of a distance");
    if (id == u"xl_u" || id == u"xl_v")
        return Stages::tr("u_h, v_h: 1 \u00D7 d_k, the same for every query");
    if (id == u"memory")
        return Stages::tr("Mem_\u03C4 = X[s \u2212 M_\u03C4 \u2026 s \u2212 1],  M_\u03C4 = min(M, s),  L = %1, M = %2")
            .arg(spec.positionOptions.segment)
            .arg(spec.positionOptions.xlMemory());
    if (id == u"k" || id == u"v")
        return Stages::tr("K_h, V_h = [Mem_\u03C4; X_\u03C4]\u00B7W\u1D40 + b  (memory rows first)");
    if (id == u"content_scores")
        return Stages::tr("(a)_ij = q_i\u00B7k_j");
    if (id == u"position_scores")
        return Stages::tr("(b)_ij = q_i\u00B7W_R R_{i\u2212j}");
    if (id == u"content_bias")
        return Stages::tr("(c)_ij = u\u00B7k_j");
    if (id == u"position_bias")
        return Stages::tr("(d)_ij = v\u00B7W_R R_{i\u2212j}");
    if (id == u"scores")
        return Stages::tr("S_h = (a) + (b) + (c) + (d)");
    if (id == u"weights")
        return Stages::tr("A_h = softmax(((a) + (b) + (c) + (d)) / \u221Ad_k + M)");
    if (id == u"mask")
        return Stages::tr("M_ij = \u2212\u221E for a key after the query (every memory row is before it)");
    return {};
}

/// What Transformer-XL's stages mean, for the explanation line.
QString xlStepExplanation(const QString& id)
{
    if (id == u"xl_w_r")
        return Stages::tr("Transformer-XL adds no position vector: each head turns the sinusoid of a distance i \u2212 j into a d_k-vector with W_R.");
    if (id == u"xl_u" || id == u"xl_v")
        return Stages::tr("Two learned vectors per head in place of the query: u scores a key's content, v a distance, the same for every query.");
    if (id == u"memory")
        return Stages::tr("The rows of the input just before this segment: its keys and values include them, so attention reaches back past the segment's start.");
    if (id == u"content_scores")
        return Stages::tr("(a) content against content: the usual q\u00B7k, over the memory and the segment.");
    if (id == u"position_scores")
        return Stages::tr("(b) content against distance: how much this query likes keys i \u2212 j positions back.");
    if (id == u"content_bias")
        return Stages::tr("(c) a global preference for some keys' content, the same for every query (one value per column).");
    if (id == u"position_bias")
        return Stages::tr("(d) a global preference for some distances, the same for every query (constant along each diagonal).");
    return {};
}

} // namespace

QString positionStepName(const QString& id)
{
    if (id == u"rope_angles")
        return Stages::tr("Rotation angles \u03B8");
    if (id == u"q_rotated")
        return Stages::tr("Rotated queries Q\u0303");
    if (id == u"k_rotated")
        return Stages::tr("Rotated keys K\u0303");
    if (id == u"position_bias")
        return Stages::tr("Position bias B");
    if (id == u"relative_keys")
        return Stages::tr("Relative keys aᴷ");
    if (id == u"relative_values")
        return Stages::tr("Relative values aⱽ");
    if (id == u"position_scores")
        return Stages::tr("Position scores P");
    if (id == u"xl_w_r")
        return Stages::tr("Distance projection W_R");
    if (id == u"xl_u")
        return Stages::tr("Content bias u");
    if (id == u"xl_v")
        return Stages::tr("Distance bias v");
    if (id == u"memory")
        return Stages::tr("Memory");
    if (id == u"content_scores")
        return Stages::tr("Content scores (a)");
    if (id == u"content_bias")
        return Stages::tr("Content bias (c)");
    return {};
}

QString positionStepFormula(const QString& id, const ModelSpec& spec)
{
    // Transformer-XL: segments with a memory, scores from the distances i − j.
    if (spec.positional == PositionalEncoding::Xl) {
        if (const QString f = xlStepFormula(id, spec); !f.isEmpty())
            return f;
    }
    // The schemes inside attention add nothing to X.
    if (id == u"positional_encoding" && actsInsideAttention(spec.positional))
        return Stages::tr("P = 0: position enters inside attention instead");
    if (id == u"weights" && spec.positional == PositionalEncoding::Alibi)
        return Stages::tr("A_h = softmax(Q_h\u00B7K_h\u1D40 / \u221Ad_k + B_h + M)");
    if (id == u"weights" && spec.positional == PositionalEncoding::Relative)
        return Stages::tr("A_h = softmax((Q_h\u00B7K_h\u1D40 + P_h) / \u221Ad_k + M)");
    if (id == u"weights" && spec.positional == PositionalEncoding::Rope)
        return Stages::tr("A_h = softmax(Q\u0303_h\u00B7K\u0303_h\u1D40 / \u221Ad_k + M)");
    // RoPE and ALiBi (position/inside.h): their own stages, and the ones they change.
    if (id == u"rope_angles")
        return Stages::tr("\u03B8_pos,i = pos / B^(2i/d_k),  B = %1").arg(spec.positionOptions.ropeBase);
    if (id == u"q_rotated" || id == u"k_rotated")
        return Stages::tr("(x_2i, x_2i+1) \u2192 (x_2i\u00B7cos \u03B8 \u2212 x_2i+1\u00B7sin \u03B8,  x_2i\u00B7sin \u03B8 + x_2i+1\u00B7cos \u03B8)");
    if (id == u"scores" && spec.positional == PositionalEncoding::Rope)
        return Stages::tr("S_h = Q\u0303_h\u00B7K\u0303_h\u1D40");
    if (id == u"position_bias")
        return Stages::tr("B_h,ij = \u2212m_h\u00B7|i \u2212 j|,  m_h = 2^(\u22128h/H)");
    if (id == u"masked_scores" && spec.positional == PositionalEncoding::Alibi)
        return Stages::tr("S\u2033_h = S\u2032_h + B_h + M");
    // Relative positions (Shaw et al.): a learned key and value per clipped distance.
    if (id == u"relative_keys" || id == u"relative_values")
        return Stages::tr("row r holds distance j \u2212 i = r \u2212 K,  clipped to [\u2212K, K],  K = %1").arg(spec.positionOptions.maxDistance);
    if (id == u"position_scores")
        return Stages::tr("P_h,ij = q_i\u00B7a\u1D37_clip(j\u2212i)");
    if (id == u"scores" && spec.positional == PositionalEncoding::Relative)
        return Stages::tr("S_h = Q_h\u00B7K_h\u1D40 + P_h");
    if (id == u"head_output" && spec.positional == PositionalEncoding::Relative)
        return Stages::tr("z_i = \u03A3_j \u03B1_ij\u00B7(v_j + a\u2C7D_clip(j\u2212i))");
    return {};
}

QString positionStepExplanation(const QString& id, PositionalEncoding pe)
{
    if (pe == PositionalEncoding::Xl) {
        if (const QString e = xlStepExplanation(id); !e.isEmpty())
            return e;
    }
    if (id == u"rope_angles")
        return Stages::tr("RoPE turns each pair of a head's dimensions by an angle that grows with the position: fast for the first pairs, slowly for the last.");
    if (id == u"q_rotated" || id == u"k_rotated")
        return Stages::tr("Each query and key turned by its position's angles: a turn keeps lengths, and q_m\u00B7k_n then depends on m \u2212 n only.");
    if (id == u"position_bias")
        return Stages::tr("ALiBi adds no position vector: each head lowers a score by its slope m_h times the distance, so far keys weigh less.");
    if (id == u"relative_keys")
        return Stages::tr("One learned key per distance j \u2212 i, shared by every head: a query scores how far a key is, not where it stands; beyond K every distance looks the same.");
    if (id == u"relative_values")
        return Stages::tr("One learned value per distance: each output also gets the values of the distances it attends, weighted like the tokens' values.");
    if (id == u"position_scores")
        return Stages::tr("How much each query likes the distance to each key: q_i\u00B7a\u1D37 for the clipped j \u2212 i, added to q_i\u00B7k_j before the scaling.");
    return {};
}

} // namespace attnlab
