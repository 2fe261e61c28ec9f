#include "model/open.h"

#include "io/fileio.h"
#include "pretrained/model_folder.h"
#include "text/printable.h"

namespace attnlab {

ModelOrigin originOf(const Seq2SeqModel& m)
{
    if (m.pretrained)
        return ModelOrigin::Pretrained;
    if (m.source.starts_with("state-dict"))
        return ModelOrigin::StateDict;
    return ModelOrigin::AttentionLab;
}

bool isBareStateDict(const std::string& path)
{
    if (isModelFolder(path))
        return false;
    try {
        return !parseSafetensorsLayout(readFile(path, 1ULL << 30)).metadata.contains("format");
    } catch (const std::exception&) {
        return false; // openModel says what is wrong
    }
}

Seq2SeqModel openModel(const std::string& path, const std::optional<StateDictOptions>& stateDict)
{
    if (isModelFolder(path))
        return loadModelFolder(path);
    TensorFile file;
    try {
        file = parseSafetensors(readFile(path, 1ULL << 30));
    } catch (const FormatError& e) {
        throw FormatError(inQuotes(path) + ": " + e.what());
    } catch (const std::runtime_error& e) {
        throw FormatError(e.what());
    }
    try {
        Seq2SeqModel m;
        if (isAttentionLabModel(file)) {
            m = modelFromTensors(file);
            m.source = "file:" + path;
        } else {
            if (!stateDict || stateDict->heads < 1)
                throw FormatError("not an Attention Lab model (its metadata has no 'format'): to read it as a PyTorch state dict "
                                  "of nn.Transformer's modules, give its number of heads (--heads H; and --norm, --activation, "
                                  "--layer-norm-eps when they are not PyTorch's defaults)");
            m = modelFromStateDict(file, *stateDict);
            m.source = "state-dict:" + path;
        }
        m.weights.source = "file:" + path;
        return m;
    } catch (const FormatError& e) {
        throw FormatError(inQuotes(path) + ": " + e.what());
    }
}

} // namespace attnlab
