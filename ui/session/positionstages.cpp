// The position schemes' stage texts as data (issue 14, docs/position-schemes.md; issue 30 §4): the
// stages of the schemes inside attention (RoPE's angles and rotated q and k, ALiBi's bias, relative
// positions' tables), and one table per scheme of the stages it computes differently, with
// Transformer-XL's own stages.

#include "session/positionstages.h"

#include "session/stagecatalogue.h"

#include <QCoreApplication>

namespace attnlab {

namespace {

/// The same translation context as the other stage texts (session/stages.cpp).
struct Stages {
    Q_DECLARE_TR_FUNCTIONS(attnlab::Stages)
};

/// Transformer-XL's first segment has none.
QString noMemoryShape(const BlockDims&)
{
    return Stages::tr("the first segment has no memory: M_\u03C4 = min(M, \u03C4\u00B7L) rows");
}

/// The schemes' own stages: the same texts under any scheme that computes them.
constexpr StageTexts kSchemeStages[] = {
    {.id = "rope_angles",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Rotation angles \u03B8"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "\u03B8_pos,i = pos / B^(2i/d_k),  B = %1"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "RoPE turns each pair of a head's dimensions by an angle that grows with the position: fast for the first pairs, slowly for the last."),
     .args = [](const QString& f, const ModelSpec& spec) { return f.arg(spec.positionOptions.ropeBase); }},
    {.id = "q_rotated",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Rotated queries Q\u0303"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(x_2i, x_2i+1) \u2192 (x_2i\u00B7cos \u03B8 \u2212 x_2i+1\u00B7sin \u03B8,  x_2i\u00B7sin \u03B8 + x_2i+1\u00B7cos \u03B8)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each query and key turned by its position's angles: a turn keeps lengths, and q_m\u00B7k_n then depends on m \u2212 n only.")},
    {.id = "k_rotated",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Rotated keys K\u0303"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(x_2i, x_2i+1) \u2192 (x_2i\u00B7cos \u03B8 \u2212 x_2i+1\u00B7sin \u03B8,  x_2i\u00B7sin \u03B8 + x_2i+1\u00B7cos \u03B8)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Each query and key turned by its position's angles: a turn keeps lengths, and q_m\u00B7k_n then depends on m \u2212 n only.")},
    {.id = "position_bias",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Position bias B"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "B_h,ij = \u2212m_h\u00B7|i \u2212 j|,  m_h = 2^(\u22128h/H)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "ALiBi adds no position vector: each head lowers a score by its slope m_h times the distance, so far keys weigh less."),
     .axes = StageAxes::QueriesKeys},
    {.id = "relative_keys",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Relative keys aᴷ"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "row r holds distance j \u2212 i = r \u2212 K,  clipped to [\u2212K, K],  K = %1"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "One learned key per distance j \u2212 i, shared by every head: a query scores how far a key is, not where it stands; beyond K every distance looks the same."),
     .args = [](const QString& f, const ModelSpec& spec) { return f.arg(spec.positionOptions.maxDistance); },
     .axes = StageAxes::DistancesDk},
    {.id = "relative_values",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Relative values aⱽ"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "row r holds distance j \u2212 i = r \u2212 K,  clipped to [\u2212K, K],  K = %1"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "One learned value per distance: each output also gets the values of the distances it attends, weighted like the tokens' values."),
     .args = [](const QString& f, const ModelSpec& spec) { return f.arg(spec.positionOptions.maxDistance); },
     .axes = StageAxes::DistancesDk},
    {.id = "position_scores",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Position scores P"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "P_h,ij = q_i\u00B7a\u1D37_clip(j\u2212i)"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "How much each query likes the distance to each key: q_i\u00B7a\u1D37 for the clipped j \u2212 i, added to q_i\u00B7k_j before the scaling."),
     .axes = StageAxes::QueriesKeys},
};

/// The schemes inside attention add nothing to X.
constexpr StageTexts kNothingAdded{.id = "positional_encoding",
                                   .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "P = 0: position enters inside attention instead")};

constexpr StageTexts kRope[] = {
    kNothingAdded,
    {.id = "scores", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S_h = Q\u0303_h\u00B7K\u0303_h\u1D40")},
    {.id = "weights", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q\u0303_h\u00B7K\u0303_h\u1D40 / \u221Ad_k + M)")},
};

constexpr StageTexts kAlibi[] = {
    kNothingAdded,
    {.id = "masked_scores", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S\u2033_h = S\u2032_h + B_h + M")},
    {.id = "weights", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(Q_h\u00B7K_h\u1D40 / \u221Ad_k + B_h + M)")},
};

/// Relative positions (Shaw et al.): a learned key and value per clipped distance.
constexpr StageTexts kRelative[] = {
    kNothingAdded,
    {.id = "scores", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S_h = Q_h\u00B7K_h\u1D40 + P_h")},
    {.id = "weights", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax((Q_h\u00B7K_h\u1D40 + P_h) / \u221Ad_k + M)")},
    {.id = "head_output", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "z_i = \u03A3_j \u03B1_ij\u00B7(v_j + a\u2C7D_clip(j\u2212i))")},
};

/// Transformer-XL (position/inside.h): segments with a memory, scores from the distances i − j.
constexpr StageTexts kXl[] = {
    kNothingAdded,
    {.id = "xl_w_r",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Distance projection W_R"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "W_R,h: d_k \u00D7 d_model, projects the sinusoid R_{i\u2212j} of a distance"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Transformer-XL adds no position vector: each head turns the sinusoid of a distance i \u2212 j into a d_k-vector with W_R.")},
    {.id = "xl_u",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Content bias u"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "u_h, v_h: 1 \u00D7 d_k, the same for every query"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Two learned vectors per head in place of the query: u scores a key's content, v a distance, the same for every query.")},
    {.id = "xl_v",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Distance bias v"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "u_h, v_h: 1 \u00D7 d_k, the same for every query"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "Two learned vectors per head in place of the query: u scores a key's content, v a distance, the same for every query.")},
    {.id = "memory",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Memory"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "Mem_\u03C4 = X[s \u2212 M_\u03C4 \u2026 s \u2212 1],  M_\u03C4 = min(M, s),  L = %1, M = %2"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "The rows of the input just before this segment: its keys and values include them, so attention reaches back past the segment's start."),
     .args = [](const QString& f, const ModelSpec& spec) { return f.arg(spec.positionOptions.segment).arg(spec.positionOptions.xlMemory()); },
     .shape = noMemoryShape},
    {.id = "k", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "K_h, V_h = [Mem_\u03C4; X_\u03C4]\u00B7W\u1D40 + b  (memory rows first)")},
    {.id = "v", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "K_h, V_h = [Mem_\u03C4; X_\u03C4]\u00B7W\u1D40 + b  (memory rows first)")},
    {.id = "content_scores",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Content scores (a)"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(a)_ij = q_i\u00B7k_j"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "(a) content against content: the usual q\u00B7k, over the memory and the segment."),
     .axes = StageAxes::QueriesKeys},
    {.id = "position_scores",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(b)_ij = q_i\u00B7W_R R_{i\u2212j}"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "(b) content against distance: how much this query likes keys i \u2212 j positions back.")},
    {.id = "content_bias",
     .title = QT_TRANSLATE_NOOP("attnlab::Stages", "Content bias (c)"),
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(c)_ij = u\u00B7k_j"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "(c) a global preference for some keys' content, the same for every query (one value per column)."),
     .axes = StageAxes::QueriesKeys},
    {.id = "position_bias",
     .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "(d)_ij = v\u00B7W_R R_{i\u2212j}"),
     .explanation = QT_TRANSLATE_NOOP("attnlab::Stages", "(d) a global preference for some distances, the same for every query (constant along each diagonal).")},
    {.id = "scores", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "S_h = (a) + (b) + (c) + (d)")},
    {.id = "weights", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "A_h = softmax(((a) + (b) + (c) + (d)) / \u221Ad_k + M)")},
    {.id = "mask", .formula = QT_TRANSLATE_NOOP("attnlab::Stages", "M_ij = \u2212\u221E for a key after the query (every memory row is before it)")},
};

/// The table of the stages scheme `pe` computes differently (asked before kSchemeStages); empty
/// for the schemes that add to X.
StageTable schemeTable(PositionalEncoding pe)
{
    switch (pe) {
    case PositionalEncoding::Rope:
        return kRope;
    case PositionalEncoding::Alibi:
        return kAlibi;
    case PositionalEncoding::Relative:
        return kRelative;
    case PositionalEncoding::Xl:
        return kXl;
    default:
        return {};
    }
}

} // namespace

std::vector<StageTable> positionStageTables()
{
    return {kSchemeStages, kRope, kAlibi, kRelative, kXl};
}

bool isSchemeStage(const QString& id)
{
    return catalogueEntry(kSchemeStages, id) != nullptr;
}

QString positionStepName(const QString& id)
{
    return catalogueTitle(positionStageTables(), id);
}

QString positionStepFormula(const QString& id, const ModelSpec& spec)
{
    return catalogueFormula({schemeTable(spec.positional), kSchemeStages}, id, FormulaSettings{.spec = &spec});
}

QString positionStepExplanation(const QString& id, PositionalEncoding pe)
{
    return catalogueExplanation({schemeTable(pe), kSchemeStages}, id);
}

} // namespace attnlab
