#include "views/trainingview.h"

#include "plot/fitting.h"
#include "plot/plotting.h"
#include "session/messages.h"
#include "session/session.h"
#include "training/snapshotstrip.h"
#include "views/attentionmaps.h"
#include "views/costplots.h"
#include "views/heatmapview.h"
#include "widgets/flowlayout.h"

#include "io/fileio.h"
#include "io/safetensors.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace attnlab {

namespace {

enum TaskItem { kReverse, kCopy, kSort, kOpenFile, kFile };
enum PresetItem { kClassroom, kStandard, kCustom };

/// Steps that show the preset's pattern forming and then hold it (the README's measurements).
int defaultSteps(int preset)
{
    return preset == kClassroom ? 800 : 1500;
}

QString percentText(double share)
{
    return QStringLiteral("%1 %").arg(fixedNumber(100.0 * share, 0));
}

} // namespace

TrainingView::TrainingView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_taskLabel(new QLabel(this))
    , m_task(new QComboBox(this))
    , m_presetLabel(new QLabel(this))
    , m_preset(new QComboBox(this))
    , m_custom(new QWidget(this))
    , m_layers(new QSpinBox(m_custom))
    , m_dModel(new QSpinBox(m_custom))
    , m_heads(new QSpinBox(m_custom))
    , m_dFF(new QSpinBox(m_custom))
    , m_stepsLabel(new QLabel(this))
    , m_steps(new QSpinBox(this))
    , m_batchLabel(new QLabel(this))
    , m_batch(new QSpinBox(this))
    , m_rateLabel(new QLabel(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_start(new QPushButton(this))
    , m_pause(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_use(new QPushButton(this))
    , m_save(new QPushButton(this))
    , m_status(new QLabel(this))
    , m_lossPlot(new QCustomPlot(this))
    , m_accuracyPlot(new QCustomPlot(this))
    , m_showLabel(new QLabel(this))
    , m_block(new QComboBox(this))
    , m_layer(new QComboBox(this))
    , m_head(new QComboBox(this))
    , m_heatmap(new HeatmapView(this))
    , m_placeholder(new QLabel(this))
    , m_strip(new SnapshotStrip(this))
    , m_stripScroll(new QScrollArea(this))
    , m_poll(new QTimer(this))
    , m_run(new TrainingRun(this))
{
    buildControls();
    for (QCustomPlot* p : {m_lossPlot, m_accuracyPlot}) {
        addPlotTitle(p);
        keepTextsFitting(p);
        putLegendBelow(p, 2); // one short row: the curves keep the plot's height
        p->setMinimumHeight(120);
    }
    // Loss falls over orders of magnitude: a log axis shows the late progress as well as the start.
    m_lossPlot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_lossPlot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_lossPlot->yAxis->setNumberFormat(QStringLiteral("gb"));
    // Exact match in % on the left, the learning rate on its own axis on the right.
    m_accuracyPlot->yAxis->setRange(0, 100);
    m_accuracyPlot->yAxis2->setVisible(true);
    m_accuracyPlot->yAxis2->setNumberFormat(QStringLiteral("gb"));
    m_poll->setInterval(200);
    connect(m_poll, &QTimer::timeout, this, &TrainingView::showFrame);
    connect(m_run, &TrainingRun::ended, this, [this] {
        m_poll->stop();
        showFrame();
    });
    connect(m_start, &QPushButton::clicked, this, &TrainingView::start);
    connect(m_pause, &QPushButton::clicked, this, &TrainingView::togglePause);
    connect(m_stop, &QPushButton::clicked, this, &TrainingView::stop);
    connect(m_use, &QPushButton::clicked, this, &TrainingView::useModel);
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save model as"), QString(), tr("Models (*.safetensors)"));
        if (!path.isEmpty())
            saveModel(path);
    });
    connect(m_preset, &QComboBox::currentIndexChanged, this, &TrainingView::presetChanged);
    connect(m_task, &QComboBox::activated, this, &TrainingView::taskChanged);
    for (QComboBox* box : {m_block, m_layer, m_head})
        connect(box, &QComboBox::activated, this, [this] { drawAttention(m_run->frame()); });
    applyFonts();
    retranslate();
    m_preset->setCurrentIndex(kClassroom);
    presetChanged();
    fillChoices(train::presetSpec(train::Preset::Classroom));
    updateButtons();
    showFrame();
}

TrainingView::~TrainingView() = default;

void TrainingView::buildControls()
{
    auto* root = new QVBoxLayout(this);
    for (int i = 0; i < 5; ++i)
        m_task->addItem(QString());
    m_task->setItemData(kFile, false, Qt::UserRole - 1); // shown once a file is chosen
    for (int i = 0; i < 3; ++i)
        m_preset->addItem(QString());
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_task->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_steps->setRange(1, 100000);
    m_steps->setSingleStep(100);
    m_batch->setRange(1, 1024);
    m_batch->setValue(64);
    m_rate->setRange(0.0001, 0.1);
    m_rate->setDecimals(4);
    m_rate->setSingleStep(0.0005);
    m_layers->setRange(1, 6);
    m_dModel->setRange(4, 256);
    m_heads->setRange(1, 16);
    m_dFF->setRange(4, 1024);
    // Every control, then the buttons, flowing onto as many lines as the width needs: one line
    // beside a projector's docks, two or three in a narrow column.
    auto* controls = new FlowLayout;
    auto pair = [&](QWidget* owner, QLabel* label, QWidget* field) {
        auto* box = new QWidget(owner);
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        label->setParent(box);
        field->setParent(box);
        label->setBuddy(field);
        row->addWidget(label);
        row->addWidget(field);
        return box;
    };
    for (auto [label, field] : {std::pair<QLabel*, QWidget*>{m_taskLabel, m_task}, {m_presetLabel, m_preset}})
        controls->addWidget(pair(this, label, field));
    // The custom sizes, shown only for the custom preset.
    auto* custom = new QHBoxLayout(m_custom);
    custom->setContentsMargins(0, 0, 0, 0);
    for (QSpinBox* box : {m_layers, m_dModel, m_heads, m_dFF}) {
        custom->addWidget(new QLabel(m_custom));
        custom->addWidget(box);
    }
    controls->addWidget(m_custom);
    for (auto [label, field] : {std::pair<QLabel*, QWidget*>{m_stepsLabel, m_steps}, {m_batchLabel, m_batch}, {m_rateLabel, m_rate}})
        controls->addWidget(pair(this, label, field));
    for (QPushButton* b : {m_start, m_pause, m_stop, m_use, m_save})
        controls->addWidget(b);
    root->addLayout(controls);
    // What the run is doing, on a line of its own.
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    root->addWidget(m_status);
    buildViews(root);
}

void TrainingView::buildViews(QVBoxLayout* root)
{
    // The curves on the left, the live attention on the right.
    auto* middle = new QGridLayout;
    middle->addWidget(m_lossPlot, 0, 0);
    middle->addWidget(m_accuracyPlot, 1, 0);
    auto* choice = new QHBoxLayout;
    choice->addWidget(m_showLabel);
    choice->addWidget(m_block);
    choice->addWidget(m_layer);
    choice->addWidget(m_head);
    choice->addStretch(1);
    middle->addLayout(choice, 0, 1, Qt::AlignTop);
    middle->addWidget(m_heatmap, 0, 1, 2, 1);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    middle->addWidget(m_placeholder, 0, 1, 2, 1);
    middle->setRowMinimumHeight(0, 150);
    middle->setColumnStretch(0, 1);
    middle->setColumnStretch(1, 1);
    root->addLayout(middle, 1);
    m_heatmap->setContentsMargins(0, 30, 0, 0);
    // The snapshots, scrolling sideways when there are many.
    m_stripScroll->setWidget(m_strip);
    m_stripScroll->setWidgetResizable(true);
    m_stripScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_stripScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripScroll->setFrameShape(QFrame::NoFrame);
    m_stripScroll->setMinimumHeight(80);
    m_stripScroll->setMaximumHeight(110);
    root->addWidget(m_stripScroll);
}

void TrainingView::retranslate()
{
    m_taskLabel->setText(tr("Tas&k"));
    m_task->setItemText(kReverse, tr("Reverse"));
    m_task->setItemText(kCopy, tr("Copy"));
    m_task->setItemText(kSort, tr("Sort"));
    m_task->setItemText(kOpenFile, tr("Open file\u2026"));
    m_task->setItemText(kFile, QFileInfo(m_file).fileName());
    m_task->setToolTip(tr("Reverse, copy or sort strings of 1 to 12 characters (a\u2013z, 0\u20139 and 39 Chinese characters), "
                          "or train on your own file of source<TAB>target lines"));
    m_presetLabel->setText(tr("&Model"));
    m_preset->setItemText(kClassroom, tr("Classroom"));
    m_preset->setItemText(kStandard, tr("Standard"));
    m_preset->setItemData(kClassroom, tr("1 encoder + 1 decoder layer, d_model 32, 4 heads, d_ff 64: the pattern forms in seconds"),
                          Qt::ToolTipRole);
    m_preset->setItemData(kStandard, tr("2 + 2 layers, d_model 64, 4 heads, d_ff 128: the size of the shipped reversal model"),
                          Qt::ToolTipRole);
    m_preset->setItemText(kCustom, tr("Custom"));
    const auto labels = m_custom->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly);
    const QStringList names{tr("Layers"), tr("d_model"), tr("Heads"), tr("d_ff")};
    for (int i = 0; i < labels.size() && i < names.size(); ++i)
        labels[i]->setText(names[i]);
    m_layers->setToolTip(tr("Encoder layers, and as many decoder layers"));
    m_stepsLabel->setText(tr("Steps"));
    m_batchLabel->setText(tr("Batch si&ze"));
    m_batch->setToolTip(tr("Pairs per step"));
    m_rateLabel->setText(tr("Learning &rate"));
    m_rate->setToolTip(tr("The peak rate: it rises over the first 100 steps (warm-up), then falls as 1/\u221astep"));
    m_start->setText(tr("S&tart"));
    m_stop->setText(tr("St&op"));
    m_use->setText(tr("&Use this model"));
    m_use->setToolTip(tr("Open the trained model in the studio, where every stage can be stepped through"));
    m_save->setText(tr("Save model as\u2026"));
    m_showLabel->setText(tr("Probe:"));
    m_heatmap->setToolTip(tr("The attention weights of a held-out pair the model never trains on"));
    m_placeholder->setText(tr("Press Start: the attention of a held-out pair appears here and changes as the model learns."));
    updateButtons();
    showFrame();
}

void TrainingView::applyFonts()
{
    for (QCustomPlot* p : {m_lossPlot, m_accuracyPlot})
        applyPlotFonts(p, font());
}

void TrainingView::presetChanged()
{
    const int preset = m_preset->currentIndex();
    m_custom->setVisible(preset == kCustom);
    if (preset != kCustom) {
        const ModelSpec s = train::presetSpec(preset == kClassroom ? train::Preset::Classroom : train::Preset::Standard);
        m_layers->setValue(s.encoderLayers);
        m_dModel->setValue(s.dModel);
        m_heads->setValue(s.heads);
        m_dFF->setValue(s.dFF);
        m_steps->setValue(defaultSteps(preset));
        m_rate->setValue(train::defaultRate(s.dModel));
    }
}

void TrainingView::taskChanged()
{
    if (m_task->currentIndex() != kOpenFile)
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Training pairs"), QString(), tr("Tab-separated pairs (*.tsv *.txt);;All files (*)"));
    if (path.isEmpty() || !setTaskFile(path))
        m_task->setCurrentIndex(m_file.isEmpty() ? kReverse : kFile);
}

bool TrainingView::setTaskFile(const QString& path)
{
    try {
        train::fileTask(QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot train on this file: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_file = path;
    m_task->setItemText(kFile, QFileInfo(path).fileName());
    m_task->setItemData(kFile, QVariant(), Qt::UserRole - 1); // selectable again
    m_task->setCurrentIndex(kFile);
    m_status->setText(tr("Pairs from %1").arg(QFileInfo(path).fileName()));
    return true;
}

ModelSpec TrainingView::chosenSpec() const
{
    ModelSpec s = train::presetSpec(m_preset->currentIndex() == kStandard ? train::Preset::Standard : train::Preset::Classroom);
    s.encoderLayers = s.decoderLayers = m_layers->value();
    s.dModel = m_dModel->value();
    s.heads = m_heads->value();
    s.dFF = m_dFF->value();
    s.seed = session()->config().seed;
    return s;
}

bool TrainingView::start()
{
    if (m_run->isActive())
        return false;
    std::unique_ptr<train::Trainer> trainer;
    try {
        const int item = m_task->currentIndex();
        train::Task task = item == kFile ? train::fileTask(QFile::encodeName(m_file).toStdString())
                                         : train::builtInTask(item == kCopy ? train::TaskKind::Copy
                                                                            : item == kSort ? train::TaskKind::Sort : train::TaskKind::Reverse,
                                                              12);
        const ModelSpec spec = chosenSpec();
        spec.validate();
        train::TrainOptions o;
        o.steps = m_steps->value();
        o.batch = m_batch->value();
        o.schedule.rate = m_rate->value();
        o.seed = spec.seed;
        Seq2SeqModel model = train::freshModel(spec, task);
        trainer = std::make_unique<train::Trainer>(std::move(model), std::move(task), o);
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot start: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    fillChoices(chosenSpec());
    m_run->start(std::move(trainer));
    m_poll->start();
    updateButtons();
    showFrame();
    return true;
}

void TrainingView::togglePause()
{
    if (m_run->state() == TrainingRun::State::Paused)
        m_run->resume();
    else
        m_run->pause();
    // The run pauses after its step in progress; the label follows the wish at once.
    m_pause->setText(m_run->state() == TrainingRun::State::Paused ? tr("&Pause") : tr("Resume"));
}

void TrainingView::stop()
{
    m_run->stop();
}

void TrainingView::fillChoices(const ModelSpec& spec)
{
    const int layer = m_layer->count() == spec.decoderLayers ? m_layer->currentIndex() : -1;
    const int head = m_head->currentIndex();
    m_block->clear();
    for (Block b : {Block::Cross, Block::DecoderSelf, Block::EncoderSelf})
        m_block->addItem(attentionBlockTitle(b), static_cast<int>(b));
    m_layer->clear();
    for (int l = 1; l <= spec.decoderLayers; ++l)
        m_layer->addItem(tr("Layer %1").arg(l));
    m_head->clear();
    for (int h = 1; h <= spec.heads; ++h)
        m_head->addItem(tr("Head %1").arg(h));
    // The last decoder layer's cross-attention, where the alignment is sharpest, unless the
    // teacher chose another layer of a model as deep.
    m_layer->setCurrentIndex(layer >= 0 && layer < spec.decoderLayers ? layer : spec.decoderLayers - 1);
    m_head->setCurrentIndex(head >= 0 && head < spec.heads ? head : 0);
}

void TrainingView::updateButtons()
{
    const TrainingRun::State s = m_run->state();
    const bool active = m_run->isActive();
    m_start->setEnabled(!active);
    m_pause->setEnabled(active);
    m_pause->setText(s == TrainingRun::State::Paused ? tr("Resume") : tr("&Pause"));
    m_stop->setEnabled(active);
    const bool model = m_run->model() != nullptr;
    m_use->setEnabled(model && s != TrainingRun::State::Running);
    m_save->setEnabled(model && s != TrainingRun::State::Running);
    for (QWidget* w : std::initializer_list<QWidget*>{m_task, m_preset, m_custom, m_steps, m_batch, m_rate})
        w->setEnabled(!active);
}

void TrainingView::showFrame()
{
    const TrainingRun::Frame f = m_run->frame();
    updateButtons();
    drawCurves(f);
    drawAttention(f);
    QString status;
    switch (f.state) {
    case TrainingRun::State::Idle:
        if (m_status->text().isEmpty())
            status = tr("Choose a task and a model, then press Start.");
        break;
    case TrainingRun::State::Failed:
        if (f.errorMessage && f.errorMessage->code == "training_diverged")
            status = tr("Training stopped: %1. Try a lower learning rate.").arg(messageText(*f.errorMessage));
        else
            status = tr("Training stopped: %1").arg(f.errorMessage ? messageText(*f.errorMessage) : f.error);
        break;
    default: {
        QStringList parts;
        parts << tr("Step %1 of %2").arg(f.steps.empty() ? 0 : f.steps.back().step).arg(f.totalSteps);
        if (!f.steps.empty())
            parts << tr("loss %1").arg(fixedNumber(f.steps.back().loss, 3));
        if (!f.evaluations.empty())
            parts << tr("held-out exact match %1").arg(percentText(f.evaluations.back().second.exactMatch));
        if (f.seconds > 0)
            parts << tr("%1 steps/s").arg(fixedNumber(static_cast<double>(f.steps.size()) / f.seconds, 0));
        if (f.state == TrainingRun::State::Paused)
            parts << tr("paused");
        else if (f.state == TrainingRun::State::Finished)
            parts << tr("finished");
        else if (f.state == TrainingRun::State::Stopped)
            parts << tr("stopped");
        status = parts.join(QStringLiteral(" \u00b7 "));
    }
    }
    if (!status.isEmpty())
        m_status->setText(status);
}

void TrainingView::drawCurves(const TrainingRun::Frame& f)
{
    QVector<double> steps, loss, lr, evalSteps, heldOut, exact;
    for (const train::StepRecord& r : f.steps) {
        steps << r.step;
        loss << r.loss;
        lr << r.lr;
    }
    for (const auto& [step, e] : f.evaluations) {
        evalSteps << step;
        heldOut << std::max(e.loss, 1e-6);
        exact << 100.0 * e.exactMatch;
    }
    const double last = std::max(10, f.totalSteps);
    m_lossPlot->clearGraphs();
    auto* train = m_lossPlot->addGraph();
    train->setName(tr("training"));
    train->setPen(QPen(seriesColor(0), 1.5));
    train->setData(steps, loss, true);
    auto* held = m_lossPlot->addGraph();
    held->setName(tr("held-out"));
    held->setPen(QPen(seriesColor(1), 2));
    held->setData(evalSteps, heldOut, true);
    plotTitle(m_lossPlot)->setText(tr("Loss (cross-entropy per token)"));
    m_lossPlot->xAxis->setRange(0, last);
    m_lossPlot->yAxis->setRange(0.001, 10);
    m_lossPlot->replot(QCustomPlot::rpQueuedReplot);

    m_accuracyPlot->clearGraphs();
    auto* acc = m_accuracyPlot->addGraph();
    acc->setName(tr("exact match (%)"));
    acc->setPen(QPen(seriesColor(2), 2));
    acc->setData(evalSteps, exact, true);
    auto* rate = m_accuracyPlot->addGraph(m_accuracyPlot->xAxis, m_accuracyPlot->yAxis2);
    rate->setName(tr("rate (right)"));
    rate->setPen(QPen(seriesColor(3), 1.5, Qt::DashLine));
    rate->setData(steps, lr, true);
    plotTitle(m_accuracyPlot)->setText(tr("Exact match and learning rate"));
    m_accuracyPlot->xAxis->setRange(0, last);
    double top = m_rate->value();
    for (double v : lr)
        top = std::max(top, v);
    m_accuracyPlot->yAxis2->setRange(0, top * 1.1);
    m_accuracyPlot->replot(QCustomPlot::rpQueuedReplot);
}

void TrainingView::drawAttention(const TrainingRun::Frame& f)
{
    const auto block = static_cast<Block>(m_block->currentData().toInt());
    // Only the decoder has cross-attention and decoder self-attention; the encoder's layers are as many.
    const int layer = std::max(0, m_layer->currentIndex()), head = std::max(0, m_head->currentIndex());
    m_strip->setSnapshots(f.snapshots, block, layer, head);
    m_heatmap->setVisible(f.probe != nullptr);
    m_placeholder->setVisible(!f.probe);
    if (!f.probe)
        return;
    const AttentionMaps maps = attentionMaps(*f.probe, block);
    if (layer >= maps.layers || head >= maps.heads) {
        m_heatmap->setMessage(tr("This model has no such layer or head."));
        return;
    }
    m_heatmap->setMessage(QString());
    m_heatmap->setMatrix(maps.at(layer, head).main(),
                         tr("%1, layer %2, head %3 \u2014 step %4").arg(attentionBlockTitle(block)).arg(layer + 1).arg(head + 1).arg(f.probeStep),
                         HeatmapView::Scale::Probability);
}

/// Says why `model` cannot be used or saved (none yet; weights that are not finite) in the
/// status line; true when it can.
bool TrainingView::usable(const Seq2SeqModel* model)
{
    const bool finite = model && nonFiniteTensor(modelToTensors(*model)).empty();
    if (!finite)
        m_status->setText(!model ? tr("Train a model first.")
                                 : tr("This model's weights are not finite (NaN or infinity): it cannot be used or saved. Train it "
                                      "again with a lower learning rate."));
    return finite;
}

bool TrainingView::useModel()
{
    const auto model = m_run->model();
    if (!usable(model.get()))
        return false;
    // Saved under the application's data folder: a session that uses it can open it again.
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/trained");
    const QString path = dir + QStringLiteral("/%1-%2.safetensors")
                                   .arg(QString::fromStdString(model->name).section(QLatin1Char(' '), -1),
                                        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString error;
    try {
        QDir().mkpath(dir);
        attnlab::saveModel(*model, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot keep the model: %1").arg(errorText(e)));
        return false;
    }
    if (!session()->importModel(path, &error)) {
        m_status->setText(tr("Cannot open the model: %1").arg(error));
        return false;
    }
    // The studio shows the probe's source, the model writing its answer.
    session()->setTarget(std::nullopt);
    session()->setSentence(QString::fromStdString(m_run->frame().probePair.source));
    session()->setView(QStringLiteral("stage"));
    m_status->setText(tr("The studio uses the trained model (kept as %1)").arg(QFileInfo(path).fileName()));
    return true;
}

bool TrainingView::saveModel(const QString& path)
{
    const auto model = m_run->model();
    if (!usable(model.get()))
        return false;
    try {
        attnlab::saveModel(*model, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        m_status->setText(tr("Could not save the model: %1").arg(errorText(e)));
        return false;
    }
    m_status->setText(tr("Model saved to %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool TrainingView::prepareForSlide(int timeoutMs)
{
    // A deck shows the same run on each of its training slides: it is trained once per process
    // (the classroom preset on reversal, with the lesson's seed) and shown again.
    struct SlideRun {
        std::uint64_t seed = 0;
        TrainingRun::Frame frame;
        std::shared_ptr<const Seq2SeqModel> model;
    };
    static std::optional<SlideRun> slide;
    if (m_run->state() != TrainingRun::State::Idle) {
        const bool done = m_run->wait(timeoutMs);
        showFrame();
        return done;
    }
    m_task->setCurrentIndex(kReverse);
    m_preset->setCurrentIndex(kClassroom);
    if (slide && slide->seed == session()->config().seed) {
        m_run->restore(slide->frame, slide->model);
        fillChoices(chosenSpec());
        showFrame();
        return true;
    }
    start();
    const bool done = m_run->wait(timeoutMs);
    if (done && m_run->state() == TrainingRun::State::Finished)
        slide = SlideRun{session()->config().seed, m_run->frame(), m_run->model()};
    showFrame();
    return done;
}

} // namespace attnlab
