#include "views/cellinspector.h"

#include "views/explanationtable.h"
#include "views/softmaxbars.h"
#include "session/kindstages.h"
#include "session/session.h"
#include "session/stages.h"
#include "core/trace.h"
#include "explain/cell_explanation.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr int kMaxProjectionTerms = 8; // q/k/v: the largest terms listed, the rest summed
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString label(const Labels& labels, int i)
{
    if (labels && i >= 0 && i < static_cast<int>(labels->size()))
        return QString::fromStdString((*labels)[static_cast<std::size_t>(i)]);
    return QString::number(i + 1); // counted from 1, as people count
}

QString quoted(const QString& token)
{
    return QStringLiteral("\u201C%1\u201D").arg(token); // “token”
}

QString tokenAt(const Trace& t, int i)
{
    if (i >= 0 && i < static_cast<int>(t.tokens.size()))
        return QString::fromStdString(t.tokens[static_cast<std::size_t>(i)]);
    return QString::number(i + 1);
}

/// The token of key j: the keys' own labels (the source's, in cross-attention), else the sentence's.
QString keyTokenAt(const Trace& t, int j)
{
    if (const Stage* k = t.find("k", 0); k && k->main().rowLabels && j >= 0 && j < static_cast<int>(k->main().rowLabels->size()))
        return QString::fromStdString((*k->main().rowLabels)[static_cast<std::size_t>(j)]);
    return tokenAt(t, j);
}

/// The labels of the first n keys.
std::vector<QString> keyTokens(const Trace& t, int n)
{
    std::vector<QString> keys;
    for (int j = 0; j < n; ++j)
        keys.push_back(keyTokenAt(t, j));
    return keys;
}

/// "[2, 5]": row and column counted from 1, as people (and the lessons) count.
QString at(int r, int c)
{
    return QStringLiteral("[%1, %2]").arg(r + 1).arg(c + 1);
}

} // namespace

CellInspector::CellInspector(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_heading(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_plot(new SoftmaxBars(this))
    , m_table(new ExplanationTable(this))
{
    // The explanation scrolls as a whole when the panel is short; its table shows every row.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(6, 6, 6, 6);
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::PlainText);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont headingFont; // only the weight is set: family (and CJK fallbacks) still inherited
    headingFont.setBold(true);
    m_heading->setFont(headingFont);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_heading);
    layout->addWidget(m_summary, 0);
    layout->addWidget(m_plot, 2);
    layout->addWidget(m_table);
    layout->addStretch(1);
    m_plot->setMinimumHeight(320);

    refreshOn(&Session::stepChanged);
    refreshOn(&Session::headChanged);
    refreshOn(&Session::selectionChanged);
    refresh();
}

// --- accessors ---------------------------------------------------------------------------

QString CellInspector::headingText() const
{
    return m_heading->text();
}

QString CellInspector::summaryText() const
{
    return m_summary->text();
}

QTableWidget* CellInspector::table() const
{
    return m_table;
}

QCustomPlot* CellInspector::barsPlot() const
{
    return m_plot;
}

double CellInspector::tableNumber(int row, int column) const
{
    return m_table->number(row, column);
}

double CellInspector::shownValue(const QString& key) const
{
    return m_values.value(key, kNaN);
}

void CellInspector::applyFonts()
{
    // The bar charts restyle themselves; the table's bold rows and the bar labels follow here.
    if (m_table)
        refresh();
}

void CellInspector::applyPalette()
{
    applyFonts(); // the same: the table and the bar labels take the palette's colours
}

void CellInspector::present(const QString& heading, const QStringList& lines, bool plot)
{
    m_heading->setText(heading);
    m_heading->show();
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_plot->setVisible(plot);
    m_table->show();
}

// --- dispatch ------------------------------------------------------------------------------

void CellInspector::refresh()
{
    explain();
    // The hint stands alone in the middle of the panel; explanations start at the top.
    auto* box = static_cast<QBoxLayout*>(layout());
    const bool hint = m_mode == Mode::Hint;
    box->setStretchFactor(m_summary, hint ? 1 : 0);
    m_summary->setAlignment(hint ? Qt::AlignCenter : Qt::AlignLeft | Qt::AlignTop);
    m_summary->setForegroundRole(hint ? QPalette::PlaceholderText : QPalette::WindowText);
}

void CellInspector::explain()
{
    m_values.clear();
    m_maskedKeys.clear();
    const auto& trace = session()->trace();
    const int row = session()->selectedRow();
    const int col = session()->selectedColumn();
    if (!trace || row < 0 || col < 0) {
        showHint();
        return;
    }
    const Trace& t = *trace;
    const QString id = session()->stepId();
    const int head = std::clamp(session()->head(), 0, std::max(0, t.config.heads - 1));
    const std::string sid = id.toStdString();
    // Per head as the step is (lsh's mask is per head, the other kinds' is not).
    const Stage* stage = stageForHead(t, sid, session()->currentStep().perHead ? std::optional<int>(head) : std::nullopt);
    if (!stage || stage->matrices.empty()) {
        if (id == u"tokens" && row < static_cast<int>(t.tokens.size()))
            showValue(t, id, head, row, col);
        else
            showHint();
        return;
    }
    // A selection made on a larger matrix (a longer sentence, another stage) is stale.
    const Eigen::MatrixXf& m = stage->main().values;
    if (row >= m.rows() || col >= m.cols()) {
        showHint();
        return;
    }
    if (id == u"scores" || id == u"scaled" || id == u"position_bias" || id == u"position_scores" || id == u"content_scores"
        || id == u"content_bias" || id == u"mask" || id == u"masked_scores")
        showScore(t, id, head, row, col);
    else if (id == u"weights")
        showWeightsRow(t, head, row, col);
    else if (id == u"head_output")
        showHeadOutput(t, head, row, col);
    else if (id == u"q" || id == u"k" || id == u"v")
        showProjection(t, id, head, row, col);
    else
        showValue(t, id, head, row, col);
}

void CellInspector::showHint()
{
    m_mode = Mode::Hint;
    m_values.clear();
    m_maskedKeys.clear();
    m_heading->clear();
    m_heading->hide();
    m_summary->setText(tr("Click a cell of the heatmap to see how it was computed"));
    m_plot->hide();
    m_table->hide();
    m_table->start({});
}

// --- scores, scaled, mask, masked_scores ---------------------------------------------------

void CellInspector::showScore(const Trace& t, const QString& id, int head, int i, int j)
{
    const std::optional<ScoreExplanation> e = explainScore(t, head, i, j);
    if (!e) {
        showValue(t, id, head, i, j);
        return;
    }
    m_mode = Mode::Score;

    // The dot product, term by term, recomputed from Q and K.
    m_table->start({tr("dim"), tr("q_%1[d]").arg(i + 1), tr("k_%1[d]").arg(j + 1), tr("q_%1[d]\u00B7k_%2[d]").arg(i + 1).arg(j + 1)});
    for (std::size_t d = 0; d < e->products.size(); ++d)
        m_table->addTermRow(label(e->dims, static_cast<int>(d)), {e->q[d], e->k[d], e->products[d]});
    m_table->addLedgerRow(tr("\u03A3 = q_%1\u00B7k_%2  (recomputed here)").arg(i + 1).arg(j + 1), e->sum);
    if (e->positionScore && e->xlTerms)
        m_table->addLedgerRow(tr("+ (b) + (c) + (d)%1  (Transformer-XL: distance and bias terms)").arg(at(i, j)), *e->positionScore,
                              id == u"position_scores" || id == u"content_bias" || id == u"position_bias");
    else if (e->positionScore)
        m_table->addLedgerRow(tr("+ P%1  (relative: q_%2\u00B7a\u1D37 of the distance)").arg(at(i, j)).arg(i + 1), *e->positionScore,
                              id == u"position_scores");
    m_table->addLedgerRow(tr("S%1 from the trace").arg(at(i, j)), e->score, id == u"scores");
    m_table->addLedgerRow(e->scaling ? (e->rootOfScalar ? tr("\u00F7 √query_pre_attn_scalar = \u00F7 %1  \u2192 S\u2032%2")
                                                        : tr("\u00F7 √d_k = \u00F7 %1  \u2192 S\u2032%2"))
                                           .arg(explanationNumber(e->root), at(i, j))
                                     : tr("scaling off (\u00D7 1)  \u2192 S\u2032%1").arg(at(i, j)),
                          e->scaled, id == u"scaled");
    if (e->bias)
        m_table->addLedgerRow(tr("+ B%1  (ALiBi: −m_h·|i − j|)").arg(at(i, j)), *e->bias, id == u"position_bias");
    m_table->addLedgerRow(e->hidden ? tr("+ M%1  (key hidden from this query)").arg(at(i, j)) : tr("+ M%1").arg(at(i, j)),
                          e->mask, id == u"mask");
    m_table->addLedgerRow(tr("= S\u2033%1").arg(at(i, j)), e->masked, id == u"masked_scores");
    m_table->addLedgerRow(e->hidden ? tr("softmax: exp(\u2212\u221E) = 0  \u2192 A%1").arg(at(i, j))
                                    : tr("softmax over row %1  \u2192 A%2").arg(i + 1).arg(at(i, j)),
                          e->weight);
    m_table->finish();

    m_values = {{QStringLiteral("recomputed"), e->sum}, {QStringLiteral("trace"), e->score},
                {QStringLiteral("scaled"), e->scaled},  {QStringLiteral("mask"), e->mask},
                {QStringLiteral("masked"), e->masked},  {QStringLiteral("weight"), e->weight}};

    const QStringList lines = scoreLines(t, *e, id, head, i, j);
    present(tr("query %1 (row %2) \u00B7 key %3 (column %4)").arg(quoted(tokenAt(t, i))).arg(i + 1).arg(quoted(keyTokenAt(t, j))).arg(j + 1),
            lines, false);
}

QStringList CellInspector::scoreLines(const Trace& t, const ScoreExplanation& e, const QString& id, int head, int i, int j) const
{
    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(id));
    if (e.kvHead && e.sharingHeads.size() > 1) {
        // Grouped-query attention: k_j is the shared key/value head's.
        QStringList sharing;
        for (int h : e.sharingHeads)
            sharing << QString::number(h + 1);
        lines << tr("Grouped-query attention: k_%1 is the key of key/value head %2, which query heads %3 share.")
                     .arg(j + 1)
                     .arg(*e.kvHead + 1)
                     .arg(sharing.join(QStringLiteral(", ")));
    }
    if (e.positionScore && e.xlTerms)
        lines << tr("S%1 = (a) + (b) + (c) + (d) = %2 + %3 = %4  ((a) = q_%5\u00B7k_%6)")
                     .arg(at(i, j))
                     .arg(explanationNumber(e.sum), explanationNumber(*e.positionScore), explanationNumber(e.score))
                     .arg(i + 1)
                     .arg(j + 1);
    else if (e.positionScore)
        lines << tr("S%1 = q_%2\u00B7k_%3 + P = %4 + %5 = %6")
                     .arg(at(i, j))
                     .arg(i + 1)
                     .arg(j + 1)
                     .arg(explanationNumber(e.sum), explanationNumber(*e.positionScore), explanationNumber(e.score));
    else
        lines << tr("S%1 = q_%2\u00B7k_%3 = %4  (recomputed here from Q and K: %5)")
                     .arg(at(i, j))
                     .arg(i + 1)
                     .arg(j + 1)
                     .arg(explanationNumber(e.score), explanationNumber(e.sum));
    if (e.scaling)
        lines << (e.rootOfScalar ? tr("S\u2032 = S \u00F7 √query_pre_attn_scalar = %1 \u00F7 %2 = %3") : tr("S\u2032 = S \u00F7 √d_k = %1 \u00F7 %2 = %3"))
                     .arg(explanationNumber(e.score), explanationNumber(e.root), explanationNumber(e.scaled));
    else
        lines << tr("Scaling is off: S\u2032 = S = %1").arg(explanationNumber(e.scaled));
    if (e.hidden) {
        lines << tr("Key %1 is hidden from query %2: S\u2033 = S\u2032 + (\u2212\u221E) = \u2212\u221E")
                     .arg(quoted(keyTokenAt(t, j)), quoted(tokenAt(t, i)));
        lines << tr("A%1 = 0: exp(\u2212\u221E) is exactly 0, so this key gets no attention.").arg(at(i, j));
    } else {
        if (e.bias)
            lines << tr("S\u2033 = S\u2032 + B + M = %1 + %2 + 0 = %3")
                         .arg(explanationNumber(e.scaled), explanationNumber(*e.bias), explanationNumber(e.masked));
        else
            lines << tr("S\u2033 = S\u2032 + M = %1 + 0 = %2").arg(explanationNumber(e.scaled), explanationNumber(e.masked));
        lines << tr("A%1 = %2 after the softmax over row %3").arg(at(i, j), explanationNumber(e.weight)).arg(i + 1);
    }
    return lines;
}

// --- weights: one row before and after softmax -------------------------------------------

void CellInspector::showWeightsRow(const Trace& t, int head, int i, int j)
{
    const std::optional<WeightsRowExplanation> e = explainWeightsRow(t, head, i);
    if (!e) {
        showValue(t, QStringLiteral("weights"), head, i, j);
        return;
    }
    m_mode = Mode::WeightsRow;
    m_maskedKeys = e->maskedKeys;
    const int n = static_cast<int>(e->weights.size());
    const std::vector<QString> keys = keyTokens(t, n);

    // Softmax as the engine does it: subtract the row max, exponentiate, divide by the sum.
    m_table->start({tr("key"), tr("S\u2033[%1, j]").arg(i + 1), tr("exp(S\u2033 \u2212 max)"), tr("A[%1, j]").arg(i + 1)});
    for (int c = 0; c < n; ++c) {
        const auto k = static_cast<std::size_t>(c);
        m_table->addTermRow(keys[k], {e->scores[k], e->softmax.exps[k], e->weights[k]});
    }
    m_table->emphasiseRow(m_table->addTermRow(tr("\u03A3"), {kNaN, e->softmax.sumExp, e->sumWeights}));
    m_table->finish();
    m_table->selectRow(j); // the key that was clicked

    m_values = {{QStringLiteral("max"), e->softmax.max},
                {QStringLiteral("sumExp"), e->softmax.sumExp},
                {QStringLiteral("sum"), e->sumWeights},
                {QStringLiteral("masked"), static_cast<double>(m_maskedKeys.size())}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 row %2 of A = softmax of row %2 of S\u2033").arg(head + 1).arg(i + 1);
    if (e->scaling)
        lines << (e->rootOfScalar ? tr("The scores were divided by √query_pre_attn_scalar = %1 before the softmax.")
                                  : tr("The scores were divided by √d_k = %1 before the softmax."))
                     .arg(explanationNumber(e->root));
    else
        lines << tr("Scaling is off: the softmax sees the raw dot products.");
    if (!m_maskedKeys.empty())
        lines << tr("%1 of %2 keys are masked (\u2212\u221E): exp(\u2212\u221E) = 0, so their weight is exactly 0.")
                     .arg(m_maskedKeys.size())
                     .arg(n);
    if (e->allMasked) {
        lines << tr("Every key is masked: the softmax is undefined, so every weight is 0 (\u03A3 = 0).");
    } else {
        const double sumA = e->sumWeights;
        lines << tr("A[%1, j] = exp(S\u2033[%1, j] \u2212 %2) / %3").arg(i + 1).arg(explanationNumber(e->softmax.max), explanationNumber(e->softmax.sumExp));
        lines << tr("Largest weight: key %1, %2").arg(quoted(keys[static_cast<std::size_t>(e->largest)]), explanationNumber(e->weights[static_cast<std::size_t>(e->largest)]));
        lines << (std::abs(sumA - 1.0) < 1e-4 ? tr("Check: \u03A3_j A[%1, j] = %2 \u2713").arg(i + 1).arg(explanationNumber(sumA))
                                              : tr("Check: \u03A3_j A[%1, j] = %2 (should be 1)").arg(i + 1).arg(explanationNumber(sumA)));
    }
    m_plot->showRow(e->scores, e->weights, m_maskedKeys, keys, tr("Before softmax: S\u2033[%1, j]").arg(i + 1),
                    tr("After softmax: A[%1, j]  (0 \u2026 1, \u03A3 = %2)").arg(i + 1).arg(explanationNumber(e->sumWeights)));
    present(tr("query %1 (row %2) \u00B7 all %3 keys").arg(quoted(tokenAt(t, i))).arg(i + 1).arg(n), lines, true);
}

// --- head_output -----------------------------------------------------------------------------

void CellInspector::showHeadOutput(const Trace& t, int head, int i, int c)
{
    const std::optional<HeadOutputExplanation> e = explainHeadOutput(t, head, i, c);
    if (!e) {
        showValue(t, QStringLiteral("head_output"), head, i, c);
        return;
    }
    m_mode = Mode::HeadOutput;
    const QString dim = label(e->dims, c);

    m_table->start({tr("key j"), tr("A[%1, j]").arg(i + 1),
                    e->relative ? tr("V[j, %1] + a\u2C7D").arg(c + 1) : tr("V[j, %1]").arg(c + 1), tr("A\u00B7V")});
    // Linformer's weights are over its projected rows p1 … pK (V′ = F·V), not over the tokens.
    const Stage* projected = t.find("v_projected", head);
    for (std::size_t j = 0; j < e->terms.size(); ++j)
        m_table->addTermRow(projected ? label(projected->main().rowLabels, static_cast<int>(j)) : keyTokenAt(t, static_cast<int>(j)),
                            {e->weights[j], e->values[j], e->terms[j]});
    m_table->addLedgerRow(tr("\u03A3_j A[%1, j]\u00B7V[j, %2]  (recomputed here)").arg(i + 1).arg(c + 1), e->sum);
    m_table->addLedgerRow(tr("Z%1 from the trace").arg(at(i, c)), e->output, true);
    m_table->finish();
    m_values = {{QStringLiteral("recomputed"), e->sum}, {QStringLiteral("trace"), e->output}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(QStringLiteral("head_output")));
    lines << tr("Z%1 = \u03A3_j A[%2, j]\u00B7V[j, %3] = %4  (recomputed here: %5)")
                 .arg(at(i, c))
                 .arg(i + 1)
                 .arg(c + 1)
                 .arg(explanationNumber(e->output), explanationNumber(e->sum));
    lines << tr("Dimension %1 of every key's value, weighted by how much %2 attends to that key.").arg(dim, quoted(tokenAt(t, i)));
    if (e->largestTerm != 0)
        lines << tr("Largest term: key %1 (A = %2, contributes %3)")
                     .arg(quoted(keyTokenAt(t, e->largest)), explanationNumber(e->weights[static_cast<std::size_t>(e->largest)]),
                          explanationNumber(e->largestTerm));
    if (e->zeroWeights > 0)
        lines << tr("%1 keys have weight 0 (masked or vanishing) and contribute nothing.").arg(e->zeroWeights);
    present(tr("query %1 (row %2) \u00B7 dimension %3 (column %4)").arg(quoted(tokenAt(t, i))).arg(i + 1).arg(dim).arg(c + 1), lines, false);
}

// --- q, k, v -------------------------------------------------------------------------------

void CellInspector::showProjection(const Trace& t, const QString& id, int head, int i, int c)
{
    const std::optional<ProjectionExplanation> e = explainProjection(t, id.toStdString(), head, i, c, kMaxProjectionTerms);
    if (!e) {
        showValue(t, id, head, i, c);
        return;
    }
    m_mode = Mode::Projection;
    const QString letter = e->block == 0 ? QStringLiteral("Q") : e->block == 1 ? QStringLiteral("K") : QStringLiteral("V");
    const QString role = e->block == 0 ? tr("query") : e->block == 1 ? tr("key") : tr("value");
    const QString wName = QStringLiteral("W_%1").arg(letter);
    const int r = e->weightRow;
    const int width = e->inputWidth;
    const int shown = static_cast<int>(e->listed.size());

    // Every term X_i[d]·W[r, d]: the largest (by size) listed, the rest summed.
    m_table->start({tr("dim d"), tr("X[%1, d]").arg(i + 1), tr("%1[%2, d]").arg(wName).arg(r + 1), tr("X\u00B7W")});
    for (const ProjectionExplanation::Term& term : e->listed)
        m_table->addTermRow(label(e->inputDims, term.dim), {term.x, term.w, term.product});
    if (width > shown)
        m_table->addLedgerRow(tr("\u2026 %1 smaller terms, summed").arg(width - shown), e->omitted);
    m_table->addLedgerRow(tr("+ bias b_%1[%2]").arg(letter).arg(r + 1), e->bias);
    m_table->addLedgerRow(tr("\u03A3 + b  (recomputed here)"), e->sum);
    m_table->addLedgerRow(tr("%1%2 from the trace").arg(letter, at(i, c)), e->output, true);
    m_table->finish();
    m_values = {{QStringLiteral("bias"), e->bias},
                {QStringLiteral("recomputed"), e->sum},
                {QStringLiteral("trace"), e->output},
                {QStringLiteral("omitted"), e->omitted}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(id));
    lines << tr("%1%2 = \u03A3_d X[%3, d]\u00B7%4[%5, d] + b_%6[%5] = %7  (recomputed here: %8)")
                 .arg(letter, at(i, c))
                 .arg(i + 1)
                 .arg(wName)
                 .arg(r + 1)
                 .arg(letter, explanationNumber(e->output), explanationNumber(e->sum));
    lines << tr("Row %1 of %2 is row (h \u2212 1)\u00B7d_k + c = (%3 \u2212 1)\u00B7%4 + %5 (row %6 of PyTorch's in_proj_weight).")
                 .arg(r + 1)
                 .arg(wName)
                 .arg(head + 1)
                 .arg(t.config.dK())
                 .arg(c + 1)
                 .arg(e->inProjRow + 1);
    if (width > shown)
        lines << tr("The %1 largest of %2 terms are listed; the others add up to %3.").arg(shown).arg(width).arg(explanationNumber(e->omitted));
    present(tr("%1 of %2 (row %3) \u00B7 %4 (column %5)")
                .arg(role, quoted(e->block == 0 ? tokenAt(t, i) : keyTokenAt(t, i)))
                .arg(i + 1)
                .arg(label(e->outputDims, c))
                .arg(c + 1),
            lines, false);
}

// --- everything else: one line --------------------------------------------------------------

void CellInspector::showValue(const Trace& t, const QString& id, int head, int i, int c)
{
    m_mode = Mode::Value;
    m_plot->hide();
    m_table->hide();
    m_table->start({});
    if (id == u"tokens") {
        m_heading->setText(tr("token %1 (position %2)").arg(quoted(tokenAt(t, i))).arg(i + 1));
        m_heading->show();
        m_summary->setText(tr("Token %1 of %2.").arg(i + 1).arg(t.tokens.size()));
        return;
    }
    const std::string sid = id.toStdString();
    const Stage* stage = stageForHead(t, sid, session()->currentStep().perHead ? std::optional<int>(head) : std::nullopt);
    if (!stage || stage->matrices.empty() || i >= stage->main().values.rows() || c >= stage->main().values.cols()) {
        showHint();
        return;
    }
    const LabeledMatrix& m = stage->main();
    const double value = m.values(i, c);
    m_values = {{QStringLiteral("trace"), value}};
    m_heading->setText(tr("token %1 (row %2) \u00B7 %3 (column %4)").arg(quoted(tokenAt(t, i))).arg(i + 1).arg(label(m.colLabels, c)).arg(c + 1));
    m_heading->show();
    QString line = tr("%1%2 = %3: row %4, column %5 of %6")
                       .arg(QString::fromStdString(m.name), at(i, c), explanationNumber(value))
                       .arg(quoted(label(m.rowLabels, i)), label(m.colLabels, c), stepName(id));
    if (stage->head)
        line = tr("Head %1 \u00B7 ").arg(*stage->head + 1) + line;
    // X = E·s + P: the two parts are in the trace, so say them.
    if (id == u"input") {
        const Stage* e = t.find("embedding");
        const Stage* pe = t.find("positional_encoding");
        if (e && e->matrices.size() > 1 && pe && i < e->matrices[1].values.rows() && c < e->matrices[1].values.cols()) {
            line += QLatin1Char('\n')
                + tr("X%1 = E\u00B7s%1 + P%1 = %2 + %3")
                      .arg(at(i, c), explanationNumber(e->matrices[1].values(i, c)), explanationNumber(pe->main().values(i, c)));
        }
    } else if (const QString f = kindStepFormula(id, t.config.attention, t.config.scaleScores); !f.isEmpty()) {
        line += QLatin1Char('\n') + f; // an attention kind's stage: what it computes
    } else if (id == u"concat" && t.config.dK() > 0) {
        line += QLatin1Char('\n')
            + tr("Column %1 is column %2 of head %3's output Z.").arg(c + 1).arg(c % t.config.dK() + 1).arg(c / t.config.dK() + 1);
    }
    m_summary->setText(line);
}

} // namespace attnlab
