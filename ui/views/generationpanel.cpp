#include "views/generationpanel.h"

#include "plot/palette.h"

#include "pretrained/model_folder.h"
#include "session/generationstepper.h"
#include "session/messages.h"
#include "session/session.h"
#include "views/sessionview.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace attnlab {

namespace {

constexpr int kDefaultCount = 10;
constexpr int kShownTokens = 8; // the status line lists the last few generated tokens
const QColor kProblemColor = okabeIto(Okabe::Vermillion); // Okabe–Ito vermillion

/// A number typed the C way ("0.7") or the interface language's way.
std::optional<double> number(const QString& text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (ok)
        return v;
    const double local = QLocale().toDouble(text.trimmed(), &ok);
    return ok ? std::optional<double>(local) : std::nullopt;
}

} // namespace

GenerationPanel::GenerationPanel(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_stepper(GenerationStepper::of(session))
    , m_title(new QLabel(this))
    , m_mode(new QComboBox(this))
    , m_temperatureLabel(new QLabel(this))
    , m_temperature(new QLineEdit(QStringLiteral("1.0"), this))
    , m_topKLabel(new QLabel(this))
    , m_topK(new QLineEdit(QStringLiteral("0"), this))
    , m_topPLabel(new QLabel(this))
    , m_topP(new QLineEdit(QStringLiteral("1.0"), this))
    , m_seedLabel(new QLabel(this))
    , m_seed(new QLineEdit(QStringLiteral("0"), this))
    , m_next(new QPushButton(this))
    , m_generate(new QPushButton(this))
    , m_countLabel(new QLabel(this))
    , m_count(new QSpinBox(this))
    , m_back(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_nextAction(new QAction(this))
    , m_generateAction(new QAction(this))
    , m_backAction(new QAction(this))
{
    buildLayout();
    connectControls();
    retranslate();
    updateState();
    showGenerated();
}

void GenerationPanel::buildLayout()
{
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 4, 0, 0);
    // The options: how the next token is chosen.
    auto* options = new QHBoxLayout;
    options->addWidget(m_title);
    options->addWidget(m_mode);
    const int fieldWidth = fontMetrics().horizontalAdvance(QStringLiteral("0.00000")) + 16;
    for (auto [label, edit] : {std::pair{m_temperatureLabel, m_temperature}, std::pair{m_topKLabel, m_topK},
                               std::pair{m_topPLabel, m_topP}, std::pair{m_seedLabel, m_seed}}) {
        label->setBuddy(edit);
        edit->setMaximumWidth(fieldWidth);
        edit->setMinimumWidth(fieldWidth / 2);
        options->addSpacing(6);
        options->addWidget(label);
        options->addWidget(edit);
    }
    options->addStretch(1);
    root->addLayout(options);
    // The steps.
    auto* steps = new QHBoxLayout;
    steps->addWidget(m_next);
    steps->addWidget(m_generate);
    steps->addWidget(m_countLabel);
    steps->addWidget(m_count);
    steps->addWidget(m_back);
    steps->addWidget(m_stop);
    steps->addWidget(m_progress, 1);
    steps->addStretch(0);
    root->addLayout(steps);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    root->addWidget(m_status);

    m_countLabel->setBuddy(m_count);
    m_mode->setProperty(kOwnsArrowKeys, true); // ↑/↓ switch greedy and sampling while it has the focus
    m_count->setRange(1, kMaxTargetLength);
    m_count->setValue(kDefaultCount);
    m_progress->setVisible(false);
    m_stop->setVisible(false);
    // Enter presses the focused button: Space is one of the studio's stepping keys.
    for (QPushButton* b : {m_next, m_generate, m_back, m_stop})
        b->setAutoDefault(true);
    m_nextAction->setShortcut(Qt::Key_N);
    m_generateAction->setShortcut(Qt::Key_G);
    m_backAction->setShortcut(Qt::Key_Backspace);
    addActions(stepActions()); // the keys work wherever the panel is; the view stack's window too
}

void GenerationPanel::connectControls()
{
    connect(m_nextAction, &QAction::triggered, this, [this] { generate(1); });
    connect(m_generateAction, &QAction::triggered, this, [this] { generate(m_count->value()); });
    connect(m_backAction, &QAction::triggered, this, &GenerationPanel::back);
    connect(m_next, &QPushButton::clicked, m_nextAction, &QAction::trigger);
    connect(m_generate, &QPushButton::clicked, m_generateAction, &QAction::trigger);
    connect(m_back, &QPushButton::clicked, m_backAction, &QAction::trigger);
    connect(m_stop, &QPushButton::clicked, m_stepper, &GenerationStepper::cancel);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &GenerationPanel::updateState);
    connect(m_count, &QSpinBox::valueChanged, this, [this] { m_generate->setText(tr("Generate %1").arg(m_count->value())); });
    connect(m_stepper, &GenerationStepper::runningChanged, this, &GenerationPanel::updateState);
    connect(m_stepper, &GenerationStepper::changed, this, [this] {
        updateState();
        showGenerated();
    });
    connect(m_stepper, &GenerationStepper::progress, this, [this](int done, int total, const QString& text) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        QString shown = text;
        shown.replace(QLatin1Char('\n'), QStringLiteral("\u21B5"));
        m_status->setStyleSheet({});
        m_status->setText(tr("Writing token %1 of %2: %3").arg(done).arg(total).arg(shown));
    });
    connect(m_session, &Session::traceChanged, this, [this] {
        updateState();
        // Another model: the status line names its family.
        if (m_session->model().get() != m_shownModel && !m_stepper->isRunning()) {
            m_shownModel = m_session->model().get();
            showGenerated();
        }
    });
}

std::optional<SamplingOptions> GenerationPanel::options(QString* problem) const
{
    SamplingOptions o;
    if (m_mode->currentIndex() == 0)
        return o; // greedy
    const auto fail = [&](const QString& why) {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    // The ranges of SamplingOptions (pretrained/generate.h), as the command line checks them.
    const std::optional<double> t = number(m_temperature->text());
    if (!t || !std::isfinite(*t) || !(*t > 0) || *t > std::numeric_limits<float>::max())
        return fail(tr("The temperature must be a number above 0 (1 keeps the model's probabilities, lower is "
                       "closer to greedy): \u201C%1\u201D is not.").arg(m_temperature->text()));
    o.temperature = static_cast<float>(*t);
    bool ok = false;
    o.topK = m_topK->text().trimmed().toInt(&ok);
    if (!ok || o.topK < 0)
        return fail(tr("Top-k must be a whole number, 0 (every token) or more: \u201C%1\u201D is not.").arg(m_topK->text()));
    const std::optional<double> p = number(m_topP->text());
    if (!p || !(*p > 0 && *p <= 1))
        return fail(tr("Top-p must be a number above 0 and at most 1: \u201C%1\u201D is not.").arg(m_topP->text()));
    o.topP = static_cast<float>(*p);
    o.seed = m_seed->text().trimmed().toULongLong(&ok);
    if (!ok)
        return fail(tr("The seed must be a whole number, 0 or more: \u201C%1\u201D is not.").arg(m_seed->text()));
    return o;
}

bool GenerationPanel::generate(int count)
{
    QString problem;
    const std::optional<SamplingOptions> o = options(&problem);
    if (!o || !m_stepper->start(count, *o, &problem)) {
        showProblem(problem);
        return false;
    }
    m_progress->setRange(0, count);
    m_progress->setValue(0);
    return true;
}

bool GenerationPanel::back()
{
    if (m_stepper->back())
        return true;
    if (!m_stepper->isRunning())
        showProblem(tr("Nothing to take back: no token was generated after this text."));
    return false;
}

void GenerationPanel::updateState()
{
    const bool available = m_stepper->isAvailable();
    const bool running = m_stepper->isRunning();
    const bool idle = available && !running;
    const bool sampling = m_mode->currentIndex() == 1;
    m_mode->setEnabled(idle);
    for (QWidget* w : std::initializer_list<QWidget*>{m_temperatureLabel, m_temperature, m_topKLabel, m_topK, m_topPLabel, m_topP,
                                                      m_seedLabel, m_seed})
        w->setEnabled(idle && sampling);
    m_count->setEnabled(idle);
    for (QAction* a : {m_nextAction, m_generateAction})
        a->setEnabled(idle);
    m_backAction->setEnabled(idle && !m_stepper->generated().empty());
    m_next->setEnabled(m_nextAction->isEnabled());
    m_generate->setEnabled(m_generateAction->isEnabled());
    m_back->setEnabled(m_backAction->isEnabled());
    m_stop->setVisible(running);
    m_progress->setVisible(running);
}

void GenerationPanel::showGenerated()
{
    m_status->setStyleSheet({});
    const std::vector<int> g = m_stepper->generated();
    const std::vector<float> p = m_stepper->probabilities();
    QStringList lines;
    const auto& model = m_session->model();
    if (!g.empty() && model && model->pretrained) {
        const auto& vocabulary = *model->pretrained->vocabulary;
        QStringList tokens;
        const std::size_t first = g.size() > kShownTokens ? g.size() - kShownTokens : 0;
        for (std::size_t i = first; i < g.size(); ++i) {
            const QString token = static_cast<std::size_t>(g[i]) < vocabulary.size() ? QString::fromStdString(vocabulary[static_cast<std::size_t>(g[i])])
                                                                                     : QString::number(g[i]);
            tokens << tr("%1 (%2 %)").arg(token).arg(100.0 * static_cast<double>(p[i]), 0, 'f', 1);
        }
        lines << tr("Generated after the prompt (%1 tokens): %2")
                     .arg(g.size())
                     .arg((first > 0 ? QStringLiteral("\u2026 ") : QString()) + tokens.join(QLatin1Char(' ')));
    } else {
        lines << tr("Next token (N) adds %1's choice to the sentence; Generate (G) adds several; Back (Backspace) "
                    "removes the last one.")
                     .arg(familyTitle(model ? model->pretrained.get() : nullptr));
    }
    if (!m_stepper->stopMessage().isEmpty())
        lines << m_stepper->stopMessage();
    if (m_stepper->readsBackDifferently())
        lines << tr("%1's tokenizer splits the new text into other tokens than the ones generated: the views show "
                    "the text as it reads it now; the next step goes on from the generated tokens.")
                     .arg(familyTitle(model ? model->pretrained.get() : nullptr));
    m_status->setText(lines.join(QLatin1Char('\n')));
}

void GenerationPanel::showProblem(const QString& text)
{
    m_status->setStyleSheet(QStringLiteral("color: %1").arg(kProblemColor.name()));
    m_status->setText(text);
}

void GenerationPanel::retranslate()
{
    m_title->setText(tr("Generate:"));
    {
        const QSignalBlocker quiet(m_mode);
        const int mode = std::max(0, m_mode->currentIndex());
        m_mode->clear();
        m_mode->addItems({tr("Greedy"), tr("Sampling")});
        m_mode->setCurrentIndex(mode);
    }
    m_mode->setToolTip(tr("Greedy takes the likeliest token; sampling draws one from the probabilities (seeded: the "
                          "same seed gives the same text, as attention-lab-cli generate --seed)"));
    m_temperatureLabel->setText(tr("Temperature:"));
    m_temperature->setToolTip(tr("Logits are divided by it before the softmax: below 1 sharper, above 1 flatter"));
    m_topKLabel->setText(tr("Top-k:"));
    m_topK->setToolTip(tr("Draw only among the k likeliest tokens (0: every token)"));
    m_topPLabel->setText(tr("Top-p:"));
    m_topP->setToolTip(tr("Draw only among the fewest likeliest tokens whose probabilities reach p"));
    m_seedLabel->setText(tr("Seed:"));
    m_seed->setToolTip(tr("The random numbers' seed: the same seed and options give the same tokens"));
    m_next->setText(tr("Next token"));
    m_next->setToolTip(tr("Add the model's next token to the sentence (N)"));
    m_generate->setText(tr("Generate %1").arg(m_count->value()));
    m_generate->setToolTip(tr("Add as many tokens as the box says, one step at a time (G)"));
    m_countLabel->setText(tr("Tokens:"));
    m_back->setText(tr("Back"));
    m_back->setToolTip(tr("Remove the last generated token (Backspace)"));
    m_stop->setText(tr("Stop"));
    m_nextAction->setText(tr("Next token"));
    m_generateAction->setText(tr("Generate N tokens"));
    m_backAction->setText(tr("Remove the last generated token"));
    for (QAction* a : stepActions())
        a->setProperty(kShortcutGroup, tr("Generation"));
}

void GenerationPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        if (!m_stepper->isRunning())
            showGenerated();
    }
}

} // namespace attnlab
