#include "widgets/decoderpanel.h"

#include "session/session.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTimer>

namespace attnlab {

namespace {

QString joined(const std::vector<std::string>& tokens, std::size_t count)
{
    QStringList parts;
    for (std::size_t i = 0; i < std::min(count, tokens.size()); ++i)
        parts << QString::fromStdString(tokens[i]);
    return parts.join(QLatin1Char(' '));
}

} // namespace

DecoderPanel::DecoderPanel(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_title(new QLabel(this))
    , m_generate(new QRadioButton(this))
    , m_force(new QRadioButton(this))
    , m_target(new QLineEdit(this))
    , m_previous(new QPushButton(this))
    , m_next(new QPushButton(this))
    , m_play(new QPushButton(this))
    , m_stepLabel(new QLabel(this))
    , m_output(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(this))
    , m_debounce(new QTimer(this))
    , m_playTimer(new QTimer(this))
{
    setUpLayout();
    connectControls();
    connect(session, &Session::traceChanged, this, &DecoderPanel::sync);
    connect(session, &Session::decodingChanged, this, &DecoderPanel::sync);
    connect(session, &Session::inputChanged, this, &DecoderPanel::sync);
    connect(session, &Session::generationRunningChanged, this, &DecoderPanel::sync);
    connect(session, &Session::generationProgress, this, &DecoderPanel::showProgress);
    retranslate();
    sync();
}

void DecoderPanel::setUpLayout()
{
    // Two rows, so that presenter-mode type never pushes the window past a 1024-pixel screen:
    // how the decoder is fed, then its input (the target) or the generation stepper and what
    // has been written.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* input = new QHBoxLayout;
    input->addWidget(m_title);
    input->addWidget(m_generate);
    input->addWidget(m_force);
    input->addSpacing(12);
    // A long generation's progress, where the row has room for its words.
    input->addWidget(m_progress, 1);
    input->addWidget(m_cancel);
    input->addStretch(1);
    auto* stepper = new QHBoxLayout;
    stepper->addWidget(m_target, 2);
    stepper->addWidget(m_previous);
    stepper->addWidget(m_stepLabel);
    stepper->addWidget(m_next);
    stepper->addWidget(m_play);
    stepper->addSpacing(12);
    stepper->addWidget(m_output, 3);
    layout->addLayout(input);
    layout->addLayout(stepper);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setTextFormat(Qt::RichText);
    // A long output must not widen the window past the screen: the label gives way instead.
    m_output->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_output->setMinimumWidth(120);
    for (QPushButton* b : {m_previous, m_next})
        b->setMaximumWidth(40);
    m_target->setMinimumWidth(160);
    // The arrow keys belong to the stage navigator; only the text box takes focus.
    for (QWidget* w : {static_cast<QWidget*>(m_generate), static_cast<QWidget*>(m_force), static_cast<QWidget*>(m_previous),
                       static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_play)})
        w->setFocusPolicy(Qt::NoFocus);
    m_play->setCheckable(true);
    // As narrow as its numbers alone ("1000 / 1024"), so that it never widens the window; its
    // words where the row has room for them (fitProgressFormat).
    m_progress->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("1000 / 1024")) + 24);
    m_progress->setMaximumWidth((fontMetrics().horizontalAdvance(QStringLiteral("Generating: 1000 of at most 1024 tokens")) + 24) * 3 / 2);
    m_progress->installEventFilter(this);
    m_cancel->setObjectName(QStringLiteral("cancelGeneration"));
    m_cancel->setFocusPolicy(Qt::NoFocus);
    // Their room is kept while they are hidden: a generation that starts or ends (at every
    // keystroke) must not move the views, whose large heatmaps would be laid out again.
    for (QWidget* w : {static_cast<QWidget*>(m_progress), static_cast<QWidget*>(m_cancel)}) {
        QSizePolicy policy = w->sizePolicy();
        policy.setRetainSizeWhenHidden(true);
        w->setSizePolicy(policy);
        w->setVisible(false);
    }
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    m_playTimer->setInterval(1500);
    m_playTimer->setObjectName(QStringLiteral("playTimer")); // for the tests: is it playing?
}

void DecoderPanel::connectControls()
{
    connect(m_generate, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            m_session->setTarget(std::nullopt);
    });
    connect(m_force, &QRadioButton::toggled, this, [this](bool on) {
        if (on)
            applyTarget();
    });
    connect(m_target, &QLineEdit::textEdited, this, [this] {
        m_debounce->start();
    });
    connect(m_debounce, &QTimer::timeout, this, [this] {
        if (!m_force->isChecked()) {
            const QSignalBlocker b(m_force);
            m_force->setChecked(true);
        }
        applyTarget();
    });
    connect(m_cancel, &QPushButton::clicked, m_session, &Session::stopGeneration);
    connect(m_previous, &QPushButton::clicked, this, [this] { m_session->setGenerationStep(m_session->generationStep() - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] {
        const int last = static_cast<int>(m_session->generation().size()) - 1;
        m_session->setGenerationStep(std::min(m_session->generationStep() + 1, last));
    });
    connect(m_play, &QPushButton::toggled, this, [this](bool on) {
        // Play continues from the step shown (from the first when the last is shown); while it
        // runs the button says Pause.
        m_play->setText(on ? tr("Pause") : tr("Play"));
        if (on) {
            if (m_session->generationStep() + 1 >= static_cast<int>(m_session->generation().size()))
                m_session->setGenerationStep(0);
            m_playTimer->start();
        } else {
            m_playTimer->stop();
        }
    });
    connect(m_playTimer, &QTimer::timeout, this, [this] {
        const int last = static_cast<int>(m_session->generation().size()) - 1;
        if (m_session->generationStep() >= last) {
            m_play->setChecked(false);
            return;
        }
        m_session->setGenerationStep(m_session->generationStep() + 1);
    });
}

void DecoderPanel::applyTarget()
{
    m_session->setTarget(m_target->text());
}

void DecoderPanel::sync()
{
    // Teacher forcing and generation belong to an encoder–decoder (GPT-2's decoder reads the sentence itself).
    const bool model = m_session->isModel() && m_session->model() && m_session->model()->spec.decoderLayers > 0
        && m_session->model()->spec.architecture == Architecture::EncoderDecoder;
    setVisible(model);
    if (!model)
        return;
    const bool canGenerate = m_session->model()->hasHead();
    const bool generating = m_session->isGenerating();
    {
        const QSignalBlocker b1(m_generate), b2(m_force);
        m_generate->setEnabled(canGenerate);
        m_generate->setChecked(generating);
        m_force->setChecked(!generating);
    }
    if (m_session->target() && !m_target->hasFocus() && m_target->text() != *m_session->target())
        m_target->setText(*m_session->target());
    const Generation& g = m_session->generation();
    const int count = static_cast<int>(g.size());
    const int k = m_session->generationStep();
    for (QWidget* w : {static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_play),
                       static_cast<QWidget*>(m_stepLabel)})
        w->setVisible(generating);
    const bool running = generating && m_session->isGenerationRunning();
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running)
        showProgress(m_session->generationDone(), m_session->generationLimit());
    if (generating && count > 0) {
        m_stepLabel->setText(m_session->generationStopped() ? tr("Step %1 / %2 (stopped)").arg(k + 1).arg(count)
                                                            : tr("Step %1 / %2").arg(k + 1).arg(count));
        m_previous->setEnabled(k > 0);
        m_next->setEnabled(k + 1 < count);
        // What has been written so far, and the token this step adds.
        const auto& trace = m_session->fullTrace();
        double p = 0;
        if (const Stage* s = trace->find("probabilities", std::nullopt, std::nullopt, Block::None))
            p = s->main().values.row(s->main().values.rows() - 1).maxCoeff();
        m_output->setText(tr("%1 \u2192 <b>%2</b> (p = %3)")
                              .arg((QStringLiteral("<sos> ") + joined(g.tokens, static_cast<std::size_t>(k))).toHtmlEscaped(),
                                   QString::fromStdString(g.tokens[static_cast<std::size_t>(k)]).toHtmlEscaped())
                              .arg(p, 0, 'f', 3));
    } else if (const auto& trace = m_session->fullTrace(); trace) {
        m_output->setText(tr("Decoder input: %1").arg(joined(trace->targetTokens, trace->targetTokens.size()).toHtmlEscaped()));
    }
}

void DecoderPanel::showProgress(int done, int limit)
{
    if (!m_session->isGenerationRunning())
        return;
    m_progress->setRange(0, std::max(limit, 1));
    m_progress->setValue(done);
    // The step counter follows the tokens written so far.
    const int count = static_cast<int>(m_session->generation().size());
    m_stepLabel->setText(tr("Step %1 / %2").arg(m_session->generationStep() + 1).arg(count));
    m_next->setEnabled(m_session->generationStep() + 1 < count);
}

void DecoderPanel::retranslate()
{
    m_title->setText(tr("Decoder:"));
    m_generate->setText(tr("Generate (greedy)"));
    m_generate->setToolTip(tr("Inference: the model writes its own target, one token per step"));
    m_force->setText(tr("Teacher forcing:"));
    m_force->setToolTip(tr("Training: the decoder reads the correct target, every position at once"));
    m_target->setPlaceholderText(tr("the target sentence"));
    m_target->setToolTip(tr("The correct translation the decoder reads (teacher forcing): every position sees the right "
                            "tokens before it, as in training"));
    m_previous->setText(QStringLiteral("\u25C0"));
    m_previous->setToolTip(tr("Previous generation step"));
    m_next->setText(QStringLiteral("\u25B6"));
    m_next->setToolTip(tr("Next generation step: one more token"));
    m_play->setText(m_play->isChecked() ? tr("Pause") : tr("Play"));
    m_play->setToolTip(tr("Watch generation add one token at a time"));
    fitProgressFormat();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop generating: the tokens written so far stay"));
    sync();
}

void DecoderPanel::fitProgressFormat()
{
    const QString words = tr("Generating: %v of at most %m tokens");
    QString sample = words;
    sample.replace(QStringLiteral("%v"), QStringLiteral("1000")).replace(QStringLiteral("%m"), QStringLiteral("1024"));
    const bool fits = m_progress->fontMetrics().horizontalAdvance(sample) + 16 <= m_progress->width();
    const QString format = fits ? words : QStringLiteral("%v / %m");
    if (m_progress->format() != format)
        m_progress->setFormat(format);
}

bool DecoderPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_progress && (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
        fitProgressFormat();
    return QWidget::eventFilter(watched, event);
}

void DecoderPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace attnlab
