#include "views/costview.h"

#include "attention/kind.h"
#include "plot/plotting.h"
#include "session/kindstages.h"
#include "session/messages.h"
#include "session/session.h"
#include "views/costplots.h"
#include "widgets/attentionsettings.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QEventLoop>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace attnlab {

namespace {

/// The kinds ticked at first: full attention and three that grow linearly.
bool tickedAtFirst(AttentionKind k)
{
    return k == AttentionKind::Full || k == AttentionKind::SlidingWindow || k == AttentionKind::Performer
        || k == AttentionKind::Linear;
}

/// The kind's name as the command line and files write it ("sliding-window"), in the legends.
QString shortKindName(AttentionKind kind)
{
    const std::string_view name = toString(kind);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

/// The index of a kind in the registry (its colour).
int kindIndex(AttentionKind kind)
{
    const auto& kinds = attentionKinds();
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        if (kinds[i].kind == kind)
            return static_cast<int>(i);
    }
    return 0;
}

/// Measures every request in turn (the worker thread). `state` counts the timed runs and says
/// when to stop; a request that fails keeps its reason and the others still run.
std::vector<KindCost> measureAll(std::vector<CostRequest> requests, const std::shared_ptr<void>& keepAlive,
                                 std::atomic<int>* done, std::atomic<bool>* cancel)
{
    (void)keepAlive; // holds the counters while this runs
    std::vector<KindCost> out;
    int before = 0;
    for (CostRequest& r : requests) {
        r.progress = [done, cancel, before](int runs, int) {
            done->store(before + runs);
            return !cancel->load();
        };
        KindCost cost;
        cost.kind = r.kind;
        try {
            cost.result = measureCost(r);
        } catch (const std::exception& e) {
            cost.error = QString::fromUtf8(e.what());
        }
        before += static_cast<int>(r.lengths.size()) * r.repeats;
        const bool stop = cost.result.cancelled || cancel->load();
        out.push_back(std::move(cost));
        if (stop)
            break;
    }
    return out;
}

} // namespace

CostView::CostView(Session* session, QWidget* parent)
    : SessionView(session, parent)
    , m_kindsLabel(new QLabel(this))
    , m_lengthsLabel(new QLabel(this))
    , m_lengths(new QLineEdit(QStringLiteral("128, 256, 512, 1024, 2048"), this))
    , m_dModelLabel(new QLabel(this))
    , m_dModel(new QSpinBox(this))
    , m_headsLabel(new QLabel(this))
    , m_heads(new QSpinBox(this))
    , m_repeatsLabel(new QLabel(this))
    , m_repeats(new QSpinBox(this))
    , m_run(new QPushButton(this))
    , m_cancel(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_timePlot(new QCustomPlot(this))
    , m_memoryPlot(new QCustomPlot(this))
    , m_convergencePlot(new QCustomPlot(this))
    , m_poll(new QTimer(this))
{
    buildControls();
    // The kinds' colours are shown beside their boxes above: the plots' legends name only the
    // guides (eight kinds would take half of a plot at 1024 × 768).
    setUpLogLogPlot(m_timePlot, 2);
    setUpLogLogPlot(m_memoryPlot, 2);
    setUpLogLogPlot(m_convergencePlot, 2);
    applyFonts();
    retranslate();
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &CostView::showProgress);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &CostView::finishRun);
    connect(m_run, &QPushButton::clicked, this, &CostView::run);
    connect(m_cancel, &QPushButton::clicked, this, &CostView::cancel);
    connect(&m_convergenceWatcher, &QFutureWatcherBase::finished, this, [this] {
        ConvergenceResult r = m_convergenceWatcher.result();
        m_convergence = std::move(r.points);
        m_convergenceError = r.error;
        drawConvergence();
        emit convergenceFinished();
    });
    setRunning(false);
    drawCost();
    refresh();
}

CostView::~CostView()
{
    // The threads stop at their next check; nothing they hold belongs to this view.
    if (m_state)
        m_state->cancel = true;
    if (m_convergenceCancel)
        *m_convergenceCancel = true;
    m_watcher.waitForFinished();
    m_convergenceWatcher.waitForFinished();
}

void CostView::buildControls()
{
    auto* root = new QVBoxLayout(this);
    auto* kinds = new QGridLayout;
    kinds->addWidget(m_kindsLabel, 0, 0);
    int i = 0;
    for (const AttentionKindInfo& k : attentionKinds()) {
        auto* box = new QCheckBox(this);
        box->setChecked(tickedAtFirst(k.kind));
        // The kind's colour in the plots, beside its name.
        QPixmap swatch(12, 12);
        swatch.fill(seriesColor(i));
        box->setIcon(QIcon(swatch));
        m_kinds[k.kind] = box;
        kinds->addWidget(box, i / 4, 1 + i % 4);
        ++i;
    }
    kinds->setColumnStretch(5, 1);
    root->addLayout(kinds);
    auto* settings = new QHBoxLayout;
    m_dModel->setRange(1, ConfigLimits::maxDModel);
    m_dModel->setValue(64);
    m_heads->setRange(1, ConfigLimits::maxHeads);
    m_heads->setValue(4);
    m_repeats->setRange(1, 100);
    m_repeats->setValue(3);
    for (auto [label, field] : {std::pair<QLabel*, QWidget*>{m_lengthsLabel, m_lengths}, {m_dModelLabel, m_dModel},
                                {m_headsLabel, m_heads}, {m_repeatsLabel, m_repeats}}) {
        label->setBuddy(field);
        settings->addWidget(label);
        settings->addWidget(field, field == m_lengths ? 2 : 0);
    }
    settings->addWidget(m_run);
    settings->addWidget(m_cancel);
    settings->addWidget(m_progress, 1);
    root->addLayout(settings);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    root->addWidget(m_status);
    auto* plots = new QGridLayout;
    plots->addWidget(m_timePlot, 0, 0);
    plots->addWidget(m_memoryPlot, 0, 1);
    plots->addWidget(m_convergencePlot, 1, 0, 1, 2);
    plots->setRowStretch(0, 3);
    plots->setRowStretch(1, 2);
    for (QCustomPlot* p : {m_timePlot, m_memoryPlot, m_convergencePlot})
        p->setMinimumHeight(160);
    root->addLayout(plots, 1);
}

std::vector<CostRequest> CostView::requests(QString* problem) const
{
    std::vector<CostRequest> out;
    const auto lengths = AttentionSettings::parsePositions(m_lengths->text());
    if (!lengths || lengths->empty()) {
        *problem = tr("Give the lengths n as whole numbers separated by commas, like 256, 512, 1024");
        return {};
    }
    for (const auto& [kind, box] : m_kinds) {
        if (!box->isChecked())
            continue;
        CostRequest r;
        r.kind = kind;
        // The options of the settings panel (window, M, K, …); global positions only where they apply.
        r.options = session()->config().attentionOptions;
        if (kind != AttentionKind::SlidingWindow && kind != AttentionKind::BigBird)
            r.options.global.clear();
        r.lengths = *lengths;
        r.dModel = m_dModel->value();
        r.heads = m_heads->value();
        r.repeats = m_repeats->value();
        r.seed = session()->config().seed;
        if (const auto p = costProblems(r); !p.empty()) {
            *problem = QStringLiteral("%1: %2").arg(attentionKindName(kind), QString::fromStdString(p.front()));
            return {};
        }
        out.push_back(std::move(r));
    }
    if (out.empty())
        *problem = tr("Tick at least one attention kind");
    return out;
}

void CostView::run()
{
    if (m_running)
        return;
    QString problem;
    std::vector<CostRequest> rs = requests(&problem);
    if (rs.empty()) {
        m_status->setText(problem);
        return;
    }
    int total = 0;
    for (const CostRequest& r : rs)
        total += static_cast<int>(r.lengths.size()) * r.repeats;
    m_state = std::make_shared<Progress>();
    m_state->total = total;
    m_cancelled = false;
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    setRunning(true);
    m_status->setText(tr("Measuring\u2026 the plots follow when every kind is done."));
    // The worker keeps the counters alive through its own pointer, whatever happens to this view.
    const std::shared_ptr<Progress> state = m_state;
    m_watcher.setFuture(QtConcurrent::run([rs = std::move(rs), state] {
        return measureAll(rs, state, &state->done, &state->cancel);
    }));
    m_poll->start();
}

void CostView::cancel()
{
    if (!m_running || !m_state)
        return;
    m_state->cancel = true;
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling after the run in progress\u2026"));
}

bool CostView::prepareForSlide(int timeoutMs)
{
    refresh(); // asks for the convergence of the current trace
    if (m_results.empty() && !m_running) {
        for (const auto& [kind, box] : m_kinds)
            box->setChecked(true);
        m_lengths->setText(QStringLiteral("128, 256, 512, 1024"));
        m_repeats->setValue(1);
        run();
    }
    // The watchers report through the event loop, so run one until both are done.
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    const auto quitWhenDone = [&] {
        if (!m_running && !isComputingConvergence())
            loop.quit();
    };
    connect(this, &CostView::runFinished, &loop, quitWhenDone);
    connect(this, &CostView::convergenceFinished, &loop, quitWhenDone);
    if (m_running || isComputingConvergence())
        loop.exec();
    return !m_running && !isComputingConvergence();
}

void CostView::showProgress()
{
    if (m_state)
        m_progress->setValue(m_state->done.load());
}

void CostView::finishRun()
{
    m_poll->stop();
    m_results = m_watcher.result();
    m_cancelled = m_state && m_state->cancel.load();
    showProgress();
    setRunning(false);
    drawCost();
    emit runFinished();
}

void CostView::setRunning(bool running)
{
    m_running = running;
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    for (const auto& [kind, box] : m_kinds)
        box->setEnabled(!running);
    for (QWidget* w : {static_cast<QWidget*>(m_lengths), static_cast<QWidget*>(m_dModel), static_cast<QWidget*>(m_heads),
                       static_cast<QWidget*>(m_repeats)})
        w->setEnabled(!running);
}

void CostView::drawCost()
{
    std::vector<Curve> time, memory;
    QStringList notes, slopes;
    bool measured = false;
    for (const KindCost& c : m_results) {
        const QString name = shortKindName(c.kind);
        if (!c.error.isEmpty()) {
            notes << QStringLiteral("%1: %2").arg(name, c.error);
            continue;
        }
        Curve t{name, seriesColor(kindIndex(c.kind)), {}, {}};
        slopes << QStringLiteral("%1 %2").arg(name, fixedNumber(c.result.slope, 2));
        Curve m{name, t.color, {}, {}};
        for (const CostPoint& p : c.result.points) {
            t.x.push_back(p.n);
            t.y.push_back(std::max(p.medianSeconds, 1e-9));
            if (p.peakBytes > 0) {
                m.x.push_back(p.n);
                m.y.push_back(static_cast<double>(p.peakBytes) / 1e6);
            }
        }
        measured = measured || c.result.memoryMeasured;
        time.push_back(std::move(t));
        memory.push_back(std::move(m));
    }
    const std::vector<Guide> guides{{tr("O(n)"), 1}, {tr("O(n\u00B2)"), 2}};
    drawLogLog(m_timePlot, time, guides, tr("Time of the attention alone"), tr("n (tokens)"), tr("median time (s)"));
    drawLogLog(m_memoryPlot, memory, guides, tr("Peak extra memory"), tr("n (tokens)"), tr("MB"));
    if (m_running)
        return;
    if (m_results.empty()) {
        m_status->setText(tr("Tick kinds, give n, d_model and heads, and press Run: each kind is timed on this computer, "
                             "Q, K and V given. Their options are the settings panel's."));
        return;
    }
    QString text = m_cancelled ? tr("Cancelled: the lengths measured so far are drawn, in the kinds' colours above.")
                               : tr("Measured on this computer; each kind in its colour above.");
    text = appendSentence(
        text, tr("Median of %n run(s) per n; on log\u2013log axes a cost \u221D n^p is a line of slope p.", nullptr, m_repeats->value()));
    if (!slopes.isEmpty())
        text = appendSentence(text, tr("Slopes of the time: %1.").arg(slopes.join(QStringLiteral(", "))));
    text = appendSentence(text, measured ? tr("Memory is the whole program's peak above its size before each run.")
                                         : tr("Peak memory could not be measured on this system."));
    if (!notes.isEmpty())
        text += QLatin1Char('\n') + notes.join(QLatin1Char('\n'));
    m_status->setText(text);
}

void CostView::refresh()
{
    // Performer's error against M on this sentence: computed again for each new trace.
    const std::shared_ptr<const Trace>& trace = session()->trace();
    if (!trace || trace == m_convergenceOf)
        return;
    m_convergenceOf = trace;
    // An older computation still running stops at its next M; its result is not wanted (the
    // watcher follows the new one only).
    if (m_convergenceCancel)
        *m_convergenceCancel = true;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_convergenceCancel = cancel;
    m_convergence.clear();
    m_convergenceError.clear();
    if (!trace->find("q", 0) || trace->config.mask == MaskKind::Custom) {
        m_convergenceError = trace->find("q", 0) ? tr("Performer takes no custom mask; choose no mask, the causal or the padding mask")
                                                 : tr("choose a step of an attention block");
        drawConvergence();
        return;
    }
    drawConvergence();
    m_convergenceWatcher.setFuture(QtConcurrent::run([trace, cancel] {
        // No exception leaves the thread: the reason is shown in the plot's title.
        ConvergenceResult r;
        try {
            r.points = performerConvergence(*trace, convergenceFeatures(), 4, [cancel] { return !cancel->load(); });
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    }));
}

void CostView::drawConvergence()
{
    Curve c{tr("Performer, mean error of the weights"), seriesColor(kindIndex(AttentionKind::Performer)), {}, {}};
    for (const ConvergencePoint& p : m_convergence) {
        if (p.meanError > 0) {
            c.x.push_back(p.features);
            c.y.push_back(p.meanError);
        }
    }
    QString title = tr("Performer on this sentence: error against full attention for M random features");
    if (!m_convergenceError.isEmpty())
        title = tr("Performer's error cannot be computed here: %1").arg(m_convergenceError);
    else if (c.x.empty())
        title = tr("Performer on this sentence: computing\u2026");
    drawLogLog(m_convergencePlot, {c}, {{tr("\u221D 1/\u221AM"), -0.5}}, title, tr("M (random features)"), tr("mean error (L1)"));
}

void CostView::retranslate()
{
    m_kindsLabel->setText(tr("Kinds:"));
    for (const auto& [kind, box] : m_kinds) {
        box->setText(shortKindName(kind));
        box->setToolTip(tr("Measure %1 (with the settings panel's options); its colour in the plots").arg(attentionKindName(kind)));
    }
    m_lengthsLabel->setText(tr("n:"));
    m_lengths->setToolTip(tr("The sequence lengths to time, separated by commas"));
    m_dModelLabel->setText(tr("d_model:"));
    m_dModel->setToolTip(tr("The width of Q, K and V (all heads together)"));
    m_headsLabel->setText(tr("Heads:"));
    m_heads->setToolTip(tr("Heads: d_model must be a multiple of them"));
    m_repeatsLabel->setText(tr("Runs:"));
    m_repeats->setToolTip(tr("Timed runs per n; the median is drawn"));
    m_run->setText(tr("Run"));
    m_run->setToolTip(tr("Time every kind ticked, in the background"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop after the run in progress; what is measured so far is drawn"));
    drawCost();
    drawConvergence();
}

void CostView::applyFonts()
{
    for (QCustomPlot* p : {m_timePlot, m_memoryPlot, m_convergencePlot})
        applyPlotFonts(p, font());
}

} // namespace attnlab
