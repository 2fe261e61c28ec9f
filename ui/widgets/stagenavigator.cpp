#include "widgets/stagenavigator.h"

#include "families/family.h"
#include "model/model.h"
#include "pretrained/model_folder.h"
#include "session/session.h"
#include "session/stages.h"

#include <QComboBox>
#include <QGridLayout>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

StageNavigator::StageNavigator(Session* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_list(new QListWidget(this))
    , m_previous(new QPushButton(this))
    , m_next(new QPushButton(this))
    , m_head(new QSpinBox(this))
    , m_layer(new QComboBox(this))
    , m_block(new QComboBox(this))
    , m_layerLabel(new QLabel(this))
    , m_blockLabel(new QLabel(this))
    , m_headLabel(new QLabel(this))
    , m_play(new QPushButton(this))
    , m_speed(new QSlider(Qt::Horizontal, this))
    , m_speedLabel(new QLabel(this))
    , m_timer(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    // The list never takes keyboard focus: arrow keys belong to the window-wide shortcuts.
    m_list->setFocusPolicy(Qt::NoFocus);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    layout->addWidget(m_list, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(m_next);
    layout->addLayout(buttons);

    auto* grid = new QGridLayout;
    grid->addWidget(m_layerLabel, 0, 0);
    grid->addWidget(m_layer, 0, 1);
    grid->addWidget(m_blockLabel, 1, 0);
    grid->addWidget(m_block, 1, 1);
    grid->addWidget(m_headLabel, 2, 0);
    grid->addWidget(m_head, 2, 1);
    grid->addWidget(m_play, 3, 0);
    grid->addWidget(m_speed, 3, 1);
    grid->addWidget(m_speedLabel, 4, 1);
    for (QComboBox* box : {m_layer, m_block}) {
        box->setFocusPolicy(Qt::NoFocus);
        connect(box, &QComboBox::activated, this, &StageNavigator::goToLayerBlock);
    }
    layout->addLayout(grid);

    for (QWidget* w : {static_cast<QWidget*>(m_previous), static_cast<QWidget*>(m_next), static_cast<QWidget*>(m_play)})
        w->setFocusPolicy(Qt::NoFocus);
    m_play->setCheckable(true);
    m_speed->setRange(1, 10); // seconds per step
    m_speed->setValue(3);
    m_timer->setInterval(3000);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        const QListWidgetItem* item = m_list->item(row);
        const int step = item ? item->data(Qt::UserRole).toInt() : -1;
        if (step >= 0)
            m_session->setStep(step);
    });
    connect(m_previous, &QPushButton::clicked, session, &Session::previousStep);
    connect(m_next, &QPushButton::clicked, session, &Session::nextStep);
    connect(m_head, &QSpinBox::valueChanged, this, [this](int oneBased) { m_session->setHead(oneBased - 1); });
    connect(m_play, &QPushButton::toggled, this, &StageNavigator::setPlaying);
    connect(m_speed, &QSlider::valueChanged, this, [this](int seconds) {
        m_timer->setInterval(seconds * 1000);
        m_speedLabel->setText(tr("%n s per step", nullptr, seconds));
    });
    connect(m_timer, &QTimer::timeout, this, &StageNavigator::advance);
    connect(session, &Session::stepChanged, this, &StageNavigator::syncStep);
    connect(session, &Session::headChanged, this, &StageNavigator::syncHeads);
    connect(session, &Session::traceChanged, this, &StageNavigator::syncHeads);
    connect(session, &Session::traceChanged, this, &StageNavigator::rebuildList);

    rebuildList();
    retranslate();
    syncStep();
    syncHeads();
}

void StageNavigator::rebuildList()
{
    const std::vector<Step>& steps = m_session->steps();
    if (steps == m_shown && m_list->count() > 0)
        return;
    m_shown = steps;
    const QSignalBlocker block(m_list);
    m_list->clear();
    // A Transformer's steps are grouped under a heading per part: source, each layer, target, output.
    QString part = QStringLiteral("?");
    int number = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Step& s = steps[i];
        if (m_session->isModel()) {
            const QString here = s.layer ? QStringLiteral("%1%2").arg(s.block == Block::EncoderSelf ? QStringLiteral("e") : QStringLiteral("d")).arg(*s.layer)
                                         : QString::fromLatin1(toString(s.block));
            if (here != part) {
                part = here;
                auto* heading = new QListWidgetItem(m_list);
                heading->setData(Qt::UserRole, -1);
                heading->setData(Qt::UserRole + 1, static_cast<int>(i));
                heading->setFlags(Qt::ItemIsEnabled);
                QFont f = heading->font();
                f.setBold(true);
                heading->setFont(f);
                number = 0;
            }
        }
        auto* item = new QListWidgetItem(m_list);
        item->setData(Qt::UserRole, static_cast<int>(i));
        item->setData(Qt::UserRole + 1, ++number);
    }
    const bool model = m_session->isModel();
    for (QWidget* w : {static_cast<QWidget*>(m_layer), static_cast<QWidget*>(m_block), static_cast<QWidget*>(m_layerLabel),
                       static_cast<QWidget*>(m_blockLabel)})
        w->setVisible(model);
    {
        const QSignalBlocker b(m_layer);
        m_layer->clear();
        int layers = 0;
        for (const Step& s : steps) {
            if (s.layer)
                layers = std::max(layers, *s.layer + 1);
        }
        for (int l = 0; l < layers; ++l)
            m_layer->addItem(QString::number(l + 1), l);
    }
    retranslate();
    syncStep();
}

void StageNavigator::goToLayerBlock()
{
    const int layer = m_layer->currentData().toInt();
    const Block block = parseBlock(m_block->currentData().toString().toStdString()).value_or(Block::None);
    const auto& steps = m_session->steps();
    int first = -1;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].layer != layer || steps[i].block != block)
            continue;
        if (first < 0)
            first = static_cast<int>(i);
        if (steps[i].id == m_session->stepId()) {
            m_session->setStep(static_cast<int>(i));
            return;
        }
    }
    if (first >= 0)
        m_session->setStep(first);
    else
        syncStep(); // that block has no such layer (an encoder stack has no decoder)
}

void StageNavigator::retranslate()
{
    const auto& steps = m_session->steps();
    // A modern decoder (Llama, Qwen): no position vector is added (RoPE turns q and k inside
    // attention), and its feed-forward network starts with the gate.
    const auto& opened = m_session->model();
    const bool gated = opened && opened->pretrained && modelFamily(opened->pretrained->family()).layerKind == FamilyLayer::Gated;
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const int step = item->data(Qt::UserRole).toInt();
        if (step < 0) {
            const Step& s = steps[static_cast<std::size_t>(item->data(Qt::UserRole + 1).toInt())];
            QString title;
            // A model that reads one text (GPT-2, BERT, an encoder stack) has no source and target: its input.
            const auto& model = m_session->model();
            const bool oneText = model && model->spec.architecture != Architecture::EncoderDecoder;
            if (!s.layer && oneText && s.block != Block::None)
                title = tr("Input");
            else if (!s.layer)
                title = s.block == Block::EncoderSelf ? tr("Source") : s.block == Block::DecoderSelf ? tr("Target") : tr("Output");
            else
                title = s.block == Block::EncoderSelf ? tr("Encoder layer %1").arg(*s.layer + 1) : tr("Decoder layer %1").arg(*s.layer + 1);
            item->setText(title);
            continue;
        }
        if (step >= static_cast<int>(steps.size()))
            continue;
        const Step& s = steps[static_cast<std::size_t>(step)];
        // A gated decoder adds no position vector (RoPE turns q and k); Gemma scales E by √d.
        const bool scaled = gated && opened->pretrained->config().scaleEmbeddings;
        const QString name = gated && s.id == u"input" ? (scaled ? tr("Input X = E\u00B7\u221Ad") : tr("Input X = E")) : stepName(s.id);
        QString text = QStringLiteral("%1. %2").arg(item->data(Qt::UserRole + 1).toInt()).arg(name);
        // Where a layer's sub-blocks start: self-attention, cross-attention, feed-forward network.
        if (s.layer && s.id == u"q")
            text += QStringLiteral("  \u2014 ") + blockName(s.block);
        else if (s.layer && s.id == (gated ? QStringView(u"ffn_gate") : QStringView(u"ffn_hidden")))
            text += QStringLiteral("  \u2014 ") + tr("Feed-forward network");
        if (m_session->isModel())
            text = QStringLiteral("   ") + text;
        item->setText(text);
    }
    {
        const QSignalBlocker b(m_block);
        const QString current = m_block->currentData().toString();
        m_block->clear();
        // The data is the block's name in files ("cross"), so a lesson or test can pick it by name.
        // Only the model's blocks: GPT-2 has decoder_self alone, BERT encoder_self.
        const auto& steps = m_session->steps();
        for (const Block b : {Block::EncoderSelf, Block::DecoderSelf, Block::Cross}) {
            const bool present = std::any_of(steps.begin(), steps.end(), [b](const Step& st) { return st.layer && st.block == b; });
            if (present || !m_session->isModel())
                m_block->addItem(blockName(b), QString::fromLatin1(toString(b)));
        }
        m_block->setCurrentIndex(std::max(0, m_block->findData(current)));
    }
    m_layerLabel->setText(tr("Layer"));
    m_blockLabel->setText(tr("Block"));
    m_previous->setText(tr("\u25C0 Previous"));
    m_previous->setToolTip(tr("Previous stage (\u2190, PageUp)"));
    m_next->setText(tr("Next \u25B6"));
    m_next->setToolTip(tr("Next stage (\u2192, Space, PageDown)"));
    m_headLabel->setText(tr("Head"));
    m_play->setText(tr("Auto-play"));
    m_speedLabel->setText(tr("%n s per step", nullptr, m_speed->value()));
}

bool StageNavigator::isPlaying() const
{
    return m_timer->isActive();
}

void StageNavigator::setPlaying(bool playing)
{
    const QSignalBlocker block(m_play);
    m_play->setChecked(playing);
    if (playing)
        m_timer->start();
    else
        m_timer->stop();
}

void StageNavigator::advance()
{
    if (m_session->step() + 1 >= static_cast<int>(m_session->steps().size())) {
        setPlaying(false); // the end: stop rather than wrap around
        return;
    }
    m_session->nextStep();
}

void StageNavigator::syncStep()
{
    const QSignalBlocker block(m_list);
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(Qt::UserRole).toInt() == m_session->step()) {
            m_list->setCurrentRow(row);
            m_list->scrollToItem(m_list->item(row));
            break;
        }
    }
    const Step& here = m_session->currentStep();
    if (here.layer) {
        const QSignalBlocker b1(m_layer);
        const QSignalBlocker b2(m_block);
        m_layer->setCurrentIndex(std::max(0, m_layer->findData(*here.layer)));
        m_block->setCurrentIndex(std::max(0, m_block->findData(QString::fromLatin1(toString(here.block)))));
    }
    const bool perHead = m_session->currentStep().perHead;
    m_head->setEnabled(perHead);
    m_headLabel->setEnabled(perHead);
    m_previous->setEnabled(m_session->step() > 0);
    m_next->setEnabled(m_session->step() + 1 < static_cast<int>(m_session->steps().size()));
}

void StageNavigator::syncHeads()
{
    const QSignalBlocker block(m_head);
    m_head->setRange(1, m_session->config().heads);
    m_head->setValue(m_session->head() + 1);
    m_head->setSuffix(tr(" of %1").arg(m_session->config().heads));
}

void StageNavigator::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        syncHeads(); // "1 of 4" ↔ "1 / 4"
    }
}

} // namespace attnlab
