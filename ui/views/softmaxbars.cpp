#include "views/softmaxbars.h"

#include "plot/fitting.h"
#include "plot/plotting.h"

#include <QEvent>

#include <algorithm>
#include <cmath>

namespace attnlab {

namespace {

constexpr int kMaxBarValueLabels = 12; // weights above the bars only while they fit
constexpr int kMarkEveryKeyUpTo = 64;  // more keys: a −∞ marker per run of masked keys where they are narrow

const QColor kScoreColor(67, 147, 195);      // the blue of the signed heatmap scale
const QColor kWeightColor(0x21, 0x91, 0x8C); // viridis at 0.5: the colour of probabilities
const QColor kMaskedColor(178, 24, 43);      // −∞ markers

/// Tick labels with a real minus sign (U+2212), like every other number in the panel.
class MinusSignTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        return minusSigned(QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision));
    }
};

QCPBars* keyBars(QCPAxisRect* rect, const QString& name, const QColor& color)
{
    auto* bars = new QCPBars(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    bars->setName(name);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    return bars;
}

} // namespace

SoftmaxBars::SoftmaxBars(QWidget* parent)
    : QCustomPlot(parent)
{
    setupCharts();
    applyStyle();
}

void SoftmaxBars::setupCharts()
{
    // Two charts over the same keys: the row before softmax above, after softmax below.
    m_beforeRect = axisRect();
    plotLayout()->insertRow(0);
    m_beforeTitle = new QCPTextElement(this, QString());
    plotLayout()->addElement(0, 0, m_beforeTitle);
    m_afterTitle = new QCPTextElement(this, QString());
    plotLayout()->addElement(2, 0, m_afterTitle);
    keepTextsFitting(this); // titles break into lines in a narrow panel
    m_afterRect = new QCPAxisRect(this);
    plotLayout()->addElement(3, 0, m_afterRect);
    // Same left margin in both charts, so a key's two bars stand exactly above each other.
    auto* group = new QCPMarginGroup(this);
    m_beforeRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_afterRect->setMarginGroup(QCP::msLeft | QCP::msRight, group);

    for (QCPAxisRect* rect : {m_beforeRect, m_afterRect}) {
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        x->setSubTicks(false);
        x->setTickLength(0, 3);
        x->grid()->setVisible(false);
        rect->axis(QCPAxis::atLeft)->grid()->setZeroLinePen(QPen(Qt::gray, 1)); // the baseline of the bars
    }
    m_scoreBars = keyBars(m_beforeRect, QStringLiteral("scores"), kScoreColor);
    m_beforeRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<MinusSignTicker>::create());
    m_weightBars = keyBars(m_afterRect, QStringLiteral("weights"), kWeightColor);

    // Probabilities: always the full 0..1 scale, so small weights look small.
    m_afterRect->axis(QCPAxis::atLeft)->setRange(0, 1.08);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(0.25);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    m_afterRect->axis(QCPAxis::atLeft)->setTicker(ticker);
}

void SoftmaxBars::applyStyle()
{
    // Axis fonts are copied from the widget's font (with its CJK fallback families), since
    // QCustomPlot's axes keep the font they were created with.
    const QColor text = palette().color(QPalette::WindowText);
    setBackground(palette().brush(QPalette::Window));
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

void SoftmaxBars::changeEvent(QEvent* event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        applyStyle();
}

void SoftmaxBars::showRow(const std::vector<double>& scores, const std::vector<double>& weights, const std::vector<int>& maskedKeys,
                          const std::vector<QString>& keyLabels, const QString& beforeTitle, const QString& afterTitle)
{
    clearItems(); // the −∞ markers and bar labels of the previous row
    setBars(scores, weights, maskedKeys);
    fitKeyLabels(keyLabels);
    addMinusInfinityMarkers(maskedKeys, static_cast<int>(weights.size()));
    m_weights = weights;
    addWeightLabels();
    m_beforeTitle->setText(beforeTitle);
    m_afterTitle->setText(afterTitle);
    replot(QCustomPlot::rpQueuedReplot);
}

void SoftmaxBars::setBars(const std::vector<double>& scores, const std::vector<double>& weights, const std::vector<int>& maskedKeys)
{
    // Finite scores above, all weights below; masked keys get a −∞ marker, not a bar.
    QVector<double> scoreKeys, scoreValues, keys, allWeights;
    double lo = 0;
    double hi = 0;
    for (std::size_t c = 0; c < weights.size(); ++c) {
        keys << static_cast<double>(c);
        allWeights << weights[c];
        if (std::isfinite(scores[c])) {
            scoreKeys << static_cast<double>(c);
            scoreValues << scores[c];
            lo = std::min(lo, scores[c]);
            hi = std::max(hi, scores[c]);
        }
    }
    m_scoreBars->setData(scoreKeys, scoreValues, true);
    m_weightBars->setData(keys, allWeights, true);
    m_span = std::max(hi - lo, 1e-6);
    // Room below the baseline for the arrows that point down to −∞.
    if (!maskedKeys.empty())
        lo = std::min(lo, -0.35 * m_span);
    m_low = lo - 0.08 * m_span;
    m_beforeRect->axis(QCPAxis::atLeft)->setRange(m_low, hi + 0.15 * m_span);
}

void SoftmaxBars::fitKeyLabels(const std::vector<QString>& keyLabels)
{
    const int n = static_cast<int>(keyLabels.size());
    QCPAxis* beforeX = m_beforeRect->axis(QCPAxis::atBottom);
    QCPAxis* afterX = m_afterRect->axis(QCPAxis::atBottom);
    for (QCPAxis* x : {beforeX, afterX}) {
        x->setRange(-0.5, n - 0.5);
        x->setTicker(tokenTicker(keyLabels));
    }
    // Upright key labels when they fit under their bars (CJK characters, short words).
    const QFontMetrics fm(beforeX->tickLabelFont());
    int widest = 0;
    for (const QString& label : keyLabels)
        widest = std::max(widest, fm.horizontalAdvance(label));
    const int barWidth = n > 0 ? std::max(width() - 70, 150) / n : 0;
    for (QCPAxis* x : {beforeX, afterX})
        x->setTickLabelRotation(widest + 4 <= barWidth ? 0 : -60);
}

void SoftmaxBars::addMinusInfinityMarkers(const std::vector<int>& maskedKeys, int keys)
{
    QCPAxis* x = m_beforeRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_beforeRect->axis(QCPAxis::atLeft);
    QFont markerFont = font();
    markerFont.setBold(true);
    const auto line = [&](double x0, double y0, double x1, double y1) {
        auto* arrow = new QCPItemLine(this);
        arrow->setClipAxisRect(m_beforeRect);
        arrow->start->setAxes(x, y);
        arrow->end->setAxes(x, y);
        arrow->start->setCoords(x0, y0);
        arrow->end->setCoords(x1, y1);
        arrow->setPen(QPen(kMaskedColor, 1.5, Qt::DashLine));
        return arrow;
    };
    const auto marker = [&](double c) {
        line(c, 0, c, m_low)->setHead(QCPLineEnding::esFlatArrow);
        auto* text = new QCPItemText(this);
        text->setClipAxisRect(m_beforeRect);
        text->position->setAxes(x, y);
        text->position->setCoords(c, 0);
        text->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        text->setText(QStringLiteral("\u2212\u221E"));
        text->setFont(markerFont);
        text->setColor(kMaskedColor);
    };
    // An arrow down to −∞ at each masked key of a sentence, or while the keys are wide enough for
    // its "−∞"; among many narrow keys (a row of 1024) one arrow per run of masked keys, and a
    // dashed line along them.
    const int plotWidth = m_beforeRect->width() > 20 ? m_beforeRect->width() : width() - 70;
    const bool eachKey = keys <= kMarkEveryKeyUpTo || plotWidth / keys >= QFontMetrics(markerFont).horizontalAdvance(QStringLiteral("\u2212\u221E"));
    for (std::size_t i = 0; i < maskedKeys.size();) {
        std::size_t last = i;
        while (!eachKey && last + 1 < maskedKeys.size() && maskedKeys[last + 1] == maskedKeys[last] + 1)
            ++last;
        if (last == i) {
            marker(maskedKeys[i]);
        } else {
            line(maskedKeys[i] - 0.35, 0, maskedKeys[last] + 0.35, 0);
            marker((maskedKeys[i] + maskedKeys[last]) / 2.0);
        }
        i = last + 1;
    }
}

void SoftmaxBars::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    addWeightLabels(); // whether the values fit their bars depends on the width
}

void SoftmaxBars::addWeightLabels()
{
    for (int i = itemCount() - 1; i >= 0; --i) {
        if (item(i)->objectName() == QLatin1String("weightLabel"))
            removeItem(i);
    }
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
    // Each value must fit its bar's width (the table below lists them all), and the
    // tall ones stand inside their bar, so "1.00" is not cut off at the top of the chart.
    const int n = static_cast<int>(m_weights.size());
    const int plotWidth = m_afterRect->width() > 20 ? m_afterRect->width() : width() - 70;
    const int barWidth = n > 0 ? plotWidth / n : 0;
    if (n == 0 || n > kMaxBarValueLabels || QFontMetrics(small).horizontalAdvance(QStringLiteral("0.00")) + 4 > barWidth)
        return;
    for (std::size_t c = 0; c < m_weights.size(); ++c) {
        const bool inside = m_weights[c] > 0.75;
        auto* text = new QCPItemText(this);
        text->setObjectName(QStringLiteral("weightLabel"));
        text->setClipAxisRect(m_afterRect);
        text->position->setAxes(m_afterRect->axis(QCPAxis::atBottom), m_afterRect->axis(QCPAxis::atLeft));
        text->position->setCoords(static_cast<double>(c), m_weights[c]);
        text->setPositionAlignment(Qt::AlignHCenter | (inside ? Qt::AlignTop : Qt::AlignBottom));
        // Exactly 0 (a masked key) reads "0", never a rounded "0.00".
        text->setText(m_weights[c] == 0.0 ? QStringLiteral("0") : QString::number(m_weights[c], 'f', 2));
        text->setFont(small);
        text->setColor(inside ? QColor(Qt::white) : palette().color(QPalette::WindowText));
    }
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab
