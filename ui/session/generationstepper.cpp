#include "session/generationstepper.h"

#include "pretrained/model_folder.h"
#include "session/gpt2stepper.h"
#include "session/messages.h"
#include "session/session.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace attnlab {

namespace {

QString decoded(const PretrainedModel& model, const std::vector<int>& ids)
{
    return QString::fromStdString(model.decode(ids));
}

} // namespace

GenerationStepper* GenerationStepper::of(Session* session)
{
    if (auto* existing = session->findChild<GenerationStepper*>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new GenerationStepper(session);
}

GenerationStepper::GenerationStepper(Session* session)
    : QObject(session)
    , m_session(session)
{
    // Edits of the sentence, another model, a loaded session: the tokens follow or start again.
    connect(session, &Session::inputChanged, this, &GenerationStepper::sync);
    connect(session, &Session::traceChanged, this, &GenerationStepper::sync);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &GenerationStepper::finishRun);
}

GenerationStepper::~GenerationStepper()
{
    m_cancel = true;
    m_watcher.waitForFinished();
}

const PretrainedModel* GenerationStepper::pretrained() const
{
    const auto& model = m_session->model();
    return model && model->pretrained ? model->pretrained.get() : nullptr;
}

bool GenerationStepper::isAvailable() const
{
    const PretrainedModel* p = pretrained();
    return p && p->predictsNextToken() && p->hasHead();
}

std::vector<int> GenerationStepper::generated() const
{
    return m_core && !m_running ? m_core->generated() : std::vector<int>{};
}

std::vector<float> GenerationStepper::probabilities() const
{
    return m_core && !m_running ? m_core->probabilities() : std::vector<float>{};
}

std::vector<int> GenerationStepper::ids() const
{
    return m_core && !m_running ? m_core->ids() : std::vector<int>{};
}

int GenerationStepper::cachedPositions() const
{
    return m_core && !m_running ? m_core->cachedPositions() : 0;
}

bool GenerationStepper::readsBackDifferently() const
{
    const auto& trace = m_session->fullTrace();
    return m_core && !m_running && !m_core->generated().empty() && trace && trace->tokenIds != m_core->ids();
}

int GenerationStepper::tokenLimit() const
{
    const PretrainedModel* p = pretrained();
    return p ? std::min(p->config().positions, m_session->config().maxTokens) : 0;
}

QString GenerationStepper::textWith(std::size_t count) const
{
    const std::vector<int>& g = m_core->generated();
    const std::vector<int> first(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(std::min(count, g.size())));
    return m_prompt + decoded(*m_core->model()->pretrained, first);
}

void GenerationStepper::reset()
{
    m_core.reset();
    m_prompt.clear();
    m_expected.clear();
    m_stopMessage.clear();
}

void GenerationStepper::sync()
{
    if (m_running) {
        // The user changed the input while GPT-2 writes: what it writes is dropped.
        if (m_session->sentence() != m_expected || m_session->model() != m_core->model()) {
            m_discard = true;
            m_cancel = true;
        }
        return;
    }
    if (!m_core || (m_session->model() == m_core->model() && m_session->sentence() == m_expected))
        return;
    // An edit that removed generated tokens from the end (Undo, for one) keeps the others.
    if (m_session->model() == m_core->model()) {
        for (std::size_t k = m_core->generated().size(); k-- > 0;) {
            if (textWith(k) == m_session->sentence()) {
                m_core->keep(k);
                m_expected = m_session->sentence();
                m_stopMessage.clear();
                emit changed();
                return;
            }
        }
    }
    reset();
    emit changed();
}

bool GenerationStepper::prepare(QString* why)
{
    sync();
    if (m_core)
        return true;
    const PretrainedModel* p = pretrained();
    const QString sentence = m_session->sentence();
    const PretrainedTokens tokens = pretrainedTokens(*p, sentence.toStdString(), std::nullopt, m_session->config().maxTokens);
    if (tokens.ids.empty()) {
        if (why)
            *why = tr("Type a prompt first: %1 writes on after the sentence's last token.").arg(familyTitle(p));
        return false;
    }
    m_core = std::make_unique<Gpt2Stepper>(m_session->model(), tokens.ids);
    m_prompt = sentence;
    m_expected = sentence;
    return true;
}

QString GenerationStepper::whyNoStep() const
{
    const PretrainedModel* p = pretrained();
    if (!isAvailable())
        return tr("Generation needs a decoder's model folder (%1) with its language-model head (File \u25B8 Open model\u2026).")
            .arg(decoderFamilyNames());
    if (m_core && m_session->sentence() == m_expected) {
        const std::vector<int>& g = m_core->generated();
        if (!g.empty() && p->config().eosTokenId && g.back() == *p->config().eosTokenId)
            return tr("%1 ended the text with %2. Back removes it; or edit the sentence.")
                .arg(familyTitle(p), QString::fromStdString(p->display(g.back())));
    }
    const int n = m_core && m_session->sentence() == m_expected
                      ? static_cast<int>(m_core->ids().size())
                      : static_cast<int>(pretrainedTokens(*p, m_session->sentence().toStdString(), std::nullopt,
                                                          m_session->config().maxTokens).ids.size());
    if (n >= tokenLimit()) {
        if (p->config().positions <= m_session->config().maxTokens)
            return tr("No position left: %2 reads at most %1 tokens, and the text has them all.")
                .arg(p->config().positions)
                .arg(familyTitle(p));
        return tr("The text has reached the studio's limit of %1 tokens (max_tokens).").arg(m_session->config().maxTokens);
    }
    return {};
}

bool GenerationStepper::start(int count, const SamplingOptions& options, QString* why)
{
    QString reason = m_running ? tr("%1 is still writing.").arg(familyTitle(pretrained())) : whyNoStep();
    if (reason.isEmpty() && !prepare(&reason) && reason.isEmpty())
        reason = tr("No step can be taken.");
    if (!reason.isEmpty()) {
        if (why)
            *why = reason;
        return false;
    }
    m_cancel = false;
    m_discard = false;
    m_running = true;
    m_stopMessage.clear();
    emit runningChanged(true);
    Gpt2Stepper* core = m_core.get();
    const int limit = tokenLimit();
    const std::optional<int> eos = pretrained()->config().eosTokenId;
    const std::shared_ptr<const Seq2SeqModel> model = core->model(); // its tokenizer decodes
    // Off the GUI thread: the cache and its model belong to the run until it ends (finishRun).
    m_watcher.setFuture(QtConcurrent::run([this, core, count, options, limit, eos, model] {
        Outcome out;
        try {
            for (int i = 0; i < count && !m_cancel; ++i) {
                if (static_cast<int>(core->prompt().size() + core->generated().size()) >= limit)
                    break;
                const int id = core->step(options);
                ++out.made;
                const std::vector<int> run(core->generated().end() - out.made, core->generated().end());
                QMetaObject::invokeMethod(
                    this, [this, done = out.made, count, text = decoded(*model->pretrained, run)] { emit progress(done, count, text); },
                    Qt::QueuedConnection);
                if (eos && id == *eos)
                    break;
            }
        } catch (const std::exception& e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
    return true;
}

void GenerationStepper::cancel()
{
    m_cancel = true;
}

void GenerationStepper::finishRun()
{
    const Outcome out = m_watcher.result();
    m_running = false;
    if (m_discard) {
        reset();
    } else {
        m_expected = textWith(m_core->generated().size());
        m_session->setSentence(m_expected);
        m_stopMessage = out.error.isEmpty() ? whyNoStep() : out.error;
    }
    emit changed();
    emit runningChanged(false);
}

bool GenerationStepper::back()
{
    sync();
    if (m_running || !m_core || m_core->generated().empty())
        return false;
    m_core->back();
    m_expected = textWith(m_core->generated().size());
    m_stopMessage.clear();
    m_session->setSentence(m_expected);
    emit changed();
    return true;
}

} // namespace attnlab
