#include "views/topkview.h"

#include "plot/palette.h"

#include "plot/fitting.h"
#include "plot/plotting.h"
#include "widgets/projectiontype.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

namespace {

constexpr int kDefaultK = 10;
constexpr int kMaxK = 30;
const QColor kBarColor = okabeIto(Okabe::SkyBlue);    // Okabe–Ito sky blue: the other candidates
const QColor kChosenColor = okabeIto(Okabe::Orange); // Okabe–Ito orange: the model's choice

} // namespace

TopKView::TopKView(QWidget* parent)
    : QWidget(parent)
    , m_positionLabel(new QLabel(this))
    , m_position(new QSpinBox(this))
    , m_kLabel(new QLabel(this))
    , m_k(new QSpinBox(this))
    , m_plot(new QCustomPlot(this))
    , m_note(new QLabel(this))
{
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);
    // The row of fields is the interface, not the picture: not projected, not on a slide (the
    // plot's title names the position).
    auto* fields = new QWidget(this);
    markAsControl(fields);
    auto* controls = new QHBoxLayout(fields);
    controls->setContentsMargins(0, 0, 0, 0);
    m_positionLabel->setBuddy(m_position);
    m_kLabel->setBuddy(m_k);
    controls->addWidget(m_positionLabel);
    controls->addWidget(m_position);
    controls->addSpacing(12);
    controls->addWidget(m_kLabel);
    controls->addWidget(m_k);
    controls->addStretch(1);
    root->addWidget(fields);
    root->addWidget(m_plot, 1);
    m_note->setWordWrap(true);
    root->addWidget(m_note);

    m_position->setMinimum(1); // positions as people count them
    m_k->setRange(1, kMaxK);
    m_k->setValue(kDefaultK);

    addPlotTitle(m_plot);
    m_plot->yAxis->setRangeReversed(true); // the most probable at the top
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->grid()->setVisible(false);
    m_plot->xAxis->setRange(0, 1); // probabilities: the whole scale, so bar lengths compare across positions
    // The value texts stand right of their bars: the right margin is kept for them (redraw()).
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
    applyPlotFonts(m_plot, font());
    m_plot->installEventFilter(this);
    retranslate();

    connect(m_position, &QSpinBox::valueChanged, this, [this] {
        redraw();
        emit rowChanged(row());
    });
    connect(m_k, &QSpinBox::valueChanged, this, &TopKView::redraw);
}

int TopKView::row() const
{
    return m_position->value() - 1;
}

void TopKView::setRow(int row)
{
    const QSignalBlocker block(m_position); // following is not choosing
    m_position->setValue(row + 1);
    redraw();
}

int TopKView::k() const
{
    return m_k->value();
}

void TopKView::setK(int k)
{
    m_k->setValue(k);
}

void TopKView::setMatrix(const LabeledMatrix& m)
{
    m_matrix = m;
    const QSignalBlocker block(m_position);
    m_position->setMaximum(std::max(1, static_cast<int>(m.values.rows())));
    redraw();
}

QString TopKView::label(const Labels& labels, int i) const
{
    if (labels && i >= 0 && i < static_cast<int>(labels->size()))
        return QString::fromStdString((*labels)[static_cast<std::size_t>(i)]);
    return QString::number(i + 1);
}

void TopKView::setMaskedLanguageModel(bool on)
{
    if (on == m_maskedLm)
        return;
    m_maskedLm = on;
    retranslate();
    redraw();
}

int TopKView::nextColumn() const
{
    if (m_maskedLm)
        return -1; // each position predicts itself, not what follows
    // Position i predicts the decoder's input at i + 1 (teacher forcing: the target; generation:
    // the token it generated).
    const Labels& rows = m_matrix.rowLabels;
    const Labels& cols = m_matrix.colLabels;
    const int r = row();
    if (!rows || !cols || r + 1 >= static_cast<int>(rows->size()))
        return -1;
    const auto it = std::find(cols->begin(), cols->end(), (*rows)[static_cast<std::size_t>(r + 1)]);
    return it == cols->end() ? -1 : static_cast<int>(it - cols->begin());
}

QStringList TopKView::barTexts() const
{
    QStringList texts;
    const int next = nextColumn();
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        // Three decimals; a probability too small for them is "< 0.001", never a false "0.000".
        const double p = static_cast<double>(m_entries[i].value);
        QString t = p > 0 && p < 0.0005 ? QStringLiteral("< 0.001") : fixedNumber(p, 3);
        if (i == 0)
            t += QStringLiteral("  \u25C0 ") + tr("argmax");
        if (m_entries[i].index == next)
            t += QStringLiteral("  \u25C0 ") + tr("next token");
        texts << t;
    }
    return texts;
}

void TopKView::redraw()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    // As many bars as the plot's height gives a line of text each (k on a tall plot).
    const int rectHeight = m_plot->axisRect()->height();
    const int lineHeight = QFontMetrics(m_plot->xAxis->tickLabelFont()).height() + 4;
    const int fitting = rectHeight > 40 ? std::max(1, rectHeight / lineHeight) : k();
    m_entries = topK(m_matrix.values, row(), std::min(k(), fitting));
    const int r = row();
    const bool has = !m_entries.empty();
    const QString title = m_maskedLm ? tr("Position %1 (\u201C%2\u201D): the %3 most probable tokens to stand there")
                                     : tr("Position %1 (\u201C%2\u201D): the %3 most probable next tokens");
    plotTitle(m_plot)->setText(has ? title.arg(r + 1).arg(label(m_matrix.rowLabels, r)).arg(m_entries.size()) : QString());
    auto* others = horizontalBars(m_plot, kBarColor);
    auto* chosen = horizontalBars(m_plot, kChosenColor);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QStringList texts = barTexts();
    int widest = 0;
    const int next = nextColumn();
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i) {
        const RankedEntry& e = m_entries[static_cast<std::size_t>(i)];
        (i == 0 ? chosen : others)->addData(i, static_cast<double>(e.value));
        ticker->addTick(i, label(m_matrix.colLabels, e.index));
        widest = std::max(widest, addBarText(m_plot, static_cast<double>(e.value), i, texts[i]));
        if (e.index == next) {
            // The token that really follows, outlined (it may or may not be the argmax).
            auto* box = new QCPItemRect(m_plot);
            box->setObjectName(QStringLiteral("nextToken"));
            box->topLeft->setCoords(0, i - 0.45);
            box->bottomRight->setCoords(static_cast<double>(e.value), i + 0.45);
            box->setPen(QPen(QColor(20, 20, 20), 2.5, Qt::DashLine));
        }
    }
    m_plot->yAxis->setTicker(ticker);
    fitTickLabels(m_plot->yAxis); // a short plot shows fewer token names, never overlapping ones
    m_plot->yAxis->setRange(-0.5, std::max<double>(static_cast<double>(m_entries.size()), 1.0) - 0.5);
    // Room right of the axis rect for the texts of the longest bars (p near 1).
    m_plot->axisRect()->setMargins(QMargins(0, 0, widest + 8, 0));
    m_plot->xAxis->setLabel(tr("probability"));

    // When the next token is not among the k shown, say where it stands.
    const int rank = next >= 0 ? rankOf(m_matrix.values, r, next) : 0;
    const bool outside = has && next >= 0 && rank > static_cast<int>(m_entries.size());
    m_note->setVisible(outside);
    if (outside)
        m_note->setText(tr("The next token \u201C%1\u201D has p = %2 (rank %3).")
                            .arg(label(m_matrix.colLabels, next), fixedNumber(static_cast<double>(m_matrix.values(r, next)), 3))
                            .arg(rank));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TopKView::retranslate()
{
    m_positionLabel->setText(tr("Position:"));
    m_position->setToolTip(m_maskedLm ? tr("The position whose probabilities are shown (counted from 1)")
                                      : tr("The decoder position whose next-token probabilities are shown (counted from 1)"));
    m_kLabel->setText(tr("Top k:"));
    m_k->setToolTip(tr("How many of the most probable tokens to show"));
}

bool TopKView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Resize) {
        // How many bars fit depends on the plot's height (the note under it comes and goes): once
        // the plot has taken its new size, lay it out there and draw again.
        QMetaObject::invokeMethod(
            this,
            [this] {
                m_plot->replot(QCustomPlot::rpImmediateRefresh);
                redraw();
            },
            Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

void TopKView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        redraw();
    } else if (event->type() == QEvent::FontChange) {
        applyPlotFonts(m_plot, font());
        redraw();
    }
}

} // namespace attnlab
