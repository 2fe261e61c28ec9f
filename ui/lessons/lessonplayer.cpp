#include "lessons/lessonplayer.h"
#include "widgets/markdowntext.h"

#include "lessons/deck.h"
#include "lessons/modelbanner.h"
#include "lessons/stepnotes.h"
#include "session/messages.h"
#include "session/session.h"
#include "widgets/wrappinglabel.h"

#include <QDir>
#include <QRegularExpression>
#include <QFileInfo>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

LessonPlayer::LessonPlayer(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_lessons(new QListWidget(this))
    , m_steps(new QListWidget(this))
    , m_text(new QTextBrowser(this))
    , m_counter(new WrappingLabel(this)) // a long title must not widen the dock past a small screen
    , m_notes(new QLabel(this))
    , m_banner(new ModelBanner(this))
    , m_previous(new QPushButton(this))
    , m_next(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_open(new QPushButton(this))
    , m_reload(new QPushButton(this))
    , m_export(new QPushButton(this))
{
    auto* layout = new QVBoxLayout(this);
    m_fileRow = new QWidget(this);
    auto* fileButtons = new QHBoxLayout(m_fileRow);
    fileButtons->setContentsMargins(0, 0, 0, 0);
    auto* open = m_open;
    auto* reloadButton = m_reload;
    auto* exportButton = m_export;
    retranslate();
    fileButtons->addWidget(open);
    fileButtons->addWidget(reloadButton);
    fileButtons->addWidget(exportButton);
    layout->addWidget(m_fileRow);
    // A lesson's missing model is said above the lists, where it gets the room it needs (the
    // splitter's panes below give way).
    layout->addWidget(m_banner);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_lessons);
    split->addWidget(m_steps);
    auto* textBox = new QWidget(split);
    auto* textLayout = new QVBoxLayout(textBox);
    textLayout->setContentsMargins(0, 0, 0, 0);
    QFont counterFont = font();
    counterFont.setBold(true);
    counterFont.setPointSizeF(font().pointSizeF() * 1.3);
    m_counter->setFont(counterFont);
    textLayout->addWidget(m_counter);
    m_notes->setWordWrap(true);
    m_notes->setStyleSheet(QStringLiteral("color: #8a5300;"));
    textLayout->addWidget(m_notes);
    m_text->setOpenExternalLinks(false);
    textLayout->addWidget(m_text, 1);
    split->addWidget(textBox);
    split->setStretchFactor(2, 3);
    layout->addWidget(split, 1);

    auto* nav = new QHBoxLayout;
    nav->addWidget(m_previous);
    nav->addWidget(m_next);
    nav->addWidget(m_stop);
    layout->addLayout(nav);
    for (QWidget* w : {static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_stop),
                       static_cast<QWidget*>(m_lessons), static_cast<QWidget*>(m_steps)})
        w->setFocusPolicy(Qt::NoFocus); // a click leaves the keyboard focus where it was

    connect(open, &QPushButton::clicked, this, &LessonPlayer::openRequested);
    connect(reloadButton, &QPushButton::clicked, this, &LessonPlayer::reload);
    connect(exportButton, &QPushButton::clicked, this, &LessonPlayer::exportRequested);
    connect(m_previous, &QPushButton::clicked, this, &LessonPlayer::previous);
    connect(m_next, &QPushButton::clicked, this, &LessonPlayer::next);
    connect(m_stop, &QPushButton::clicked, this, &LessonPlayer::stop);
    connect(m_banner, &ModelBanner::retryRequested, this, &LessonPlayer::lookForModel);
    connect(m_lessons, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { startLesson(m_lessons->row(item)); });
    connect(m_lessons, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { startLesson(m_lessons->row(item)); });
    connect(m_steps, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != m_step)
            goToStep(row);
    });
    // A student's own sentence: re-check what this step can still show.
    connect(session, &Session::traceChanged, this, &LessonPlayer::updateNotes);

    rebuildList();
    showStep();
}

void LessonPlayer::retranslate()
{
    m_previous->setText(tr("\u25C0 Previous"));
    m_next->setText(tr("Next \u25B6"));
    m_stop->setText(tr("Stop lesson"));
    m_open->setText(tr("Open lesson file\u2026"));
    m_reload->setText(tr("Reload"));
    m_export->setText(tr("Export lesson\u2026"));
    m_reload->setToolTip(tr("Read the lesson file again after editing it"));
    m_stop->setToolTip(tr("Leave the lesson and bring back your own sentence, settings and model as they were before it"));
    m_export->setToolTip(tr("Save the lesson as a PDF deck or as one image per step"));
}

void LessonPlayer::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    retranslate();
    showStep(); // the counter, the notes, the text without a lesson
}

void LessonPlayer::setLanguage(const QString& language)
{
    m_language = language == u"zh" ? QStringLiteral("zh") : QStringLiteral("en");
    rebuildList();
}

void LessonPlayer::setPresenting(bool on)
{
    // What prepares a lesson (opening, reloading, exporting, choosing one, stopping) is not
    // needed in front of the class; the steps, the explanation, Previous and Next stay.
    m_fileRow->setVisible(!on);
    m_lessons->setVisible(!on);
    m_stop->setVisible(!on);
}

void LessonPlayer::rebuildList()
{
    m_entries.clear();
    QStringList paths;
    const QDir shipped(QStringLiteral(":/lessons/") + m_language);
    for (const QString& f : shipped.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        paths << shipped.filePath(f);
    paths << m_userFiles;
    QList<std::pair<int, Entry>> sorted;
    int fallback = 1000;
    for (const QString& p : paths) {
        Entry e{p, QFileInfo(p).fileName(), QString()};
        int order = ++fallback;
        try {
            const Lesson l = readLessonFile(p);
            e.title = QString::fromStdString(l.title);
            if (l.order && !m_userFiles.contains(p))
                order = *l.order;
        } catch (const LessonError& err) {
            e.error = errorText(err); // the reason in the interface's language
        }
        sorted.append({order, e});
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const QSignalBlocker block(m_lessons);
    m_lessons->clear();
    for (const auto& [order, e] : sorted) {
        m_entries.append(e);
        auto* item = new QListWidgetItem(e.error.isEmpty() ? e.title : QStringLiteral("\u26A0 ") + e.title, m_lessons);
        item->setToolTip(e.error.isEmpty() ? e.path : e.error);
        if (e.path == m_lessonPath)
            m_lessons->setCurrentItem(item);
    }
}

bool LessonPlayer::start(const QString& path, int step)
{
    try {
        Lesson lesson = readLessonFile(path);
        if (!m_lesson)
            m_setup = m_session->snapshot(); // kept aside: Stop lesson gives it back
        m_lesson = std::move(lesson);
        // No step of the new lesson yet: what the recomputation below signals (notes, captions)
        // must not read the old lesson's step number in the new lesson's steps.
        m_step = -1;
    } catch (const LessonError& e) {
        showError(errorText(e));
        return false;
    }
    m_lessonPath = path;
    m_error.clear();
    // A lesson that needs a pretrained model opens it from the Models folder first.
    m_model = LessonModels::open(*m_session, *m_lesson);
    // The lesson starts from its own sentence and settings; without its model, from its sentence
    // under the settings in use (the steps that need the model then show their text only).
    if (m_model.ready() || m_lesson->config.model != ModelKind::File)
        m_session->setLessonInput(m_lesson->sentence ? std::optional<QString>(QString::fromStdString(*m_lesson->sentence)) : std::nullopt,
                                  m_lesson->config);
    else if (m_lesson->sentence)
        m_session->setSentence(QString::fromStdString(*m_lesson->sentence));
    {
        const QSignalBlocker block(m_steps);
        m_steps->clear();
        for (std::size_t i = 0; i < m_lesson->steps.size(); ++i)
            m_steps->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(m_lesson->steps[i].title)));
    }
    m_step = -1;
    goToStep(std::clamp(step, 0, static_cast<int>(m_lesson->steps.size()) - 1));
    return true;
}

bool LessonPlayer::startLesson(int row)
{
    if (row < 0 || row >= m_entries.size())
        return false;
    return start(m_entries[row].path, 0);
}

bool LessonPlayer::openLessonFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (!start(absolute, 0))
        return false;
    if (!absolute.startsWith(QStringLiteral(":/")) && !m_userFiles.contains(absolute))
        m_userFiles << absolute; // a teacher's own file joins the list; shipped ones are there already
    rebuildList();
    return true;
}

bool LessonPlayer::openLessonAt(const QString& path, int step, bool keepSetup)
{
    const bool started = start(path, step);
    if (started && !keepSetup)
        m_setup.reset();
    return started;
}

QString LessonPlayer::shippedTwin(const QString& path, const QString& language)
{
    static const QRegularExpression shipped(QStringLiteral("^:/lessons/(en|zh)/"));
    QString twin = path;
    twin.replace(shipped, QStringLiteral(":/lessons/%1/").arg(language));
    return QFileInfo::exists(twin) ? twin : path;
}

bool LessonPlayer::reload()
{
    if (!m_lesson)
        return false;
    const int step = m_step;
    std::optional<Lesson> previous = m_lesson;
    if (!start(m_lessonPath, step)) {
        m_lesson = std::move(previous); // the broken edit is reported; the lesson keeps playing
        return false;
    }
    rebuildList();
    return true;
}

void LessonPlayer::lookForModel()
{
    if (!m_lesson)
        return;
    m_model = LessonModels::open(*m_session, *m_lesson);
    if (!m_model.ready()) {
        showStep();
        return;
    }
    m_session->setLessonInput(m_lesson->sentence ? std::optional<QString>(QString::fromStdString(*m_lesson->sentence)) : std::nullopt,
                              m_lesson->config);
    const int step = m_step;
    m_step = -1;
    goToStep(step); // now with the model
}

void LessonPlayer::markSteps()
{
    if (!m_lesson || m_steps->count() != static_cast<int>(m_lesson->steps.size()))
        return;
    for (int i = 0; i < m_steps->count(); ++i) {
        const bool shown = m_model.ready() || !m_lesson->steps[static_cast<std::size_t>(i)].needsModel();
        QListWidgetItem* item = m_steps->item(i);
        item->setForeground(shown ? m_steps->palette().text() : m_steps->palette().brush(QPalette::Disabled, QPalette::Text));
        item->setToolTip(shown ? QString()
                               : tr("Needs the model %1: this step shows its text only")
                                     .arg(QString::fromStdString(m_lesson->requirement->name)));
    }
}

void LessonPlayer::stop()
{
    m_lesson.reset();
    m_model = {};
    m_lessonPath.clear();
    m_steps->clear();
    m_session->setHighlight({});
    m_session->setView(QStringLiteral("stage"));
    if (m_setup) {
        QString why;
        if (!m_session->restore(std::move(*m_setup), &why))
            m_error = tr("Your own sentence and settings could not be brought back: %1").arg(why);
        m_setup.reset();
    }
    showStep();
}

void LessonPlayer::goToStep(int index)
{
    if (!m_lesson || index < 0 || index >= static_cast<int>(m_lesson->steps.size()) || index == m_step)
        return;
    m_step = index;
    m_error.clear();
    const LessonStep& s = m_lesson->steps[static_cast<std::size_t>(index)];
    // Without its model a step shows its text only; the studio keeps what it shows.
    if (s.needsModel() && !m_model.ready()) {
        showStep();
        return;
    }
    // Settings always apply; the sentence only when the step sets one (a student's own
    // sentence stays otherwise).
    if (!m_session->applyLessonStep(s))
        m_error = tr("This model has no stage %1 in layer %2 (%3); the nearest one is shown.")
                      .arg(stepName(QString::fromStdString(s.stage)))
                      .arg(s.layer + 1)
                      .arg(blockName(s.block));
    // A step the engine refuses (too many attention cells for the student's sentence, …)
    // shows the previous result: say so here, not only in the status line.
    if (!m_session->error().isEmpty())
        m_error = tr("This step cannot be computed: %1").arg(m_session->error());
    showStep();
}

void LessonPlayer::next()
{
    goToStep(m_step + 1);
}

void LessonPlayer::previous()
{
    goToStep(m_step - 1);
}

void LessonPlayer::showStep()
{
    const bool active = m_lesson.has_value();
    m_previous->setEnabled(active && m_step > 0);
    m_next->setEnabled(active && m_step + 1 < static_cast<int>(m_lesson ? m_lesson->steps.size() : 0));
    m_stop->setEnabled(active);
    m_banner->setMarkdown(active ? LessonModels::bannerMarkdown(*m_lesson, m_model) : QString());
    const bool needs = active && m_lesson->requirement && !m_model.ready();
    m_banner->setDownload(needs ? QString::fromStdString(m_lesson->requirement->name) : QString(),
                          needs && m_model.state == LessonModel::State::Missing ? QString::fromStdString(m_lesson->requirement->hubId) : QString());
    markSteps();
    if (!active) {
        m_counter->setText(tr("No lesson"));
        if (m_error.isEmpty())
            m_text->setMarkdown(tr("Pick a lesson above. **Next** / **Previous**, the arrow keys, Space and a presentation clicker step through it."));
        m_notes->clear();
        emit stateChanged();
        return;
    }
    m_counter->setText(tr("%1 \u2014 step %2 of %3").arg(QString::fromStdString(m_lesson->title)).arg(m_step + 1).arg(m_lesson->steps.size()));
    {
        const QSignalBlocker block(m_steps);
        m_steps->setCurrentRow(m_step);
    }
    setMarkdownText(m_text, stepMarkdown());
    updateNotes();
    emit stateChanged();
}

QString LessonPlayer::missingModel() const
{
    if (!m_lesson || m_step < 0 || m_model.ready() || !m_lesson->requirement)
        return {};
    if (!m_lesson->steps[static_cast<std::size_t>(m_step)].needsModel())
        return {};
    return QString::fromStdString(m_lesson->requirement->name);
}

QString LessonPlayer::stepMarkdown() const
{
    if (!m_lesson || m_step < 0)
        return {};
    const LessonStep& s = m_lesson->steps[static_cast<std::size_t>(m_step)];
    return QStringLiteral("## ") + QString::fromStdString(s.title) + QStringLiteral("\n\n") + QString::fromStdString(s.explanation);
}

QString LessonPlayer::notes() const
{
    return m_notes->text();
}

void LessonPlayer::updateNotes()
{
    if (!m_error.isEmpty()) {
        m_notes->setText(QStringLiteral("\u26D4 ") + m_error);
        m_notes->setStyleSheet(QStringLiteral("color: #b00020; font-weight: bold;"));
        return;
    }
    m_notes->setStyleSheet(QStringLiteral("color: #8a5300;"));
    // A step shown as text only has nothing on screen to highlight.
    if (!m_lesson || m_step < 0 || (m_lesson->steps[static_cast<std::size_t>(m_step)].needsModel() && !m_model.ready())) {
        m_notes->clear();
        return;
    }
    m_notes->setText(highlightNote(*m_session, m_lesson->steps[static_cast<std::size_t>(m_step)]));
}

void LessonPlayer::showError(const QString& message)
{
    m_error = message;
    updateNotes();
    if (!m_lesson)
        m_counter->setText(tr("No lesson"));
}

} // namespace attnlab
