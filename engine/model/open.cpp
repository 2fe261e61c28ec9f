#include "model/open.h"

#include "io/fileio.h"
#include "io/messages.h"
#include "model/messages.h"
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
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(path)));
    } catch (const std::runtime_error& e) {
        throw FormatError(messageOf(e));
    }
    try {
        Seq2SeqModel m;
        if (isAttentionLabModel(file)) {
            m = modelFromTensors(file);
            m.source = "file:" + path;
        } else {
            if (!stateDict || stateDict->heads < 1)
                throw FormatError(say(modelMessage("no_format_no_heads")));
            m = modelFromStateDict(file, *stateDict);
            m.source = "state-dict:" + path;
        }
        m.weights.source = "file:" + path;
        return m;
    } catch (const FormatError& e) {
        throw FormatError(sayAbout(ioMessage("in_file"), e.message(), printable(path)));
    }
}

} // namespace attnlab
