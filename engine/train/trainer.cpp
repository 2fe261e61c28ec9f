#include "train/trainer.h"

#include "train/examples.h"
#include "train/messages.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <functional>

namespace attnlab::train {

std::optional<Preset> parsePreset(std::string_view name)
{
    if (name == "classroom")
        return Preset::Classroom;
    if (name == "standard")
        return Preset::Standard;
    return std::nullopt;
}

ModelSpec presetSpec(Preset preset)
{
    ModelSpec s;
    s.architecture = Architecture::EncoderDecoder;
    s.heads = 4;
    s.norm = NormPlacement::Post;
    s.activation = Activation::Relu;
    if (preset == Preset::Classroom) {
        s.encoderLayers = s.decoderLayers = 1;
        s.dModel = 32;
        s.dFF = 64;
    } else {
        s.encoderLayers = s.decoderLayers = 2;
        s.dModel = 64;
        s.dFF = 128;
    }
    return s;
}

double defaultRate(int dModel)
{
    return 0.024 / std::sqrt(static_cast<double>(std::max(dModel, 1)));
}

void TrainOptions::validate() const
{
    // The doubles as std::to_string writes them ("0.100000"), as these messages always have.
    if (steps < 1)
        throw Error(say(trainMessage("train_steps_min"), steps));
    if (steps > kMaxSteps)
        throw Error(say(trainMessage("train_steps_max"), steps, kMaxSteps));
    if (batch < 1 || batch > 4096)
        throw Error(say(trainMessage("train_batch"), batch));
    if (!(labelSmoothing >= 0 && labelSmoothing < 1))
        throw Error(say(trainMessage("train_label_smoothing"), std::to_string(labelSmoothing)));
    if (clipNorm && !(*clipNorm > 0 && std::isfinite(*clipNorm)))
        throw Error(say(trainMessage("train_clip_norm"), std::to_string(*clipNorm)));
    if (threads < 1 || threads > 64)
        throw Error(say(trainMessage("train_threads"), threads));
    schedule.validate();
}

namespace {

std::vector<Example> examplesOf(const Seq2SeqModel& model, const std::vector<Pair>& pairs)
{
    std::vector<Example> out;
    out.reserve(pairs.size());
    std::vector<Message> warnings; // tokens outside the vocabulary become <unk>, as in the studio
    for (const Pair& p : pairs)
        out.push_back(exampleOf(model, p.source, p.target, warnings));
    return out;
}

int tokenIndex(const std::vector<std::string>& vocab, const char* token)
{
    return static_cast<int>(std::find(vocab.begin(), vocab.end(), token) - vocab.begin());
}

} // namespace

Trainer::Trainer(Seq2SeqModel model, Task task, TrainOptions options)
    : m_model(std::move(model))
    , m_task(std::move(task))
    , m_options(options)
    , m_layout(layoutOf(m_model))
    , m_params(flatten<float>(m_model))
    , m_adam(m_layout.size)
    , m_random(mixSeed(options.seed))
{
    m_options.schedule.dModel = m_model.spec.dModel;
    m_options.validate();
    if (m_options.batchAll && m_task.generated())
        throw Error(say(trainMessage("train_batch_all_file")));
    m_grads.assign(static_cast<std::size_t>(m_options.threads), Vec<float>::Zero(m_layout.size));
    m_pool = std::make_unique<WorkerPool>(m_options.threads);
    if (m_options.batchAll)
        m_all = examplesOf(m_model, m_task.train);
    m_heldOutPairs = m_task.heldOut.empty() ? m_task.train : m_task.heldOut;
    if (m_heldOutPairs.empty())
        throw std::invalid_argument("the task has no pairs to evaluate");
    m_heldOut = examplesOf(m_model, m_heldOutPairs);
    // Positions for the longest sequence (a batch longer still binds its own: step()).
    m_maxLength = std::max({m_task.maxLength + 2, m_task.longestSource, m_task.longestTarget + 1, longestSequence(m_heldOut) + 1,
                            longestSequence(m_all), m_model.spec.maxTargetLength + 1});
}

std::vector<Example> Trainer::batch()
{
    if (m_options.batchAll)
        return m_all;
    std::vector<Pair> pairs;
    for (int i = 0; i < m_options.batch; ++i)
        pairs.push_back(m_task.sample(m_random));
    return examplesOf(m_model, pairs);
}

namespace {

/// "nan", "inf" or "-inf".
std::string nonFiniteText(double v)
{
    return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

} // namespace

Diverged::Diverged(const StepRecord& record, const std::string& what)
    : MessageError(messages::trainingDiverged(record.step, what,
                                              what == "loss" ? nonFiniteText(record.loss)
                                                             : what == "gradient" ? nonFiniteText(record.gradNorm) : std::string()))
    , m_record(record)
{
}

StepRecord Trainer::step()
{
    const std::vector<Example> examples = batch();
    const double n = static_cast<double>(labelTokens(examples, 0, examples.size()));
    const auto threads = std::min<std::size_t>(m_grads.size(), examples.size());
    const int maxLength = std::max(m_maxLength, longestSequence(examples));
    std::vector<double> losses(threads, 0.0);
    // Thread t takes examples [t·B/T, (t+1)·B/T): its own gradient buffer, summed in order below.
    const std::function<void(std::size_t)> work = [&](std::size_t t) {
        m_grads[t].setZero();
        if (t >= threads)
            return; // fewer examples than threads
        const std::size_t first = t * examples.size() / threads, last = (t + 1) * examples.size() / threads;
        const Network<float> net = bindNetwork(m_layout, m_model.spec, m_params.data(), m_grads[t].data(), maxLength);
        losses[t] = lossAndGradient(net, pack(examples, first, last), m_options.labelSmoothing, n, true);
    };
    m_pool->run(work);
    Vec<float>& grad = m_grads[0];
    double loss = losses[0];
    for (std::size_t t = 1; t < threads; ++t) {
        grad += m_grads[t];
        loss += losses[t];
    }
    StepRecord r;
    r.step = m_adam.steps() + 1;
    r.loss = loss / n;
    r.lr = m_options.schedule.at(r.step);
    r.gradNorm = clipGradient(grad, m_options.clipNorm);
    for (const Example& e : examples)
        r.tokens += e.source.size() + e.input.size();
    // A loss or gradient that is not finite would turn every weight into NaN: stop here, with
    // the parameters of the step before.
    if (!std::isfinite(r.loss))
        throw Diverged(r, "loss");
    if (!std::isfinite(r.gradNorm))
        throw Diverged(r, "gradient");
    m_before = m_params;
    m_adam.step(m_params, grad, r.lr);
    if (!m_params.allFinite()) {
        m_params.swap(m_before);
        throw Diverged(r, "weights");
    }
    return r;
}

Evaluation Trainer::evaluate(std::size_t limit, const std::function<void(const EvaluationProgress&)>& progress) const
{
    // The sample: every pair, or `limit` of them evenly spaced (a file's lines may be sorted).
    std::vector<std::size_t> sample;
    const std::size_t all = m_heldOut.size();
    const std::size_t count = limit ? std::min(limit, all) : all;
    for (std::size_t i = 0; i < count; ++i)
        sample.push_back(count == all ? i : i * all / count);
    Evaluation e;
    e.pairs = count;
    e.of = all;
    if (count == 0)
        return e;
    Vec<float> unused = Vec<float>::Zero(m_layout.size);
    const int sos = tokenIndex(m_model.tgtVocab, "<sos>"), eos = tokenIndex(m_model.tgtVocab, "<eos>");
    double loss = 0, labels = 0;
    std::size_t exact = 0;
    for (std::size_t first = 0; first < count; first += kEvaluationChunk) {
        std::vector<Example> chunk;
        for (std::size_t i = first; i < std::min(count, first + kEvaluationChunk); ++i)
            chunk.push_back(m_heldOut[sample[i]]);
        const Network<float> net = bindNetwork(m_layout, m_model.spec, m_params.data(), unused.data(),
                                               std::max(m_maxLength, longestSequence(chunk) + 1));
        // The loss over all label tokens of the sample: each chunk's sum (N = 1).
        const double n = static_cast<double>(labelTokens(chunk, 0, chunk.size()));
        loss += lossAndGradient(net, pack(chunk, 0, chunk.size()), 0.0, 1.0, false);
        labels += n;
        // Greedy decoding as far as the longest target + <eos>: beyond, no output can match.
        int steps = 1;
        std::vector<std::vector<int>> sources;
        for (const Example& x : chunk) {
            sources.push_back(x.source);
            steps = std::max(steps, static_cast<int>(x.labels.size()));
        }
        steps = std::min(steps, m_maxLength - 1);
        EvaluationProgress at{first, count, 0, steps};
        if (progress)
            progress(at);
        const auto outputs = greedyDecode(net, sources, sos, eos, steps, [&](int step) {
            at.step = step;
            if (progress)
                progress(at);
        });
        for (std::size_t i = 0; i < chunk.size(); ++i) {
            // The target is the labels without their final <eos>.
            const std::vector<int>& target = chunk[i].labels;
            if (std::equal(outputs[i].begin(), outputs[i].end(), target.begin(), target.end() - 1) && outputs[i].size() + 1 == target.size())
                ++exact;
        }
    }
    e.loss = loss / labels;
    e.exactMatch = static_cast<double>(exact) / static_cast<double>(count);
    if (progress)
        progress({count, count, 0, 0});
    return e;
}

Seq2SeqModel Trainer::model() const
{
    Seq2SeqModel m = m_model;
    unflatten(m_params, m);
    return m;
}

Pair Trainer::probe() const
{
    // A pair long enough to show a pattern, short enough to read: the first of 6 to 9 tokens.
    for (std::size_t i = 0; i < m_heldOut.size(); ++i) {
        const std::size_t n = m_heldOut[i].source.size();
        if (n >= 6 && n <= 9)
            return m_heldOutPairs[i];
    }
    return m_heldOutPairs.front();
}

} // namespace attnlab::train
