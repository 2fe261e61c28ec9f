#pragma once
// The stage catalogue (issue 30 §4): each stage's title, formula, explanation and the view that
// draws it, as data. Whoever adds stages keeps a table of them: the attention block and the
// layers (session/stages.cpp), each attention kind (session/kindstages.cpp), each position
// scheme (session/positionstages.cpp). A kind's or a scheme's table holds its own stages and the
// texts of the stages it computes differently; stages.h's functions look the texts up, table by
// table, field by field. The engine's list of ids and their per-head flag is core/stage_ids.h.

#include "core/model_spec.h"
#include "session/stages.h"

#include <QString>
#include <QStringView>

#include <initializer_list>
#include <span>
#include <vector>

namespace attnlab {

/// A source text in the translation context of every stage text, "attnlab::Stages" (mark it with
/// QT_TRANSLATE_NOOP("attnlab::Stages", "...") for lupdate); null where an entry says nothing.
using StageString = const char*;

/// Fills a formula's %1, %2 with a run's settings (RoPE's base B, relative positions' K, ...).
using FormulaArgs = QString (*)(const QString& formula, const ModelSpec& spec);

/// The sizes a single attention block's shapes are written with: n tokens, d_model, d_k, heads.
struct BlockDims {
    long long n, d, dk, h;
};
/// The operands' shapes of a single attention block's stage ("Q_h: 5 × 8,  K_hᵀ: 8 × 5  →  5 × 5").
using BlockShape = QString (*)(const BlockDims& dims);

/// What the rows and columns of a stage's matrix are, said after its shape.
enum class StageAxes {
    None,
    QueriesKeys, ///< ",  rows = queries, columns = keys"
    DistancesDk, ///< ",  rows = distances j − i, columns = d_k"
    Vocabulary,  ///< ",  rows = positions, columns = vocabulary" (target positions in an encoder–decoder)
};

/// One stage's texts in a table. A null field says nothing: the next table asked holds.
struct StageTexts {
    const char* id;                    ///< the engine's stage id (core/stage_ids.h), or "tokens"
    StageString title = nullptr;       ///< the navigator's short name ("Q·Kᵀ")
    StageString formula = nullptr;     ///< the formula banner's text
    StageString explanation = nullptr; ///< one or two sentences: what the stage does and why
    /// The formula when the scores are not divided by √d_k (ModelSpec::scaleScores off); null:
    /// `formula` either way.
    StageString unscaled = nullptr;
    /// The formula when the embeddings are scaled by √d_model (ModelSpec::embedScale); null:
    /// `formula` either way.
    StageString embedScaled = nullptr;
    /// Fills the formula's arguments from the run's settings; null: the formula has none.
    FormulaArgs args = nullptr;
    /// The widget that draws the stage when nothing else claims it (views/registry.cpp).
    ViewKind view = ViewKind::Matrix;
    /// The stage's shapes in a single attention block, from the config; null: none to say.
    BlockShape shape = nullptr;
    /// What the rows and columns of its matrix are, when its shape is read from the trace.
    StageAxes axes = StageAxes::None;
    /// An attention kind computes it as full attention does (q, k, v, concat, output and the
    /// block's input): its shape comes from the config, not the trace.
    bool kindsKeepShape = false;
};

using StageTable = std::span<const StageTexts>;
/// Tables asked in order: a kind's own, the one it shares, then every kind's (session/kindstages.cpp).
using StageTables = std::span<const StageTable>;

/// Which formula a run's settings pick.
struct FormulaSettings {
    bool scaled = true;
    bool embedScaled = false;
    const ModelSpec* spec = nullptr; ///< fills FormulaArgs; none: the formula unfilled
};

/// The entry of `id` in `table`, or null.
const StageTexts* catalogueEntry(StageTable table, QStringView id);
/// A table's text translated (context "attnlab::Stages"); empty for null.
QString stageText(StageString text);

/// The first entry of `id` in `tables` whose `field` is set (not null, false or None), or null.
template <class T>
const StageTexts* catalogueEntryWith(StageTables tables, QStringView id, T StageTexts::*field)
{
    for (StageTable table : tables) {
        if (const StageTexts* e = catalogueEntry(table, id); e && e->*field != T{})
            return e;
    }
    return nullptr;
}

/// The title of `id` in the first of `tables` that has one, translated; empty if none does.
QString catalogueTitle(StageTables tables, QStringView id);
/// The formula of `id` in the first of `tables` that has one, as `settings` pick it; empty if none.
QString catalogueFormula(StageTables tables, QStringView id, const FormulaSettings& settings);
/// The explanation of `id` in the first of `tables` that has one, translated; empty if none does.
QString catalogueExplanation(StageTables tables, QStringView id);

inline QString catalogueTitle(std::initializer_list<StageTable> tables, QStringView id)
{
    return catalogueTitle(StageTables(tables.begin(), tables.size()), id);
}
inline QString catalogueFormula(std::initializer_list<StageTable> tables, QStringView id, const FormulaSettings& settings)
{
    return catalogueFormula(StageTables(tables.begin(), tables.size()), id, settings);
}
inline QString catalogueExplanation(std::initializer_list<StageTable> tables, QStringView id)
{
    return catalogueExplanation(StageTables(tables.begin(), tables.size()), id);
}

/// The widget that draws stage `id` by its catalogue entry (ViewKind::Matrix for most).
ViewKind catalogueView(QStringView id);

/// The tables of the attention block, the layers, the model's output and the families' own
/// stages (session/stagetexts.cpp), of the attention kinds (session/kindstages.cpp) and of the
/// position schemes (session/positionstages.cpp): every title is in one of them.
std::vector<StageTable> stageTables();
std::vector<StageTable> kindStageTables();
std::vector<StageTable> positionStageTables();

} // namespace attnlab
