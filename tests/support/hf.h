#pragma once
// The tiny Hugging Face folders of scripts/gen_hf_reference.py (tests/reference/hf/), opened
// the engine's way, shared by the pretrained-model tests.

#include "io/fileio.h"
#include "io/mapped_safetensors.h"
#include "pretrained/hf_config.h"
#include "pretrained/weights.h"

#include "core/trace.h"
#include "support/reference.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab::testing {

inline std::string hfDir()
{
    return ATTNLAB_TEST_DATA "/hf";
}

/// A folder's config and memory-mapped weights (no tokenizer).
inline PretrainedWeights openWeights(const std::string& folder)
{
    const HfConfig config = parseHfConfig(readFile(folder + "/config.json", 1 << 20));
    return readPretrainedWeights(config, MappedSafetensors::open(folder + "/model.safetensors"));
}

/// The largest |value| of a matrix's finite cells (1 when there are none or all are 0): what a
/// golden's tolerance is relative to.
inline float finiteScale(const Eigen::MatrixXf& m)
{
    float s = 0;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        if (std::isfinite(m.data()[i]))
            s = std::max(s, std::abs(m.data()[i]));
    }
    return s > 0 ? s : 1.0f;
}

/// A golden matrix, or a 1-D array of one value per token as an n x 1 matrix.
inline Eigen::MatrixXf goldenValues(const nlohmann::json& v)
{
    if (!v.empty() && !v[0].is_array()) {
        Eigen::MatrixXf m(static_cast<Eigen::Index>(v.size()), 1);
        for (std::size_t i = 0; i < v.size(); ++i)
            m(static_cast<Eigen::Index>(i), 0) = jsonFloat(v[i]);
        return m;
    }
    return jsonMatrix(v);
}

/// The stage's matrix called `name`, or nullptr.
inline const LabeledMatrix* stageMatrix(const Stage& s, const std::string& name)
{
    for (const auto& m : s.matrices) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

} // namespace attnlab::testing
