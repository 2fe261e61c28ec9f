#pragma once
// What the model harnesses check about a model modelFromTensors accepted (model/model.h): it
// is valid, it is written and read back the same, and it runs on a short sentence.

#include "fuzz.h"

#include "io/safetensors.h"
#include "model/run.h"

#include <cstring>
#include <memory>
#include <stdexcept>

namespace attnlab::fuzz {

inline bool sameTensors(const TensorFile& a, const TensorFile& b)
{
    if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size())
        return false;
    for (const auto& [name, t] : a.tensors) {
        const auto it = b.tensors.find(name);
        if (it == b.tensors.end() || it->second.shape != t.shape || it->second.values.size() != t.values.size())
            return false;
        if (!t.values.empty() && std::memcmp(t.values.data(), it->second.values.data(), t.values.size() * sizeof(float)) != 0)
            return false;
    }
    return true;
}

inline void checkModel(const Seq2SeqModel& m)
{
    FUZZ_CHECK(m.spec.problems().empty());
    const Eigen::Index d = m.spec.dModel;
    FUZZ_CHECK(static_cast<int>(m.weights.encoder.size()) == m.spec.encoderLayers);
    FUZZ_CHECK(static_cast<int>(m.weights.decoder.size()) == m.spec.decoderLayers);
    if (!m.openVocabulary()) {
        FUZZ_CHECK(m.srcEmbedding.rows() == static_cast<Eigen::Index>(m.srcVocab.size()) && m.srcEmbedding.cols() == d);
        FUZZ_CHECK(m.tgtEmbedding.rows() == static_cast<Eigen::Index>(m.tgtVocab.size()) && m.tgtEmbedding.cols() == d);
        FUZZ_CHECK(m.generatorWeight.rows() == m.tgtEmbedding.rows() && m.generatorBias.size() == m.generatorWeight.rows());
    }

    // Written and read back: the same tensors and metadata.
    const TensorFile written = modelToTensors(m);
    const Seq2SeqModel again = modelFromTensors(parseSafetensors(serializeSafetensors(written)));
    FUZZ_CHECK(again.spec == m.spec);
    FUZZ_CHECK(sameTensors(modelToTensors(again), written));

    // A short source (and target): what the studio does right after opening the file. Greedy
    // generation is left out: it runs up to max_target_length passes.
    RunRequest r;
    r.text = "a b";
    r.config.model = ModelKind::File;
    adoptModelWidths(r.config, m);
    r.model = std::make_shared<const Seq2SeqModel>(m);
    if (m.spec.architecture == Architecture::EncoderDecoder)
        r.target = "a";
    auto compute = [&] { FUZZ_CHECK(run(r).trace != nullptr); };
    accepts<std::invalid_argument>(compute);
}

} // namespace attnlab::fuzz
