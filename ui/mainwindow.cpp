#include "mainwindow.h"

#include "heatmapview.h"
#include "session.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab {

MainWindow::MainWindow(Session* session, QWidget* parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_sentence(new QLineEdit(this))
    , m_head(new QSpinBox(this))
    , m_mask(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_heatmap(new HeatmapView(this))
    , m_debounce(new QTimer(this))
{
    setWindowTitle(tr("Attention Lab"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Sentence:"), this));
    m_sentence->setText(session->sentence());
    m_sentence->setPlaceholderText(tr("Type a sentence in any language, e.g. 狗咬了人"));
    m_sentence->setClearButtonEnabled(true);
    top->addWidget(m_sentence, 1);
    top->addWidget(new QLabel(tr("Head:"), this));
    m_head->setRange(1, session->config().heads);
    top->addWidget(m_head);
    top->addWidget(new QLabel(tr("Mask:"), this));
    m_mask->addItem(tr("none"), QStringLiteral("none"));
    m_mask->addItem(tr("causal"), QStringLiteral("causal"));
    m_mask->addItem(tr("padding"), QStringLiteral("padding"));
    m_mask->addItem(tr("causal + padding"), QStringLiteral("causal+padding"));
    top->addWidget(m_mask);
    layout->addLayout(top);

    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    layout->addWidget(m_heatmap, 1);
    setCentralWidget(central);

    // Recompute after a short pause in typing, so fast typists never wait for the engine.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(60);
    connect(m_sentence, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { m_session->setSentence(m_sentence->text()); });
    connect(m_head, &QSpinBox::valueChanged, this, &MainWindow::showTrace);
    connect(m_mask, &QComboBox::currentIndexChanged, this, &MainWindow::applyMask);
    connect(session, &Session::traceChanged, this, &MainWindow::showTrace);
    connect(session, &Session::errorOccurred, this, &MainWindow::showError);
    showTrace();
    resize(1000, 760);
}

void MainWindow::applyMask()
{
    Config c = m_session->config();
    c.mask = parseMaskKind(m_mask->currentData().toString().toStdString()).value_or(MaskKind::None);
    m_session->setConfig(c);
}

void MainWindow::showTrace()
{
    const auto& trace = m_session->trace();
    if (!trace)
        return;
    const int head = m_head->value() - 1;
    const Stage* s = trace->find("weights", head);
    if (!s)
        return;
    m_heatmap->setMatrix(s->main(), tr("Attention weights A = softmax(QKᵀ/√d_k + M), head %1").arg(head + 1),
                         HeatmapView::Scale::Probability);
    QStringList warnings;
    for (const auto& w : trace->warnings)
        warnings << QString::fromStdString(w);
    m_message->setText(warnings.join(QLatin1Char('\n')));
    m_message->setStyleSheet(QString());
}

void MainWindow::showError(const QString& message)
{
    // The previous heatmap stays: the user's work is not lost, only this input is refused.
    m_message->setText(message);
    m_message->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
}

} // namespace attnlab
