// The attention kinds' stage texts as data (issue 30 §4): one table per kind of its own stages and
// of those it computes differently, a table the feature kinds share, one the pattern kinds share,
// and one every kind shares (full attention's weights, the error against them).

#include "session/kindstages.h"

#include "session/stagecatalogue.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// The same translation context as the other stage texts (session/stages.cpp).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};


/// What every kind compares itself with: full attention on the same queries, keys and mask.
constexpr StageTexts kEveryKind[] = {
    {.id = "reference_weights",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Full attention's weights"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A^full_h = softmax(Q_h\u00B7K_h\u1D40 / √d_k + M)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Full softmax attention on the same queries, keys and mask: what this kind approximates."),
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "A^full_h = softmax(Q_h\u00B7K_h\u1D40 + M)"),
     .axes = StageAxes::QueriesKeys},
    {.id = "error",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Error against full attention"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "e_i = \u03A3_j |A_ij \u2212 A^full_ij|"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "For each query, how far its row of weights is from full attention's: the sum of the absolute "
                      "differences, from 0 (the same) to 2 (nothing in common).")},
    {.id = "reference_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Full attention's output"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "O^full = [Z^full_1 | \u2026 | Z^full_h]\u00B7W_O\u1D40 + b_O"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Full attention's output on the same input, to compare this kind's output with.")},
};

/// Performer's and linear attention's stages: φ(Q)·(φ(K)ᵀ·V) / D.
constexpr StageTexts kFeatureKinds[] = {
    {.id = "q_features", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Query features \u03C6(Q)")},
    {.id = "k_features", .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Key features \u03C6(K)")},
    {.id = "kv",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03C6(K)\u1D40\u00B7V"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "KV_h = \u03C6(K_h)\u1D40\u00B7V_h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The keys' features times the values, summed over every key once: its size does not depend on n. "
                      "This is why no n \u00D7 n matrix is needed.")},
    {.id = "normalizer",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Normaliser D"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "D_i = \u03C6(q_i)\u00B7\u03A3_j \u03C6(k_j)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each query's similarity with every key, summed: it divides the output as the softmax's "
                      "denominator would.")},
    {.id = "weights",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = D\u207B\u00B9\u00B7\u03C6(Q_h)\u00B7\u03C6(K_h)\u1D40  (implied, drawn only to be seen)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The attention matrix these features imply, computed only to be shown: the output never forms it.")},
    {.id = "head_output",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Z_h = \u03C6(Q_h)\u00B7(\u03C6(K_h)\u1D40\u00B7V_h) / D"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each query's features times KV, divided by its normaliser: the same result as the implied "
                      "weights times V, in time linear in n.")},
};

constexpr StageString kPerformerFeatures = QT_TRANSLATE_NOOP("attnlab::Stages", "Each vector becomes M positive features, made so that \u03C6(q)\u00B7\u03C6(k) estimates "
                                             "exp(q\u00B7k/√d_k), the softmax's numerator.");

constexpr StageTexts kPerformer[] = {
    {.id = "random_features",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Random features \u03A9"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03A9: M \u00D7 d_k Gaussian rows, orthogonal in blocks of d_k"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Performer draws M random directions, orthogonal in blocks: a vector's features are its positive "
                      "exponentials along them.")},
    {.id = "q_features",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03C6(q) = exp(\u03A9\u00B7q\u0302 \u2212 \u2016q\u0302\u2016\u00B2/2) / \u221AM,  q\u0302 = q / d_k^\u00BC"),
     .explanation = kPerformerFeatures},
    {.id = "k_features",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03C6(k) = exp(\u03A9\u00B7k\u0302 \u2212 \u2016k\u0302\u2016\u00B2/2) / \u221AM,  k\u0302 = k / d_k^\u00BC"),
     .explanation = kPerformerFeatures},
};

constexpr StageString kLinearFeatures = QT_TRANSLATE_NOOP("attnlab::Stages", "Each vector becomes elu(x) + 1: positive, so \u03C6(q)\u00B7\u03C6(k) can stand in for "
                                          "the softmax's exp(q\u00B7k).");

constexpr StageTexts kLinear[] = {
    {.id = "q_features", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03C6(q) = elu(q) + 1"), .explanation = kLinearFeatures},
    {.id = "k_features", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03C6(k) = elu(k) + 1"), .explanation = kLinearFeatures},
};

/// Linformer's stages: keys and values projected along the sequence to K rows.
constexpr StageString kLinformerProjection = QT_TRANSLATE_NOOP("attnlab::Stages", "Linformer's seeded projection mixes the n positions into K rows: the keys (E) and values (F) "
                                               "shrink along the sequence, not along their features.");
constexpr StageString kLinformerScores = QT_TRANSLATE_NOOP("attnlab::Stages", "Every query against the K projected keys: n \u00D7 K numbers instead of n \u00D7 n.");

constexpr StageTexts kLinformer[] = {
    {.id = "projection_e",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Projection E"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "E: K \u00D7 n, entries drawn from N(0, 1/K)"),
     .explanation = kLinformerProjection},
    {.id = "projection_f",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Projection F"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "F: K \u00D7 n, entries drawn from N(0, 1/K)"),
     .explanation = kLinformerProjection},
    {.id = "k_projected",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Projected keys K\u2032"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "K\u2032_h = E\u00B7K_h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The keys projected to K rows: each query is compared with K mixtures of keys instead of n keys.")},
    {.id = "v_projected",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Projected values V\u2032"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "V\u2032_h = F\u00B7V_h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The values projected to K rows: the weights over the K rows mix these.")},
    {.id = "scores", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S_h = Q_h\u00B7K\u2032_h\u1D40  (n \u00D7 K)"), .explanation = kLinformerScores},
    {.id = "scaled",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2032_h = Q_h\u00B7K\u2032_h\u1D40 / √d_k"),
     .explanation = kLinformerScores,
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2032_h = Q_h\u00B7K\u2032_h\u1D40   (scaling switched off)")},
    {.id = "weights",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q_h\u00B7K\u2032_h\u1D40 / √d_k)"),
     .explanation = kLinformerScores,
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q_h\u00B7K\u2032_h\u1D40)")},
    {.id = "head_output", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Z_h = A_h\u00B7V\u2032_h")},
    {.id = "error",
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "For each query, how far the token weights A\u00B7F its projected keys imply are from full "
                      "attention's row: the sum of the absolute differences. A\u00B7F is no probability (F mixes "
                      "with positive and negative numbers), so the distance can pass 2.")},
};

/// The sparse kinds' patterns: each its own mask, explained alike.
constexpr StageTexts kPatternKinds[] = {
    {.id = "mask",
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The kind's pattern, with the mask you chose: each query sees only the allowed keys. The others "
                      "are \u2212\u221E and get weight 0; only the allowed cells are computed.")},
};

constexpr StageTexts kSlidingWindow[] = {
    {.id = "mask",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = 0 if |i \u2212 j| \u2264 W·D and (i \u2212 j) mod D = 0, or i or j is global; else \u2212\u221E")},
};

constexpr StageTexts kBigBird[] = {
    {.id = "mask", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = 0 in the window, for R random keys and for global positions; else \u2212\u221E")},
};

constexpr StageTexts kStrided[] = {
    {.id = "mask", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = 0 if |i \u2212 j| < S or (i \u2212 j) mod S = 0; else \u2212\u221E")},
};

/// Reformer's LSH: keys shared with the queries, hashed into buckets.
constexpr StageTexts kLsh[] = {
    {.id = "mask",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = 0 if bucket(q_i) = bucket(k_j) and j \u2260 i; else \u2212\u221E"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A query attends only the keys in its own bucket (not itself, unless it is alone there).")},
    {.id = "k",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "K_h = Q_h / \u2016Q_h\u2016  (keys shared with the queries)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Reformer shares queries and keys: each key is its query made length 1.")},
    {.id = "random_rotations",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Random rotations R"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "R_h: d_k \u00D7 B/2, Gaussian"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "A random matrix per head: a vector's bucket is the largest of its B/2 rotated coordinates and "
                      "their negatives.")},
    {.id = "buckets",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Buckets"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "bucket(x) = argmax([x\u00B7R ; \u2212x\u00B7R])"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Similar vectors land in the same bucket: only tokens that share a bucket attend each other.")},
};

/// FlashAttention's stages: the online softmax, tile by tile.
constexpr StageTexts kFlash[] = {
    {.id = "tiles",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Tiles"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "T_ij = the number of the B_r \u00D7 B_c tile that computes s_ij, in order (0: hidden by the mask)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "FlashAttention cuts the score matrix into tiles of B_r queries by B_c keys and computes one "
                                                         "tile at a time, never the whole n \u00D7 n matrix. A tile the mask hides entirely is skipped.")},
    {.id = "running_max",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Running maximum m"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "m_i \u2190 max(m_i, max_j s_ij) after each key block,  s_ij = q_i\u00B7k_j / \u221Ad_k + M_ij"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each query row keeps the largest score it has seen so far, one column per key block. When a "
                                                         "later block holds a larger score, what was summed before is rescaled by e^(m_old \u2212 m_new)."),
     .unscaled = QT_TRANSLATE_NOOP("attnlab::Stages", "m_i \u2190 max(m_i, max_j s_ij) after each key block,  s_ij = q_i\u00B7k_j + M_ij")},
    {.id = "running_sum",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Running sum \u2113"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u2113_i \u2190 e^(m_old \u2212 m_new)\u00B7\u2113_i + \u03A3_j e^(s_ij \u2212 m_new) after each key block"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each row's softmax denominator so far, \u03A3 e^(s_ij \u2212 m_i) over the keys seen: after "
                                                         "the last key block it is the full softmax's denominator.")},
    {.id = "partial_output",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Partial output O"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "O_i \u2190 (\u2113_old\u00B7e^(m_old \u2212 m_new)\u00B7O_i + \u03A3_j e^(s_ij \u2212 m_new)\u00B7v_j) / \u2113_new"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each row's output after each key block: exactly softmax attention over the keys seen so far. "
                                                         "The last block's columns are the head's output.")},
    {.id = "weights",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_ij = e^(s_ij \u2212 m_i) / \u2113_i  (made again from the final m and \u2113, only to be shown)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "FlashAttention never stores these weights; they are made again here from each row's final "
                                                         "m and \u2113, as its backward pass does, to compare them with full attention.")},
    {.id = "head_output",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Z_h = O after the last key block = softmax(S\u2032\u2032_h)\u00B7V_h"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The output after the last key block: the same as full attention's, up to float rounding.")},
    {.id = "error",
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "For each query, the distance of its weights from full attention's: zero up to float rounding, "
                                                         "because FlashAttention is exact.")},
    {.id = "reference_weights",
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Full softmax attention on the same queries, keys and mask, computed the usual way: what "
                                                         "FlashAttention must equal.")},
};

/// Each kind's name and tables, asked in order: its own, the one it shares with kinds like it. Full
/// attention has none: every kind's texts (kEveryKind) and the attention block's hold.
struct KindTables {
    AttentionKind kind;
    const char* name; ///< what the settings and the captions call it
    StageTable own = {};
    StageTable shared = {};
};

constexpr KindTables kKinds[] = {
    {AttentionKind::Full, QT_TRANSLATE_NOOP("attnlab::Stages", "full (softmax over every key)")},
    {AttentionKind::SlidingWindow, QT_TRANSLATE_NOOP("attnlab::Stages", "sliding window (Longformer)"), kSlidingWindow, kPatternKinds},
    {AttentionKind::BigBird, QT_TRANSLATE_NOOP("attnlab::Stages", "BigBird (window + random + global)"), kBigBird, kPatternKinds},
    {AttentionKind::Strided, QT_TRANSLATE_NOOP("attnlab::Stages", "strided (Sparse Transformer)"), kStrided, kPatternKinds},
    {AttentionKind::Linformer, QT_TRANSLATE_NOOP("attnlab::Stages", "Linformer (low-rank)"), kLinformer},
    {AttentionKind::Performer, QT_TRANSLATE_NOOP("attnlab::Stages", "Performer (random features)"), kPerformer, kFeatureKinds},
    {AttentionKind::Linear, QT_TRANSLATE_NOOP("attnlab::Stages", "linear (elu + 1)"), kLinear, kFeatureKinds},
    {AttentionKind::Lsh, QT_TRANSLATE_NOOP("attnlab::Stages", "LSH (Reformer)"), kLsh},
    {AttentionKind::Flash, QT_TRANSLATE_NOOP("attnlab::Stages", "FlashAttention (exact, in tiles)"), kFlash},
};

const KindTables* kindTables(AttentionKind kind)
{
    for (const KindTables& k : kKinds) {
        if (k.kind == kind)
            return &k;
    }
    return nullptr;
}

} // namespace

std::vector<StageTable> kindStageTables()
{
    std::vector<StageTable> out{kEveryKind, kFeatureKinds, kPatternKinds};
    for (const KindTables& k : kKinds)
        out.push_back(k.own);
    return out;
}

QString attentionKindName(AttentionKind kind)
{
    if (const KindTables* k = kindTables(kind))
        return QCoreApplication::translate("attnlab::Stages", k->name);
    const std::string_view name = toString(kind);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString kindStepName(const QString& id)
{
    return catalogueTitle(kindStageTables(), id);
}

QString kindStepFormula(const QString& id, AttentionKind kind, bool scaled)
{
    const KindTables* k = kindTables(kind);
    const FormulaSettings settings{.scaled = scaled};
    return k ? catalogueFormula({k->own, k->shared, kEveryKind}, id, settings) : catalogueFormula({kEveryKind}, id, settings);
}

QString kindStepExplanation(const QString& id, AttentionKind kind)
{
    const KindTables* k = kindTables(kind);
    return k ? catalogueExplanation({k->own, k->shared, kEveryKind}, id) : catalogueExplanation({kEveryKind}, id);
}

} // namespace attnlab
