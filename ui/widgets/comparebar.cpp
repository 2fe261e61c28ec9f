#include "widgets/comparebar.h"

#include "session/session.h"
#include "widgets/projectiontype.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace attnlab {

namespace {

// The kinds in the order of the kind box, and the values of the boxes, in their order.
constexpr CompareKind kKinds[] = {CompareKind::Sentence, CompareKind::Positional, CompareKind::Scaling, CompareKind::Mask,
                                  CompareKind::Seed};
constexpr PositionalEncoding kPositions[] = {PositionalEncoding::Sinusoidal, PositionalEncoding::Learned, PositionalEncoding::None};
constexpr MaskKind kMasks[] = {MaskKind::None, MaskKind::Causal, MaskKind::Padding, MaskKind::CausalPadding};

template <typename T, std::size_t N>
int indexOf(const T (&values)[N], T v)
{
    const auto it = std::find(std::begin(values), std::end(values), v);
    return it == std::end(values) ? 0 : static_cast<int>(it - std::begin(values));
}

QComboBox* comboWith(int items, QWidget* parent)
{
    auto* box = new QComboBox(parent);
    for (int i = 0; i < items; ++i)
        box->addItem(QString());
    return box;
}

void setTexts(QComboBox* box, const QStringList& texts)
{
    for (int i = 0; i < texts.size() && i < box->count(); ++i)
        box->setItemText(i, texts[i]);
}

} // namespace

CompareBar::CompareBar(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_toggle(new QAction(this))
    , m_button(new QToolButton(this)) // the window puts it beside the sentence
    , m_label(new QLabel(this))
    , m_kind(comboWith(std::size(kKinds), this))
    , m_editors(new QStackedWidget(this))
    , m_sentencePage(new QWidget(m_editors))
    , m_sentence(new QLineEdit(m_sentencePage))
    , m_swap(new QPushButton(m_sentencePage))
    , m_positional(comboWith(std::size(kPositions), m_editors))
    , m_scale(comboWith(2, m_editors))
    , m_mask(comboWith(std::size(kMasks), m_editors))
    , m_seed(new QSpinBox(m_editors))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("CompareBar"));
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    // The button and the action switch together; the button's text is shorter than the menu's.
    m_button->setCheckable(true);
    m_button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_button->setFocusPolicy(Qt::NoFocus);
    connect(m_button, &QToolButton::toggled, m_toggle, &QAction::setChecked);
    connect(m_toggle, &QAction::toggled, m_button, &QToolButton::setChecked);

    auto* sentenceRow = new QHBoxLayout(m_sentencePage);
    sentenceRow->setContentsMargins(0, 0, 0, 0);
    sentenceRow->addWidget(m_sentence, 1);
    sentenceRow->addWidget(m_swap);
    m_sentence->setClearButtonEnabled(true);
    m_sentence->setMaxLength(100000);
    for (QWidget* page : {m_sentencePage, static_cast<QWidget*>(m_positional), static_cast<QWidget*>(m_scale),
                          static_cast<QWidget*>(m_mask), static_cast<QWidget*>(m_seed)})
        m_editors->addWidget(page);
    m_seed->setRange(0, 999999);
    // The editors take the height of the one shown, not of the tallest.
    m_editors->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_label);
    row->addWidget(m_kind);
    row->addWidget(m_editors, 1);
    m_label->setBuddy(m_sentence);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(40);
    connectControls();
    retranslate();
    sync();
}

void CompareBar::connectControls()
{
    connect(m_toggle, &QAction::toggled, m_session, &Session::setComparing);
    connect(m_session, &Session::comparisonChanged, this, &CompareBar::sync);
    connect(m_kind, &QComboBox::activated, this, &CompareBar::applyKind);
    // B's sentence recomputes after a short pause in typing, as A's does.
    connect(m_sentence, &QLineEdit::textEdited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &CompareBar::apply);
    connect(m_sentence, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        apply();
        emit editingDone();
    });
    connect(m_swap, &QPushButton::clicked, this, [this] {
        m_sentence->setText(QString::fromStdString(swapFirstAndLastWords(m_session->sentence().toStdString())));
        apply();
    });
    for (QComboBox* box : {m_positional, m_scale, m_mask})
        connect(box, &QComboBox::activated, this, &CompareBar::apply);
    connect(m_seed, &QSpinBox::valueChanged, this, &CompareBar::apply);
}

void CompareBar::sync()
{
    const Comparison& c = m_session->comparison();
    {
        const QSignalBlocker b0(m_button), b1(m_toggle), b2(m_kind), b3(m_positional), b4(m_scale), b5(m_mask), b6(m_seed);
        m_toggle->setChecked(m_session->isComparing());
        m_button->setChecked(m_session->isComparing());
        m_kind->setCurrentIndex(indexOf(kKinds, c.kind));
        m_editors->setCurrentIndex(m_kind->currentIndex());
        if (!m_sentence->hasFocus() || m_sentence->text().isEmpty())
            m_sentence->setText(QString::fromStdString(c.sentence));
        m_positional->setCurrentIndex(indexOf(kPositions, c.positional));
        m_scale->setCurrentIndex(c.scaleScores ? 0 : 1);
        m_mask->setCurrentIndex(indexOf(kMasks, c.mask));
        m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(c.seed, 999999)));
    }
    setVisible(m_session->isComparing() && !isProjected(window())); // never projected
}

void CompareBar::applyKind(int index)
{
    // A new kind starts from the other value of A's setting (B differs from A at once); a
    // sentence typed before is kept.
    Comparison c = m_session->comparison();
    const Comparison other = toggled(kKinds[index], m_session->config(), m_session->sentence().toStdString());
    c.kind = other.kind;
    const Config b = comparedConfig(m_session->config(), c);
    if (c.kind == CompareKind::Sentence && c.sentence.empty())
        c.sentence = other.sentence;
    else if (c.kind != CompareKind::Sentence && b == m_session->config())
        c = other;
    m_session->setComparison(c);
}

void CompareBar::apply()
{
    Comparison c = m_session->comparison();
    c.sentence = m_sentence->text().toStdString();
    c.positional = kPositions[std::clamp(m_positional->currentIndex(), 0, int(std::size(kPositions)) - 1)];
    c.scaleScores = m_scale->currentIndex() == 0;
    c.mask = kMasks[std::clamp(m_mask->currentIndex(), 0, int(std::size(kMasks)) - 1)];
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    m_session->setComparison(c);
}

void CompareBar::retranslate()
{
    m_toggle->setText(tr("&Compare two inputs"));
    m_toggle->setToolTip(tr("Show A and B side by side on one colour scale, and A \u2212 B, at every stage (%1)")
                             .arg(m_toggle->shortcut().toString(QKeySequence::NativeText)));
    m_button->setText(tr("Compare"));
    m_button->setToolTip(m_toggle->toolTip());
    m_label->setText(tr("&B:"));
    setTexts(m_kind, {tr("another sentence"), tr("positional encoding"), tr("score scaling"), tr("mask"), tr("seed")});
    m_kind->setToolTip(tr("What B changes against A (the sentence and settings above)"));
    m_sentence->setPlaceholderText(tr("B's sentence, e.g. \u4EBA\u54AC\u4E86\u72D7"));
    m_sentence->setToolTip(tr("B's sentence, computed with A's settings: swap two words to see what the positions change"));
    m_swap->setText(tr("Swap words"));
    m_swap->setToolTip(tr("A's sentence with its first and last words swapped"));
    setTexts(m_positional, {tr("sinusoidal"), tr("learned"), tr("none")});
    setTexts(m_scale, {tr("scores \u00F7 \u221Ad_k"), tr("scores not divided by \u221Ad_k")});
    setTexts(m_mask, {tr("none"), tr("causal (look-ahead)"), tr("padding"), tr("causal + padding")});
    m_positional->setToolTip(tr("B's positional encoding: A's sentence and other settings, with another way to add positions"));
    m_scale->setToolTip(tr("B with or without \u00F7\u221Ad_k: without it, large scores make the softmax almost one-hot"));
    m_mask->setToolTip(tr("B's mask: which keys each query of B may not look at"));
    m_seed->setToolTip(tr("B's seed: other embeddings, learned positions and seeded weights"));
}

void CompareBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attnlab
