#include "session/kindstages.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// The same translation context as the other stage texts (session/stages.cpp).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

bool isFeatureKind(AttentionKind k)
{
    return k == AttentionKind::Performer || k == AttentionKind::Linear;
}

bool isPatternKind(AttentionKind k)
{
    return k == AttentionKind::SlidingWindow || k == AttentionKind::BigBird || k == AttentionKind::Strided || k == AttentionKind::Lsh;
}

/// Performer's and linear attention's stages: φ(Q)·(φ(K)ᵀ·V) / D.
QString featureFormula(const QString& id, AttentionKind kind)
{
    const bool performer = kind == AttentionKind::Performer;
    if (id == u"random_features")
        return Stages::tr("\u03A9: M \u00D7 d_k Gaussian rows, orthogonal in blocks of d_k");
    if (id == u"q_features")
        return performer ? Stages::tr("\u03C6(q) = exp(\u03A9\u00B7q\u0302 \u2212 \u2016q\u0302\u2016\u00B2/2) / \u221AM,  q\u0302 = q / d_k^\u00BC")
                         : Stages::tr("\u03C6(q) = elu(q) + 1");
    if (id == u"k_features")
        return performer ? Stages::tr("\u03C6(k) = exp(\u03A9\u00B7k\u0302 \u2212 \u2016k\u0302\u2016\u00B2/2) / \u221AM,  k\u0302 = k / d_k^\u00BC")
                         : Stages::tr("\u03C6(k) = elu(k) + 1");
    if (id == u"kv")
        return Stages::tr("KV_h = \u03C6(K_h)\u1D40\u00B7V_h");
    if (id == u"normalizer")
        return Stages::tr("D_i = \u03C6(q_i)\u00B7\u03A3_j \u03C6(k_j)");
    if (id == u"weights")
        return Stages::tr("A_h = D\u207B\u00B9\u00B7\u03C6(Q_h)\u00B7\u03C6(K_h)\u1D40  (implied, drawn only to be seen)");
    if (id == u"head_output")
        return Stages::tr("Z_h = \u03C6(Q_h)\u00B7(\u03C6(K_h)\u1D40\u00B7V_h) / D");
    return {};
}

/// Linformer's stages: keys and values projected along the sequence to K rows.
QString linformerFormula(const QString& id, bool scaled)
{
    if (id == u"projection_e")
        return Stages::tr("E: K \u00D7 n, entries drawn from N(0, 1/K)");
    if (id == u"projection_f")
        return Stages::tr("F: K \u00D7 n, entries drawn from N(0, 1/K)");
    if (id == u"k_projected")
        return Stages::tr("K\u2032_h = E\u00B7K_h");
    if (id == u"v_projected")
        return Stages::tr("V\u2032_h = F\u00B7V_h");
    if (id == u"scores")
        return Stages::tr("S_h = Q_h\u00B7K\u2032_h\u1D40  (n \u00D7 K)");
    if (id == u"scaled")
        return scaled ? Stages::tr("S\u2032_h = Q_h\u00B7K\u2032_h\u1D40 / √d_k") : Stages::tr("S\u2032_h = Q_h\u00B7K\u2032_h\u1D40   (scaling switched off)");
    if (id == u"weights")
        return scaled ? Stages::tr("A_h = softmax(Q_h\u00B7K\u2032_h\u1D40 / √d_k)") : Stages::tr("A_h = softmax(Q_h\u00B7K\u2032_h\u1D40)");
    if (id == u"head_output")
        return Stages::tr("Z_h = A_h\u00B7V\u2032_h");
    return {};
}

/// The sparse kinds' and lsh's pattern, and lsh's hashing.
QString patternFormula(const QString& id, AttentionKind kind)
{
    if (id == u"mask") {
        switch (kind) {
        case AttentionKind::SlidingWindow:
            return Stages::tr("M_ij = 0 if |i \u2212 j| \u2264 W·D and (i \u2212 j) mod D = 0, or i or j is global; else \u2212\u221E");
        case AttentionKind::BigBird:
            return Stages::tr("M_ij = 0 in the window, for R random keys and for global positions; else \u2212\u221E");
        case AttentionKind::Strided:
            return Stages::tr("M_ij = 0 if |i \u2212 j| < S or (i \u2212 j) mod S = 0; else \u2212\u221E");
        default:
            return Stages::tr("M_ij = 0 if bucket(q_i) = bucket(k_j) and j \u2260 i; else \u2212\u221E");
        }
    }
    if (kind != AttentionKind::Lsh)
        return {};
    if (id == u"k")
        return Stages::tr("K_h = Q_h / \u2016Q_h\u2016  (keys shared with the queries)");
    if (id == u"random_rotations")
        return Stages::tr("R_h: d_k \u00D7 B/2, Gaussian");
    if (id == u"buckets")
        return Stages::tr("bucket(x) = argmax([x\u00B7R ; \u2212x\u00B7R])");
    return {};
}

/// FlashAttention's stages: the online softmax, tile by tile.
QString flashFormula(const QString& id, bool scaled)
{
    if (id == u"tiles")
        return Stages::tr("T_ij = the number of the B_r \u00D7 B_c tile that computes s_ij, in order (0: hidden by the mask)");
    if (id == u"running_max")
        return scaled ? Stages::tr("m_i \u2190 max(m_i, max_j s_ij) after each key block,  s_ij = q_i\u00B7k_j / \u221Ad_k + M_ij")
                      : Stages::tr("m_i \u2190 max(m_i, max_j s_ij) after each key block,  s_ij = q_i\u00B7k_j + M_ij");
    if (id == u"running_sum")
        return Stages::tr("\u2113_i \u2190 e^(m_old \u2212 m_new)\u00B7\u2113_i + \u03A3_j e^(s_ij \u2212 m_new) after each key block");
    if (id == u"partial_output")
        return Stages::tr("O_i \u2190 (\u2113_old\u00B7e^(m_old \u2212 m_new)\u00B7O_i + \u03A3_j e^(s_ij \u2212 m_new)\u00B7v_j) / \u2113_new");
    if (id == u"weights")
        return Stages::tr("A_ij = e^(s_ij \u2212 m_i) / \u2113_i  (made again from the final m and \u2113, only to be shown)");
    if (id == u"head_output")
        return Stages::tr("Z_h = O after the last key block = softmax(S\u2032\u2032_h)\u00B7V_h");
    return {};
}

QString flashExplanation(const QString& id)
{
    if (id == u"tiles")
        return Stages::tr("FlashAttention cuts the score matrix into tiles of B_r queries by B_c keys and computes one "
                          "tile at a time, never the whole n \u00D7 n matrix. A tile the mask hides entirely is skipped.");
    if (id == u"running_max")
        return Stages::tr("Each query row keeps the largest score it has seen so far, one column per key block. When a "
                          "later block holds a larger score, what was summed before is rescaled by e^(m_old \u2212 m_new).");
    if (id == u"running_sum")
        return Stages::tr("Each row's softmax denominator so far, \u03A3 e^(s_ij \u2212 m_i) over the keys seen: after "
                          "the last key block it is the full softmax's denominator.");
    if (id == u"partial_output")
        return Stages::tr("Each row's output after each key block: exactly softmax attention over the keys seen so far. "
                          "The last block's columns are the head's output.");
    if (id == u"weights")
        return Stages::tr("FlashAttention never stores these weights; they are made again here from each row's final "
                          "m and \u2113, as its backward pass does, to compare them with full attention.");
    if (id == u"head_output")
        return Stages::tr("The output after the last key block: the same as full attention's, up to float rounding.");
    if (id == u"error")
        return Stages::tr("For each query, the distance of its weights from full attention's: zero up to float rounding, "
                          "because FlashAttention is exact.");
    return {};
}

QString featureExplanation(const QString& id, AttentionKind kind)
{
    const bool performer = kind == AttentionKind::Performer;
    if (id == u"random_features")
        return Stages::tr("Performer draws M random directions, orthogonal in blocks: a vector's features are its positive "
                          "exponentials along them.");
    if (id == u"q_features" || id == u"k_features")
        return performer ? Stages::tr("Each vector becomes M positive features, made so that \u03C6(q)\u00B7\u03C6(k) estimates "
                                      "exp(q\u00B7k/√d_k), the softmax's numerator.")
                         : Stages::tr("Each vector becomes elu(x) + 1: positive, so \u03C6(q)\u00B7\u03C6(k) can stand in for "
                                      "the softmax's exp(q\u00B7k).");
    if (id == u"kv")
        return Stages::tr("The keys' features times the values, summed over every key once: its size does not depend on n. "
                          "This is why no n \u00D7 n matrix is needed.");
    if (id == u"normalizer")
        return Stages::tr("Each query's similarity with every key, summed: it divides the output as the softmax's "
                          "denominator would.");
    if (id == u"weights")
        return Stages::tr("The attention matrix these features imply, computed only to be shown: the output never forms it.");
    if (id == u"head_output")
        return Stages::tr("Each query's features times KV, divided by its normaliser: the same result as the implied "
                          "weights times V, in time linear in n.");
    return {};
}

QString otherExplanation(const QString& id, AttentionKind kind)
{
    if (id == u"projection_e" || id == u"projection_f")
        return Stages::tr("Linformer's seeded projection mixes the n positions into K rows: the keys (E) and values (F) "
                          "shrink along the sequence, not along their features.");
    if (id == u"k_projected")
        return Stages::tr("The keys projected to K rows: each query is compared with K mixtures of keys instead of n keys.");
    if (id == u"v_projected")
        return Stages::tr("The values projected to K rows: the weights over the K rows mix these.");
    if (kind == AttentionKind::Linformer && (id == u"scores" || id == u"scaled" || id == u"weights"))
        return Stages::tr("Every query against the K projected keys: n \u00D7 K numbers instead of n \u00D7 n.");
    if (id == u"mask" && kind == AttentionKind::Lsh)
        return Stages::tr("A query attends only the keys in its own bucket (not itself, unless it is alone there).");
    if (id == u"mask" && isPatternKind(kind))
        return Stages::tr("The kind's pattern, with the mask you chose: each query sees only the allowed keys. The others "
                          "are \u2212\u221E and get weight 0; only the allowed cells are computed.");
    if (id == u"k" && kind == AttentionKind::Lsh)
        return Stages::tr("Reformer shares queries and keys: each key is its query made length 1.");
    if (id == u"random_rotations")
        return Stages::tr("A random matrix per head: a vector's bucket is the largest of its B/2 rotated coordinates and "
                          "their negatives.");
    if (id == u"buckets")
        return Stages::tr("Similar vectors land in the same bucket: only tokens that share a bucket attend each other.");
    return {};
}

} // namespace

QString attentionKindName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Full:
        return Stages::tr("full (softmax over every key)");
    case AttentionKind::SlidingWindow:
        return Stages::tr("sliding window (Longformer)");
    case AttentionKind::BigBird:
        return Stages::tr("BigBird (window + random + global)");
    case AttentionKind::Strided:
        return Stages::tr("strided (Sparse Transformer)");
    case AttentionKind::Linformer:
        return Stages::tr("Linformer (low-rank)");
    case AttentionKind::Performer:
        return Stages::tr("Performer (random features)");
    case AttentionKind::Linear:
        return Stages::tr("linear (elu + 1)");
    case AttentionKind::Lsh:
        return Stages::tr("LSH (Reformer)");
    case AttentionKind::Flash:
        return Stages::tr("FlashAttention (exact, in tiles)");
    }
    const std::string_view name = toString(kind);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString kindStepName(const QString& id)
{
    if (id == u"reference_weights")
        return Stages::tr("Full attention's weights");
    if (id == u"error")
        return Stages::tr("Error against full attention");
    if (id == u"reference_output")
        return Stages::tr("Full attention's output");
    if (id == u"q_features")
        return Stages::tr("Query features \u03C6(Q)");
    if (id == u"k_features")
        return Stages::tr("Key features \u03C6(K)");
    if (id == u"kv")
        return Stages::tr("\u03C6(K)\u1D40\u00B7V");
    if (id == u"normalizer")
        return Stages::tr("Normaliser D");
    if (id == u"k_projected")
        return Stages::tr("Projected keys K\u2032");
    if (id == u"v_projected")
        return Stages::tr("Projected values V\u2032");
    if (id == u"projection_e")
        return Stages::tr("Projection E");
    if (id == u"projection_f")
        return Stages::tr("Projection F");
    if (id == u"random_features")
        return Stages::tr("Random features \u03A9");
    if (id == u"random_rotations")
        return Stages::tr("Random rotations R");
    if (id == u"buckets")
        return Stages::tr("Buckets");
    if (id == u"tiles")
        return Stages::tr("Tiles");
    if (id == u"running_max")
        return Stages::tr("Running maximum m");
    if (id == u"running_sum")
        return Stages::tr("Running sum \u2113");
    if (id == u"partial_output")
        return Stages::tr("Partial output O");
    return {};
}

QString kindStepFormula(const QString& id, AttentionKind kind, bool scaled)
{
    if (id == u"reference_weights")
        return scaled ? Stages::tr("A^full_h = softmax(Q_h\u00B7K_h\u1D40 / √d_k + M)") : Stages::tr("A^full_h = softmax(Q_h\u00B7K_h\u1D40 + M)");
    if (id == u"error")
        return Stages::tr("e_i = \u03A3_j |A_ij \u2212 A^full_ij|");
    if (id == u"reference_output")
        return Stages::tr("O^full = [Z^full_1 | \u2026 | Z^full_h]\u00B7W_O\u1D40 + b_O");
    if (isFeatureKind(kind))
        return featureFormula(id, kind);
    if (kind == AttentionKind::Linformer)
        return linformerFormula(id, scaled);
    if (isPatternKind(kind))
        return patternFormula(id, kind);
    if (kind == AttentionKind::Flash)
        return flashFormula(id, scaled);
    return {};
}

QString kindStepExplanation(const QString& id, AttentionKind kind)
{
    if (kind == AttentionKind::Flash) {
        if (const QString flash = flashExplanation(id); !flash.isEmpty())
            return flash;
    }
    if (id == u"reference_weights" && kind == AttentionKind::Flash)
        return Stages::tr("Full softmax attention on the same queries, keys and mask, computed the usual way: what "
                          "FlashAttention must equal.");
    if (id == u"reference_weights")
        return Stages::tr("Full softmax attention on the same queries, keys and mask: what this kind approximates.");
    if (id == u"error" && kind == AttentionKind::Linformer)
        return Stages::tr("For each query, how far the token weights A\u00B7F its projected keys imply are from full "
                          "attention's row: the sum of the absolute differences. A\u00B7F is no probability (F mixes "
                          "with positive and negative numbers), so the distance can pass 2.");
    if (id == u"error")
        return Stages::tr("For each query, how far its row of weights is from full attention's: the sum of the absolute "
                          "differences, from 0 (the same) to 2 (nothing in common).");
    if (id == u"reference_output")
        return Stages::tr("Full attention's output on the same input, to compare this kind's output with.");
    if (kind == AttentionKind::Full)
        return {};
    const QString feature = isFeatureKind(kind) ? featureExplanation(id, kind) : QString();
    return feature.isEmpty() ? otherExplanation(id, kind) : feature;
}

} // namespace attnlab
