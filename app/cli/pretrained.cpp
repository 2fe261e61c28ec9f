// The commands of pretrained models (docs/pretrained-models.md): generate with GPT-2 (greedy or
// sampled, a key/value cache) and fill-mask with BERT.

#include "options.h"
#include "outputs.h"

#include "families/family.h"
#include "io/fileio.h"
#include "io/trace_json.h"
#include "model/open.h"
#include "pretrained/generate.h"
#include "pretrained/model_folder.h"
#include "text/printable.h"
#include "text/wordpiece.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace attnlab::cli {

namespace {

/// The family whose head does `task` (the first of the table): what the command's messages name.
const ModelFamily& familyFor(FamilyTask task)
{
    for (const ModelFamily* f : modelFamilies()) {
        if (f->task == task)
            return *f;
    }
    throw std::logic_error("no family does the task");
}

/// The folder model --model names; `task` is what the command needs its head to do.
std::shared_ptr<const Seq2SeqModel> openFolder(const std::optional<std::string>& path, FamilyTask task, const char* command)
{
    const bool next = task == FamilyTask::NextToken;
    const std::string which = "a " + std::string(familyFor(task).title);
    if (!path)
        throw UsageError(std::string(command) + " needs --model DIR, " + which + " model folder");
    // The shipped model's name (unless a file or folder has it): an encoder–decoder, not a folder.
    if (*path == "reversal" && !std::filesystem::exists(*path))
        throw UsageError(std::string(command) + " needs " + which + " model folder (config.json, model.safetensors and the "
                         "tokenizer's files); 'reversal' is the shipped encoder–decoder, which "
                         + (next ? "reverses a --source: generate --model reversal --source TEXT" : "reverses text and predicts no [MASK]"));
    // A model that cannot be opened is bad input (exit 2), as for trace and export; running out
    // of memory is not.
    std::shared_ptr<const Seq2SeqModel> m;
    try {
        m = std::make_shared<const Seq2SeqModel>(openModel(*path));
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        throw UsageError(e.what());
    }
    if (!m->pretrained || modelFamily(m->pretrained->family()).task != task)
        throw UsageError(std::string(command) + " needs " + which + " model folder; " + inQuotes(*path) + " is not one");
    if (!m->hasHead())
        throw UsageError(inQuotes(*path) + " has no " + (next ? "language-model" : "masked-LM")
                         + " head (its checkpoint is the bare model)");
    return m;
}

std::string jsonString(const std::string& s)
{
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The trace of GPT-2 on `ids` (one full pass), as the studio shows it.
std::string traceOf(const std::shared_ptr<const Seq2SeqModel>& m, const std::vector<int>& ids)
{
    const PretrainedModel& p = *m->pretrained;
    PretrainedTokens t;
    t.ids = ids;
    for (const int id : ids) {
        t.tokens.push_back(p.token(id));
        t.labels.push_back(p.display(id));
    }
    Config c;
    adoptModel(c, *m);
    c.model = ModelKind::File;
    return traceToJson(computePretrainedTrace(m, t, c)) + "\n";
}

} // namespace

int runPretrainedGenerate(const std::vector<std::string>& args)
{
    std::optional<std::string> path, prompt, outputDir;
    int maxNew = 0;
    bool json = false;
    SamplingOptions sampling;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--model")
            path = value();
        else if (a == "--prompt")
            prompt = value();
        else if (a == "--max-new-tokens")
            maxNew = parseIntOption(a, value());
        else if (a == "--temperature")
            sampling.temperature = parseFloatOption(a, value());
        else if (a == "--top-k")
            sampling.topK = parseIntOption(a, value());
        else if (a == "--top-p")
            sampling.topP = parseFloatOption(a, value());
        else if (a == "--seed")
            sampling.seed = parseSeedOption(a, value());
        else if (a == "--output-dir")
            outputDir = value();
        else if (a == "--json")
            json = true;
        else
            return false;
        return true;
    });
    if (!prompt)
        throw UsageError("generate with GPT-2 needs --prompt TEXT");
    if (maxNew < 1 || maxNew > kMaxTargetLength)
        throw UsageError("--max-new-tokens must be a whole number between 1 and " + std::to_string(kMaxTargetLength));
    if (!sampling.temperature && (sampling.topK != 0 || sampling.topP != 1.0f))
        throw UsageError("--top-k and --top-p choose how to sample: give --temperature T too (without it generation is greedy)");
    if (outputDir)
        checkFolderWritable(*outputDir); // before the model is read: a bad folder is one line at once
    const auto m = openFolder(path, FamilyTask::NextToken, "generate");
    const PretrainedModel& p = *m->pretrained;
    const PretrainedTokens t = pretrainedTokens(p, *prompt, std::nullopt, ConfigLimits::maxTokens);
    for (const auto& w : t.warnings)
        std::cerr << "attention-lab-cli: warning: " << printable(w.text) << '\n';
    const GeneratedTokens g = generateTokens(p.weights, t.ids, maxNew, sampling);
    if (json) {
        nlohmann::json j;
        j["prompt_ids"] = t.ids;
        j["generated_ids"] = g.ids;
        std::vector<std::string> tokens;
        for (const int id : g.ids)
            tokens.push_back(p.token(id));
        j["tokens"] = tokens;
        j["probabilities"] = g.probabilities;
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        for (std::size_t i = 0; i < g.ids.size(); ++i) {
            char prob[32];
            std::snprintf(prob, sizeof prob, "%.6g", static_cast<double>(g.probabilities[i]));
            std::cout << jsonString(p.decode({g.ids[i]})) << '\t' << prob << '\n';
        }
    }
    std::cout << std::flush;
    if (outputDir) {
        // step-01.json: the pass on the prompt that chose the first token; each next step adds one.
        // Into a hidden folder beside the one asked for, moved there at the end (as generate's
        // steps with a trained model): a failure or a signal leaves nothing half written.
        const InterruptScope interrupts;
        StagedFolder staged(*outputDir);
        std::vector<int> ids = t.ids;
        for (std::size_t k = 0; k < g.ids.size() && !interrupted(); ++k) {
            char name[32];
            std::snprintf(name, sizeof name, "step-%02d.json", static_cast<int>(k + 1));
            writeFileAtomically((std::filesystem::path(staged.staging()) / name).string(), traceOf(m, ids));
            ids.push_back(g.ids[k]);
        }
        if (interrupted())
            return 1; // the staged folder goes; main() ends the process by the signal
        staged.commit();
    }
    return 0;
}

int runFillMask(const std::vector<std::string>& args)
{
    std::optional<std::string> path, sentence, segmentB;
    int topK = 10;
    bool json = false;
    readOptions(args, [&](const std::string& a, const std::function<const std::string&()>& value) {
        if (a == "--model")
            path = value();
        else if (a == "--sentence")
            sentence = value();
        else if (a == "--segment-b")
            segmentB = value();
        else if (a == "--top-k")
            topK = parseIntOption(a, value());
        else if (a == "--json")
            json = true;
        else
            return false;
        return true;
    });
    if (!sentence)
        throw UsageError("fill-mask needs --sentence TEXT with at least one [MASK]");
    if (topK < 1 || topK > 1000)
        throw UsageError("--top-k must be a whole number between 1 and 1000");
    const auto m = openFolder(path, FamilyTask::FillMask, "fill-mask");
    const PretrainedModel& p = *m->pretrained;
    RunRequest r;
    r.text = *sentence;
    r.segmentB = segmentB;
    r.model = m;
    adoptModel(r.config, *m);
    r.config.model = ModelKind::File;
    const RunResult result = run(r);
    for (const auto& w : result.trace->warnings)
        std::cerr << "attention-lab-cli: warning: " << printable(w.text) << '\n';
    const std::optional<int> mask = p.wordPiece->id("[MASK]");
    const Eigen::MatrixXf& probabilities = result.trace->find("probabilities")->main().values;
    nlohmann::json masks = nlohmann::json::array();
    for (std::size_t i = 0; i < result.trace->tokenIds.size(); ++i) {
        if (!mask || result.trace->tokenIds[i] != *mask)
            continue;
        nlohmann::json candidates = nlohmann::json::array();
        for (const auto& [id, prob] : topProbabilities(probabilities.row(static_cast<Eigen::Index>(i)), topK))
            candidates.push_back({{"token", id < p.wordPiece->size() ? p.wordPiece->token(id) : ""}, {"id", id}, {"probability", prob}});
        masks.push_back({{"position", i}, {"candidates", std::move(candidates)}});
    }
    if (masks.empty())
        throw UsageError("the sentence has no [MASK] token");
    if (json) {
        std::cout << nlohmann::json{{"masks", masks}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        return 0;
    }
    for (const auto& mk : masks) {
        std::cout << "[MASK] at position " << mk["position"].get<int>() << ":\n";
        for (const auto& c : mk["candidates"]) {
            char prob[32];
            std::snprintf(prob, sizeof prob, "%.4f", c["probability"].get<double>());
            std::cout << "  " << prob << "  " << printable(c["token"].get<std::string>()) << '\n';
        }
    }
    return 0;
}

} // namespace attnlab::cli
