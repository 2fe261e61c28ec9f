#include "views/cellinspector.h"

#include "widgets/refreshwhenvisible.h"
#include "plot/plotting.h"
#include "session/session.h"
#include "session/stages.h"
#include "core/trace.h"
#include "nn/weights.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attnlab {

namespace {

constexpr int kMaxProjectionTerms = 8;   // q/k/v: the largest terms listed, the rest summed
constexpr int kMaxLabelledKeys = 24;     // bar charts: more tick labels than this overlap
constexpr int kMaxBarValueLabels = 12;   // weights above the bars only while they fit
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const QColor kScoreColor(67, 147, 195);   // the blue of the signed heatmap scale
const QColor kWeightColor(0x21, 0x91, 0x8C); // viridis at 0.5: the colour of probabilities
const QColor kMaskedColor(178, 24, 43);   // −∞ markers

/// 4 significant digits, U+2212 for minus, "−∞" for minus infinity, "0" only for an exact zero.
QString formatNumber(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("\u2212\u221E") : QStringLiteral("\u221E");
    if (v == 0.0)
        return QStringLiteral("0");
    return minusSigned(QString::number(v, 'g', 4));
}

QString label(const Labels& labels, int i)
{
    if (labels && i >= 0 && i < static_cast<int>(labels->size()))
        return QString::fromStdString((*labels)[static_cast<std::size_t>(i)]);
    return QString::number(i);
}

QString quoted(const QString& token)
{
    return QStringLiteral("\u201C%1\u201D").arg(token); // “token”
}

QString tokenAt(const Trace& t, int i)
{
    if (i >= 0 && i < static_cast<int>(t.tokens.size()))
        return QString::fromStdString(t.tokens[static_cast<std::size_t>(i)]);
    return QString::number(i);
}

/// The token of key j: the keys' own labels (the source's, in cross-attention), else the sentence's.
QString keyTokenAt(const Trace& t, int j)
{
    if (const Stage* k = t.find("k", 0); k && k->main().rowLabels && j >= 0 && j < static_cast<int>(k->main().rowLabels->size()))
        return QString::fromStdString((*k->main().rowLabels)[static_cast<std::size_t>(j)]);
    return tokenAt(t, j);
}

/// "[2, 5]"
QString at(int r, int c)
{
    return QStringLiteral("[%1, %2]").arg(r).arg(c);
}

/// Tick labels with a real minus sign (U+2212), like every other number in the panel.
class MinusSignTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        return minusSigned(QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision));
    }
};

QSharedPointer<QCPAxisTickerText> keyTicker(const Trace& t)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const Stage* k = t.find("k", 0);
    const int n = k ? static_cast<int>(k->main().values.rows()) : static_cast<int>(t.tokens.size());
    // With many keys label every k-th so the labels stay readable.
    const int step = n <= kMaxLabelledKeys ? 1 : (n + kMaxLabelledKeys - 1) / kMaxLabelledKeys;
    for (int j = 0; j < n; j += step)
        ticker->addTick(j, keyTokenAt(t, j));
    return ticker;
}

} // namespace

CellInspector::CellInspector(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_heading(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_plot(new QCustomPlot(this))
    , m_table(new QTableWidget(this))
{
    auto* layout = new QVBoxLayout(this);
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
    layout->addWidget(m_table, 1);
    layout->addStretch(0);

    m_plot->setMinimumHeight(320);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8); // a compact ledger
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    setupPlot();
    applyPlotStyle();

    auto* redraw = new RefreshWhenVisible(this, [this] { refresh(); });
    connect(m_session, &Session::traceChanged, redraw, &RefreshWhenVisible::request);
    connect(m_session, &Session::stepChanged, redraw, &RefreshWhenVisible::request);
    connect(m_session, &Session::headChanged, redraw, &RefreshWhenVisible::request);
    connect(m_session, &Session::selectionChanged, redraw, &RefreshWhenVisible::request);
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

double CellInspector::tableNumber(int row, int column) const
{
    const QTableWidgetItem* item = m_table->item(row, column);
    if (!item)
        return kNaN;
    const QVariant v = item->data(Qt::UserRole);
    return v.isValid() ? v.toDouble() : kNaN;
}

double CellInspector::shownValue(const QString& key) const
{
    return m_values.value(key, kNaN);
}

void CellInspector::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (m_beforeRect && (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)) {
        applyPlotStyle();
        refresh();
    }
}

// --- the plot ------------------------------------------------------------------------------

void CellInspector::setupPlot()
{
    // Two charts over the same keys: the row before softmax above, after softmax below.
    m_beforeRect = m_plot->axisRect();
    m_plot->plotLayout()->insertRow(0);
    m_beforeTitle = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(0, 0, m_beforeTitle);
    m_afterTitle = new QCPTextElement(m_plot, QString());
    m_plot->plotLayout()->addElement(2, 0, m_afterTitle);
    m_afterRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(3, 0, m_afterRect);
    // Same left margin in both charts, so a key's two bars stand exactly above each other.
    auto* group = new QCPMarginGroup(m_plot);
    m_beforeRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_afterRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);

    for (QCPAxisRect* rect : {m_beforeRect, m_afterRect}) {
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        x->setSubTicks(false);
        x->setTickLength(0, 3);
        x->grid()->setVisible(false);
        rect->axis(QCPAxis::atLeft)->grid()->setZeroLinePen(QPen(Qt::gray, 1)); // the baseline of the bars
    }

    m_scoreBars = new QCPBars(m_beforeRect->axis(QCPAxis::atBottom), m_beforeRect->axis(QCPAxis::atLeft));
    m_scoreBars->setName(QStringLiteral("scores"));
    m_scoreBars->setWidth(0.7);
    m_scoreBars->setPen(Qt::NoPen);
    m_scoreBars->setBrush(kScoreColor);

    m_beforeRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<MinusSignTicker>::create());

    m_weightBars = new QCPBars(m_afterRect->axis(QCPAxis::atBottom), m_afterRect->axis(QCPAxis::atLeft));
    m_weightBars->setName(QStringLiteral("weights"));
    m_weightBars->setWidth(0.7);
    m_weightBars->setPen(Qt::NoPen);
    m_weightBars->setBrush(kWeightColor);

    // Probabilities: always the full 0..1 scale, so small weights look small.
    m_afterRect->axis(QCPAxis::atLeft)->setRange(0, 1.08);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(0.25);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    m_afterRect->axis(QCPAxis::atLeft)->setTicker(ticker);
}

void CellInspector::applyPlotStyle()
{
    // Axis fonts are copied from the widget's font (with its CJK fallback families), since
    // QCustomPlot's axes keep the font they were created with.
    const QColor text = palette().color(QPalette::WindowText);
    m_plot->setBackground(palette().brush(QPalette::Window));
    for (QCPAxisRect* rect : {m_beforeRect, m_afterRect}) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelFont(font());
            axis->setLabelFont(font());
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->setBasePen(QPen(text, 0));
            axis->setTickPen(QPen(text, 0));
        }
    }
    QFont titleFont = font();
    titleFont.setBold(true);
    for (QCPTextElement* title : {m_beforeTitle, m_afterTitle}) {
        title->setFont(titleFont);
        title->setTextColor(text);
    }
}

void CellInspector::clearPlotItems()
{
    m_plot->clearItems(); // the −∞ markers and bar labels of the previous row
}

// --- the table -----------------------------------------------------------------------------

void CellInspector::startTable(const QStringList& headers)
{
    m_table->clearSpans();
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
}

int CellInspector::addTermRow(const QString& text, const std::vector<double>& numbers)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* first = new QTableWidgetItem(text);
    m_table->setItem(row, 0, first);
    for (std::size_t c = 0; c < numbers.size(); ++c) {
        if (std::isnan(numbers[c]))
            continue; // an empty cell
        auto* item = new QTableWidgetItem(formatNumber(numbers[c]));
        item->setData(Qt::UserRole, numbers[c]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(std::isfinite(numbers[c]) ? QString::number(numbers[c], 'g', 9) : formatNumber(numbers[c]));
        m_table->setItem(row, static_cast<int>(c) + 1, item);
    }
    return row;
}

int CellInspector::addLedgerRow(const QString& text, double value, bool emphasised)
{
    const int cols = m_table->columnCount();
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* first = new QTableWidgetItem(text);
    first->setToolTip(text); // the label may be elided in a narrow panel
    auto* number = new QTableWidgetItem(formatNumber(value));
    number->setData(Qt::UserRole, value);
    number->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    number->setToolTip(std::isfinite(value) ? QString::number(value, 'g', 9) : formatNumber(value));
    if (emphasised) {
        QFont f = font();
        f.setBold(true);
        first->setFont(f);
        number->setFont(f);
    }
    m_table->setItem(row, 0, first);
    m_table->setItem(row, cols - 1, number);
    if (cols > 2)
        m_table->setSpan(row, 0, 1, cols - 1); // the explanation reads across the term columns
    return row;
}

void CellInspector::finishTable()
{
    // Numbers take the width they need; the first column (labels, and the ledger rows that
    // span it) takes the rest.
    QHeaderView* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (m_table->columnCount() > 0)
        header->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->scrollToTop();
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
    const auto& trace = m_session->trace();
    const int row = m_session->selectedRow();
    const int col = m_session->selectedColumn();
    if (!trace || row < 0 || col < 0) {
        showHint();
        return;
    }
    const Trace& t = *trace;
    const QString id = m_session->stepId();
    const int head = std::clamp(m_session->head(), 0, std::max(0, t.config.heads - 1));
    const std::string sid = id.toStdString();
    const Stage* stage = t.find(sid, isPerHeadStage(sid) ? std::optional<int>(head) : std::nullopt);
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
    if (id == u"scores" || id == u"scaled" || id == u"mask" || id == u"masked_scores")
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
    startTable({});
}

// --- scores, scaled, mask, masked_scores ---------------------------------------------------

void CellInspector::showScore(const Trace& t, const QString& id, int head, int i, int j)
{
    const Stage* qs = t.find("q", head);
    const Stage* ks = t.find("k", head);
    const Stage* ss = t.find("scores", head);
    const Stage* sc = t.find("scaled", head);
    const Stage* ms = t.find("mask");
    const Stage* mm = t.find("masked_scores", head);
    const Stage* ws = t.find("weights", head);
    if (!qs || !ks || !ss || !sc || !ms || !mm || !ws) {
        showValue(t, id, head, i, j);
        return;
    }
    m_mode = Mode::Score;
    const Eigen::MatrixXf& q = qs->main().values;
    const Eigen::MatrixXf& k = ks->main().values;
    const int dK = static_cast<int>(q.cols());

    m_heading->setText(tr("query %1 (row %2) \u00B7 key %3 (column %4)")
                           .arg(quoted(tokenAt(t, i)))
                           .arg(i)
                           .arg(quoted(keyTokenAt(t, j)))
                           .arg(j));
    m_heading->show();

    // The dot product, term by term, recomputed here from Q and K.
    startTable({tr("dim"), tr("q_%1[d]").arg(i), tr("k_%1[d]").arg(j), tr("q_%1[d]\u00B7k_%2[d]").arg(i).arg(j)});
    double sum = 0;
    for (int d = 0; d < dK; ++d) {
        const double qd = q(i, d);
        const double kd = k(j, d);
        sum += qd * kd;
        addTermRow(label(qs->main().colLabels, d), {qd, kd, qd * kd});
    }
    const double s = ss->main().values(i, j);
    const double scaled = sc->main().values(i, j);
    const double mask = ms->main().values(i, j);
    const double masked = mm->main().values(i, j);
    const double weight = ws->main().values(i, j);
    const bool hidden = std::isinf(mask) && mask < 0;
    const bool scaling = t.config.scaleScores;
    const double root = std::sqrt(static_cast<double>(dK));

    addLedgerRow(tr("\u03A3 = q_%1\u00B7k_%2  (recomputed here)").arg(i).arg(j), sum);
    addLedgerRow(tr("S%1 from the trace").arg(at(i, j)), s, id == u"scores");
    addLedgerRow(scaling ? tr("\u00F7 √d_k = \u00F7 %1  \u2192 S\u2032%2").arg(formatNumber(root), at(i, j))
                         : tr("scaling off (\u00D7 1)  \u2192 S\u2032%1").arg(at(i, j)),
                 scaled, id == u"scaled");
    addLedgerRow(hidden ? tr("+ M%1  (key hidden from this query)").arg(at(i, j)) : tr("+ M%1").arg(at(i, j)), mask,
                 id == u"mask");
    addLedgerRow(tr("= S\u2033%1").arg(at(i, j)), masked, id == u"masked_scores");
    addLedgerRow(hidden ? tr("softmax: exp(\u2212\u221E) = 0  \u2192 A%1").arg(at(i, j))
                        : tr("softmax over row %1  \u2192 A%2").arg(i).arg(at(i, j)),
                 weight);
    finishTable();

    m_values = {{QStringLiteral("recomputed"), sum}, {QStringLiteral("trace"), s},    {QStringLiteral("scaled"), scaled},
                {QStringLiteral("mask"), mask},      {QStringLiteral("masked"), masked}, {QStringLiteral("weight"), weight}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(id));
    lines << tr("S%1 = q_%2\u00B7k_%3 = %4  (recomputed here from Q and K: %5)")
                 .arg(at(i, j))
                 .arg(i)
                 .arg(j)
                 .arg(formatNumber(s), formatNumber(sum));
    if (scaling)
        lines << tr("S\u2032 = S \u00F7 √d_k = %1 \u00F7 %2 = %3").arg(formatNumber(s), formatNumber(root), formatNumber(scaled));
    else
        lines << tr("Scaling is off: S\u2032 = S = %1").arg(formatNumber(scaled));
    if (hidden) {
        lines << tr("Key %1 is hidden from query %2: S\u2033 = S\u2032 + (\u2212\u221E) = \u2212\u221E")
                     .arg(quoted(keyTokenAt(t, j)), quoted(tokenAt(t, i)));
        lines << tr("A%1 = 0: exp(\u2212\u221E) is exactly 0, so this key gets no attention.").arg(at(i, j));
    } else {
        lines << tr("S\u2033 = S\u2032 + M = %1 + 0 = %2").arg(formatNumber(scaled), formatNumber(masked));
        lines << tr("A%1 = %2 after the softmax over row %3").arg(at(i, j), formatNumber(weight)).arg(i);
    }
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_plot->hide();
    m_table->show();
}

// --- weights: one row before and after softmax -------------------------------------------

void CellInspector::showWeightsRow(const Trace& t, int head, int i, int j)
{
    const Stage* mm = t.find("masked_scores", head);
    const Stage* ws = t.find("weights", head);
    if (!mm || !ws) {
        showValue(t, QStringLiteral("weights"), head, i, j);
        return;
    }
    m_mode = Mode::WeightsRow;
    const Eigen::MatrixXf& s = mm->main().values;
    const Eigen::MatrixXf& a = ws->main().values;
    const int n = static_cast<int>(a.cols());

    m_heading->setText(tr("query %1 (row %2) \u00B7 all %3 keys").arg(quoted(tokenAt(t, i))).arg(i).arg(n));
    m_heading->show();

    // Softmax as the engine does it: subtract the row max, exponentiate, divide by the sum.
    double max = -std::numeric_limits<double>::infinity();
    for (int c = 0; c < n; ++c) {
        if (std::isfinite(s(i, c)))
            max = std::max(max, static_cast<double>(s(i, c)));
        else
            m_maskedKeys.push_back(c);
    }
    const bool allMasked = !std::isfinite(max);
    std::vector<double> e(static_cast<std::size_t>(n), 0.0);
    double sumExp = 0;
    double sumA = 0;
    for (int c = 0; c < n; ++c) {
        if (!allMasked && std::isfinite(s(i, c)))
            e[static_cast<std::size_t>(c)] = std::exp(static_cast<double>(s(i, c)) - max);
        sumExp += e[static_cast<std::size_t>(c)];
        sumA += a(i, c);
    }

    startTable({tr("key"), tr("S\u2033[%1, j]").arg(i),
                tr("exp(S\u2033 \u2212 max)"), tr("A[%1, j]").arg(i)});
    for (int c = 0; c < n; ++c)
        addTermRow(keyTokenAt(t, c), {s(i, c), e[static_cast<std::size_t>(c)], a(i, c)});
    const int sumRow = addTermRow(tr("\u03A3"), {kNaN, sumExp, sumA});
    QFont bold = font();
    bold.setBold(true);
    for (int c = 0; c < m_table->columnCount(); ++c) {
        if (auto* item = m_table->item(sumRow, c))
            item->setFont(bold);
    }
    finishTable();
    m_table->selectRow(j); // the key that was clicked

    m_values = {{QStringLiteral("max"), max},
                {QStringLiteral("sumExp"), sumExp},
                {QStringLiteral("sum"), sumA},
                {QStringLiteral("masked"), static_cast<double>(m_maskedKeys.size())}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 row %2 of A = softmax of row %2 of S\u2033").arg(head + 1).arg(i);
    if (t.config.scaleScores)
        lines << tr("The scores were divided by √d_k = %1 before the softmax.")
                     .arg(formatNumber(std::sqrt(static_cast<double>(t.config.dK()))));
    else
        lines << tr("Scaling is off: the softmax sees the raw dot products.");
    if (!m_maskedKeys.empty())
        lines << tr("%1 of %2 keys are masked (\u2212\u221E): exp(\u2212\u221E) = 0, so their weight is exactly 0.")
                     .arg(m_maskedKeys.size())
                     .arg(n);
    if (allMasked) {
        lines << tr("Every key is masked: the softmax is undefined, so every weight is 0 (\u03A3 = 0).");
    } else {
        int best = 0;
        for (int c = 1; c < n; ++c)
            best = a(i, c) > a(i, best) ? c : best;
        lines << tr("A[%1, j] = exp(S\u2033[%1, j] \u2212 %2) / %3").arg(i).arg(formatNumber(max), formatNumber(sumExp));
        lines << tr("Largest weight: key %1, %2").arg(quoted(keyTokenAt(t, best)), formatNumber(a(i, best)));
        lines << (std::abs(sumA - 1.0) < 1e-4 ? tr("Check: \u03A3_j A[%1, j] = %2 \u2713").arg(i).arg(formatNumber(sumA))
                                              : tr("Check: \u03A3_j A[%1, j] = %2 (should be 1)").arg(i).arg(formatNumber(sumA)));
    }
    m_summary->setText(lines.join(QLatin1Char('\n')));

    // Bars: finite scores above, all weights below; masked keys get a −∞ marker, not a bar.
    clearPlotItems();
    QVector<double> scoreKeys, scoreValues, keys, weights;
    double lo = 0;
    double hi = 0;
    for (int c = 0; c < n; ++c) {
        keys << c;
        weights << a(i, c);
        if (std::isfinite(s(i, c))) {
            scoreKeys << c;
            scoreValues << s(i, c);
            lo = std::min(lo, static_cast<double>(s(i, c)));
            hi = std::max(hi, static_cast<double>(s(i, c)));
        }
    }
    m_scoreBars->setData(scoreKeys, scoreValues, true);
    m_weightBars->setData(keys, weights, true);
    const double span = std::max(hi - lo, 1e-6);
    // Room below the baseline for the arrows that point down to −∞.
    if (!m_maskedKeys.empty())
        lo = std::min(lo, -0.35 * span);
    QCPAxis* beforeX = m_beforeRect->axis(QCPAxis::atBottom);
    QCPAxis* beforeY = m_beforeRect->axis(QCPAxis::atLeft);
    QCPAxis* afterX = m_afterRect->axis(QCPAxis::atBottom);
    QCPAxis* afterY = m_afterRect->axis(QCPAxis::atLeft);
    beforeY->setRange(lo - 0.08 * span, hi + 0.15 * span);
    for (QCPAxis* x : {beforeX, afterX}) {
        x->setRange(-0.5, n - 0.5);
        x->setTicker(keyTicker(t));
    }
    // Upright key labels when they fit under their bars (CJK characters, short words).
    const QFontMetrics fm(beforeX->tickLabelFont());
    int widest = 0;
    for (int c = 0; c < n; ++c)
        widest = std::max(widest, fm.horizontalAdvance(keyTokenAt(t, c)));
    const int barWidth = n > 0 ? std::max(m_plot->width() - 70, 150) / n : 0;
    for (QCPAxis* x : {beforeX, afterX})
        x->setTickLabelRotation(widest + 4 <= barWidth ? 0 : -60);

    QFont markerFont = font();
    markerFont.setBold(true);
    for (int c : m_maskedKeys) {
        auto* arrow = new QCPItemLine(m_plot);
        arrow->setClipAxisRect(m_beforeRect);
        arrow->start->setAxes(beforeX, beforeY);
        arrow->end->setAxes(beforeX, beforeY);
        arrow->start->setCoords(c, 0);
        arrow->end->setCoords(c, lo - 0.08 * span);
        arrow->setPen(QPen(kMaskedColor, 1.5, Qt::DashLine));
        arrow->setHead(QCPLineEnding::esFlatArrow);
        auto* text = new QCPItemText(m_plot);
        text->setClipAxisRect(m_beforeRect);
        text->position->setAxes(beforeX, beforeY);
        text->position->setCoords(c, 0);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setText(QStringLiteral("\u2212\u221E"));
        text->setFont(markerFont);
        text->setColor(kMaskedColor);
    }
    if (n <= kMaxBarValueLabels) {
        QFont small = font();
        small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
        for (int c = 0; c < n; ++c) {
            auto* text = new QCPItemText(m_plot);
            text->setClipAxisRect(m_afterRect);
            text->position->setAxes(afterX, afterY);
            text->position->setCoords(c, a(i, c));
            text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            // Exactly 0 (a masked key) reads "0", never a rounded "0.00".
            text->setText(a(i, c) == 0.0f ? QStringLiteral("0") : QString::number(static_cast<double>(a(i, c)), 'f', 2));
            text->setFont(small);
            text->setColor(palette().color(QPalette::WindowText));
        }
    }
    m_beforeTitle->setText(tr("Before softmax: S\u2033[%1, j]").arg(i));
    m_afterTitle->setText(tr("After softmax: A[%1, j]  (0 \u2026 1, \u03A3 = %2)").arg(i).arg(formatNumber(sumA)));
    m_plot->show();
    m_table->show();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// --- head_output -----------------------------------------------------------------------------

void CellInspector::showHeadOutput(const Trace& t, int head, int i, int c)
{
    const Stage* ws = t.find("weights", head);
    const Stage* vs = t.find("v", head);
    const Stage* zs = t.find("head_output", head);
    if (!ws || !vs || !zs || c >= vs->main().values.cols()) {
        showValue(t, QStringLiteral("head_output"), head, i, c);
        return;
    }
    m_mode = Mode::HeadOutput;
    const Eigen::MatrixXf& a = ws->main().values;
    const Eigen::MatrixXf& v = vs->main().values;
    const double z = zs->main().values(i, c);
    const int n = static_cast<int>(a.cols());
    const QString dim = label(zs->main().colLabels, c);

    m_heading->setText(tr("query %1 (row %2) \u00B7 dimension %3 (column %4)").arg(quoted(tokenAt(t, i))).arg(i).arg(dim).arg(c));
    m_heading->show();

    startTable({tr("key j"), tr("A[%1, j]").arg(i), tr("V[j, %1]").arg(c), tr("A\u00B7V")});
    double sum = 0;
    int best = 0;
    double bestTerm = 0;
    int zeroWeights = 0;
    for (int j = 0; j < n; ++j) {
        const double term = static_cast<double>(a(i, j)) * v(j, c);
        sum += term;
        if (std::abs(term) > std::abs(bestTerm)) {
            bestTerm = term;
            best = j;
        }
        zeroWeights += a(i, j) == 0.0f ? 1 : 0;
        addTermRow(keyTokenAt(t, j), {a(i, j), v(j, c), term});
    }
    addLedgerRow(tr("\u03A3_j A[%1, j]\u00B7V[j, %2]  (recomputed here)").arg(i).arg(c), sum);
    addLedgerRow(tr("Z%1 from the trace").arg(at(i, c)), z, true);
    finishTable();
    m_values = {{QStringLiteral("recomputed"), sum}, {QStringLiteral("trace"), z}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(QStringLiteral("head_output")));
    lines << tr("Z%1 = \u03A3_j A[%2, j]\u00B7V[j, %3] = %4  (recomputed here: %5)")
                 .arg(at(i, c))
                 .arg(i)
                 .arg(c)
                 .arg(formatNumber(z), formatNumber(sum));
    lines << tr("Dimension %1 of every key's value, weighted by how much %2 attends to that key.").arg(dim, quoted(tokenAt(t, i)));
    if (bestTerm != 0)
        lines << tr("Largest term: key %1 (A = %2, contributes %3)")
                     .arg(quoted(keyTokenAt(t, best)), formatNumber(a(i, best)), formatNumber(bestTerm));
    if (zeroWeights > 0)
        lines << tr("%1 keys have weight 0 (masked or vanishing) and contribute nothing.").arg(zeroWeights);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_plot->hide();
    m_table->show();
}

// --- q, k, v -------------------------------------------------------------------------------

void CellInspector::showProjection(const Trace& t, const QString& id, int head, int i, int c)
{
    const int p = id == u"q" ? 0 : id == u"k" ? 1 : 2; // block of in_proj_weight: W_Q, W_K, W_V
    // Keys and values come from "key_input" when it differs (cross-attention: the encoder output).
    const Stage* xs = p > 0 && t.find("key_input") ? t.find("key_input") : t.find("input");
    const Stage* ps = t.find(id.toStdString(), head);
    const int d = t.config.dModel;
    const int dK = t.config.dK();
    const int r = head * dK + c;      // row of W_Q (W_K, W_V) for this head's column c
    const int absolute = p * d + r;  // row of in_proj_weight
    const AttentionWeights* w = t.weights.get();
    if (!xs || !ps || !w || absolute >= w->inProjWeight.rows() || w->inProjWeight.cols() != xs->main().values.cols()
        || absolute >= w->inProjBias.size()) {
        showValue(t, id, head, i, c);
        return;
    }
    m_mode = Mode::Projection;
    const QString letter = p == 0 ? QStringLiteral("Q") : p == 1 ? QStringLiteral("K") : QStringLiteral("V");
    const QString role = p == 0 ? tr("query") : p == 1 ? tr("key") : tr("value");
    const Eigen::MatrixXf& x = xs->main().values;
    const double official = ps->main().values(i, c);
    const double bias = w->inProjBias(absolute);

    m_heading->setText(tr("%1 of %2 (row %3) \u00B7 %4 (column %5)")
                           .arg(role, quoted(p == 0 ? tokenAt(t, i) : keyTokenAt(t, i)))
                           .arg(i)
                           .arg(label(ps->main().colLabels, c))
                           .arg(c));
    m_heading->show();

    // Every term X_i[d]·W[r, d]; the largest (by size) are listed, the rest summed.
    const int width = static_cast<int>(x.cols());
    std::vector<double> terms(static_cast<std::size_t>(width));
    for (int k = 0; k < width; ++k)
        terms[static_cast<std::size_t>(k)] = static_cast<double>(x(i, k)) * w->inProjWeight(absolute, k);
    std::vector<int> order(static_cast<std::size_t>(width));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(terms[static_cast<std::size_t>(a)]) > std::abs(terms[static_cast<std::size_t>(b)]);
    });
    const int shown = std::min(width, kMaxProjectionTerms);
    const QString wName = QStringLiteral("W_%1").arg(letter);
    startTable({tr("dim d"), tr("X[%1, d]").arg(i), tr("%1[%2, d]").arg(wName).arg(r), tr("X\u00B7W")});
    double sum = bias;
    double omitted = 0;
    for (int k = 0; k < width; ++k) {
        const int dim = order[static_cast<std::size_t>(k)];
        const double term = terms[static_cast<std::size_t>(dim)];
        sum += term;
        if (k < shown)
            addTermRow(label(xs->main().colLabels, dim), {x(i, dim), w->inProjWeight(absolute, dim), term});
        else
            omitted += term;
    }
    if (width > shown)
        addLedgerRow(tr("\u2026 %1 smaller terms, summed").arg(width - shown), omitted);
    addLedgerRow(tr("+ bias b_%1[%2]").arg(letter).arg(r), bias);
    addLedgerRow(tr("\u03A3 + b  (recomputed here)"), sum);
    addLedgerRow(tr("%1%2 from the trace").arg(letter, at(i, c)), official, true);
    finishTable();
    m_values = {{QStringLiteral("bias"), bias},
                {QStringLiteral("recomputed"), sum},
                {QStringLiteral("trace"), official},
                {QStringLiteral("omitted"), omitted}};

    QStringList lines;
    lines << tr("Head %1 \u00B7 %2").arg(head + 1).arg(stepName(id));
    lines << tr("%1%2 = \u03A3_d X[%3, d]\u00B7%4[%5, d] + b_%6[%5] = %7  (recomputed here: %8)")
                 .arg(letter, at(i, c))
                 .arg(i)
                 .arg(wName)
                 .arg(r)
                 .arg(letter, formatNumber(official), formatNumber(sum));
    lines << tr("Row %1 of %2 is row h·d_k + c = %3\u00B7%4 + %5 (row %6 of in_proj_weight).")
                 .arg(r)
                 .arg(wName)
                 .arg(head)
                 .arg(dK)
                 .arg(c)
                 .arg(absolute);
    if (width > shown)
        lines << tr("The %1 largest of %2 terms are listed; the others add up to %3.").arg(shown).arg(width).arg(formatNumber(omitted));
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_plot->hide();
    m_table->show();
}

// --- everything else: one line --------------------------------------------------------------

void CellInspector::showValue(const Trace& t, const QString& id, int head, int i, int c)
{
    m_mode = Mode::Value;
    m_plot->hide();
    m_table->hide();
    startTable({});
    if (id == u"tokens") {
        m_heading->setText(tr("token %1 (position %2)").arg(quoted(tokenAt(t, i))).arg(i));
        m_heading->show();
        m_summary->setText(tr("Token %1 of %2.").arg(i).arg(t.tokens.size()));
        return;
    }
    const std::string sid = id.toStdString();
    const Stage* stage = t.find(sid, isPerHeadStage(sid) ? std::optional<int>(head) : std::nullopt);
    if (!stage || stage->matrices.empty() || i >= stage->main().values.rows() || c >= stage->main().values.cols()) {
        showHint();
        return;
    }
    const LabeledMatrix& m = stage->main();
    const double value = m.values(i, c);
    m_values = {{QStringLiteral("trace"), value}};
    m_heading->setText(tr("token %1 (row %2) \u00B7 %3 (column %4)").arg(quoted(tokenAt(t, i))).arg(i).arg(label(m.colLabels, c)).arg(c));
    m_heading->show();
    QString line = tr("%1%2 = %3: row %4, column %5 of %6")
                       .arg(QString::fromStdString(m.name), at(i, c), formatNumber(value))
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
                      .arg(at(i, c), formatNumber(e->matrices[1].values(i, c)), formatNumber(pe->main().values(i, c)));
        }
    } else if (id == u"concat" && t.config.dK() > 0) {
        line += QLatin1Char('\n')
            + tr("Column %1 is column %2 of head %3's output Z.").arg(c).arg(c % t.config.dK()).arg(c / t.config.dK() + 1);
    }
    m_summary->setText(line);
}

} // namespace attnlab
