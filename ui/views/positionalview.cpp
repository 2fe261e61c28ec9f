#include "views/positionalview.h"

#include "plot/palette.h"

#include "views/heatmapview.h"
#include "plot/fitting.h"
#include "plot/plotting.h"
#include "session/session.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace attnlab {

namespace {

/// Okabe–Ito, ordered so the first curves are the most distinct on white (yellow last).
const QColor kCurveColors[PositionalEncodingView::kMaxCurves] = {
    okabeIto(Okabe::Blue), okabeIto(Okabe::Vermillion), okabeIto(Okabe::BluishGreen), okabeIto(Okabe::ReddishPurple),
    okabeIto(Okabe::Orange), okabeIto(Okabe::SkyBlue), QColor(0, 0, 0), okabeIto(Okabe::Yellow),
};

QString kindName(PositionalEncoding kind)
{
    const std::string_view name = toString(kind);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

Labels numberLabels(int count, const char* prefix = "")
{
    auto v = std::make_shared<std::vector<std::string>>();
    v->reserve(static_cast<std::size_t>(count));
    for (int i = 1; i <= count; ++i) // counted from 1, as every other view's rows and columns
        v->push_back(prefix + std::to_string(i));
    return v;
}

/// A dashed line across the plot's axis rect, in plot coordinates.
QCPItemLine* dashedLine(QCustomPlot* plot, double x0, double y0, double x1, double y1)
{
    auto* line = new QCPItemLine(plot);
    line->start->setCoords(x0, y0);
    line->end->setCoords(x1, y1);
    line->setPen(QPen(QColor(20, 20, 20), 2, Qt::DashLine));
    line->setClipToAxisRect(true);
    return line;
}

} // namespace

PositionalEncodingView::PositionalEncodingView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_kind(new QComboBox(this))
    , m_dimsEdit(new QLineEdit(this))
    , m_message(new QLabel(this))
    , m_caption(new QLabel(this))
    , m_matrix(new HeatmapView(this))
    , m_curves(new QCustomPlot(this))
    , m_similarity(new HeatmapView(this))
{
    auto* root = new QVBoxLayout(this);
    setUpControls(root);
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    root->addWidget(m_caption);

    // The table on the left (tall: one row per position); waves and similarity on the right.
    auto* plots = new QHBoxLayout;
    plots->addWidget(m_matrix, 4);
    auto* right = new QVBoxLayout;
    right->addWidget(m_curves, 11);
    right->addWidget(m_similarity, 9);
    plots->addLayout(right, 5);
    root->addLayout(plots, 1);
    setUpCurvesPlot();
    retranslate();
    applyFonts();

    // The sentence markers and P = 0 notes go again whenever the heatmaps redraw (which removes items).
    connect(m_matrix->plot(), &QCustomPlot::beforeReplot, this, &PositionalEncodingView::decoratePlots);
    connect(m_similarity->plot(), &QCustomPlot::beforeReplot, this, &PositionalEncodingView::decoratePlots);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &PositionalEncodingView::applyKind);
    connect(m_dimsEdit, &QLineEdit::textChanged, this, [this] {
        parseDimensions();
        drawCurves();
    });
    connect(session, &Session::inputChanged, this, &PositionalEncodingView::followConfig);
    connect(session, &Session::traceChanged, this, &PositionalEncodingView::followConfig); // a model's own positions
    connect(session, &Session::highlightChanged, this, [this] { m_matrix->setHighlight(this->session()->highlight()); });
    followConfig();
    refresh();
}

void PositionalEncodingView::setUpControls(QVBoxLayout* root)
{
    auto* controls = new QHBoxLayout;
    m_kindLabel = new QLabel(this);
    m_kindLabel->setBuddy(m_kind);
    controls->addWidget(m_kindLabel);
    for (const PositionalEncoding p : {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None})
        m_kind->addItem(QString(), kindName(p));
    controls->addWidget(m_kind);
    controls->addSpacing(16);
    m_dimsLabel = new QLabel(this);
    m_dimsLabel->setBuddy(m_dimsEdit);
    controls->addWidget(m_dimsLabel);
    m_dimsEdit->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0, 1, 10, 11, 20, 21")) + 24);
    controls->addWidget(m_dimsEdit);
    m_message->setWordWrap(true);
    m_message->setVisible(false);
    controls->addWidget(m_message, 10);
    controls->addStretch(1); // keeps the controls together while the message is hidden
    root->addLayout(controls);
}

void PositionalEncodingView::setUpCurvesPlot()
{
    // Curves: x = position, y = PE value; a title row above and the legend under the plot.
    m_curves->plotLayout()->insertRow(0);
    m_curvesTitle = new QCPTextElement(m_curves);
    m_curves->plotLayout()->addElement(0, 0, m_curvesTitle);
    keepTextsFitting(m_curves); // the title breaks into lines, the legend takes the columns that fit
    m_curves->yAxis->setRange(-1.15, 1.15); // every encoding here lies in [-1, 1]: a fixed, honest range
    m_curves->legend->setVisible(true);
    m_curves->axisRect()->insetLayout()->take(m_curves->legend);
    m_curves->plotLayout()->addElement(2, 0, m_curves->legend);
    m_curves->plotLayout()->setRowStretchFactor(2, 0.001); // the legend takes only what it needs
    m_curves->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_curves->legend->setWrap(2);
    m_curves->legend->setBorderPen(Qt::NoPen);
    m_curves->setMinimumHeight(200);
}

void PositionalEncodingView::applyFonts()
{
    applyPlotFonts(m_curves, font()); // the widget's font, with its CJK fallback families
}

void PositionalEncodingView::followConfig()
{
    // The session may change elsewhere (a loaded session file, the settings panel).
    // A trained model's positions are part of it: the trace says which, and they cannot change.
    const ModelKind model = session()->config().model;
    const bool fixed = model == ModelKind::Reversal || model == ModelKind::File;
    const QString name = kindName(fixed && session()->trace() ? session()->trace()->config.positional : session()->config().positional);
    const QSignalBlocker block(m_kind); // following is not choosing: do not call setConfig back
    m_kind->setCurrentIndex(m_kind->findData(name));
    m_kind->setEnabled(!fixed);
    m_kind->setToolTip(fixed ? tr("Part of the trained model: it learned its weights with these positions") : QString());
}

void PositionalEncodingView::applyKind()
{
    const auto kind = parsePositionalEncoding(m_kind->currentData().toString().toStdString());
    if (!kind)
        return;
    Config c = session()->config();
    c.positional = *kind;
    session()->setConfig(c);
}

std::vector<int> PositionalEncodingView::defaultDimensions() const
{
    // The fastest pair (sin and cos of i = 0), a middle frequency and a slow one.
    std::vector<int> dims{0, 1, 2 * (m_dModel / 8), 2 * (m_dModel / 4)};
    std::vector<int> out;
    for (int d : dims) {
        if (d < m_dModel && std::find(out.begin(), out.end(), d) == out.end())
            out.push_back(d);
    }
    return out;
}

void PositionalEncodingView::refresh()
{
    const auto& trace = session()->trace();
    if (!trace)
        return;
    const int oldTokens = m_tokens;
    m_tokens = static_cast<int>(trace->tokens.size());
    const int oldD = m_dModel;
    m_dModel = trace->config.dModel;
    const int positions = std::max(m_tokens, kMinPositions);
    const bool sameTable = drawTables(positions);
    m_matrix->setHighlight(session()->highlight()); // a lesson's rows (positions) and columns (dimensions)
    if (sameTable && m_tokens != oldTokens) {
        // Only the sentence's length changed: move its markers.
        for (HeatmapView* view : {m_matrix, m_similarity}) {
            QCustomPlot* p = view->plot();
            for (int i = p->itemCount() - 1; i >= 0; --i) {
                if (p->item(i)->objectName().startsWith(QLatin1String("sentenceMarker")))
                    p->removeItem(i);
            }
        }
        decoratePlots();
        m_matrix->plot()->replot(QCustomPlot::rpQueuedReplot);
        m_similarity->plot()->replot(QCustomPlot::rpQueuedReplot);
    }
    followDimensions(oldD);
    if (!sameTable || m_tokens != oldTokens || m_dModel != oldD)
        drawCurves();
    writeCaption(positions);
}

bool PositionalEncodingView::drawTables(int positions)
{
    Eigen::MatrixXf table = session()->positionalTable(positions);
    // Typing a short sentence changes neither the table nor P·Pᵀ: redraw only what changed.
    if (table.rows() == m_table.rows() && table.cols() == m_table.cols() && table == m_table)
        return true;
    m_table = std::move(table);
    m_sim = m_table * m_table.transpose(); // (P x P) = P (P x d) · Pᵀ (d x P)
    m_allZero = m_table.isZero(0);
    const Labels posLabels = numberLabels(positions);
    m_matrix->setMatrix({"P", m_table, posLabels, numberLabels(m_dModel, "d")},
                        tr("Positional encoding P: %1 positions × %2 dimensions").arg(positions).arg(m_dModel),
                        HeatmapView::Scale::Signed);
    m_similarity->setMatrix({"P\u00B7P\u1D40", m_sim, posLabels, posLabels},
                            tr("Similarity P·Pᵀ of every position with every other"), HeatmapView::Scale::Signed);
    decoratePlots();
    return false;
}

void PositionalEncodingView::followDimensions(int oldDModel)
{
    // A box still holding its default follows a new d_model; a typed one is re-checked.
    QStringList parts;
    for (int d : defaultDimensions())
        parts << QString::number(d + 1); // counted from 1, as the table's columns
    const QString defaults = parts.join(QStringLiteral(", "));
    if (m_dimsEdit->text() == m_defaultDimsText || oldDModel == 0) {
        m_defaultDimsText = defaults;
        const QSignalBlocker block(m_dimsEdit);
        m_dimsEdit->setText(defaults);
    }
    parseDimensions();
}

void PositionalEncodingView::writeCaption(int positions)
{
    // How much is shown, where the sentence is, and what this encoding means.
    const auto& trace = session()->trace();
    QString shown = m_tokens < positions
        ? tr("Showing %1 positions (1–%2) × %3 dimensions. The sentence's %4 tokens are the first %4 rows "
             "(above the dashed line); the rest show how the pattern continues.")
              .arg(positions)
              .arg(positions)
              .arg(m_dModel)
              .arg(m_tokens)
        : tr("Showing the sentence's %1 positions × %2 dimensions.").arg(positions).arg(m_dModel);
    QString meaning;
    switch (trace->config.positional) {
    case PositionalEncoding::Sinusoidal:
        meaning = tr("Each pair of columns is a sine and a cosine: low dimensions oscillate fast, high ones slowly, "
                     "so every position gets its own code and nearby positions get similar codes (the dark band "
                     "along the diagonal of P·Pᵀ).");
        break;
    case PositionalEncoding::Learned:
        meaning = tr("A learned table starts as seeded random numbers, as BERT's does before training: it has no notion "
                     "of distance yet, so nearby positions are no more alike than distant ones.");
        break;
    case PositionalEncoding::None:
        meaning = trace->config.embedScale
            ? tr("No positional encoding: P is all zeros, so X = E·√d_model and attention cannot tell word order — "
                 "reordering the words only reorders the rows of every result.")
            : tr("No positional encoding: P is all zeros, so X = E and attention cannot tell word order — "
                 "reordering the words only reorders the rows of every result.");
        break;
    case PositionalEncoding::Rope:
        meaning = tr("RoPE adds nothing to X: P is all zeros. Position enters inside attention, where each head's q and k "
                     "are rotated pair by pair by an angle that grows with the position, so q_m·k_n depends on m − n only.");
        break;
    case PositionalEncoding::Alibi:
        meaning = tr("ALiBi adds nothing to X: P is all zeros. Position enters the scores instead: each head adds "
                     "−m_h·|i − j|, a penalty that grows with the distance between query and key.");
        break;
    case PositionalEncoding::Relative:
        meaning = tr("Relative positions add nothing to X: P is all zeros. Position enters inside attention: each score gets "
                     "q_i·a^K for the distance j − i, and each output the values a^V of the distances it attends, "
                     "clipped to [−K, K].");
        break;
    case PositionalEncoding::Xl:
        meaning = tr("Transformer-XL adds nothing to X: P is all zeros. The input is cut into segments; each attends its own "
                     "tokens and a memory of the rows before it, with scores built from the distances i − j.");
        break;
    }
    m_caption->setText(shown + QLatin1Char(' ') + meaning);
}

void PositionalEncodingView::decoratePlots()
{
    // P = 0: say so on the plots themselves, so a white square is not taken for a fault.
    if (m_allZero) {
        for (HeatmapView* view : {m_matrix, m_similarity}) {
            QPointer<QObject>& note = view == m_matrix ? m_matrixNote : m_similarityNote;
            if (note)
                continue;
            auto* text = new QCPItemText(view->plot());
            text->setObjectName(QStringLiteral("zeroNote"));
            text->position->setType(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(0.5, 0.5);
            text->setText(view == m_matrix ? tr("P = 0 everywhere:\nno position information")
                                           : tr("P·Pᵀ = 0:\nevery position looks the same"));
            QFont f = font();
            f.setPointSizeF(f.pointSizeF() * 1.3);
            f.setBold(true);
            text->setFont(f);
            text->setColor(QColor(90, 90, 90));
            text->setBrush(QColor(255, 255, 255, 220));
            text->setPadding(QMargins(8, 6, 8, 6));
            note = text;
        }
    }
    // A dashed line under the sentence's own rows (and a box around its block of P·Pᵀ), when
    // more positions than the sentence has are shown.
    const int rows = static_cast<int>(m_table.rows());
    if (m_tokens <= 0 || m_tokens >= rows)
        return;
    const double edge = m_tokens - 0.5;
    if (!m_matrixMarker) {
        QCustomPlot* p = m_matrix->plot();
        m_matrixMarker = dashedLine(p, -0.5, edge, m_table.cols() - 0.5, edge);
        m_matrixMarker->setObjectName(QStringLiteral("sentenceMarker"));
    }
    if (!m_similarityMarker) {
        QCustomPlot* p = m_similarity->plot();
        m_similarityMarker = dashedLine(p, -0.5, edge, edge, edge);
        m_similarityMarker->setObjectName(QStringLiteral("sentenceMarker"));
        dashedLine(p, edge, -0.5, edge, edge)->setObjectName(QStringLiteral("sentenceMarkerEdge"));
    }
}

QString PositionalEncodingView::legendName(int dim) const
{
    const auto kind = session()->trace()->config.positional;
    if (kind == PositionalEncoding::Learned)
        return tr("dim %1 (learned)").arg(dim + 1);
    if (kind == PositionalEncoding::None)
        return tr("dim %1 (P = 0)").arg(dim + 1);
    // PE(pos, 2i) = sin(pos / 10000^(2i/d)): the wave repeats every 2π·10000^(2i/d) positions.
    // Column `dim` (from 0) is shown as dim + 1, with the formula's own i.
    const int i = dim / 2;
    const bool isSin = dim % 2 == 0;
    const double period = 2 * std::numbers::pi * std::pow(10000.0, 2.0 * i / m_dModel);
    const QString periodText = period < 100 ? QString::number(period, 'f', 1) : QString::number(period, 'f', 0);
    return tr("dim %1 (%2, i=%3), period %4")
        .arg(dim + 1)
        .arg(isSin ? QStringLiteral("sin") : QStringLiteral("cos"))
        .arg(i)
        .arg(periodText);
}

void PositionalEncodingView::parseDimensions()
{
    const auto fail = [this](const QString& why) {
        m_message->setText(why);
        m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
        m_message->setVisible(true);
        // Keep the last good choice, minus what no longer exists; never an empty plot.
        std::erase_if(m_dims, [this](int d) { return d >= m_dModel; });
        if (m_dims.empty())
            m_dims = defaultDimensions();
    };
    const QStringList parts = m_dimsEdit->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return fail(tr("Type at least one dimension number (1 to %1).").arg(m_dModel));
    std::vector<int> dims;
    for (const QString& part : parts) {
        bool ok = false;
        const int d = part.toInt(&ok);
        if (!ok)
            return fail(tr("“%1” is not a dimension: type numbers from 1 to %2 separated by commas.").arg(part).arg(m_dModel));
        if (d < 1 || d > m_dModel)
            return fail(tr("There is no dimension %1: d_model is %2, so dimensions run from 1 to %2.").arg(d).arg(m_dModel));
        // Typed from 1 (the columns' labels d1, d2, …), kept from 0.
        if (std::find(dims.begin(), dims.end(), d - 1) == dims.end())
            dims.push_back(d - 1);
    }
    m_message->setStyleSheet(QString());
    if (static_cast<int>(dims.size()) > kMaxCurves) {
        dims.resize(kMaxCurves);
        m_message->setText(tr("Showing the first %1 dimensions.").arg(kMaxCurves));
        m_message->setVisible(true);
    } else {
        m_message->clear();
        m_message->setVisible(false);
    }
    m_dims = std::move(dims);
}

void PositionalEncodingView::drawCurves()
{
    m_curves->clearGraphs();
    m_curves->clearItems();
    const int positions = static_cast<int>(m_table.rows());
    if (positions == 0)
        return;
    QVector<double> x(positions);
    for (int p = 0; p < positions; ++p)
        x[p] = p;

    // The sentence's own positions, shaded, so it is clear which part of the waves it uses.
    if (m_tokens < positions) {
        auto* band = new QCPItemRect(m_curves);
        band->topLeft->setCoords(-0.5, m_curves->yAxis->range().upper);
        band->bottomRight->setCoords(m_tokens - 0.5, m_curves->yAxis->range().lower);
        band->setPen(Qt::NoPen);
        band->setBrush(QColor(0, 0, 0, 22));
        band->setLayer(QStringLiteral("background"));
        auto* label = new QCPItemText(m_curves);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(0, m_curves->yAxis->range().upper);
        label->setText(tr("sentence (%1 tokens)").arg(m_tokens));
        label->setFont(font());
        label->setColor(QColor(60, 60, 60));
        label->setBrush(QColor(255, 255, 255, 200)); // readable where a curve passes under it
        label->setPadding(QMargins(2, 1, 2, 1));
        label->setLayer(QStringLiteral("legend")); // above the curves
    }

    for (std::size_t k = 0; k < m_dims.size(); ++k) {
        const int dim = m_dims[k];
        if (dim < 0 || dim >= m_table.cols())
            continue;
        QVector<double> y(positions);
        for (int p = 0; p < positions; ++p)
            y[p] = m_table(p, dim);
        QCPGraph* g = m_curves->addGraph();
        g->setData(x, y, true);
        const QColor c = kCurveColors[k % kMaxCurves];
        g->setPen(QPen(c, 2));
        // Positions are whole numbers: the dots are the values, the line only guides the eye.
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 5));
        g->setName(legendName(dim));
    }
    // Every entry (a legend wrapped into columns has empty cells, which have none).
    for (int i = 0; i < m_curves->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem* entry = m_curves->legend->item(i))
            entry->setFont(font());
    }
    m_curves->xAxis->setRange(-0.5, positions - 0.5);
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void PositionalEncodingView::retranslate()
{
    m_kindLabel->setText(tr("Encoding:"));
    const QStringList kinds{tr("sinusoidal (sin/cos)"), tr("learned (seeded table)"), tr("none")};
    for (int i = 0; i < kinds.size(); ++i)
        m_kind->setItemText(i, kinds[i]);
    m_kind->setToolTip(tr("How positions are added to the token embeddings: X = E·√d_model + P"));
    m_dimsLabel->setText(tr("Curves for dimensions:"));
    m_dimsEdit->setToolTip(tr("Dimension numbers separated by commas, e.g. 1, 2, 9, 17 (at most %1)").arg(kMaxCurves));
    m_curvesTitle->setText(tr("Columns of P across positions"));
    m_curves->xAxis->setLabel(tr("position"));
    m_curves->yAxis->setLabel(tr("PE value"));
}

} // namespace attnlab
